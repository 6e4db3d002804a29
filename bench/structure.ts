/**
 * How an app's source is layered, drawn from its imports: its modules grouped by their folder
 * under src/ (files directly in src/ are the folder `.`), and an arrow from one folder to another
 * where a module of the first imports one of the second. Folders that import each other, directly
 * or round a longer cycle, cannot be put one above the other: they count as one floor. Then
 *
 * - floors: how many floors the longest chain of arrows passes through, the folders of a cycle
 *   counting once (the longest path, in folders, of the graph with each cycle drawn as one node);
 * - upward arrows: the pairs of folders joined by an arrow inside such a cycle, a pair importing
 *   each other counted once; in a layered tree, where arrows only point down, there are none.
 *
 * `node dist/bench/bench/structure.js [root] [app]` prints both for `root` (this tree by default)
 * and `app` (applications).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

export interface Structure {
  folders: string[];
  floors: number;
  upwardArrows: number;
}

/** The arrows between folders (each once, none from a folder to itself) of imports `from -> to`, paths under `src`. */
export function folderArrows(imports: Array<[string, string]>, src: string): Array<[string, string]> {
  const folderOf = (path: string) => posix.dirname(posix.relative(src, path));
  const arrows = new Map<string, [string, string]>();
  for (const [from, to] of imports) {
    const pair: [string, string] = [folderOf(from), folderOf(to)];
    if (pair[0] !== pair[1]) arrows.set(pair.join('\0'), pair);
  }
  return [...arrows.values()];
}

/** Floors and upward arrows (see above) of the folder graph `arrows` over `folders`. */
export function layering(folders: string[], arrows: Array<[string, string]>): Structure {
  const all = [...new Set([...folders, ...arrows.flat()])].sort();
  const out = new Map(all.map((folder) => [folder, [] as string[]]));
  for (const [from, to] of arrows) out.get(from)!.push(to);
  const component = stronglyConnected(all, out);
  const insideCycles = new Set(
    arrows.filter(([from, to]) => component.get(from) === component.get(to)).map((pair) => [...pair].sort().join('\0')),
  );
  // Longest path over the components, each counting one floor: memoized depth-first (a DAG).
  const componentArrows = new Map<number, Set<number>>();
  for (const [from, to] of arrows) {
    const [a, b] = [component.get(from)!, component.get(to)!];
    if (a === b) continue;
    if (!componentArrows.has(a)) componentArrows.set(a, new Set());
    componentArrows.get(a)!.add(b);
  }
  const depth = new Map<number, number>();
  const floorsBelow = (c: number): number => {
    if (!depth.has(c)) depth.set(c, 1 + Math.max(0, ...[...(componentArrows.get(c) ?? [])].map(floorsBelow)));
    return depth.get(c)!;
  };
  const floors = Math.max(0, ...[...new Set(component.values())].map(floorsBelow));
  return { folders: all, floors, upwardArrows: insideCycles.size };
}

/** Tarjan's strongly connected components: the component number of each node. */
function stronglyConnected(nodes: string[], out: Map<string, string[]>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const component = new Map<string, number>();
  const stack: string[] = [];
  let next = 0;
  let components = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const to of out.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (!component.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      let member: string;
      do {
        member = stack.pop()!;
        component.set(member, components);
      } while (member !== node);
      components++;
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return component;
}

interface Cruised {
  modules: Array<{ source: string; dependencies: Array<{ resolved: string }> }>;
}

/**
 * The layering of `root`'s apps/<app>/src, specs left out, from dependency-cruiser's reading of
 * its imports (type-only imports included: they point the same way as any other); null when
 * `root` has no such folder.
 */
export function measureStructure(root: string, app = 'applications'): Structure | null {
  const src = `apps/${app}/src`;
  if (!existsSync(join(root, src))) return null;
  const json = execFileSync(
    findBin('depcruise'),
    [
      src,
      '--no-config',
      '--output-type',
      'json',
      '--ts-pre-compilation-deps',
      '--include-only',
      `^${src}/`,
      '--exclude',
      '\\.spec\\.ts$',
    ],
    { cwd: root, maxBuffer: 64 << 20, encoding: 'utf8' },
  );
  const { modules } = JSON.parse(json) as Cruised;
  const imports = modules.flatMap(({ source, dependencies }) =>
    dependencies
      .filter(({ resolved }) => resolved.startsWith(`${src}/`))
      .map(({ resolved }): [string, string] => [source, resolved]),
  );
  return layering(
    modules.map(({ source }) => posix.dirname(posix.relative(src, source))),
    folderArrows(imports, src),
  );
}

function findBin(name: string): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'node_modules', '.bin', name))) {
    if (dirname(dir) === dir) throw new Error(`${name} is not installed`);
    dir = dirname(dir);
  }
  return join(dir, 'node_modules', '.bin', name);
}

if (require.main === module) {
  const [root = process.cwd(), app = 'applications'] = process.argv.slice(2);
  const structure = measureStructure(root, app);
  if (!structure) throw new Error(`${root} has no apps/${app}/src`);
  process.stdout.write(`${JSON.stringify(structure, null, 2)}\n`);
}
