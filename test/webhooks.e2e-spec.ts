import { Webhook } from 'standardwebhooks';
import { KEYS, Stack } from '../tools/stack';
import { Api, expectErrorBody } from './support/http';
import { scrape, valueOf } from './support/metrics';
import { eventually } from './support/wait';
import { startWebhookStack, stopWebhookStack, WebhookReceiver } from './support/webhook-receiver';

const webhooks = '/api/v2/webhooks';

describe('webhooks', () => {
  let stack: Stack;
  let client: Api;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ({ stack, client, receiver } = await startWebhookStack({ WEBHOOK_RETRY_SCHEDULE: '1,1,1', DB_COMMAND_METRICS: 'true' }));
  });

  afterAll(() => stopWebhookStack({ stack, receiver }));

  const subscribe = async (events: string[], url = receiver.url) => {
    const answer = await client.post(webhooks, { webhook: { url, events } });
    expect(answer.status).toBe(201);
    return answer.body.webhook;
  };
  const deliveries = async (id: number) => {
    const answer = await client.get(`${webhooks}/${id}/deliveries`);
    expect(answer.status).toBe(200);
    return answer.body.deliveries as any[];
  };
  const createProperty = async (name: string) => (await client.post('/api/v2/properties', { property: { name } })).body.property;

  it('shows the secret once, and only to the client that subscribed', async () => {
    const webhook = await subscribe(['property.created']);
    expect(webhook).toEqual({
      id: expect.any(Number),
      url: receiver.url,
      events: ['property.created'],
      created_at: expect.stringMatching(/\+00:00$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const { secret, ...shown } = webhook;
    expect(secret).toBeDefined();
    expect((await client.get(`${webhooks}/${webhook.id}`)).body).toEqual({ webhook: shown });
    expect((await client.get(webhooks)).body.webhooks).toContainEqual(shown);

    const other = await client.get(`${webhooks}/${webhook.id}`, { key: KEYS.clientTwo });
    expect(other.status).toBe(404);
    expectErrorBody(other, `webhook ${webhook.id} cannot be found`);
    expect((await client.get(webhooks, { key: KEYS.clientTwo })).body).toEqual({ webhooks: [] });
    expect((await client.delete(`${webhooks}/${webhook.id}`, { key: KEYS.clientTwo })).status).toBe(404);
    expect((await client.get(`${webhooks}/${webhook.id}/deliveries`, { key: KEYS.clientTwo })).status).toBe(404);
    expect((await client.delete(`${webhooks}/${webhook.id}`)).status).toBe(200);
    expect((await client.get(`${webhooks}/${webhook.id}`)).status).toBe(404);
  });

  it('refuses an unknown event and a URL that is no URL', async () => {
    const answer = await client.post(webhooks, { webhook: { url: 'ftp://x', events: ['property.exploded'] } });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.map((d: any) => d.field).sort()).toEqual(['webhook.events', 'webhook.url']);
  });

  it('answers a host that does not resolve with a 503 to retry later, kept by no Idempotency-Key', async () => {
    const key = `unresolved-${Date.now()}`;
    const request = { webhook: { url: 'https://hooks.example.invalid/events', events: ['property.created'] } };
    for (const _try of ['first', 'retry']) {
      const answer = await client.post(webhooks, request, { headers: { 'Idempotency-Key': key } });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expectErrorBody(
        answer,
        'webhook.url host does not resolve, or resolves to a loopback, private or link-local address (allowed only when the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true); retry later if its DNS records are new',
      );
    }
    const database = await stack.database('webhooks');
    try {
      expect(await database.collection('idempotency_outcomes').countDocuments({ _id: `1:${key}` as never })).toBe(0);
    } finally {
      await database.close();
    }
  });

  // Before any test that leaves deliveries failing: their retries would write too.
  it('updates a delivered event’s delivery once, with its outcome: nothing marks its attempt queued', async () => {
    const webhook = await subscribe(['property.created']);
    const updates = async () =>
      valueOf(await scrape(stack.process('webhooks').operationsUrl), 'db_commands_total', { command: 'update' });
    const before = await updates();
    await createProperty('Counted');
    await eventually('the delivery succeeded', async () => (await deliveries(webhook.id))[0]?.status === 'succeeded');

    expect((await updates()) - before).toBe(1);
    await client.delete(`${webhooks}/${webhook.id}`);
  });

  it('delivers the events subscribed to, signed so that the standardwebhooks library verifies them', async () => {
    const webhook = await subscribe(['property.created', 'application.created']);
    const property = await createProperty('Signed');
    expect((await client.patch(`/api/v2/properties/${property.id}`, { property: { zip: '1' } })).status).toBe(200);
    const application = (
      await client.post('/api/v2/applications', {
        application: { property_id: property.id, applicant: { first_name: 'A', last_name: 'B', email: 'a@example.com' } },
      })
    ).body.application;

    const list = await eventually('both deliveries succeeded', async () => {
      const found = await deliveries(webhook.id);
      return found.length === 2 && found.every((d) => d.status === 'succeeded') && found;
    });
    expect(list.map((d) => d.event).sort()).toEqual(['application.created', 'property.created']);
    const verifier = new Webhook(webhook.secret);
    for (const delivery of list) {
      const [request] = receiver.forEvent(delivery.id);
      const body = verifier.verify(request.body, request.headers) as any;
      expect(body).toEqual({
        id: delivery.id,
        event: delivery.event,
        test_mode: false,
        created_at: expect.stringMatching(/\+00:00$/),
        data:
          delivery.event === 'property.created'
            ? { property_id: property.id }
            : { application_id: application.id, property_id: property.id },
      });
      expect(delivery.attempts).toEqual([
        {
          number: 1,
          attempted_at: expect.any(String),
          success: true,
          response_status: 204,
          error: null,
          duration_ms: expect.any(Number),
        },
      ]);
    }
    // A signature made with another secret is refused by the same library.
    const [request] = receiver.forEvent(list[0].id);
    expect(() => new Webhook('whsec_' + Buffer.alloc(24, 1).toString('base64')).verify(request.body, request.headers)).toThrow();
    await client.delete(`${webhooks}/${webhook.id}`);
  });

  it('sends a test_mode event on demand, and delivers any delivery again with the same webhook-id', async () => {
    const webhook = await subscribe(['application_form.completed']);
    const answer = await client.post(`${webhooks}/${webhook.id}/test`, {});
    expect(answer.status).toBe(201);
    const id = answer.body.delivery.id;
    await eventually('the test event', () => receiver.forEvent(id).length === 1);
    const body = new Webhook(webhook.secret).verify(receiver.forEvent(id)[0].body, receiver.forEvent(id)[0].headers) as any;
    expect(body).toMatchObject({ id, event: 'application_form.completed', test_mode: true });

    expect((await client.post(`${webhooks}/${webhook.id}/deliveries/${id}/redeliver`, {})).status).toBe(200);
    await eventually('the redelivery', () => receiver.forEvent(id).length === 2);
    await eventually('both attempts listed', async () => (await deliveries(webhook.id))[0].attempts.length === 2);
    expect((await client.post(`${webhooks}/${webhook.id}/deliveries/evt_unknown/redeliver`, {})).status).toBe(404);
    await client.delete(`${webhooks}/${webhook.id}`);
  });

  it('takes the body-less POSTs with no body, whether or not they say it is JSON', async () => {
    const webhook = await subscribe(['application_form.completed']);
    const test = await client.post(`${webhooks}/${webhook.id}/test`, undefined, {
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(test.status).toBe(201);
    const id = test.body.delivery.id;
    const redeliver = await client.post(`${webhooks}/${webhook.id}/deliveries/${id}/redeliver`);
    expect(redeliver.status).toBe(200);
    await eventually('both attempts at the receiver', () => receiver.forEvent(id).length === 2);
    await client.delete(`${webhooks}/${webhook.id}`);
  });

  it('retries a receiver that is down until it is back: one success, the failures before it listed', async () => {
    const webhook = await subscribe(['property.created']);
    await receiver.down();
    const property = await createProperty('While down');
    await eventually('two failed attempts', async () => {
      const [delivery] = await deliveries(webhook.id);
      return delivery?.attempts.length >= 2;
    });
    await receiver.up();
    const [delivery] = await eventually('the delivery succeeded', async () => {
      const found = await deliveries(webhook.id);
      return found[0]?.status === 'succeeded' && found;
    });
    expect(delivery.attempts.filter((a: any) => a.success)).toHaveLength(1);
    expect(delivery.attempts.at(-1).success).toBe(true);
    expect(delivery.attempts.slice(0, -1).every((a: any) => !a.success && a.response_status === null && a.error)).toBe(true);
    expect(receiver.forEvent(delivery.id)).toHaveLength(1);
    const body = JSON.parse(receiver.forEvent(delivery.id)[0].body);
    expect(body.data).toEqual({ property_id: property.id });
    await client.delete(`${webhooks}/${webhook.id}`);
  });

  it('gives up after the schedule, the delivery failed with every attempt listed', async () => {
    const webhook = await subscribe(['property.created']);
    receiver.answer = (_request, response) => response.writeHead(500).end('no');
    try {
      await createProperty('Always failing');
      const [delivery] = await eventually('the delivery failed', async () => {
        const found = await deliveries(webhook.id);
        return found[0]?.status === 'failed' && found;
      });
      // The first attempt and one retry per entry of WEBHOOK_RETRY_SCHEDULE.
      expect(delivery.attempts.map((a: any) => a.response_status)).toEqual([500, 500, 500, 500]);
      expect(new Set(receiver.forEvent(delivery.id).map((r) => r.headers['webhook-id'])).size).toBe(1);
    } finally {
      receiver.answer = (_request, response) => response.writeHead(204).end();
      await client.delete(`${webhooks}/${webhook.id}`);
    }
  });

  it('loses nothing when the webhooks instance is SIGKILLed mid-delivery', async () => {
    const webhook = await subscribe(['property.created']);
    let held = 0;
    receiver.answer = (_request, response) => {
      // The first request is never answered: the instance dies while it waits.
      if (held++ === 0) return;
      response.writeHead(204).end();
    };
    try {
      await createProperty('Killed mid-delivery');
      await eventually('the first attempt under way', () => held === 1);
      await stack.signal(stack.process('webhooks'), 'SIGKILL');
      await stack.startApp('webhooks');
      const [delivery] = await eventually(
        'the delivery succeeded',
        async () => {
          const found = await deliveries(webhook.id);
          return found[0]?.status === 'succeeded' && found;
        },
        { timeoutMs: 30000 },
      );
      expect(receiver.forEvent(delivery.id).length).toBeGreaterThanOrEqual(2);
    } finally {
      receiver.answer = (_request, response) => response.writeHead(204).end();
      await client.delete(`${webhooks}/${webhook.id}`);
    }
  });
});
