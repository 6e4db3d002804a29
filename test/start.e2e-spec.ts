import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { api } from './support/http';
import { eventually } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';
import { APPS } from '../scripts/apps';

import { freePort, removeBrokerObjects } from '../tools/stack';

/** The build steps `npm start` runs: one per app (the bench, which `npm run build` compiles too, it leaves out). */
const BUILD_STEPS = APPS.length;

const ROOT = resolve(__dirname, '..');
/**
 * Building inside the copy takes most of it, on a machine shared with other work: a build step
 * of 30 to 90 s for each app on 2 cores.
 */
const FIRST_START_MS = 10 * 60_000;
const START_MS = 60_000;
const STOP_MS = 30_000;
const DEV_KEY = 'dev-local-key';
const DEV_KEY_2 = 'dev-local-key-2';

/**
 * This checkout's files as they are now (uncommitted changes included, ignored files such as
 * dist/ and .data/ left out) copied into `to`, with node_modules linked rather than installed.
 */
function copyCheckout(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
    .toString()
    .split('\0')
    .filter(Boolean);
  for (const file of new Set(files)) {
    const from = join(ROOT, file);
    // Tracked, but deleted in the working tree.
    if (!existsSync(from)) continue;
    mkdirSync(dirname(join(to, file)), { recursive: true });
    if (lstatSync(from).isSymbolicLink()) symlinkSync(readlinkSync(from), join(to, file));
    else copyFileSync(from, join(to, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(to, 'node_modules'));
}

interface OwnProcess {
  pid: number;
  command: string;
}

/** Every live process working in `dir` or naming it on its command line. */
function processesIn(dir: string): OwnProcess[] {
  const found: OwnProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let command: string;
    let cwd = '';
    try {
      // Empty for a zombie, which has exited and only waits to be reaped.
      command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      continue;
    }
    try {
      cwd = readlinkSync(`/proc/${entry}/cwd`);
    } catch {
      // Exited meanwhile.
    }
    if (cwd === dir || cwd.startsWith(`${dir}/`) || command.includes(dir)) found.push({ pid: Number(entry), command });
  }
  return found;
}

/** Whether `pid` is a live process: not gone, and not a zombie that has exited and waits to be reaped. */
function alive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/** The pids of `parent`'s children. */
function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** `npm start` running in `cwd`, in a process group of its own as a terminal's foreground job is. */
class Launch {
  readonly child: ChildProcess;
  output = '';
  private readonly exit: Promise<[number | null, NodeJS.Signals | null]>;

  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    this.child = spawn('npm', ['start'], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.exit = once(this.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    for (const stream of [this.child.stdout!, this.child.stderr!]) stream.on('data', (chunk: Buffer) => (this.output += chunk));
  }

  /**
   * What a failure report should show first, since a CI log keeps only part of a long message:
   * the launcher's own lines and every line that is no JSON log entry below error level (a
   * stack trace, a boot failure's message), before the whole output.
   */
  get report(): string {
    const telling = this.output
      .split('\n')
      .filter(
        (line) =>
          /^\[start\]/.test(line) || (line.trim() !== '' && !/^\[[a-z]+\] +\{"level":"(trace|debug|info|warn)"/.test(line)),
      );
    return `${telling.join('\n')}\n--- the whole output ---\n${this.output}`;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the first match of `pattern` in the output; rejects if it exits or `timeoutMs` passes first. */
  until(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = this.output.match(pattern);
        if (!match) return;
        finish();
        resolve(match);
      };
      const onExit = () => {
        finish();
        reject(new Error(`npm start exited before printing ${pattern}:\n${this.report}`));
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`npm start printed no ${pattern} within ${timeoutMs} ms:\n${this.report}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.child.stdout!.off('data', check);
        this.child.stderr!.off('data', check);
        this.child.off('exit', onExit);
      };
      this.child.stdout!.on('data', check);
      this.child.stderr!.on('data', check);
      this.child.once('exit', onExit);
      check();
    });
  }

  /**
   * Ctrl-C at the terminal: SIGINT to the whole group. Resolves once `npm start` has exited, with
   * how it ended.
   */
  async interrupt(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    process.kill(-this.child.pid!, 'SIGINT');
    const timer = setTimeout(() => this.kill(), timeoutMs);
    const [code, signal] = await this.exit;
    clearTimeout(timer);
    if (signal === 'SIGKILL') throw new Error(`npm start did not stop within ${timeoutMs} ms:\n${this.report}`);
    return { code, signal };
  }

  /** Resolves once `npm start` has exited. */
  async exited(): Promise<void> {
    await this.exit;
  }

  kill(): void {
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/**
 * `npm start` as someone new runs it: in a copy of the repository with nothing built and no
 * MONGODB_URI, against the real RabbitMQ. It builds, starts a FerretDB of its own and every app,
 * serves the API with the development keys, and on Ctrl-C leaves nothing running.
 */
describe('npm start', () => {
  const namespace = `st${randomBytes(4).toString('hex')}_`;
  let copy: string;
  let port: number;
  let formPort: number;
  let env: NodeJS.ProcessEnv;
  const launches: Launch[] = [];
  let propertyId: number;
  /** What the first start printed once ready: the URLs and the keys. */
  let banner: string;

  const launch = (extraEnv: NodeJS.ProcessEnv = {}): Launch => {
    const started = new Launch(copy, { ...env, ...extraEnv });
    launches.push(started);
    return started;
  };

  beforeAll(async () => {
    copy = realpathSync(mkdtempSync(join(tmpdir(), 'npm-start-')));
    copyCheckout(copy);
    port = await freePort();
    formPort = await freePort();
    env = {
      ...process.env,
      PORT: String(port),
      FORM_PORT: String(formPort),
      FERRETDB_PORT: String(await freePort()),
      // Each service's health listener on any free port, and queues of its own on the shared broker.
      HTTP_PORT: '0',
      NAMESPACE: namespace,
      NO_COLOR: '1',
    };
    // What a newcomer has not set.
    for (const name of [
      'MONGODB_URI',
      'API_KEYS',
      'FIELD_ENCRYPTION_KEYS',
      'PUBLIC_BASE_URL',
      'APPLY_BASE_URL',
      'LOG_FORMAT',
      'FORCE_COLOR',
    ]) {
      delete env[name];
    }
  });

  afterAll(async () => {
    for (const started of launches) if (started.running) started.kill();
    if (copy) {
      for (const { pid } of processesIn(copy)) process.kill(pid, 'SIGKILL');
      rmSync(copy, { recursive: true, force: true });
    }
    await removeBrokerObjects(namespace, env);
  });

  it('says in one line how to start RabbitMQ when none answers, and starts nothing', async () => {
    const closedPort = await freePort();
    const child = spawn(process.execPath, ['scripts/start.js'], {
      cwd: copy,
      env: { ...env, AMQP_URL: `amqp://guest:guest@127.0.0.1:${closedPort}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    const [code] = await once(child, 'exit');

    expect(code).toBe(1);
    expect(output.trimEnd().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`127\\.0\\.0\\.1:${closedPort}.*\`rabbitmq-server -detached\`.*AMQP_URL`)),
    ]);
    expect(existsSync(join(copy, 'dist'))).toBe(false);
    expect(existsSync(join(copy, '.data'))).toBe(false);
  });

  it(
    'builds, starts a FerretDB of its own and every app, and prints the URLs and development keys',
    async () => {
      const started = launch();
      const [ready] = await started.until(/^\[start\] ready in .*\n(?:\[start\] .*\n)*?\[start\] +e\.g\. .*\n/m, FIRST_START_MS);

      banner = ready;
      expect(started.output).toContain('[start] building');
      // A first build takes minutes: it says each step, what to expect, and when it is done.
      for (const app of APPS) {
        expect(started.output).toMatch(
          new RegExp(`^\\[start\\] building \\d of ${BUILD_STEPS}: ${app} \\(30 to 90 s, on 2 cores\\)$`, 'm'),
        );
      }
      expect(started.output).toMatch(/^\[start\] built in \d+ (s|min \d+ s)$/m);
      // Only what running the stack needs.
      expect(started.output).not.toContain('bench');
      expect(existsSync(join(copy, 'dist', 'bench'))).toBe(false);
      // Its own readiness polling included: a normal start logs no error.
      expect(started.output).not.toMatch(/"level":"(error|fatal)"|Health Check has failed/);
      // Into a pipe, the apps log JSON.
      expect(started.output).toMatch(/^\[gateway\] +\{"level":"info",.*"msg":"HTTP API listening on port \d+"\}$/m);
      expect(ready).toContain(`API   http://localhost:${port}/\n`);
      expect(ready).toContain(`docs  http://localhost:${port}/api/docs`);
      expect(ready).toContain(`${DEV_KEY} (client 1), ${DEV_KEY_2} (client 2)`);
      expect(ready).toContain(`form  http://localhost:${formPort}/properties/<id>/apply`);
      // The example works in the database as it is, here an empty one.
      const [, key, url] = started.output.match(/e\.g\. +curl -i -H 'Authorization: Bearer ([^']+)' (\S+)\n/)!;
      expect((await fetch(url.replace('localhost', '127.0.0.1'), { headers: { authorization: `Bearer ${key}` } })).status).toBe(
        200,
      );
      const commands = processesIn(copy).map((p) => p.command);
      for (const app of ['properties', 'applications', 'form', 'gateway']) {
        expect(commands).toContainEqual(expect.stringContaining(join(copy, 'dist', 'apps', app)));
      }
      expect(commands).toContainEqual(
        expect.stringMatching(new RegExp(`ferretdb .*--sqlite-url=file:${copy}/\\.data/ferretdb/`)),
      );
    },
    FIRST_START_MS + 10_000,
  );

  it('serves the API with the development keys, the URLs it returns naming its ports', async () => {
    const client = api(`http://127.0.0.1:${port}`);
    const property = await client.post('/api/v2/properties', { property: { name: 'Started Court' } }, { key: DEV_KEY });
    expect(property.status).toBe(201);
    propertyId = property.body.property.id;
    expect(property.body.property.application_url).toBe(`http://localhost:${formPort}/properties/${propertyId}/apply`);
    // The launcher waits for the gateway only; the form may still be binding its port.
    const form = await eventually('the form to answer', () =>
      fetch(`http://127.0.0.1:${formPort}/properties/${propertyId}/apply`).catch(() => null),
    );
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('Started Court');

    const application = await client.post(
      '/api/v2/applications',
      {
        application: {
          property_id: propertyId,
          applicant: { first_name: 'Nia', last_name: 'Newcomer', email: 'nia@example.com' },
        },
      },
      { key: DEV_KEY },
    );
    expect(application.status).toBe(201);
    expect(application.body.application.property_id).toBe(propertyId);

    // The second key is another client, who cannot see the first one's property.
    expect((await client.get(`/api/v2/properties/${propertyId}`, { key: DEV_KEY_2 })).status).toBe(404);
  });

  it('prints only links that answer', async () => {
    const links = [...banner.matchAll(/http:\/\/localhost:\d+\S*/g)].map(([link]) => link);
    // The API's index, its docs, the form (of the property made above), the inbox and the example's list.
    expect(links).toHaveLength(5);
    for (const link of links) {
      const url = link.replace('localhost', '127.0.0.1').replace('<id>', String(propertyId));
      // As a browser opens it (the inbox's page answers a browser alone), with the key the example uses.
      const response = await fetch(url, {
        headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', authorization: `Bearer ${DEV_KEY}` },
      });
      await response.arrayBuffer();
      expect([link, response.status]).toEqual([link, 200]);
    }
  });

  it('keeps the inbox’s mail under .data/inbox, readable by its owner alone, and empties it on request', async () => {
    const invited = await api(`http://127.0.0.1:${port}`).post(
      `/api/v2/properties/${propertyId}/invitations`,
      { invitation: { email: 'ines@example.com', send_email: true } },
      { key: DEV_KEY },
    );
    expect(invited.status).toBe(201);
    const inbox = banner.match(/inbox +(http:\/\/localhost:\d+)/)![1].replace('localhost', '127.0.0.1');
    // The API path docs/operators/running.md names.
    await eventually('the invitation in the inbox', async () => {
      const emails = (await (await fetch(`${inbox}/api/email`)).json()) as Array<{ to: Array<{ address: string }> }>;
      return emails.some((email) => email.to.some(({ address }) => address === 'ines@example.com'));
    });
    const folder = join(copy, '.data', 'inbox');
    const files = readdirSync(folder, { recursive: true, encoding: 'utf8' });
    expect(files.filter((file) => file.endsWith('.eml')).length).toBeGreaterThan(0);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const file of files) {
      const stat = statSync(join(folder, file));
      expect([file, stat.mode & 0o777]).toEqual([file, stat.isDirectory() ? 0o700 : 0o600]);
    }

    const emptied = await fetch(`${inbox}/api/email/all`, { method: 'DELETE' });
    expect(emptied.status).toBe(200);
    expect(await (await fetch(`${inbox}/api/email`)).json()).toEqual([]);
    expect(readdirSync(folder).filter((file) => file.endsWith('.eml'))).toEqual([]);
  });

  it('delivers webhooks to a receiver on this machine over plain http', async () => {
    const client = api(`http://127.0.0.1:${port}`);
    const receiver = await WebhookReceiver.start();
    try {
      const created = await client.post(
        '/api/v2/webhooks',
        { webhook: { url: receiver.url, events: ['application.created'] } },
        { key: DEV_KEY },
      );
      expect(created.status).toBe(201);
      const test = await client.post(`/api/v2/webhooks/${created.body.webhook.id}/test`, {}, { key: DEV_KEY });
      expect(test.status).toBe(201);
      await eventually('the test event at the receiver', () => receiver.forEvent(test.body.delivery.id).length === 1);
      await client.delete(`/api/v2/webhooks/${created.body.webhook.id}`, { key: DEV_KEY });
    } finally {
      await receiver.down();
    }
  });

  it(
    'stops every app and its FerretDB on Ctrl-C, and leaves nothing running',
    async () => {
      const started = launches[0];
      // npm, the launcher, six apps, the inbox and FerretDB: the check below looks where they are.
      expect(processesIn(copy).length).toBeGreaterThanOrEqual(10);

      const exit = await started.interrupt(STOP_MS);

      // npm passes the SIGINT on to the launcher (its own child: the script runs it with exec), which
      // got it from the terminal as well, and follows it out once everything has stopped.
      expect(exit).toEqual({ code: 0, signal: null });
      // The launcher says why whenever it ends other than cleanly, and npm when its script fails.
      expect(started.output).not.toMatch(/while stopping|killing|npm error/);
      for (const app of ['properties', 'applications', 'gateway']) expect(started.output).toContain(`[start] ${app} stopped`);
      expect(started.output).toContain('[start] FerretDB stopped');
      expect(processesIn(copy)).toEqual([]);
    },
    STOP_MS + 10_000,
  );

  it(
    'keeps the data for the next run, which builds nothing when nothing changed; LOG_FORMAT=pretty reaches the apps',
    async () => {
      const started = launch({ LOG_FORMAT: 'pretty' });
      await started.until(/^\[start\] ready in /m, START_MS);

      expect(started.output).not.toContain('[start] building');
      expect(started.output).toMatch(
        /^\[gateway\] +\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: \[Gateway\] HTTP API listening on port \d+$/m,
      );
      const again = await api(`http://127.0.0.1:${port}`).get(`/api/v2/properties/${propertyId}`, { key: DEV_KEY });
      expect(again.status).toBe(200);
      expect(again.body.property.name).toBe('Started Court');

      await started.interrupt(STOP_MS);
      expect(started.output).toContain('[start] FerretDB stopped');
      expect(started.output).not.toMatch(/while stopping|killing|npm error/);
      expect(processesIn(copy)).toEqual([]);
    },
    START_MS + STOP_MS + 10_000,
  );

  it(
    'stops the FerretDB that a run killed outright left behind, and starts its own',
    async () => {
      const killed = launch();
      await killed.until(/^\[start\] ready in /m, START_MS);
      killed.kill();
      await killed.exited();
      // The rest of the group may take a moment to die; FerretDB runs in a session of its own,
      // out of reach of what killed the group, and stays.
      const left = await eventually('only FerretDB to be left running', () => {
        const commands = processesIn(copy).map((p) => p.command);
        return commands.length === 1 && commands;
      });
      expect(left).toEqual([expect.stringContaining('ferretdb --handler=sqlite')]);

      const started = launch();
      await started.until(/^\[start\] ready in /m, START_MS);
      expect(started.output).toContain('[start] stopping the FerretDB an earlier run left running');
      const again = await api(`http://127.0.0.1:${port}`).get(`/api/v2/properties/${propertyId}`, { key: DEV_KEY });
      expect(again.status).toBe(200);

      await started.interrupt(STOP_MS);
      expect(started.output).toContain('[start] FerretDB stopped');
      expect(processesIn(copy)).toEqual([]);
    },
    2 * START_MS + STOP_MS + 10_000,
  );

  // A supervisor, an editor's stop button or `timeout npm start` signal npm's own pid, nothing else:
  // npm passes SIGINT and SIGTERM on to its child, and ends on SIGHUP without a word to it.
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
    'stops everything it started when npm alone gets %s, as from a supervisor',
    async (signal) => {
      const started = launch();
      try {
        await started.until(/^\[start\] ready in /m, START_MS);
        const npm = started.child.pid!;
        const launchers = childrenOf(npm);
        expect(launchers).toHaveLength(1);
        const [, children] = started.output.match(/^\[start\] started (.*)$/m)!;
        const pids = [
          ...launchers,
          ...[...children.matchAll(/\(pid (\d+)\)/g)].map(([, pid]) => Number(pid)),
          Number(started.output.match(/^\[start\] FerretDB \(pid (\d+)\)/m)![1]),
        ];
        // The launcher, the inbox, the six apps and FerretDB.
        expect(pids).toHaveLength(APPS.length + 3);
        expect(pids.filter(alive)).toEqual(pids);

        process.kill(npm, signal);
        await started.exited();
        await eventually('every process it started to be gone', () => pids.filter(alive).length === 0, { timeoutMs: STOP_MS });
        await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
        expect(processesIn(copy)).toEqual([]);
        // Its last words may still be on their way through the pipe.
        await eventually('the launcher to say it stopped FerretDB', () => started.output.includes('[start] FerretDB stopped'));
        expect(started.output).not.toMatch(/while stopping|killing/);
      } finally {
        // Whatever the outcome, nothing of this run is left: its group, and FerretDB in a session of its own.
        started.kill();
        for (const { pid } of processesIn(copy)) process.kill(pid, 'SIGKILL');
      }
    },
    START_MS + 2 * STOP_MS,
  );

  it(
    'builds again once a source has changed, and a Ctrl-C during the build leaves nothing running',
    async () => {
      const source = join(copy, 'libs', 'config', 'src', 'environment.ts');
      const later = new Date(Date.now() + 1000);
      utimesSync(source, later, later);
      const started = launch();
      await started.until(/^\[start\] building \(sources changed since the last build\)$/m, START_MS);
      // Now with the times the first build took.
      await started.until(
        new RegExp(`^\\[start\\] building 1 of ${BUILD_STEPS}: gateway \\(\\d+ (s|min \\d+ s) last time\\)$`, 'm'),
        START_MS,
      );

      await started.interrupt(STOP_MS);

      // FerretDB's install, instant once built, runs beside the build and may not have ended yet.
      expect(started.output).toMatch(/^\[start\] received SIGINT; stopping (ferretdb, )?build$/m);
      expect(started.output).not.toMatch(/FerretDB \(pid|while stopping|killing|npm error/);
      expect(processesIn(copy)).toEqual([]);
    },
    START_MS + STOP_MS + 10_000,
  );
});
