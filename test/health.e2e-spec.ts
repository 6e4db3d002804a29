import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { api, Api } from './support/http';
import { AppName, freePort, RunningProcess, Stack } from '../tools/stack';
import { hostAndPort, TcpProxy } from './support/tcp-proxy';
import { scrape, valueOf } from './support/metrics';
import { eventually } from './support/wait';

interface Readiness {
  status: number;
  body: any;
  headers: Headers;
}

async function readiness(baseUrl: string): Promise<Readiness> {
  const response = await fetch(`${baseUrl}/health/ready`);
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** Waits until `baseUrl` reports `status`, and returns that answer. */
function readinessBecomes(baseUrl: string, status: number): Promise<Readiness> {
  return eventually(`${baseUrl}/health/ready to answer ${status}`, async () => {
    const answer = await readiness(baseUrl);
    return answer.status === status ? answer : null;
  });
}

/** The documented 503: the error body, naming the failing parts, with terminus's result as details. */
function expectNotReady(answer: Readiness, failing: string[], up: string[]): void {
  expect(answer.status).toBe(503);
  expect(Object.keys(answer.body)).toEqual(['error']);
  expect(Object.keys(answer.body.error)).toEqual(['message', 'details']);
  expect(answer.body.error.message).toBe(`not ready: ${failing.join(', ')}`);
  expect(Object.keys(answer.body.error.details.error)).toEqual(failing);
  for (const part of failing)
    expect(answer.body.error.details.error[part]).toMatchObject({ status: 'down', message: expect.any(String) });
  for (const part of up) expect(answer.body.error.details.info[part]).toEqual({ status: 'up' });
}

/**
 * Runs the healthcheck docker-compose.yml gives `app`, as Docker would inside its container,
 * with the app's port in its environment; resolves with the exit code (0 is healthy).
 */
async function composeHealthcheck(app: AppName, port: string): Promise<number | null> {
  const compose = parse(readFileSync(join(__dirname, '..', 'docker-compose.yml'), 'utf8'), { merge: true });
  const [form, command, ...args] = compose.services[app].healthcheck.test as string[];
  expect([form, command]).toEqual(['CMD', 'node']);
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH, HTTP_PORT: port }, stdio: 'ignore' });
  const [code] = await once(child, 'exit');
  return code;
}

const portOf = (url: string) => new URL(url).port;

describe('health of the running stack', () => {
  let stack: Stack;
  let client: Api;

  /** The operators' listener of the stack's first gateway. */
  const gatewayOperations = () => stack.running('gateway')[0].operationsUrl;

  beforeAll(async () => {
    stack = await Stack.start();
    client = api(stack.url);
  });

  afterAll(() => stack?.stop());

  it('says the gateway and each service are live and ready, naming every part it checked', async () => {
    const live = await api(gatewayOperations()).get('/health/live', { key: null });
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok', info: {}, error: {}, details: {} });
    expect(live.headers.get('cache-control')).toContain('no-store');

    const gateway = await readiness(gatewayOperations());
    expect(gateway.status).toBe(200);
    expect(gateway.body.info).toEqual({ broker: { status: 'up' }, properties: { status: 'up' }, applications: { status: 'up' } });
    for (const service of ['properties', 'applications'] as const) {
      const { httpUrl } = stack.process(service);
      expect((await fetch(`${httpUrl}/health/live`)).status).toBe(200);
      const ready = await readiness(httpUrl);
      expect(ready.status).toBe(200);
      expect(ready.body.info).toEqual({ database: { status: 'up' }, broker: { status: 'up' } });
    }
  });

  it('keeps the probes and the metrics off the API port, which any caller reaches', async () => {
    for (const path of ['/health/live', '/health/ready', '/metrics']) {
      expect((await client.get(path, { key: null })).status).toBe(404);
      expect((await client.get(path)).status).toBe(404);
    }
  });

  it('checks readiness at most once every few seconds, however often it is asked', async () => {
    const pings = async () =>
      valueOf(await scrape(stack.process('properties').operationsUrl), 'messages_handled_total', { pattern: 'properties.ping' });
    await readinessBecomes(gatewayOperations(), 200);
    const before = await pings();
    const answers = await Promise.all(Array.from({ length: 50 }, () => readiness(gatewayOperations())));
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    // One check, or two if the probes straddle the end of a period: never one per probe.
    expect((await pings()) - before).toBeLessThanOrEqual(2);
  });

  it('passes the docker-compose healthcheck of each app while it is ready, and fails it where nothing listens', async () => {
    expect(await composeHealthcheck('gateway', portOf(gatewayOperations()))).toBe(0);
    for (const service of ['properties', 'applications'] as const) {
      expect(await composeHealthcheck(service, portOf(stack.process(service).httpUrl))).toBe(0);
    }
    expect(await composeHealthcheck('properties', String(await freePort()))).toBe(1);
  });

  it.each(['properties', 'applications'] as const)(
    'turns the gateway’s readiness to 503 naming %s while it is stopped, and back to 200 once it runs',
    async (service) => {
      await stack.stopApp(service);
      const down = await readinessBecomes(gatewayOperations(), 503);
      expectNotReady(down, [service], ['broker']);
      expect(await composeHealthcheck('gateway', portOf(gatewayOperations()))).toBe(1);

      await stack.startApp(service);
      const up = await readinessBecomes(gatewayOperations(), 200);
      expect(up.body.info[service]).toEqual({ status: 'up' });
    },
  );

  describe('when the parts behind a process go away', () => {
    let database: TcpProxy;
    let broker: TcpProxy;
    let service: RunningProcess;
    let gateway: RunningProcess;

    beforeAll(async () => {
      database = await TcpProxy.start(hostAndPort(process.env.MONGODB_URI!, 27017));
      broker = await TcpProxy.start(hostAndPort(process.env.AMQP_URL!, 5672));
      const throughProxies = {
        MONGODB_URI: database.rewrite(process.env.MONGODB_URI!),
        AMQP_URL: broker.rewrite(process.env.AMQP_URL!),
      };
      service = await stack.startApp('properties', throughProxies);
      gateway = await stack.startApp('gateway', { ...throughProxies, PORT: String(await freePort()) });
    });

    afterAll(async () => {
      await database?.cut();
      await broker?.cut();
    });

    it('turns a service’s readiness to 503 naming its database while it is unreachable, and back to 200', async () => {
      expect((await readiness(service.httpUrl)).status).toBe(200);

      await database.cut();
      const down = await readinessBecomes(service.httpUrl, 503);
      expectNotReady(down, ['database'], ['broker']);
      expect((await fetch(`${service.httpUrl}/health/live`)).status).toBe(200);

      await database.restore();
      await readinessBecomes(service.httpUrl, 200);
    });

    it('turns the readiness of a service and of the gateway to 503 naming the broker while it is unreachable, and back to 200', async () => {
      expect((await readiness(gateway.operationsUrl)).status).toBe(200);

      await broker.cut();
      expectNotReady(await readinessBecomes(service.httpUrl, 503), ['broker'], ['database']);
      const gatewayDown = await readinessBecomes(gateway.operationsUrl, 503);
      expect(gatewayDown.body.error.message).toMatch(/^not ready: broker\b/);

      await broker.restore();
      await readinessBecomes(service.httpUrl, 200);
      await readinessBecomes(gateway.operationsUrl, 200);
    });
  });
});
