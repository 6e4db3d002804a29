import { connect } from 'amqplib';
import { queueName } from '@app/contracts';
import { api } from './support/http';
import { beyondRetryable, Load, stopEveryLoad, storedByName, tally } from './support/load';
import { RoundRobinBalancer } from './support/tcp-proxy';
import { eventually } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';
import { freePort, RunningProcess, Stack } from '../tools/stack';

/**
 * Instances stopped as Kubernetes stops a pod, under steady load: two of each, one gets SIGTERM;
 * for a gateway, after it left the balancer's rotation and a preStop-like wait. Nothing is lost
 * or doubled, and no caller sees more than the documented retryable answers (503 with
 * Retry-After, 409 for a key still being worked on): no connection reset, no other error.
 *
 * Each stop's time is printed: terminationGracePeriodSeconds and the preStop wait are set from it.
 */
const WORKERS = 8;
/** How long a stopping process may take (it gives up itself at 9.5 s). */
const STOP_BOUND_MS = 10000;
const drainTimes: string[] = [];

async function expectNothingLostOrDoubled(stack: Stack, load: Load): Promise<void> {
  await load.stop();
  const counts = tally('drain', load, await storedByName(stack, load), null);
  expect(beyondRetryable(load.attempts)).toEqual([]);
  expect(counts.succeeded).toBeGreaterThan(0);
  expect(counts.lostCreates).toEqual([]);
  expect(counts.duplicates).toBe(0);
}

/** SIGTERM to `target`, expecting a clean exit within the bound; records how long it took. */
async function stopAsKubernetesDoes(stack: Stack, target: RunningProcess, label: string): Promise<void> {
  const { code, ms } = await stack.signal(target, 'SIGTERM');
  drainTimes.push(`${label}: ${ms} ms`);
  if (code !== 0) process.stdout.write(`${label} exited ${code}:\n${target.output.join('').slice(-4000)}\n`);
  expect(code).toBe(0);
  expect(ms).toBeLessThan(STOP_BOUND_MS);
}

describe('drains under load', () => {
  let stack: Stack | undefined;
  let balancer: RoundRobinBalancer | undefined;

  afterEach(async () => {
    await stopEveryLoad();
    await balancer?.stop();
    await stack?.stop();
    balancer = undefined;
    stack = undefined;
  });

  afterAll(() => process.stdout.write(`\nstop times under load\n${drainTimes.join('\n')}\n`));

  it('loses, doubles and refuses nothing when one of two instances of a service stops', async () => {
    stack = await Stack.start({ instances: { properties: 2, applications: 2 } });
    const client = api(stack.url);
    const propertyId = (await client.post('/api/v2/properties', { property: { name: 'Under load' } })).body.property.id;
    const load = new Load(client, { workers: WORKERS, propertyId }).start();
    await load.successes(20);

    // The applications service, then the properties service, which it and the gateway ask.
    for (const service of ['applications', 'properties'] as const) {
      const target = stack.running(service)[0];
      await stopAsKubernetesDoes(stack, target, `${service} service`);
      expect(target.output.join('')).toContain('every message taken was settled');
      await load.successes(20);
    }
    await expectNothingLostOrDoubled(stack, load);
  });

  it('sends a webhook once when the instance whose attempt is under way stops', async () => {
    stack = await Stack.start({
      instances: { webhooks: 1 },
      env: { EVENT_RELAY_INTERVAL_MS: '100', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
    const receiver = await WebhookReceiver.start();
    try {
      const held: Array<() => void> = [];
      receiver.answer = (_request, response) => held.push(() => response.writeHead(204).end());
      const client = api(stack.url);
      expect(
        (await client.post('/api/v2/webhooks', { webhook: { url: receiver.url, events: ['property.created'] } })).status,
      ).toBe(201);
      expect((await client.post('/api/v2/properties', { property: { name: 'Held Court' } })).status).toBe(201);
      const [first] = stack.running('webhooks');
      await eventually('the attempt under way', () => held.length === 1);
      // Another instance, to take whatever the stopping one gives back to the queue.
      const second = await stack.startApp('webhooks');
      const stopping = stack.signal(first, 'SIGTERM');
      await eventually('the first instance stopping', () => first.output.join('').includes('SIGTERM: stopping'));
      receiver.answer = (_request, response) => response.writeHead(204).end();
      held.splice(0).forEach((answer) => answer());
      expect((await stopping).code).toBe(0);
      expect((await stack.signal(second, 'SIGTERM')).code).toBe(0);
      // Both stopped, each having settled what it took: the one request, and nothing left queued.
      const connection = await connect(process.env.AMQP_URL!);
      try {
        const channel = await connection.createChannel();
        const deliveries = queueName(stack.namespace, 'webhooks.deliveries');
        expect((await channel.checkQueue(deliveries)).messageCount).toBe(0);
      } finally {
        await connection.close();
      }
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.down();
    }
  });

  it('answers every request on the connections a gateway keeps, once it left the rotation and stops', async () => {
    stack = await Stack.start({ instances: { properties: 1, applications: 1 } });
    const second = await stack.startApp('gateway', { PORT: String(await freePort()) });
    const [leaving] = stack.running('gateway');
    balancer = await RoundRobinBalancer.start([Number(leaving.env.PORT), Number(second.env.PORT)]);
    const client = api(balancer.url);
    const propertyId = (await client.post('/api/v2/properties', { property: { name: 'Under load' } })).body.property.id;
    const load = new Load(client, { workers: WORKERS, propertyId }).start();
    await load.successes(40);
    expect(balancer.connections.get(Number(leaving.env.PORT))).toBeGreaterThan(0);

    // Out of the endpoints; the clients keep their connections to it meanwhile (preStop).
    balancer.remove(Number(leaving.env.PORT));
    await load.successes(20);
    const servedBefore = answeredRequests(leaving);
    await stopAsKubernetesDoes(stack, leaving, 'gateway');
    // Its kept connections carried requests while it stopped: what is proven here was exercised.
    expect(answeredRequests(leaving)).toBeGreaterThan(servedBefore);
    await load.successes(20);
    await expectNothingLostOrDoubled(stack, load);
  });
});

/** How many API requests the gateway logged an answer to. */
function answeredRequests(gateway: RunningProcess): number {
  return gateway.logs.filter((record) => record.msg === 'request completed').length;
}
