import { randomBytes } from 'node:crypto';
import { Stack } from '../tools/stack';
import { Watched } from './procfs';

/** The API under load: a stack the bench started, or one already running at BENCH_URL. */
export interface Target {
  url: string;
  /** The application form's base URL, when the bench started one. */
  formUrl: string | null;
  apiKey: string;
  /** The processes whose memory is reported. */
  processes: Watched[];
  /** The services' /metrics, where their database commands are counted (empty when unknown). */
  metricsUrls: string[];
  /** Every process's /metrics, by app (empty when unknown). */
  metrics: Array<{ app: string; url: string }>;
  description: string;
  stop(): Promise<void>;
}

/**
 * How long each app of a stack may take to start: a shared machine's load can keep one past the
 * tests' 30 s, and a bench run of many minutes should not end for that.
 */
const START_TIMEOUT_MS = 120_000;

/** The client account of the bench's own key. */
const BENCH_CLIENT_ID = 7001;

/** Apps the main scenarios do without, started only for the scenarios about them (they add background work). */
export interface ExtraApps {
  form?: boolean;
  webhooks?: boolean;
  /** More environment for every process. */
  env?: Record<string, string>;
  /** The root of another built tree to start the apps from (BENCH_BASELINE_ROOT), instead of this one. */
  root?: string;
  /** The node executable to run them on (BENCH_BASELINE_NODE), instead of the bench's own. */
  node?: string;
}

export async function startTarget(
  profileDir: string | null,
  nodeArgs: string[],
  dbCommands = false,
  extra: ExtraApps = {},
): Promise<Target> {
  const url = process.env.BENCH_URL;
  if (url) return runningTarget(url);
  const apiKey = `bench-${randomBytes(16).toString('hex')}`;
  const env: Record<string, string> = {
    API_KEYS: `${apiKey}:${BENCH_CLIENT_ID}`,
    // Per-key rate limits (where the gateway has them) must never throttle the bench.
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    // Nor the form's per-address limit: every submission comes from 127.0.0.1 (its highest value).
    FORM_RATE_LIMIT_PER_MINUTE: '1000000',
    FORM_UPLOADS_PER_HOUR: '1000000',
    FORM_REQUEST_RATE_LIMIT_PER_MINUTE: '1000000',
    DB_COMMAND_METRICS: String(dbCommands),
    ...extra.env,
  };
  const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const stack = await Stack.start({
    env,
    nodeArgs: [...nodeArgs, ...profiling],
    form: extra.form,
    instances: { webhooks: extra.webhooks ? 1 : 0 },
    root: extra.root,
    node: extra.node,
    startTimeoutMs: START_TIMEOUT_MS,
  });
  const apps = stack.processes.map(({ app }) => app);
  return {
    url: stack.url,
    formUrl: stack.formUrl || null,
    apiKey,
    processes: stack.processes.map(({ app, child }) => ({ name: app, pid: child.pid! })),
    metricsUrls: stack.processes.filter(({ app }) => app !== 'gateway').map(({ httpUrl }) => `${httpUrl}/metrics`),
    metrics: stack.processes.map(({ app, operationsUrl }) => ({ app, url: `${operationsUrl}/metrics` })),
    description:
      `the built ${apps.slice(0, -1).join(', ')} and ${apps.at(-1)}${extra.root ? ` of ${extra.root}` : ''} started by the bench ` +
      `on ${stack.node} (NAMESPACE ${stack.namespace})` +
      (nodeArgs.length > 0 ? `, node ${nodeArgs.join(' ')}` : ''),
    stop: () => stack.stop(),
  };
}

function runningTarget(url: string): Target {
  const apiKey = process.env.BENCH_API_KEY;
  if (!apiKey) throw new Error('BENCH_URL needs BENCH_API_KEY: an API key of that gateway that no rate limit throttles');
  const processes = namedPids(process.env.BENCH_PIDS);
  return {
    url: url.replace(/\/+$/, ''),
    formUrl: null,
    apiKey,
    processes,
    metricsUrls: [],
    metrics: [],
    description: `the running gateway at ${url}`,
    stop: async () => {},
  };
}

/** `name=pid,...` as processes to watch. */
export function namedPids(list: string | undefined): Watched[] {
  return (list ?? '')
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const [name, pid] = entry.split('=');
      return { name, pid: Number(pid) };
    });
}
