/**
 * Development tools shared by the e2e tests and the bench (never by the apps): the built apps
 * started as separate processes on a namespace of their own.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { connect } from 'amqplib';
import mongoose from 'mongoose';
import { DEAD_LETTERED_QUEUES, removeBrokerObjects } from './broker-objects';
import { forEachLine, LogRecord, parseRecord, START_TIMEOUT_MS, terminate } from './child-processes';
import { freePort } from './free-port';
import { KEYS, testFieldKey, testFormSealingKey } from './test-keys';

// What the suites and the bench have always imported from here, whichever file now holds it.
export { removeBrokerObjects } from './broker-objects';
export { LogRecord, terminate, untilReady } from './child-processes';
export { freePort } from './free-port';
export { KEYS, testFieldKey, testFormSealingKey } from './test-keys';

export type AppName = 'gateway' | 'applications' | 'properties' | 'webhooks' | 'notifications' | 'form';
export type ServiceName = 'applications' | 'properties' | 'webhooks' | 'notifications';

/**
 * The message each app logs once it serves: the gateway once its port is bound, a service once
 * it consumes its queue and its health and metrics listener is up.
 */
const READY_MESSAGE: Record<AppName, string> = {
  gateway: 'HTTP API listening on port',
  applications: 'health and metrics listening on port',
  properties: 'health and metrics listening on port',
  form: 'application form listening on port',
  webhooks: 'health and metrics listening on port',
  notifications: 'health and metrics listening on port',
};
/**
 * Keys an app is started without (set empty, whatever the stack's environment holds), as it must
 * run without them: the form holds nothing that opens what is stored.
 */
const WITHHELD_KEYS: Partial<Record<AppName, string[]>> = {
  form: ['FIELD_ENCRYPTION_KEYS', 'FORM_SEALING_KEYS', 'FINGERPRINT_KEYS'],
};
/** As in the Dockerfile and `npm start`: the heap the apps run with in production. */
export const PRODUCTION_NODE_ARGS = ['--max-old-space-size=128', '--max-semi-space-size=8'];

export interface StackOptions {
  /** Extra environment for every process. */
  env?: Record<string, string>;
  /** Instances of each service (default 1 each, and no webhooks or notifications service unless asked for). */
  instances?: Partial<Record<ServiceName, number>>;
  /** Also start the application form (off by default: most suites test the API alone). */
  form?: boolean;
  /** Options for node itself, after those of production, before each app's script (`--cpu-prof`, say). */
  nodeArgs?: string[];
  /** Extra environment for each process of one app (its own broker user, say), over `env`. */
  appEnv?: Partial<Record<AppName, Record<string, string>>>;
  /** The built release the processes start from: this tree by default, another's root for the upgrade suites. */
  root?: string;
  /** The node executable the processes run on: this process's by default (the bench's baseline may name another). */
  node?: string;
  /**
   * How long each app may take to say it serves (30 s by default). Traced, every module an app
   * loads goes through the instrumentations' require hooks, and six apps loading the SDK at once
   * on a busy two-core machine take longer.
   */
  startTimeoutMs?: number;
}

export interface RunningProcess {
  app: AppName;
  child: ChildProcess;
  /** Everything it printed, as it came. */
  output: string[];
  /** Its log lines, each JSON object parsed, in order. */
  logs: LogRecord[];
  /** Base URL of its HTTP listener: the API for the gateway, health and metrics for a service and the form. */
  httpUrl: string;
  /** Base URL of its operators' listener (health and metrics): HTTP_PORT, for every app. */
  operationsUrl: string;
  /** The environment the stack gave it (beside the test runner's own). */
  env: Record<string, string>;
}

/**
 * The repository root, whether this file runs from tools/ or compiled under dist/bench: the built
 * release a stack starts its processes from unless told another.
 */
export const ROOT = repositoryRoot(__dirname);

function repositoryRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'nest-cli.json'))) return dir;
  }
  throw new Error(`no repository root (nest-cli.json) above ${from}`);
}

/**
 * Where the build put `app`'s entry point under `root` (this tree's by default): that tree's
 * scripts/apps.js is the one place that knows.
 */
export function distMain(app: AppName, root = ROOT): string {
  // Required from the root found at run time: compiled under dist/bench this file moves.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const apps = require(join(root, 'scripts', 'apps.js')) as typeof import('../scripts/apps');
  return apps.distMain(app, root);
}

/**
 * The built gateway and services as separate processes, as they run in production, on a
 * namespace of their own (queues and databases) so that stacks never see each other's data.
 */
export class Stack {
  readonly processes: RunningProcess[] = [];
  /** Every process this stack ever started, stopped ones included, with all they printed. */
  readonly started: RunningProcess[] = [];
  readonly namespace = `t${randomBytes(4).toString('hex')}_`;
  readonly publicBaseUrl = 'http://api.example.test';
  /** A key generated for this stack alone; tests use it to read what the services sealed. */
  readonly fieldEncryptionKeys = testFieldKey('t1');
  /** FINGERPRINT_KEYS of both services: the same entry form, a key of its own. */
  readonly fingerprintKeys = testFieldKey('f1');
  /** CSRF_KEYS of the form: a key of its own again. */
  readonly csrfKeys = testFieldKey('c1');
  /** FORM_LINK_KEYS of the applications service and the form, which sign and check form links. */
  readonly formLinkKeys = testFieldKey('l1');
  /** FORM_SEALING_KEYS of the applications service (`privateKey`), and the form's FORM_SEALING_PUBLIC_KEY (`publicKey`). */
  readonly formSealingKey = testFormSealingKey('s1');
  url = '';
  /** The application form's base URL, once started (`form: true`); APPLY_BASE_URL names it then. */
  formUrl = '';
  /** APPLY_BASE_URL: the form when it runs, else a placeholder every URL of the form starts with. */
  applyBaseUrl = 'http://apply.example.test';
  env: Record<string, string> = {};
  nodeArgs: string[] = [];
  appEnv: Partial<Record<AppName, Record<string, string>>> = {};
  /** The built release `startApp` starts processes from unless told another. */
  root = ROOT;
  node = process.execPath;
  startTimeoutMs = START_TIMEOUT_MS;

  static async start(options: StackOptions = {}): Promise<Stack> {
    const stack = new Stack();
    const port = await freePort();
    stack.url = `http://127.0.0.1:${port}`;
    let formPort = 0;
    if (options.form) {
      formPort = await freePort();
      stack.formUrl = `http://127.0.0.1:${formPort}`;
      stack.applyBaseUrl = stack.formUrl;
    }
    stack.applyBaseUrl = options.env?.APPLY_BASE_URL ?? stack.applyBaseUrl;
    stack.env = {
      AMQP_URL: process.env.AMQP_URL!,
      MONGODB_URI: process.env.MONGODB_URI!,
      NAMESPACE: stack.namespace,
      PORT: String(port),
      PUBLIC_BASE_URL: stack.publicBaseUrl,
      APPLY_BASE_URL: stack.applyBaseUrl,
      API_KEYS: `${KEYS.clientOne}:1,${KEYS.clientTwo}:2`,
      FIELD_ENCRYPTION_KEYS: stack.fieldEncryptionKeys,
      FINGERPRINT_KEYS: stack.fingerprintKeys,
      CSRF_KEYS: stack.csrfKeys,
      FORM_LINK_KEYS: stack.formLinkKeys,
      FORM_SEALING_KEYS: stack.formSealingKey.privateKey,
      FORM_SEALING_PUBLIC_KEY: stack.formSealingKey.publicKey,
      // Suites send bursts of hundreds of requests; the rate-limit suite sets its own limits.
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: '1000000',
      RATE_LIMIT_UNAUTHENTICATED_BURST: '1000000',
      // Only the suites about sharing the limit use Redis (empty means unset).
      REDIS_URL: '',
      NO_COLOR: '1',
      ...options.env,
    };
    stack.nodeArgs = [...PRODUCTION_NODE_ARGS, ...(options.nodeArgs ?? [])];
    stack.appEnv = options.appEnv ?? {};
    stack.root = options.root ?? ROOT;
    stack.node = options.node ?? process.execPath;
    stack.startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
    try {
      const starts: Promise<RunningProcess>[] = [];
      for (const app of ['properties', 'applications', 'webhooks', 'notifications'] as const) {
        const instances = options.instances?.[app] ?? (app === 'webhooks' || app === 'notifications' ? 0 : 1);
        for (let i = 0; i < instances; i++) starts.push(stack.startApp(app));
      }
      starts.push(stack.startApp('gateway'));
      if (options.form) starts.push(stack.startApp('form', { FORM_PORT: String(formPort) }));
      await Promise.all(starts);
    } catch (error) {
      await stack.stop();
      throw error;
    }
    return stack;
  }

  /**
   * Starts one more process of `app` and resolves once it says it is serving. Each app gets a
   * free port of its own for its health and metrics listener (unless `extraEnv` names one).
   * `root` is the built release it starts from (the stack's by default).
   */
  async startApp(app: AppName, extraEnv: Record<string, string> = {}, root = this.root): Promise<RunningProcess> {
    const own = { ...this.appEnv[app], ...extraEnv };
    const env: Record<string, string> = { ...this.env, ...own };
    for (const name of WITHHELD_KEYS[app] ?? []) env[name] = own[name] ?? '';
    if (env.HTTP_PORT === undefined) env.HTTP_PORT = String(await freePort());
    const child = spawn(this.node, [...this.nodeArgs, distMain(app, root)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const port = app === 'gateway' ? env.PORT : env.HTTP_PORT;
    const running: RunningProcess = {
      app,
      child,
      output: [],
      logs: [],
      httpUrl: `http://127.0.0.1:${port}`,
      operationsUrl: `http://127.0.0.1:${env.HTTP_PORT}`,
      env,
    };
    this.processes.push(running);
    this.started.push(running);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${app} did not start within ${this.startTimeoutMs} ms:\n${running.output.join('')}`)),
        this.startTimeoutMs,
      );
      const onRecord = (record: LogRecord) => {
        running.logs.push(record);
        if (record.msg?.startsWith(READY_MESSAGE[app])) {
          clearTimeout(timer);
          resolve();
        }
      };
      forEachLine(child.stdout!, (line) => {
        running.output.push(`${line}\n`);
        const record = parseRecord(line);
        if (record) onRecord(record);
      });
      forEachLine(child.stderr!, (line) => running.output.push(`${line}\n`));
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${app} exited with ${code} before it started:\n${running.output.join('')}`));
      });
    });
    return running;
  }

  /** Signals one process and resolves once it has exited, with how and how fast. */
  async signal(target: RunningProcess, signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
    const started = Date.now();
    const exited = once(target.child, 'exit');
    target.child.kill(signal);
    const [code] = await exited;
    this.processes.splice(this.processes.indexOf(target), 1);
    return { code: code as number | null, ms: Date.now() - started };
  }

  /** The running processes of `app`. */
  running(app: AppName): RunningProcess[] {
    return this.processes.filter((p) => p.app === app);
  }

  /** The one running process of `app`. */
  process(app: AppName): RunningProcess {
    const found = this.processes.filter((p) => p.app === app);
    if (found.length !== 1) throw new Error(`${found.length} processes of ${app} are running, not one`);
    return found[0];
  }

  /** Stops every process of `app` (SIGTERM, then SIGKILL if it lingers). */
  async stopApp(app: AppName, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const targets = this.processes.filter((p) => p.app === app);
    await Promise.all(targets.map((p) => terminate(p.child, signal)));
    for (const target of targets) this.processes.splice(this.processes.indexOf(target), 1);
  }

  /** Stops every process, then removes the stack's queues and databases. */
  async stop(): Promise<void> {
    await this.stopProcesses();
    await this.removeQueues();
    await this.dropDatabases();
  }

  /** Stops every process (SIGTERM, then SIGKILL if it lingers) and waits until each has exited. */
  async stopProcesses(): Promise<void> {
    await Promise.all(this.processes.map((p) => terminate(p.child, 'SIGTERM')));
    this.processes.length = 0;
  }

  /** Every line every process of this stack printed on stdout or stderr so far. */
  logLines(): string[] {
    return this.started.flatMap((p) => p.output.join('').split('\n'));
  }

  /** A raw connection to one of the stack's databases, for reading what was stored. */
  async database(service: ServiceName): Promise<mongoose.Connection> {
    return mongoose.createConnection(process.env.MONGODB_URI!, { dbName: `${this.namespace}${service}` }).asPromise();
  }

  /** How many consumers the broker counts on one of the stack's queues. */
  async consumerCount(service: ServiceName): Promise<number> {
    const connection = await connect(process.env.AMQP_URL!);
    try {
      const channel = await connection.createChannel();
      const { consumerCount } = await channel.checkQueue(`${this.namespace}${service}`);
      await channel.close();
      return consumerCount;
    } finally {
      await connection.close();
    }
  }

  /**
   * How many messages wait in each of the stack's dead-letter queues, and in `events.unrouted`
   * (events no consumer's queue was bound for), by queue name without the namespace. A queue no
   * app of the stack declared counts 0.
   */
  async deadLetters(): Promise<Record<string, number>> {
    const connection = await connect(process.env.AMQP_URL!);
    try {
      const depths: Record<string, number> = {};
      for (const queue of [...DEAD_LETTERED_QUEUES.map((name) => `${name}.dead-letter`), 'events.unrouted']) {
        // A channel each: checking a queue that does not exist closes the channel.
        const channel = await connection.createChannel();
        channel.on('error', () => undefined);
        depths[queue] = await channel.checkQueue(`${this.namespace}${queue}`).then(
          ({ messageCount }) => messageCount,
          () => 0,
        );
        await channel.close().catch(() => undefined);
      }
      return depths;
    } finally {
      await connection.close();
    }
  }

  private async removeQueues(): Promise<void> {
    await removeBrokerObjects(this.namespace, this.env);
  }

  private async dropDatabases(): Promise<void> {
    for (const service of ['applications', 'properties', 'webhooks', 'notifications'] as const) {
      const connection = await this.database(service);
      await connection.dropDatabase();
      await connection.close();
    }
  }
}
