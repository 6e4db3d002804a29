import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..');
const CONFIG = join(ROOT, '.dependency-cruiser.js');
// dependency-cruiser is an ES module, which jest's CommonJS runtime cannot load: it runs as `npm run lint` runs it,
// through the `depcruise` its package names (the file behind it has moved between releases).
const DEPCRUISER_DIR = join(ROOT, 'node_modules/dependency-cruiser');
const DEPCRUISE = join(DEPCRUISER_DIR, JSON.parse(readFileSync(join(DEPCRUISER_DIR, 'package.json'), 'utf8')).bin.depcruise);

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Each violation as `rule: from -> to`, from cruising `folders` of `cwd` with the repository's rules. */
function violations(cwd: string, folders: string[]): string[] {
  const run = spawnSync(process.execPath, [DEPCRUISE, ...folders, '--config', CONFIG, '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (!run.stdout) throw new Error(`depcruise gave no result (status ${run.status}): ${run.stderr}`);
  const { summary } = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  return summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`).sort();
}

/**
 * A throwaway repository: the real tsconfig.json (so `@app/<lib>` resolves as in the code) and,
 * for each rule, one import that breaks it and one beside it that does not.
 */
const FILES: Record<string, string> = {
  'apps/a/src/main.ts':
    "import { b } from '../../b/src/b';\nimport { own } from './own';\nimport { c } from '@app/contracts';\nexport const a = [b, own, c];",
  'apps/a/src/own.ts': 'export const own = 1;',
  'apps/a/src/main.spec.ts':
    "import { helper } from '@app/config/helper.testing';\nimport { a } from './main';\nexport const spec = [helper, a];",
  'apps/b/src/b.ts': 'export const b = 1;',
  'apps/c/src/domain/rules.ts': "import { kept } from '../store/kept';\nexport const rules = kept;",
  'apps/c/src/store/kept.ts': "import { kinds } from '../domain/kinds';\nexport const kept = kinds;",
  'apps/c/src/domain/kinds.ts': 'export const kinds = 1;',
  'apps/c/src/use-cases/apply.ts': "import { kept } from '../store/kept';\nexport const apply = kept;",
  'apps/c/src/transport/a.message.controller.ts':
    "import { apply } from '../use-cases/apply';\nimport { b } from './b.message.controller';\nexport const a = [apply, b];",
  'apps/c/src/transport/b.message.controller.ts': 'export const b = 1;',
  'libs/contracts/src/index.ts':
    "import { m } from '@app/messaging';\nimport { local } from './local';\nexport const c = [m, local];",
  'libs/contracts/src/local.ts': 'export const local = 1;',
  'libs/messaging/src/index.ts':
    "import { run } from '@app/runtime';\nimport { c } from '@app/contracts';\nexport const m = [run, c];",
  'libs/config/src/index.ts':
    "import { m } from '@app/messaging';\nimport { c } from '@app/contracts';\nexport const cfg = [m, c];",
  'libs/config/src/helper.testing.ts': 'export const helper = 1;',
  'libs/runtime/src/index.ts': "import { m } from '@app/messaging';\nexport const run = m;",
  'libs/x/src/index.ts': "import { y } from '../../../test/y';\nexport const x = y;",
  'libs/x/src/uses-app.ts': "import { own } from '../../../apps/a/src/own';\nexport const usesApp = own;",
  'libs/x/src/uses-tools.ts': "import { stack } from '../../../tools/stack';\nexport const usesTools = stack;",
  'libs/x/src/uses-bench.ts': "import { bench } from '../../../bench/run';\nexport const usesBench = bench;",
  'libs/x/src/uses-spec.ts': "import { spec } from '../../../apps/a/src/main.spec';\nexport const usesSpec = spec;",
  'libs/x/src/uses-testing.ts': "import { helper } from '@app/config/helper.testing';\nexport const usesTesting = helper;",
  'libs/x/src/ping.ts': "import { pong } from './pong';\nexport const ping = () => pong;",
  'libs/x/src/pong.ts': "import { ping } from './ping';\nexport const pong = () => ping;",
  'test/y.ts': 'export const y = 1;',
  'tools/stack.ts': "import { y } from '../test/y';\nexport const stack = y;",
  'bench/run.ts': "import { y } from '../test/y';\nimport { stack } from '../tools/stack';\nexport const bench = [y, stack];",
  'packages/client/src/index.ts':
    "import { c } from '../../../libs/contracts/src/index';\nimport { own } from './own';\nexport const client = [c, own];",
  'packages/client/src/own.ts': 'export const own = 1;',
};

describe('the dependency rules of .dependency-cruiser.js', () => {
  let tree: string;

  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
    copyFileSync(join(ROOT, 'tsconfig.json'), join(tree, 'tsconfig.json'));
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), `${text}\n`);
    }
  });

  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('fire on each forbidden import of a throwaway tree, and on nothing else', () => {
    expect(violations(tree, ['apps', 'libs', 'test', 'bench', 'tools', 'packages'])).toEqual(
      [
        'app-imports-another-app: apps/a/src/main.ts -> apps/b/src/b.ts',
        'lib-imports-an-app: libs/x/src/uses-app.ts -> apps/a/src/own.ts',
        'lib-imports-an-app: libs/x/src/uses-spec.ts -> apps/a/src/main.spec.ts',
        'contracts-imports-beyond-its-row: libs/contracts/src/index.ts -> libs/messaging/src/index.ts',
        'config-imports-beyond-its-row: libs/config/src/index.ts -> libs/messaging/src/index.ts',
        'messaging-imports-beyond-its-row: libs/messaging/src/index.ts -> libs/runtime/src/index.ts',
        'unlisted-library-imports-a-library: libs/x/src/uses-testing.ts -> libs/config/src/helper.testing.ts',
        'domain-imports-a-higher-layer: apps/c/src/domain/rules.ts -> apps/c/src/store/kept.ts',
        'controller-imports-a-controller: apps/c/src/transport/a.message.controller.ts -> apps/c/src/transport/b.message.controller.ts',
        'production-imports-test-code: libs/x/src/index.ts -> test/y.ts',
        'production-imports-test-code: libs/x/src/uses-tools.ts -> tools/stack.ts',
        'production-imports-test-code: libs/x/src/uses-bench.ts -> bench/run.ts',
        'production-imports-test-code: libs/x/src/uses-spec.ts -> apps/a/src/main.spec.ts',
        'production-imports-test-code: libs/x/src/uses-testing.ts -> libs/config/src/helper.testing.ts',
        'bench-imports-tests: bench/run.ts -> test/y.ts',
        'client-imports-the-repository: packages/client/src/index.ts -> libs/contracts/src/index.ts',
        // A cycle is reported once, at the import of it that is met first.
        'no-circular: libs/contracts/src/index.ts -> libs/messaging/src/index.ts',
        'no-circular: libs/messaging/src/index.ts -> libs/runtime/src/index.ts',
        'no-circular: libs/x/src/ping.ts -> libs/x/src/pong.ts',
      ].sort(),
    );
  });

  it('find nothing to refuse in the repository', () => {
    expect(violations(ROOT, ['apps', 'libs', 'test', 'bench', 'tools', 'scripts', 'packages'])).toEqual([]);
  });
});
