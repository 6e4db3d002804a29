import { Webhook } from 'standardwebhooks';
import { FieldCipher } from '@app/crypto';
import { KEYS, Stack, testFieldKey } from '../tools/stack';
import { Api, expectErrorBody } from './support/http';
import { eventually } from './support/wait';
import { startWebhookStack, stopWebhookStack, WebhookReceiver } from './support/webhook-receiver';

const webhooks = '/api/v2/webhooks';
/** A key of its own, for the limit of test events and redeliveries alone. */
const SENDS_KEY = 'test-key-webhook-sends';
const MAX_SUBSCRIPTIONS = 3;
const SENDS_PER_MINUTE = 12;

/**
 * Signing secrets sealed at rest (the subscription and the idempotency outcome), opened under a
 * rotated key ring, rotated by the client; the limits on subscriptions, test events and
 * redeliveries; deliveries listed a page at a time.
 */
describe('webhook secrets, limits and delivery pages', () => {
  let stack: Stack;
  let client: Api;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ({ stack, client, receiver } = await startWebhookStack({
      API_KEYS: `${KEYS.clientOne}:1,${KEYS.clientTwo}:2,${SENDS_KEY}:3`,
      WEBHOOK_RETRY_SCHEDULE: '1',
      WEBHOOK_MAX_SUBSCRIPTIONS: String(MAX_SUBSCRIPTIONS),
      WEBHOOK_SENDS_PER_MINUTE: String(SENDS_PER_MINUTE),
    }));
  });

  afterAll(() => stopWebhookStack({ stack, receiver }));

  const subscribe = async (key: string = KEYS.clientOne, headers: Record<string, string> = {}) => {
    const answer = await client.post(
      webhooks,
      { webhook: { url: receiver.url, events: ['property.created'] } },
      { key, headers },
    );
    expect(answer.status).toBe(201);
    return answer.body.webhook;
  };

  /** Sends a test event and resolves with the request the receiver got. */
  const testEvent = async (id: number) => {
    const answer = await client.post(`${webhooks}/${id}/test`);
    expect(answer.status).toBe(201);
    const eventId = answer.body.delivery.id;
    await eventually('the test event at the receiver', () => receiver.forEvent(eventId).length === 1);
    return receiver.forEvent(eventId)[0];
  };
  const verifies = (secret: string, request: { body: string; headers: Record<string, string> }) => {
    try {
      new Webhook(secret).verify(request.body, request.headers);
      return true;
    } catch {
      return false;
    }
  };

  /** Every document of the webhooks database's `name` collection, as JSON. */
  const collection = async (name: string) => {
    const db = await stack.database('webhooks');
    try {
      return await db.collection(name).find({}).toArray();
    } finally {
      await db.close();
    }
  };
  const stored = async (id: number) => (await collection('subscriptions')).find((s) => s.id === id)!;

  it('keeps the secret sealed in the database and in the idempotency store, and replays it from there', async () => {
    const headers = { 'idempotency-key': 'sealed-secret-1' };
    const webhook = await subscribe(KEYS.clientOne, headers);
    const replay = await client.post(webhooks, { webhook: { url: receiver.url, events: ['property.created'] } }, { headers });
    expect(replay.status).toBe(201);
    expect(replay.body.webhook).toEqual(webhook);

    const everything = JSON.stringify([
      await collection('subscriptions'),
      await collection('idempotency_keys'),
      await collection('idempotency_outcomes'),
    ]);
    expect(everything).not.toContain(webhook.secret);
    expect(everything).not.toContain(webhook.secret.slice('whsec_'.length));
    expect(everything).not.toContain('whsec_');

    const owner = `client:1 webhook:${webhook.id}`;
    const cipher = new FieldCipher(stack.fieldEncryptionKeys);
    expect(cipher.open((await stored(webhook.id)).secret, 'webhook.secret', owner)).toBe(webhook.secret);
    const [outcome] = (await collection('idempotency_outcomes')).filter((o) => String(o._id) === '1:sealed-secret-1');
    expect(cipher.open(outcome.outcome.response.secret, 'webhook.secret', owner)).toBe(webhook.secret);
    // Bound to its subscription: the sealed secret does not open as another one's.
    const sealed = (await stored(webhook.id)).secret;
    expect(() => cipher.open(sealed, 'webhook.secret', 'client:2 webhook:1')).toThrow();

    expect(verifies(webhook.secret, await testEvent(webhook.id))).toBe(true);
    await client.delete(`${webhooks}/${webhook.id}`);
    expect((await stored(webhook.id)).secret).toBeUndefined();
  });

  it('signs with a secret stored in clear before secrets were sealed, and seals it when it is rotated', async () => {
    const id = 900_001;
    const clear = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
    const db = await stack.database('webhooks');
    try {
      await db.collection('subscriptions').insertOne({
        _id: String(id) as any,
        id,
        client_id: 1,
        url: receiver.url,
        events: ['property.created'],
        secret: clear,
        created_at: new Date(),
        deleted_at: null,
        request_key: 'message:stored-before-sealing',
      });
    } finally {
      await db.close();
    }
    expect(verifies(clear, await testEvent(id))).toBe(true);

    const rotated = await client.post(`${webhooks}/${id}/rotate_secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      webhook: {
        id,
        url: receiver.url,
        events: ['property.created'],
        created_at: expect.stringMatching(/\+00:00$/),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      },
    });
    const { secret } = rotated.body.webhook;
    expect(secret).not.toBe(clear);
    expect(JSON.stringify(await stored(id))).not.toContain('whsec_');
    expect((await client.get(`${webhooks}/${id}`)).body.webhook).not.toHaveProperty('secret');

    const request = await testEvent(id);
    expect(verifies(secret, request)).toBe(true);
    expect(verifies(clear, request)).toBe(false);

    const foreign = await client.post(`${webhooks}/${id}/rotate_secret`, undefined, { key: KEYS.clientTwo });
    expect(foreign.status).toBe(404);
    expectErrorBody(foreign, `webhook ${id} cannot be found`);
    await client.delete(`${webhooks}/${id}`);
  });

  it('opens secrets sealed under an old key once a new key is put first, and seals new ones under it', async () => {
    const before = await subscribe();
    const newKey = testFieldKey('t2');
    await stack.stopApp('webhooks');
    await stack.startApp('webhooks', { FIELD_ENCRYPTION_KEYS: `${newKey},${stack.fieldEncryptionKeys}` });

    expect(verifies(before.secret, await testEvent(before.id))).toBe(true);
    const after = await subscribe();
    expect(verifies(after.secret, await testEvent(after.id))).toBe(true);
    const keyIds = [(await stored(before.id)).secret.key_id, (await stored(after.id)).secret.key_id];
    expect(keyIds).toEqual([stack.fieldEncryptionKeys.split(':')[0], newKey.split(':')[0]]);
    await client.delete(`${webhooks}/${before.id}`);
    await client.delete(`${webhooks}/${after.id}`);
  });

  it(`refuses a client's webhook past ${MAX_SUBSCRIPTIONS} with a 409 that says so, until one is deleted`, async () => {
    const made = [];
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) made.push(await subscribe(KEYS.clientTwo));
    const refused = await client.post(
      webhooks,
      { webhook: { url: receiver.url, events: ['property.created'] } },
      { key: KEYS.clientTwo },
    );
    expect(refused.status).toBe(409);
    expectErrorBody(refused, `a client may have at most ${MAX_SUBSCRIPTIONS} webhooks; delete one before adding another`);
    expect(refused.body.error.details).toBeNull();
    // Another client's are not counted.
    await client.delete(`${webhooks}/${(await subscribe(KEYS.clientOne)).id}`);

    await client.delete(`${webhooks}/${made[0].id}`, { key: KEYS.clientTwo });
    made.push(await subscribe(KEYS.clientTwo));
    for (const webhook of made.slice(1)) await client.delete(`${webhooks}/${webhook.id}`, { key: KEYS.clientTwo });
  });

  it('redelivers one delivery 10 times at most, and says so', async () => {
    // Client two's key, whose sends no other test spends.
    const key = KEYS.clientTwo;
    const webhook = await subscribe(key);
    const test = await client.post(`${webhooks}/${webhook.id}/test`, undefined, { key });
    const redeliver = () =>
      client.post(`${webhooks}/${webhook.id}/deliveries/${test.body.delivery.id}/redeliver`, undefined, { key });
    // All at once, while their attempts update the delivery: exactly ten are taken.
    const answers = await Promise.all(Array.from({ length: 11 }, () => redeliver()));
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(10).fill(200), 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expectErrorBody(refused, `delivery ${test.body.delivery.id} cannot be redelivered more than 10 times`);
    await client.delete(`${webhooks}/${webhook.id}`, { key });
  });

  it(`lets a key ask for ${SENDS_PER_MINUTE} test events and redeliveries a minute, then answers 429 with Retry-After`, async () => {
    const webhook = await subscribe(SENDS_KEY);
    const answers = await Promise.all(
      Array.from({ length: SENDS_PER_MINUTE + 3 }, () =>
        client.post(`${webhooks}/${webhook.id}/test`, undefined, { key: SENDS_KEY }),
      ),
    );
    const passed = answers.filter((a) => a.status === 201).length;
    expect(passed).toBeGreaterThanOrEqual(SENDS_PER_MINUTE);
    // One more may pass: the bucket refills one every 60 / SENDS_PER_MINUTE seconds.
    expect(passed).toBeLessThanOrEqual(SENDS_PER_MINUTE + 1);
    const limited = answers.find((a) => a.status === 429)!;
    expectErrorBody(limited, /^webhook test and redeliver limit \(12 a minute per API key\) exceeded: retry after \d+ seconds$/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Other requests of the key are not limited by it.
    expect((await client.get(`${webhooks}/${webhook.id}`, { key: SENDS_KEY })).status).toBe(200);
    const redeliver = await client.post(`${webhooks}/${webhook.id}/deliveries/evt_x/redeliver`, undefined, { key: SENDS_KEY });
    expect(redeliver.status).toBe(429);
    await client.delete(`${webhooks}/${webhook.id}`, { key: SENDS_KEY });
  });

  it('lists deliveries a page at a time, newest first, as the other lists page', async () => {
    const webhook = await subscribe();
    for (let i = 0; i < 5; i++) {
      expect((await client.post('/api/v2/properties', { property: { name: `Paged ${i}` } })).status).toBe(201);
    }
    const path = `${webhooks}/${webhook.id}/deliveries`;
    const all = await eventually('five deliveries listed', async () => {
      const answer = await client.get(`${path}?limit=100`);
      return answer.body.deliveries.length === 5 && answer.body;
    });
    expect(all.next_cursor).toBeNull();
    const created = all.deliveries.map((d: any) => d.created_at);
    expect(created).toEqual([...created].sort().reverse());

    const pages = [];
    let cursor: string | null = null;
    do {
      const answer = await client.get(`${path}?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body)).toEqual(['deliveries', 'next_cursor']);
      pages.push(answer.body.deliveries.map((d: any) => d.id));
      cursor = answer.body.next_cursor;
    } while (cursor && pages.length < 10);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all.deliveries.map((d: any) => d.id));
    expect((await client.get(path)).body.deliveries).toHaveLength(5);

    // A cursor handed out by an earlier version names the last delivery of its page by id.
    const earlier = (id: string) => Buffer.from(`d1:${Date.now()}:${id}`).toString('base64url');
    const resumed = await client.get(`${path}?limit=2&cursor=${earlier(all.deliveries[1].id)}`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.deliveries.map((d: any) => d.id)).toEqual(all.deliveries.slice(2, 4).map((d: any) => d.id));
    const gone = await client.get(`${path}?cursor=${earlier('evt_gone')}`);
    expect(gone.status).toBe(422);
    expectErrorBody(gone, 'cursor is a cursor of an earlier version whose delivery is gone: start again from the first page');

    for (const [query, field, message] of [
      ['limit=0', 'limit', 'must be an integer from 1 to 100'],
      ['limit=101', 'limit', 'must be an integer from 1 to 100'],
      ['cursor=djE6MTI', 'cursor', 'is not a cursor this API handed out'],
      ['cursor=%24%24', 'cursor', 'is not a cursor this API handed out'],
      ['status=failed', 'status', 'is not a known query parameter'],
    ]) {
      const answer = await client.get(`${path}?${query}`);
      expect(answer.status).toBe(422);
      expectErrorBody(answer, `${field} ${message}`);
      expect(answer.body.error.details).toEqual([{ field, message }]);
    }
    expect((await client.get(path, { key: KEYS.clientTwo })).status).toBe(404);
    await client.delete(`${webhooks}/${webhook.id}`);
  });
});
