/**
 * The processes a stack or a suite starts: reading what they print, line by line and as JSON
 * log records, waiting until one says it serves, and stopping one.
 */
import { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** How long a process may take to say it serves, unless told otherwise. */
export const START_TIMEOUT_MS = 30000;
const STOP_TIMEOUT_MS = 10000;

/** One line of a process's JSON log. */
export type LogRecord = Record<string, unknown> & { msg?: string; level?: string; request_id?: string };

/** Calls `onLine` with each complete line `stream` yields, a line cut across chunks included. */
export function forEachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let pending = '';
  stream.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    lines.forEach(onLine);
  });
  stream.on('end', () => pending && onLine(pending));
}

export function parseRecord(line: string): LogRecord | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as LogRecord) : null;
  } catch {
    return null;
  }
}

/** Collects what `running` prints and resolves once it prints `readyLine`; rejects if it exits first. */
export function untilReady(running: { child: ChildProcess; output: string[] }, readyLine: string, name: string): Promise<void> {
  const { child } = running;
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${START_TIMEOUT_MS} ms:\n${running.output.join('')}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      running.output.push(chunk.toString());
      if (chunk.toString().includes(readyLine)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => running.output.push(chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before it started:\n${running.output.join('')}`));
    });
  });
}

export async function terminate(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
