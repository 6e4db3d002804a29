import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { MARKER, readWalkthrough, runScript } from '../support/readme-walkthrough';
import {
  COMPOSE_FILES,
  PROJECT,
  ROOT,
  compose,
  composeConfig,
  containerOf,
  inspect,
  podman,
  podmanStatus,
  waitHealthy,
} from './engine';

/**
 * docker-compose.yml run as written, through podman's Docker API, with the images
 * scripts/containers.sh builds: the project's, and stand-ins for the third-party ones. MongoDB is
 * the one exception: docker-compose.ferretdb.yml runs the project's FerretDB in its place, and the
 * first test checks that nothing else differs. Then each image is run a second time as the chart
 * runs it (non-root, read-only root filesystem, /tmp alone writable), beside the stack.
 */
const APPS = ['properties', 'applications', 'webhooks', 'notifications', 'form', 'gateway'];
const API = 'http://localhost:3000';
const KEY = 'dev-local-key';
const OPERATOR = `Basic ${Buffer.from('operator:operator-dev-only').toString('base64')}`;
interface Component {
  name: string;
  group?: string;
  version: string;
  components?: Component[];
}
const values = parse(readFileSync(join(ROOT, 'deploy', 'helm', 'rental-applications', 'values.yaml'), 'utf8'));

let services: string[] = [];

async function startStack(): Promise<void> {
  await compose(['up', '--detach', '--no-build']);
  await waitHealthy(services.map(containerOf), 420);
}

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${API}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function management(method: string, path: string, body?: unknown) {
  const response = await fetch(`http://localhost:15672/api${path}`, {
    method,
    headers: { Authorization: OPERATOR, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  services = Object.keys((await composeConfig()).services);
  await compose(['down', '--volumes', '--remove-orphans']);
  await startStack();
}, 600000);

afterAll(async () => {
  await podmanStatus('rm', '--force', '--ignore', ...APPS.map((app) => `locked-down-${app}`));
  await compose(['down', '--volumes', '--remove-orphans']);
}, 300000);

describe('docker-compose.yml, run', () => {
  it('differs in the test stack only where it names MongoDB, and in the machine’s limits', async () => {
    const written = await composeConfig(['docker-compose.yml']);
    const run = await composeConfig(COMPOSE_FILES);
    expect(run.services.mongodb.image).toBe(process.env.FERRETDB_IMAGE);
    for (const config of [written, run]) {
      delete config.services.mongodb;
      for (const app of APPS) delete config.services[app].environment.MONGODB_URI;
      // Merging an override, docker-compose reorders a service's mounts: their order means nothing.
      for (const service of Object.values(config.services)) service.volumes?.sort();
      // The machine's limits (docker-compose.ferretdb.yml says why), the same for each.
      for (const service of Object.values(config.services)) {
        if (config === run)
          expect(service.ulimits).toEqual({ nofile: { soft: 1024, hard: 1024 }, nproc: { soft: 1000, hard: 1000 } });
        delete service.ulimits;
      }
    }
    expect(run).toEqual(written);
    expect(written.services.rabbitmq.image).toBe(process.env.RABBITMQ_IMAGE);
  });

  it('starts every service and has each healthy, by its own health check', async () => {
    expect(services.sort()).toEqual([...APPS, 'jaeger', 'maildev', 'mongodb', 'rabbitmq', 'redis'].sort());
    for (const service of services)
      expect([service, (await inspect(containerOf(service))).State.Health?.Status]).toEqual([service, 'healthy']);
  });

  it('starts each app only once what it depends on has started and is healthy', async () => {
    const { services: config } = await composeConfig();
    for (const app of APPS) {
      const started = Date.parse((await inspect(containerOf(app))).State.StartedAt);
      for (const [dependency, { condition }] of Object.entries(config[app].depends_on as Record<string, { condition: string }>)) {
        expect([app, dependency, condition]).toEqual([app, dependency, 'service_healthy']);
        const dependencyStarted = Date.parse((await inspect(containerOf(dependency))).State.StartedAt);
        expect([app, dependency, dependencyStarted < started]).toEqual([app, dependency, true]);
      }
    }
  });

  it('answers the README’s walk through the API as the README says', async () => {
    const walkthrough = readWalkthrough();
    expect(walkthrough.variables.API).toBe(API);
    const { exitCode, calls, stderr } = await runScript(walkthrough.script, walkthrough.variables);
    expect([exitCode, stderr.split('\n').filter((line) => !line.startsWith(MARKER))]).toEqual([0, ['']]);
    expect(calls.map((call) => call.status)).toEqual(walkthrough.stated.map(({ status }) => status));
  });

  it('connects each app to the broker as its own user', async () => {
    const users = await podman('exec', containerOf('rabbitmq'), 'rabbitmqctl', '--quiet', 'list_connections', 'user');
    const connected = new Set(
      users
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && line !== 'user'),
    );
    expect([...connected].sort()).toEqual([...APPS].sort());
  });

  it('serves the broker’s management UI on 127.0.0.1:15672 to the operator', async () => {
    const { status, body } = await management('GET', '/whoami');
    expect([status, body.name]).toEqual([200, 'operator']);
  });

  it('has every app’s traces reach Jaeger, whose UI and API answer on 127.0.0.1:16686', async () => {
    const deadline = Date.now() + 60000;
    let traced: string[] = [];
    while (Date.now() < deadline) {
      const response = await fetch('http://localhost:16686/api/services');
      traced = ((await response.json()) as { data: string[] | null }).data ?? [];
      if (['gateway', 'properties', 'applications'].every((app) => traced.includes(app))) break;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    expect(traced).toEqual(expect.arrayContaining(['gateway', 'properties', 'applications']));
    expect((await fetch('http://localhost:16686/')).status).toBe(200);
  });

  it('keeps MailDev’s inbox on 127.0.0.1:1080, where the notifications service sends', async () => {
    const response = await fetch('http://localhost:1080/api/email');
    expect(response.status).toBe(200);
    expect(Array.isArray(await response.json())).toBe(true);
  });

  it('keeps the database’s and the broker’s data through `docker-compose down` and `up`', async () => {
    const created = await api('POST', '/api/v2/properties', { property: { name: 'Kept Court' } });
    expect(created.status).toBe(201);
    const queue = '/queues/%2F/compose-kept';
    expect((await management('PUT', queue, { durable: true })).status).toBe(201);
    const published = await management('POST', '/exchanges/%2F/amq.default/publish', {
      routing_key: 'compose-kept',
      payload: 'kept',
      payload_encoding: 'string',
      properties: { delivery_mode: 2 },
    });
    expect(published.body).toEqual({ routed: true });

    await compose(['down']);
    await startStack();

    const kept = await api('GET', `/api/v2/properties/${created.body.property.id}`);
    expect([kept.status, kept.body.property.name]).toEqual([200, 'Kept Court']);
    expect((await management('GET', queue)).body.messages).toBe(1);
    expect((await management('DELETE', queue)).status).toBe(204);
  }, 600000);
});

describe('the images, run as the chart runs them', () => {
  /** `podman run` options for the chart's pod and container security contexts and its one writable mount. */
  const LOCKED_DOWN = ['--read-only', '--tmpfs', '/tmp:size=64m', '--user', '1000:1000', '--cap-drop', 'ALL'];
  const SECURITY = ['--security-opt', 'no-new-privileges'];

  async function startLockedDown(app: string): Promise<string> {
    const { services: config } = await composeConfig();
    const environment = Object.entries(config[app].environment as Record<string, string>).flatMap(([name, value]) => [
      '--env',
      `${name}=${value}`,
    ]);
    const name = `locked-down-${app}`;
    await podman(
      'run',
      '--detach',
      '--name',
      name,
      '--network',
      `${PROJECT}_default`,
      ...LOCKED_DOWN,
      ...SECURITY,
      ...environment,
      `rental-applications-${app}`,
      'node',
      'scripts/run-app.js',
      app,
    );
    return name;
  }

  async function probe(container: string, path: string): Promise<number> {
    const script = `fetch('http://127.0.0.1:' + process.env.HTTP_PORT + '${path}').then((r) => console.log(r.status), () => console.log(0))`;
    return Number((await podmanStatus('exec', container, 'node', '-e', script)).stdout.trim() || 0);
  }

  async function waitReady(container: string, seconds: number): Promise<void> {
    const deadline = Date.now() + seconds * 1000;
    while (Date.now() < deadline) {
      if ((await probe(container, '/health/ready')) === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    throw new Error(`${container} not ready after ${seconds} s:\n${await podman('logs', '--tail', '30', container)}`);
  }

  /** SIGTERM to the container's PID 1 (tini), and how long it took to exit, with what code. */
  async function terminate(container: string): Promise<{ seconds: number; exitCode: number }> {
    const started = Date.now();
    await podman('kill', '--signal', 'TERM', container);
    await podman('wait', container);
    return { seconds: (Date.now() - started) / 1000, exitCode: (await inspect(container)).State.ExitCode };
  }

  it.each(APPS)(
    '%s runs as the node user on a read-only root, answers its probes, and stops within its grace period on SIGTERM',
    async (app) => {
      const container = await startLockedDown(app);
      try {
        await waitReady(container, 120);
        expect(await probe(container, '/health/live')).toBe(200);
        expect((await podman('exec', container, 'id', '-u')).trim()).toBe('1000');
        const written = await podmanStatus('exec', container, 'node', '-e', "require('fs').writeFileSync('/app/written', 'x')");
        expect([written.code, written.stderr]).toEqual([1, expect.stringContaining('EROFS')]);
        expect(
          (await podmanStatus('exec', container, 'node', '-e', "require('fs').writeFileSync('/tmp/written', 'x')")).code,
        ).toBe(0);

        const { seconds, exitCode } = await terminate(container);
        const { preStopSleepSeconds, terminationGracePeriodSeconds } = values.apps[app].shutdown;
        expect(exitCode).toBe(0);
        expect(seconds).toBeLessThan(terminationGracePeriodSeconds - preStopSleepSeconds);
      } finally {
        await podmanStatus('rm', '--force', container);
      }
    },
    240000,
  );

  it('ship the production dependencies only, which their SBOM names every one of, and no sources or tests', async () => {
    const listing = await podman(
      'run',
      '--rm',
      '--entrypoint',
      'node',
      'rental-applications-gateway',
      '-e',
      `const fs = require('fs'), path = require('path'), found = [];
       const walk = (dir) => { for (const name of fs.readdirSync(dir)) {
         const at = path.join(dir, name);
         if (name.startsWith('@')) { walk(at); continue; }
         const manifest = path.join(at, 'package.json');
         if (fs.existsSync(manifest)) { const { name: n, version } = JSON.parse(fs.readFileSync(manifest)); found.push(n + '@' + version); }
         if (fs.existsSync(path.join(at, 'node_modules'))) walk(path.join(at, 'node_modules'));
       } };
       walk('node_modules');
       console.log(JSON.stringify({ packages: found, top: fs.readdirSync('.').sort(), dist: fs.readdirSync('dist/apps') }));`,
    );
    const image = JSON.parse(listing) as { packages: string[]; top: string[]; dist: string[] };
    expect(image.top).toEqual(['dist', 'node_modules', 'package.json', 'scripts']);
    expect(image.dist).toEqual(['gateway']);
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
    for (const development of ['typescript', 'jest', '@nestjs/cli', 'eslint']) {
      expect(lock.packages[`node_modules/${development}`].dev).toBe(true);
      expect(image.packages.some((found) => found.startsWith(`${development}@`))).toBe(false);
    }

    // Written by scripts/containers.sh before the suite enters its namespace, where npm's registry is not.
    const sbom = JSON.parse(readFileSync(process.env.SBOM_FILE ?? '', 'utf8')) as {
      components: { name: string; group?: string; version: string }[];
    };
    // A package installed under another's node_modules is listed among that one's components.
    const flatten = (components: Component[]): Component[] =>
      components.flatMap((component) => [component, ...flatten(component.components ?? [])]);
    const named = new Set(
      flatten(sbom.components).map(({ group, name, version }) => `${group ? `${group}/` : ''}${name}@${version}`),
    );
    expect(image.packages.length).toBeGreaterThan(100);
    expect(image.packages.filter((found) => !named.has(found))).toEqual([]);
  });

  it('loses no application when an applications instance is stopped in the middle of creating them', async () => {
    const property = await api('POST', '/api/v2/properties', { property: { name: 'Drained Court' } });
    const container = await startLockedDown('applications');
    try {
      await waitReady(container, 120);
      const keys = Array.from({ length: 40 }, (_, index) => `drain-${index}-${Date.now()}`);
      const retry = (index: number) => create(index);
      const create = (index: number) =>
        api(
          'POST',
          '/api/v2/applications',
          {
            application: {
              property_id: property.body.property.id,
              applicant: { first_name: 'Ada', last_name: `Lovelace ${index}`, email: `ada${index}@example.com` },
            },
          },
          { 'Idempotency-Key': keys[index] },
        );
      const first = Array.from({ length: 20 }, (_, index) => create(index));
      const stopped = terminate(container);
      const second = Array.from({ length: 20 }, (_, index) => create(20 + index));
      const answered = await Promise.all([...first, ...second]);
      expect((await stopped).exitCode).toBe(0);
      // A 503 says to retry, and the Idempotency-Key makes that safe: what it was asked for is then
      // made once, or found made.
      const answers = await Promise.all(answered.map(async (answer, index) => (answer.status === 503 ? retry(index) : answer)));

      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
      for (const answer of answers) {
        expect((await api('GET', `/api/v2/applications/${answer.body.application.id}`)).status).toBe(200);
      }
    } finally {
      await podmanStatus('rm', '--force', container);
    }
  }, 300000);
});
