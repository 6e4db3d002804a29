import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * No source file is over MAX_LINES lines: a longer one holds more than one thing, and whoever
 * opens it cannot find what they came for. Specs, one case after another, and the client's
 * generated types are left out. Only files git tracks are counted, so build output and scratch
 * files never fail it.
 */
const ROOT = join(__dirname, '..');
const MAX_LINES = 400;
const SOURCE_FOLDERS = ['apps', 'libs', 'tools', 'scripts', 'bench', 'test', 'packages'];
const SOURCE = /\.(ts|js|mjs|cjs)$/;
const LEFT_OUT = [/\.spec\.ts$/, /\.e2e-spec\.ts$/, /^packages\/client\/src\/generated\//];

function sourceFiles(): string[] {
  const tracked = execFileSync('git', ['ls-files', '-z', '--', ...SOURCE_FOLDERS], { cwd: ROOT, encoding: 'utf8' });
  return tracked
    .split('\0')
    .filter((file) => SOURCE.test(file) && !LEFT_OUT.some((pattern) => pattern.test(file)))
    .filter((file) => existsSync(join(ROOT, file))); // tracked, but deleted in the working tree
}

/** Lines as an editor numbers them: a last line without its newline counts too. */
function lineCount(text: string): number {
  const newlines = text.split('\n').length - 1;
  return text === '' || text.endsWith('\n') ? newlines : newlines + 1;
}

describe('source files', () => {
  it(`are at most ${MAX_LINES} lines each`, () => {
    const files = sourceFiles();
    // Nothing listed would pass whatever the files hold: git must have found the sources.
    expect(files).toContain('tools/stack.ts');
    const tooLong = files
      .map((file) => ({ file, lines: lineCount(readFileSync(join(ROOT, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(tooLong).toEqual([]);
  });
});
