import { ensurePreviousRelease, previousReleaseSha } from '../../scripts/previous-release';
import { AppName, RunningProcess } from '../../tools/stack';
import { Sample, scrape } from './metrics';

/**
 * The previous release beside this build, for the upgrade suites: its root (built once and cached
 * by scripts/previous-release.js; the first build takes minutes, hence the hook's timeout).
 */
export const PREVIOUS_RELEASE_BUILD_MS = 20 * 60 * 1000;

export function previousRelease(): { sha: string; root: string } {
  return { sha: previousReleaseSha(), root: ensurePreviousRelease({ log: (line) => process.stdout.write(`${line}\n`) }) };
}

/**
 * The work a process has done so far, by its own metrics: requests and messages answered, and
 * records inserted (with DB_COMMAND_METRICS=true), which is how the work queues' consumers
 * (webhook deliveries, e-mails) show theirs.
 */
export async function handled(running: RunningProcess): Promise<number> {
  const samples = await scrape(running.operationsUrl);
  const counted = (s: Sample) =>
    s.name === 'messages_handled_total' ||
    s.name === 'http_request_duration_seconds_count' ||
    (s.name === 'db_commands_total' && s.labels.command === 'insert');
  return samples.filter(counted).reduce((sum, s) => sum + s.value, 0);
}

/** The port a new instance of `app` listens on for its clients, where it has one (the gateway's PORT, the form's FORM_PORT). */
export function ownListener(app: AppName, port: number): Record<string, string> {
  if (app === 'gateway') return { PORT: String(port) };
  if (app === 'form') return { FORM_PORT: String(port) };
  return {};
}

/** The URL an app's clients reach one process at: the API for the gateway, the pages for the form. */
export function clientUrl(running: RunningProcess): string {
  return running.app === 'form' ? `http://127.0.0.1:${running.env.FORM_PORT}` : running.httpUrl;
}
