import { randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { Channel, ChannelModel, connect, ConsumeMessage } from 'amqplib';
import mongoose from 'mongoose';
import { APPLICATIONS } from '@app/contracts';
import { assertServiceQueue } from '@app/messaging';
import { BodyFingerprints, Idempotency } from '@app/persistence';
import { api, Api, expectErrorBody } from './support/http';
import { answerAsService } from './support/service-rpc';
import { KEYS, Stack, testFieldKey } from '../tools/stack';

/** A second key of client one, as a second integration of the same client holds. */
const SECOND_KEY = 'test-key-client-one-second';

describe('Idempotency-Key over HTTP', () => {
  let stack: Stack;
  let client: Api;
  let propertyId: number;

  beforeAll(async () => {
    stack = await Stack.start({
      instances: { properties: 2, applications: 2 },
      env: { API_KEYS: `${KEYS.clientOne}:1,${KEYS.clientTwo}:2,${SECOND_KEY}:1` },
    });
    client = api(stack.url);
    propertyId = (await client.post('/api/v2/properties', { property: { name: 'Keyed' } })).body.property.id;
  });

  afterAll(() => stack?.stop());

  const withKey = (key: string, extra: Record<string, string> = {}) => ({ headers: { 'idempotency-key': key, ...extra } });
  const countProperties = async (name: string) => {
    const db = await stack.database('properties');
    try {
      return await db.collection('properties').countDocuments({ name });
    } finally {
      await db.close();
    }
  };

  it('answers a repeat with the first response and creates nothing more', async () => {
    const key = randomUUID();
    const name = `once-${key}`;
    const first = await client.post('/api/v2/properties', { property: { name } }, withKey(key));
    const again = await client.post('/api/v2/properties', { property: { name } }, withKey(key));
    // White space in the JSON, or around a value that is trimmed anyway, is not another request.
    const spaced = await client.post('/api/v2/properties', undefined, {
      raw: `{ "property" : { "name" : "  ${name}  " } }`,
      ...withKey(key),
    });

    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(spaced.status).toBe(201);
    expect(spaced.body).toEqual(first.body);
    expect(await countProperties(name)).toBe(1);
  });

  it('refuses the same key with another body, and creates nothing', async () => {
    const key = randomUUID();
    await client.post('/api/v2/properties', { property: { name: `first-${key}` } }, withKey(key));
    const other = await client.post('/api/v2/properties', { property: { name: `second-${key}` } }, withKey(key));

    expect(other.status).toBe(422);
    expectErrorBody(other, 'Idempotency-Key was already used for a different request');
    expect(await countProperties(`second-${key}`)).toBe(0);
  });

  it('does exactly one create when repeats race each other, across instances', async () => {
    const key = randomUUID();
    const name = `race-${key}`;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => client.post('/api/v2/properties', { property: { name } }, withKey(key))),
    );

    const statuses = answers.map((a) => a.status);
    expect(statuses).toContain(201);
    for (const status of statuses) expect([201, 409]).toContain(status);
    const created = answers.filter((a) => a.status === 201).map((a) => a.body);
    for (const body of created) expect(body).toEqual(created[0]);
    for (const conflict of answers.filter((a) => a.status === 409)) expectErrorBody(conflict, 'still in progress');
    expect(await countProperties(name)).toBe(1);

    const later = await client.post('/api/v2/properties', { property: { name } }, withKey(key));
    expect(later.status).toBe(201);
    expect(later.body).toEqual(created[0]);
  });

  it('keeps each client’s keys apart', async () => {
    const key = randomUUID();
    const name = `shared-key-${key}`;
    const mine = await client.post('/api/v2/properties', { property: { name } }, withKey(key));
    const theirs = await client.post('/api/v2/properties', { property: { name } }, { ...withKey(key), key: KEYS.clientTwo });

    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.property.id).not.toBe(mine.body.property.id);
  });

  it('keeps each API key’s claims its own: another key of the client learns nothing of the body it was made for', async () => {
    const key = randomUUID();
    const application = {
      property_id: propertyId,
      applicant: {
        first_name: 'Guess',
        last_name: 'Target',
        email: 'g@example.com',
        dob: '1981-07-23',
        id_number: '078-05-1120',
      },
    };
    const first = await client.post('/api/v2/applications', { application }, withKey(key));
    const wrongGuess = { ...application, applicant: { ...application.applicant, id_number: '078-05-1121' } };
    const right = await client.post('/api/v2/applications', { application }, { ...withKey(key), key: SECOND_KEY });
    const wrong = await client.post('/api/v2/applications', { application: wrongGuess }, { ...withKey(key), key: SECOND_KEY });
    const again = await client.post('/api/v2/applications', { application }, withKey(key));

    expect(first.status).toBe(201);
    // A right guess and a wrong one get the same answer, word for word.
    expect(right.status).toBe(422);
    expectErrorBody(right, 'already used by another API key');
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual(right.body);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
  });

  it('makes applications idempotent too, replaying refusals as well as successes', async () => {
    const key = randomUUID();
    const application = {
      property_id: propertyId,
      applicant: { first_name: `Idem-${key}`, last_name: 'Potent', email: 'i@example.com' },
    };
    const first = await client.post('/api/v2/applications', { application }, withKey(key));
    const again = await client.post('/api/v2/applications', { application }, withKey(key));
    const refusedKey = randomUUID();
    const unknown = { ...application, property_id: 987654 };
    const refused = await client.post('/api/v2/applications', { application: unknown }, withKey(refusedKey));
    const refusedAgain = await client.post('/api/v2/applications', { application: unknown }, withKey(refusedKey));

    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(refused.status).toBe(422);
    expect(refusedAgain.status).toBe(422);
    expect(refusedAgain.body).toEqual(refused.body);
    const db = await stack.database('applications');
    try {
      expect(await db.collection('applications').countDocuments({ 'applicants.first_name': `Idem-${key}` })).toBe(1);
    } finally {
      await db.close();
    }
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['not printable ASCII', 'key-\u00e9'],
  ])('refuses an Idempotency-Key that is %s with 422', async (_case, key) => {
    const answer = await client.post('/api/v2/properties', { property: { name: 'Bad key' } }, withKey(key));
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
  });
});

describe('the idempotency store in the database', () => {
  let connection: mongoose.Connection;
  let store: Idempotency;
  const fingerprints = new BodyFingerprints(testFieldKey('f1'));
  const claims = () => connection.collection('idempotency_keys');

  beforeAll(async () => {
    connection = await mongoose
      .createConnection(process.env.MONGODB_URI!, { dbName: `t${randomUUID().slice(0, 8)}_idempotency` })
      .asPromise();
    store = new Idempotency(connection, fingerprints);
  });

  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  const scope = (key: string, messageId = randomUUID(), body: unknown = { a: 1 }) => ({ clientId: 1, key, messageId, body });

  it('treats a claim older than 24 hours as gone', async () => {
    const key = randomUUID();
    await store.run(scope(key), async () => 'first');
    await claims().updateOne({ _id: `1:${key}` as never }, { $set: { expires_at: new Date(Date.now() - 1000) } });

    const requestKeys: string[] = [];
    const answer = await store.run(scope(key, randomUUID(), { a: 2 }), async (requestKey) => {
      requestKeys.push(requestKey);
      return 'second';
    });

    expect(answer).toBe('second');
    expect(requestKeys).toHaveLength(1);
  });

  it('lets a redelivered message, or a retry after an abandoned claim, finish the work under the same request key', async () => {
    const key = randomUUID();
    const messageId = randomUUID();
    const seen: string[] = [];
    await expect(
      store.run(scope(key, messageId), async (requestKey) => {
        seen.push(requestKey);
        throw new Error('the process died here');
      }),
    ).rejects.toThrow('the process died here');

    const redelivered = await store.run(scope(key, messageId), async (requestKey) => {
      seen.push(requestKey);
      return 'done';
    });
    expect(redelivered).toBe('done');
    expect(seen[1]).toBe(seen[0]);

    const other = randomUUID();
    await claims().insertOne({
      _id: `1:${other}` as never,
      token: 'abandoned-token',
      fingerprint: fingerprints.of({ a: 1 }),
      state: 'pending',
      message_id: 'a-message-that-died',
      outcome: null,
      claimed_at: new Date(Date.now() - 5 * 60 * 1000),
      expires_at: new Date(Date.now() + 60 * 60 * 1000),
    });
    const takenOver = await store.run(scope(other), async (requestKey) => requestKey);
    expect(takenOver).toBe('key:abandoned-token');
  });

  it('purges expired claims and keeps live ones', async () => {
    const live = randomUUID();
    const dead = randomUUID();
    await store.run(scope(live), async () => 1);
    await store.run(scope(dead), async () => 1);
    await claims().updateOne({ _id: `1:${dead}` as never }, { $set: { expires_at: new Date(Date.now() - 1) } });

    expect(await store.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await claims().countDocuments({ _id: `1:${dead}` as never })).toBe(0);
    expect(await claims().countDocuments({ _id: `1:${live}` as never })).toBe(1);
  });
});

describe('one request delivered twice at once', () => {
  const PROPERTY = 7;
  let stack: Stack;
  let connection: ChannelModel;
  let channel: Channel;
  /** What the stand-in for the properties service does with each lookup. */
  let standIn: (message: ConsumeMessage) => void;
  /** Each answer of the applications service, under the correlation id of the request it answers. */
  const answers = new EventEmitter();

  beforeAll(async () => {
    // The test takes the properties service's place, to answer each lookup when it chooses.
    stack = await Stack.start({
      instances: { properties: 0, applications: 1 },
      env: { PROPERTY_LOOKUP_TIMEOUT_MS: '20000' },
    });
    connection = await connect(process.env.AMQP_URL!);
    channel = await connection.createChannel();
    await assertServiceQueue(channel, `${stack.namespace}properties`);
    await channel.consume(`${stack.namespace}properties`, (message) => message && standIn(message), { noAck: true });
    await channel.consume(
      'amq.rabbitmq.reply-to',
      (message) => message && answers.emit(message.properties.correlationId, JSON.parse(message.content.toString())),
      { noAck: true },
    );
  });

  afterAll(async () => {
    await connection?.close();
    await stack?.stop();
  });

  it('keeps the application one delivery answered with, though its property was deleted before the other went on', async () => {
    // The first delivery's lookup of the property is held; the second's is answered at once.
    let heldLookup: (message: ConsumeMessage) => void = () => undefined;
    const firstLookup = new Promise<ConsumeMessage>((resolve) => (heldLookup = resolve));
    let lookups = 0;
    standIn = (message) => {
      if (++lookups === 1) heldLookup(message);
      else answerAsService(channel, message, { id: PROPERTY, name: 'Stand-in' });
    };
    const correlationId = randomUUID();
    const applicant = { first_name: 'Twice', last_name: 'Delivered', email: 'twice@example.com' };
    const packet = {
      pattern: APPLICATIONS.CREATE,
      data: { client_id: 1, request: { application: { property_id: PROPERTY, applicant } } },
    };
    // As the gateway sends it; the broker delivers it again when the channel it was on closes.
    const deliver = () =>
      channel.sendToQueue(`${stack.namespace}applications`, Buffer.from(JSON.stringify({ ...packet, id: correlationId })), {
        replyTo: 'amq.rabbitmq.reply-to',
        correlationId,
        persistent: true,
      });

    deliver();
    const held = await firstLookup;
    const firstAnswer = once(answers, correlationId);
    deliver();
    const [kept] = await firstAnswer;
    const id = kept.response.application.id;
    // The property's DELETE fences it, as the gateway does before answering it.
    const fenceId = randomUUID();
    const fenced = once(answers, fenceId);
    channel.sendToQueue(
      `${stack.namespace}applications`,
      Buffer.from(JSON.stringify({ pattern: APPLICATIONS.FENCE_PROPERTY, data: { client_id: 1, id: PROPERTY }, id: fenceId })),
      { replyTo: 'amq.rabbitmq.reply-to', correlationId: fenceId },
    );
    expect((await fenced)[0].response).toEqual({ fenced: true });
    // The first delivery goes on, its lookup answered as the property was before its DELETE.
    const secondAnswer = once(answers, correlationId);
    answerAsService(channel, held, { id: PROPERTY, name: 'Stand-in' });
    const [other] = await secondAnswer;

    expect(other.response?.application.id).toBe(id);
    expect((await api(stack.url).get(`/api/v2/applications/${id}`)).status).toBe(200);
    // And an application the delete fenced is refused from then on.
    expect((await api(stack.url).post('/api/v2/applications', packet.data.request)).status).toBe(422);
  });
});
