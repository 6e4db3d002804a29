import { api, Api } from './support/http';
import { eventually } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';
import { KEYS, ServiceName, Stack } from '../tools/stack';

/**
 * Several replicas of each service starting at the same moment, as a rollout or a scale-up
 * starts them, run what every instance runs at boot (collections and indexes, the webhooks
 * service's slotting and listing of what an older version stored) side by side. The result must
 * be what one instance makes: on an empty database, and on one holding records stored the older
 * way.
 *
 * Four at once: the replicas of one service race only on its own database, so the services start
 * one after the other, four processes each; more than that on two cores makes the test a measure
 * of the machine's start-up time, not of the races, which four already have.
 */
const REPLICAS = 4;
const SERVICES: ServiceName[] = ['properties', 'applications', 'webhooks', 'notifications'];
const webhooks = '/api/v2/webhooks';

async function startAtOnce(stack: Stack, count: number): Promise<void> {
  for (const service of SERVICES) await Promise.all(Array.from({ length: count }, () => stack.startApp(service)));
}

async function stopServices(stack: Stack): Promise<void> {
  for (const service of SERVICES) await stack.stopApp(service);
}

/** Every collection of every service's database, with its indexes. */
async function schema(stack: Stack): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const service of SERVICES) {
    const connection = await stack.database(service);
    try {
      for (const { name } of await connection.db!.listCollections({}, { nameOnly: true }).toArray()) {
        const indexes = await connection.db!.collection(name).indexes();
        found[`${service}.${name}`] = indexes
          .map(({ name: index, key, unique, expireAfterSeconds }) =>
            [index, JSON.stringify(key), unique ? 'unique' : '', expireAfterSeconds ?? ''].join(' '),
          )
          .sort();
      }
    } finally {
      await connection.close();
    }
  }
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => a.localeCompare(b)));
}

/** What the API lists for both clients: webhooks, each one's deliveries, properties, applications. */
async function listings(client: Api): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {};
  for (const key of [KEYS.clientOne, KEYS.clientTwo]) {
    // Every page, cursor after cursor.
    const ids = async (path: string, field: string) => {
      const found: Array<number | string> = [];
      for (let cursor: string | null = null, first = true; first || cursor; first = false) {
        const separator = path.includes('?') ? '&' : '?';
        const answer = await client.get(cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path, { key });
        expect(answer.status).toBe(200);
        found.push(...(answer.body[field] as { id: number | string }[]).map((item) => item.id));
        cursor = answer.body.next_cursor ?? null;
      }
      return found;
    };
    const hooks = await ids(webhooks, 'webhooks');
    seen[`${key} webhooks`] = hooks;
    for (const id of hooks) {
      seen[`${key} webhook ${id} deliveries`] = (await ids(`${webhooks}/${id}/deliveries?limit=100`, 'deliveries')).sort();
    }
    seen[`${key} properties`] = await ids('/api/v2/properties?limit=100', 'properties');
    seen[`${key} applications`] = await ids('/api/v2/applications?limit=100', 'applications');
  }
  return seen;
}

describe(`${REPLICAS} replicas of each service starting at once`, () => {
  let stack: Stack;
  let client: Api;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await Stack.start({
      instances: { properties: 0, applications: 0 },
      env: { EVENT_RELAY_INTERVAL_MS: '100', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
    client = api(stack.url);
  });

  afterAll(async () => {
    await receiver?.down();
    await stack?.stop();
  });

  it('make on an empty database what one makes', async () => {
    await startAtOnce(stack, 1);
    const one = await schema(stack);
    await stopServices(stack);
    for (const service of SERVICES) {
      const connection = await stack.database(service);
      await connection.dropDatabase();
      await connection.close();
    }

    await startAtOnce(stack, REPLICAS);
    expect(await schema(stack)).toEqual(one);
  }, 300000);

  it('slot and list what an older version stored as one would, once each', async () => {
    // Made by the replicas now running, then stored back the way a version before the
    // subscription slots and the delivery lists stored it.
    for (const [key, count] of [
      [KEYS.clientOne, 3],
      [KEYS.clientTwo, 2],
    ] as const) {
      for (let i = 0; i < count; i++) {
        const answer = await client.post(webhooks, { webhook: { url: receiver.url, events: ['property.created'] } }, { key });
        expect(answer.status).toBe(201);
      }
      for (let i = 0; i < 6; i++) {
        const property = (await client.post('/api/v2/properties', { property: { name: `p${i}` } }, { key })).body.property;
        const applicant = { first_name: 'A', last_name: 'B', email: 'a@example.com' };
        expect(
          (await client.post('/api/v2/applications', { application: { property_id: property.id, applicant } }, { key })).status,
        ).toBe(201);
      }
    }
    const webhooksDb = await stack.database('webhooks');
    try {
      const deliveries = webhooksDb.collection('deliveries');
      await eventually('every delivery to be made', async () => (await deliveries.countDocuments()) === 3 * 6 + 2 * 6, {
        timeoutMs: 30000,
        intervalMs: 200,
      });
      const before = await listings(client);
      const schemaBefore = await schema(stack);
      await stopServices(stack);
      await webhooksDb.collection('subscriptions').updateMany({}, { $unset: { slot: '' } });
      await webhooksDb.collection('subscription_slots').deleteMany({});
      await deliveries.updateMany({}, { $unset: { list_position: '' } });
      await webhooksDb.collection('delivery_index').deleteMany({});

      await startAtOnce(stack, REPLICAS);
      await eventually(
        'every subscription slotted and every delivery listed',
        async () =>
          (await webhooksDb.collection('subscriptions').countDocuments({ slot: { $exists: false } })) === 0 &&
          (await deliveries.countDocuments({ list_position: { $exists: false } })) === 0,
        { timeoutMs: 60000, intervalMs: 500 },
      );
      expect(await listings(client)).toEqual(before);
      expect(await schema(stack)).toEqual(schemaBefore);
      expect(stack.running('webhooks').every(({ child }) => child.exitCode === null)).toBe(true);
    } finally {
      await webhooksDb.close();
    }
  }, 300000);
});
