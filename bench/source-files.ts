/**
 * Source files over the length a reader takes in at once: the tracked files of a tree in its
 * languages (TypeScript, JavaScript, shell), unit and end-to-end specs and generated code left out.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const LONG_FILE_LINES = 400;

const SOURCE = /\.(ts|js|mjs|cjs|sh)$/;
const SPEC = /\.(spec|e2e-spec)\.ts$/;
/** Generated code sits in a `generated` folder or says so in its first lines. */
const GENERATED_PATH = /(^|\/)generated\//;
const GENERATED_MARK = /@generated|do not edit/i;

/** Whether `path`, with `text`, is source written by hand and not a spec. */
export function isHandWrittenSource(path: string, text: string): boolean {
  if (!SOURCE.test(path) || SPEC.test(path) || GENERATED_PATH.test(path)) return false;
  return !GENERATED_MARK.test(text.split('\n', 5).join('\n'));
}

/** Lines of `text`, a last line without its newline counted too (as `wc -l` would not). */
export const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** The hand-written source files git tracks in `root` that are over `limit` lines, longest first. */
export function longSourceFiles(root: string, limit = LONG_FILE_LINES): Array<{ path: string; lines: number }> {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter((path) => SOURCE.test(path));
  return tracked
    .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }))
    .filter(({ path, text }) => isHandWrittenSource(path, text))
    .map(({ path, text }) => ({ path, lines: lineCount(text) }))
    .filter(({ lines }) => lines > limit)
    .sort((a, b) => b.lines - a.lines);
}
