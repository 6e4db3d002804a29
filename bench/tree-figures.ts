/**
 * What `--targets` counts of a tree rather than times: a create's and a form step's messages and
 * database commands (counted.ts), on a stack of the tree's own with the form, and how its source
 * reads (structure.ts, source-files.ts).
 */
import { resolve } from 'node:path';
import { Counts, countPerRequest } from './counted';
import { BenchOptions } from './options';
import { TreeFigures } from './report';
import { progress } from './runs';
import { longSourceFiles } from './source-files';
import { measureStructure } from './structure';
import { startTarget } from './target';

/** The root of this tree: the bench runs from dist/bench/bench. */
export const THIS_TREE = resolve(__dirname, '../../..');

/** The figures of the tree at `root` (this one when undefined), run on `node` when given. */
export async function measureTree(
  options: BenchOptions,
  profileDir: string | null,
  root?: string,
  node?: string,
): Promise<TreeFigures> {
  progress(`counting messages and database commands of ${root ?? 'this tree'}, on a stack of its own`);
  const target = await startTarget(profileDir, options.nodeArgs, true, { form: true, root, node });
  let counts: Counts;
  try {
    counts = await countPerRequest(target);
  } finally {
    await target.stop();
  }
  const tree = root ?? THIS_TREE;
  return { ...counts, structure: measureStructure(tree), longSourceFiles: longSourceFiles(tree).length };
}
