/**
 * The examples of the README and the guides (their `readme-examples` sections), read and run as a
 * reader would: the commands in order, in one shell, each call's status and answer recorded. The
 * e2e suite runs them against a fresh stack of processes, the container suite the README's against
 * the compose stack.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const README = join(ROOT, 'README.md');
export const SECTION = /<!-- readme-examples: start -->([\s\S]*?)<!-- readme-examples: end -->/g;
export const SH_BLOCK = /^```sh\n([\s\S]*?)^```$/gm;
/** A comment that opens an example: `# 201 Created: what it does`. */
const STATED_STATUS = /^# (\d{3}) ([^:]+):/gm;
export const MARKER = '@@readme-example';

/**
 * Wraps curl as a reader's terminal runs it (its answer on stdout, so `x=$(curl ...)` works) and
 * reports each call's exit code, status and answer (the status line and headers that the README's
 * `curl -i` prints, then the body) on stderr. Unset variables and failed commands
 * stop the script, so that a broken example cannot pass unnoticed.
 */
const PRELUDE = `
set -euo pipefail
curl() {
  local answer code=0
  answer=$(command curl -w '\\n%{http_code}' "$@") || code=$?
  local status=\${answer##*$'\\n'} body=\${answer%$'\\n'*}
  printf '%s\\n' "$body"
  printf '${MARKER} %s %s %s\\n' "$code" "$status" "$(printf '%s' "$body" | base64 -w0)" >&2
  return $code
}
`;

export interface Walkthrough {
  /** What the reader is told to export first, by name. */
  variables: Record<string, string>;
  /** The examples, in order, as one script. */
  script: string;
  /** The status each example states, in order, with its reason phrase. */
  stated: { status: number; reason: string }[];
}

/** The example blocks of a page (by path from the root), in order. */
export function examplesOf(page: string): string[] {
  return [...readFileSync(join(ROOT, page), 'utf8').matchAll(SECTION)].flatMap((section) =>
    [...section[1].matchAll(SH_BLOCK)].map((block) => block[1]),
  );
}

/** The examples of `pages`, in the order a reader runs them: the first block exports the variables. */
export function readWalkthrough(pages: string[] = ['README.md']): Walkthrough {
  const [setup, ...examples] = pages.flatMap(examplesOf);
  if (!setup) throw new Error('README.md has no readme-examples section');
  const exported = /^export ((?:\w+=\S+ ?)+)$/m.exec(setup ?? '');
  if (!exported) throw new Error(`the first block of the section does not export the variables: ${setup}`);
  const variables = Object.fromEntries(
    exported[1]
      .trim()
      .split(' ')
      .map((pair) => pair.split('=') as [string, string]),
  );
  const script = examples.join('\n');
  const stated = [...script.matchAll(STATED_STATUS)].map(([, status, reason]) => ({ status: Number(status), reason }));
  return { variables, script, stated };
}

export interface Call {
  exitCode: number;
  status: number;
  /** The status line and headers as curl printed them, before the body. */
  head: string;
  body: string;
}

/** A raw answer of `curl -i` split into its head and its body; no head without `-i`. */
function splitAnswer(answer: string): { head: string; body: string } {
  const end = answer.indexOf('\r\n\r\n');
  if (!answer.startsWith('HTTP/') || end < 0) return { head: '', body: answer };
  return { head: answer.slice(0, end), body: answer.slice(end + 4) };
}

export async function runScript(
  script: string,
  env: Record<string, string>,
): Promise<{ exitCode: number | null; calls: Call[]; stderr: string }> {
  const bash = spawn('bash', ['-c', `${PRELUDE}\n${script}`], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  bash.stdout.resume();
  bash.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [exitCode] = (await once(bash, 'close')) as [number | null];
  const calls = stderr
    .split('\n')
    .filter((line) => line.startsWith(`${MARKER} `))
    .map((line) => {
      const [, code, status, answer = ''] = line.split(' ');
      return { exitCode: Number(code), status: Number(status), ...splitAnswer(Buffer.from(answer, 'base64').toString('utf8')) };
    });
  return { exitCode, calls, stderr };
}
