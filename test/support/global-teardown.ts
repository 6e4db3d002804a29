import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { FERRETDB_SCRIPT } from './global-setup';

/** Stops the FerretDB the setup started, if it started one, and removes its data. */
export default async function globalTeardown(): Promise<void> {
  const dir = (globalThis as { __ferretdbDir?: string }).__ferretdbDir;
  if (!dir) return;
  await promisify(execFile)(FERRETDB_SCRIPT, ['stop', dir]);
  await rm(dir, { recursive: true, force: true });
}
