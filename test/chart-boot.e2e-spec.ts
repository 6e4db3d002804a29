import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { BrokerUser, definedPermissions } from './support/broker-users';
import { eventually } from './support/wait';
import { KubeObject, ofKind, renderChart } from '../tools/chart';
import { freePort, removeBrokerObjects, terminate } from '../tools/stack';

const ROOT = join(__dirname, '..');
/** The example that turns everything on and carries the chart's own Secret. */
const EXAMPLE = 'development';
/** Where the Dockerfile puts the app (its WORKDIR): the repository root here. */
const IMAGE_WORKDIR = '/app';
/**
 * Six apps start at once, each buffering its log until its broker and database connections are up:
 * on a 2-core machine shared with other work that takes well over the 30 s one app is given.
 */
const READY_TIMEOUT_MS = 120000;

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
  };
}

interface Container {
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: EnvVar[];
  ports: Array<{ name: string; containerPort: number }>;
}

interface Deployment extends KubeObject {
  spec: { template: { spec: { containers: Container[] } } };
}

interface Started {
  app: string;
  child: ChildProcess;
  output: string[];
  operationsPort: number;
}

/**
 * The environment the image itself sets (the runtime stage's ENV lines of the Dockerfile), under
 * which the container's own runs: NODE_ENV=production among them, which the form judges its
 * settings by.
 */
function imageEnvironment(app: string): Record<string, string> {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.search(/^FROM .* AS runtime$/m));
  const env: Record<string, string> = {};
  for (const [, name, value] of runtime.matchAll(/^ENV ([A-Z_]+)=(\S+)$/gm)) env[name] = value.replace('${APP}', app);
  return env;
}

/** What a rendered Secret or ConfigMap holds, by its name and key. */
function storedValues(objects: KubeObject[]): Map<string, Record<string, string>> {
  const stored = new Map<string, Record<string, string>>();
  for (const object of [...ofKind(objects, 'Secret'), ...ofKind(objects, 'ConfigMap')]) {
    const { data = {}, stringData = {} } = object as { data?: Record<string, string>; stringData?: Record<string, string> };
    const decoded = Object.fromEntries(
      Object.entries(data).map(([key, value]) => [
        key,
        object.kind === 'Secret' ? Buffer.from(value, 'base64').toString() : value,
      ]),
    );
    stored.set(`${object.kind}/${object.metadata.name}`, { ...decoded, ...stringData });
  }
  return stored;
}

/** A container's environment as the kubelet gives it: the image's, then each entry, references resolved. */
function containerEnvironment(
  app: string,
  container: Container,
  stored: Map<string, Record<string, string>>,
): Record<string, string> {
  const env = imageEnvironment(app);
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) {
      env[variable.name] = variable.value;
      continue;
    }
    const [kind, ref] = variable.valueFrom?.secretKeyRef
      ? ['Secret', variable.valueFrom.secretKeyRef]
      : ['ConfigMap', variable.valueFrom?.configMapKeyRef];
    if (!ref) throw new Error(`${app}: ${variable.name} has neither a value nor a reference the check knows`);
    const value = stored.get(`${kind}/${ref.name}`)?.[ref.key];
    if (value !== undefined) env[variable.name] = value;
    else if (!ref.optional)
      throw new Error(`${app}: ${variable.name} names ${kind} ${ref.name} key ${ref.key}, which the chart does not render`);
  }
  return env;
}

/**
 * What the check changes in each app's environment: the addresses of what the cluster has and this
 * machine has elsewhere, the ports (several apps share this host) and the queue and database
 * prefix (several suites share the broker and the database server). Nothing else.
 */
async function substituteAddresses(env: Record<string, string>, namespace: string): Promise<Record<string, string>> {
  const local: Record<string, string> = { ...env, NAMESPACE: namespace };
  const testBroker = new URL(process.env.AMQP_URL!);
  const broker = new URL(env.AMQP_URL);
  broker.protocol = testBroker.protocol;
  broker.host = testBroker.host;
  local.AMQP_URL = broker.toString();
  local.MONGODB_URI = process.env.MONGODB_URI!;
  local.HTTP_PORT = String(await freePort());
  if (env.PORT) local.PORT = String(await freePort());
  if (env.FORM_PORT) local.FORM_PORT = String(await freePort());
  if (env.REDIS_URL) local.REDIS_URL = 'redis://127.0.0.1:6379';
  // Nothing listens there: the notifications service and the tracing exporter connect only when they send.
  if (env.SMTP_URL) local.SMTP_URL = `smtp://127.0.0.1:${await freePort()}`;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) local.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${await freePort()}`;
  return local;
}

/** The container's command line, run from the repository root where the image runs it from its WORKDIR. */
function commandLine(app: string, container: Container): string[] {
  // No command: the image's entrypoint, tini, which only forwards signals to what it runs.
  if (container.command) throw new Error(`${app}: the chart sets a command; the check knows only the image's entrypoint`);
  if (container.workingDir && container.workingDir !== IMAGE_WORKDIR)
    throw new Error(`${app}: workingDir ${container.workingDir}`);
  const [program, ...args] = container.args ?? [];
  if (program !== 'node') throw new Error(`${app}: the container runs ${program}, not node`);
  return [process.execPath, ...args.map((arg) => arg.replace(new RegExp(`^${IMAGE_WORKDIR}/`), `${ROOT}/`))];
}

async function isReady(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200;
  } catch {
    return false;
  }
}

/**
 * The chart tied to the code: each Deployment of the example that turns everything on runs its
 * app with exactly its command, arguments and environment (the Secret's entries resolved, the
 * image's own environment under them), against this machine's broker and database, each app as
 * the broker user the chart gives it with the permissions docker/rabbitmq/definitions.json defines.
 * Only addresses, ports and the queue prefix are substituted. Every app must start and answer
 * ready on its operations port: a setting an app refuses, or one the chart forgets, fails here.
 */
describe('the chart with values-development.yaml', () => {
  const namespace = `t${randomBytes(4).toString('hex')}_`;
  const objects = renderChart(EXAMPLE);
  const stored = storedValues(objects);
  const deployments = ofKind<Deployment>(objects, 'Deployment');
  const users: BrokerUser[] = [];
  const started: Started[] = [];
  const environments = new Map<string, Record<string, string>>();

  beforeAll(async () => {
    for (const deployment of deployments) {
      const app = deployment.metadata.labels!['app.kubernetes.io/component'];
      const container = deployment.spec.template.spec.containers[0];
      const env = containerEnvironment(app, container, stored);
      environments.set(app, env);
      const { username, password } = new URL(env.AMQP_URL);
      users.push(await BrokerUser.create(username, password, definedPermissions(app, namespace)));
    }
  }, 120000);

  afterAll(async () => {
    await Promise.all(started.map(({ child }) => terminate(child, 'SIGTERM')));
    for (const user of users) await user.remove();
    await removeBrokerObjects(namespace, {});
    for (const service of ['properties', 'applications', 'webhooks', 'notifications']) {
      const connection = await mongoose
        .createConnection(process.env.MONGODB_URI!, { dbName: `${namespace}${service}` })
        .asPromise();
      await connection.dropDatabase();
      await connection.close();
    }
  });

  it('runs the six apps', () => {
    expect(deployments.map((d) => d.metadata.labels!['app.kubernetes.io/component']).sort()).toEqual(
      ['applications', 'form', 'gateway', 'notifications', 'properties', 'webhooks'].sort(),
    );
  });

  it('gives the form no key that opens what is stored', () => {
    expect(Object.keys(environments.get('form')!)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^(FIELD_ENCRYPTION_KEYS|FORM_SEALING_KEYS|FINGERPRINT_KEYS)$/)]),
    );
  });

  it('starts every app, which answers ready on its operations port', async () => {
    for (const deployment of deployments) {
      const app = deployment.metadata.labels!['app.kubernetes.io/component'];
      const container = deployment.spec.template.spec.containers[0];
      const env = await substituteAddresses(environments.get(app)!, namespace);
      const [program, ...args] = commandLine(app, container);
      const child = spawn(program, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const output: string[] = [];
      child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      started.push({ app, child, output, operationsPort: Number(env.HTTP_PORT) });
    }
    for (const { app, child, output, operationsPort } of started) {
      await eventually(
        `${app} to answer ready on its operations port`,
        async () => {
          if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}:\n${output.join('')}`);
          return isReady(operationsPort);
        },
        { timeoutMs: READY_TIMEOUT_MS, intervalMs: 250 },
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${app} printed:\n${output.join('').slice(-4000)}`);
      });
    }
  }, 240000);
});
