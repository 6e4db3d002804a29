/**
 * Database commands per request, from the services' own count (`db_commands_total`, kept when
 * they run with DB_COMMAND_METRICS=true: the driver's command monitoring), read from each
 * service's /metrics before and after a run.
 */
import { hundredths } from './stats';

const SERIES = /^db_commands_total\{([^}]*)\}\s+(\S+)$/gm;
const COMMAND_LABEL = /command="([^"]+)"/;

/** Commands sent so far, by name, summed over the services at `metricsUrls`. */
export async function commandsSent(metricsUrls: string[]): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  for (const url of metricsUrls) {
    const answer = await fetch(url);
    if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
    for (const [, labels, value] of (await answer.text()).matchAll(SERIES)) {
      const command = COMMAND_LABEL.exec(labels)?.[1];
      if (command) totals[command] = (totals[command] ?? 0) + Number(value);
    }
  }
  return totals;
}

/** What each command name grew by from `before` to `after`, per request, and their total as `all`. */
export function perRequest(
  before: Record<string, number>,
  after: Record<string, number>,
  requests: number,
): Record<string, number> {
  const result: Record<string, number> = {};
  let all = 0;
  for (const [command, count] of Object.entries(after).sort(([a], [b]) => a.localeCompare(b))) {
    const sent = count - (before[command] ?? 0);
    if (sent <= 0) continue;
    all += sent;
    result[command] = hundredths(sent / Math.max(requests, 1));
  }
  return { all: hundredths(all / Math.max(requests, 1)), ...result };
}
