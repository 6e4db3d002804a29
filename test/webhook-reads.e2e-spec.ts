import { randomBytes } from 'node:crypto';
import { Db, MongoClient } from 'mongodb';
import mongoose, { Connection } from 'mongoose';
import { FieldCipher } from '@app/crypto';
import { ClaimStorage, IdAllocator } from '@app/persistence';
import { WebhooksEnvironment } from '../apps/webhooks/src/config/webhooks.environment';
import { AttemptRecord, deliveryKey, DeliveryRecord, DeliveryStore } from '../apps/webhooks/src/deliveries/delivery-store';
import { NoFreeSlot, SubscriptionRecord, SubscriptionStore } from '../apps/webhooks/src/subscriptions/subscription-store';
import { WebhookSecrets } from '../apps/webhooks/src/subscriptions/webhook-secrets';
import { testFieldKey } from '../tools/stack';

/**
 * The webhooks service's stores against the real database: what a page of deliveries, a
 * delivery's attempts and an event's fan-out read, asked of the database itself (its plan for
 * every command they send), and what they show when other tenants' data, deliveries stored by an
 * older version, purges and racing creates are there too.
 */

/** The plan of a lookup by `_id` that uses the `_id` index, on FerretDB (SQLite) or MongoDB. */
const USES_ID_INDEX = /SEARCH \S+ USING INDEX \S+__id_ |IDHACK|EXPRESS_IXSCAN|IXSCAN/;
const SCANS = /"id=\d+ parent=\d+ notused=\d+ detail=SCAN |COLLSCAN/;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Sent {
  commandName: string;
  command: Record<string, unknown>;
}

describe('the webhooks stores on the real database', () => {
  let mongo: MongoClient;
  let db: Db;
  let connection: Connection;
  let env: WebhooksEnvironment;
  let secrets: WebhookSecrets;
  const sent: Sent[] = [];

  beforeAll(async () => {
    const dbName = `t${randomBytes(4).toString('hex')}_webhook_reads`;
    mongo = await MongoClient.connect(process.env.MONGODB_URI!);
    db = mongo.db(dbName);
    connection = await mongoose.createConnection(process.env.MONGODB_URI!, { dbName, monitorCommands: true }).asPromise();
    connection.getClient().on('commandStarted', (event) => sent.push({ commandName: event.commandName, command: event.command }));
    env = Object.assign(new WebhooksEnvironment(), { WEBHOOK_MAX_SUBSCRIPTIONS: 3 });
    secrets = new WebhookSecrets(new FieldCipher(testFieldKey('t1')));
  });

  afterAll(async () => {
    await db?.dropDatabase();
    await connection?.close();
    await mongo?.close();
  });

  async function deliveryStore(): Promise<DeliveryStore> {
    const store = new DeliveryStore(connection, new ClaimStorage(connection));
    await store.onModuleInit();
    return store;
  }

  async function subscriptionStore(): Promise<SubscriptionStore> {
    const store = new SubscriptionStore(connection, secrets, env, new IdAllocator(connection));
    await store.onModuleInit();
    store.onModuleDestroy();
    return store;
  }

  const subscription = (id: number, clientId: number): SubscriptionRecord => ({
    _id: String(id),
    id,
    client_id: clientId,
    url: 'https://example.com/hooks',
    events: ['property.created'],
    secret: `whsec_${id}`,
    created_at: new Date(),
    deleted_at: null,
    request_key: `key-${id}-${randomBytes(4).toString('hex')}`,
  });

  const delivery = (subscriptionId: number, eventId: string, createdAt = new Date()): DeliveryRecord => ({
    _id: deliveryKey(subscriptionId, eventId),
    subscription_id: subscriptionId,
    client_id: 1,
    body: { id: eventId, event: 'property.created', test_mode: false, created_at: createdAt.toISOString(), data: {} },
    status: 'pending',
    next_attempt_at: null,
    created_at: createdAt,
  });

  const outcome = (success: boolean) => ({ success, response_status: success ? 200 : 500, error: null, duration_ms: 3 });

  /** What the database plans for each read that `work` sends: every one must use the `_id` index. */
  async function plansOf(work: () => Promise<unknown>): Promise<string[]> {
    sent.length = 0;
    await work();
    const reads = sent.filter((command) => command.commandName === 'find');
    expect(reads.length).toBeGreaterThan(0);
    const plans: string[] = [];
    for (const { command } of reads) {
      const { find, filter } = command as { find: string; filter: unknown };
      const explained = await db.command({ explain: { find, filter } });
      plans.push(`${find} ${JSON.stringify(filter)}: ${JSON.stringify(explained.queryPlanner)}`);
    }
    return plans;
  }

  it('reads a page of deliveries, with their attempts, and a fan-out’s subscriptions by _id alone', async () => {
    const deliveries = await deliveryStore();
    const subscriptions = await subscriptionStore();
    // Another client's subscriptions and deliveries, as every tenant's share the collections.
    for (const id of [901, 902]) await subscriptions.insertOnce(subscription(id, 9));
    for (let i = 0; i < 30; i++) await deliveries.create(delivery(901, `evt_other_${i}`));
    await subscriptions.insertOnce(subscription(101, 1));
    await subscriptions.insertOnce(subscription(102, 1));
    for (let i = 1; i <= 5; i++) {
      const record = delivery(101, `evt_${i}`);
      await deliveries.create(record);
      const stored = (await deliveries.find(record._id))!;
      const attempt = await deliveries.recordAttempt(stored, outcome(i % 2 === 0), new Date(), 1);
      await deliveries.update(record._id, { attempt_head: attempt.number });
    }

    let page: Awaited<ReturnType<DeliveryStore['page']>> | undefined;
    let live: Awaited<ReturnType<SubscriptionStore['listLive']>> = [];
    const plans = [
      ...(await plansOf(async () => (page = await deliveries.page(101, 2)))),
      ...(await plansOf(async () => (live = await subscriptions.listLive(1)))),
      ...(await plansOf(() => deliveries.representation(deliveryKey(101, 'evt_3')))),
    ];
    for (const plan of plans) {
      expect(plan).toMatch(USES_ID_INDEX);
      expect(plan).not.toMatch(SCANS);
    }
    expect(page!.items.map((item) => item.id)).toEqual(['evt_5', 'evt_4']);
    expect(page!.items[0].attempts).toEqual([expect.objectContaining({ number: 1, success: false })]);
    expect(live.map((record) => record.id)).toEqual([102, 101]);
  });

  it('pages through every delivery once, newest first, whatever came twice, was purged or was stored before the lists', async () => {
    const deliveries = await deliveryStore();
    const now = Date.now();
    // Stored by an older version: no list position, attempts under random keys.
    const older = [3, 2, 1].map((n) => ({
      ...delivery(201, `evt_old_${n}`, new Date(now - n * 60_000)),
      updated_at: new Date(),
    }));
    await db.collection<DeliveryRecord>('deliveries').insertMany(older);
    const olderAttempt: AttemptRecord = {
      _id: `${older[2]._id}:1:abcd`,
      delivery_key: older[2]._id,
      subscription_id: 201,
      number: 1,
      attempted_at: new Date(now - 30_000),
      ...outcome(false),
    };
    await db.collection<AttemptRecord>('delivery_attempts').insertOne(olderAttempt);
    for (let i = 1; i <= 6; i++) await deliveries.create(delivery(201, `evt_new_${i}`));
    // The same event again: a second entry in the list, which names a delivery listed elsewhere.
    expect(await deliveries.create(delivery(201, 'evt_new_2'))).toBe(false);
    // Two in the middle finished long ago, purged with their entries: a run of removed positions
    // below live ones, which a new instance must not take for the list's end.
    const longAgo = new Date(now - 40 * DAY_MS);
    for (const n of [3, 4]) {
      await db
        .collection<DeliveryRecord>('deliveries')
        .updateOne({ _id: deliveryKey(201, `evt_new_${n}`) }, { $set: { status: 'succeeded', updated_at: longAgo } });
    }
    expect(await deliveries.purgeExpired(30 * DAY_MS)).toBe(2);
    expect(await deliveries.listUnlisted()).toBe(3);

    const fresh = await deliveryStore();
    await fresh.create(delivery(201, 'evt_new_7'));
    const seen: string[] = [];
    let cursor: number | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await fresh.page(201, 3, cursor);
      seen.push(...page.items.map((item) => item.id));
      if (!page.next_cursor) break;
      const text = Buffer.from(page.next_cursor, 'base64url').toString();
      cursor = Number(/^d2:(-?\d+)$/.exec(text)![1]);
    }
    expect(seen).toEqual([
      'evt_new_7',
      'evt_new_6',
      'evt_new_5',
      'evt_new_2',
      'evt_new_1',
      'evt_old_1',
      'evt_old_2',
      'evt_old_3',
    ]);
    // A cursor far above the newest position reads from the newest, not through empty positions.
    expect((await fresh.page(201, 3, 1e15)).items.map((item) => item.id)).toEqual(['evt_new_7', 'evt_new_6', 'evt_new_5']);
    // The older delivery's attempt is shown, numbered as before.
    const oldest = await fresh.representation(older[2]._id);
    expect(oldest?.attempts).toEqual([expect.objectContaining({ number: 1, success: false })]);
  });

  it('lists once each what an older version stored when several instances list it at once, whatever bound they leave', async () => {
    const now = Date.now();
    const older = [1, 2, 3, 4, 5, 6].map((n) => ({
      ...delivery(401, `evt_before_${n}`, new Date(now - n * 60_000)),
      updated_at: new Date(),
    }));
    await db.collection<DeliveryRecord>('deliveries').insertMany(older);
    const instances = await Promise.all([1, 2, 3, 4].map(() => deliveryStore()));
    await Promise.all(instances.map((store) => store.listUnlisted()));
    // An instance that read the list's lowest position before another lowered it writes back the
    // higher one it read (FerretDB rewrites the document it read): the entries below stay listed.
    await db.collection('delivery_index').updateOne({ _id: 's401:bottom' as never }, { $set: { position: 0 } });

    const page = await (await deliveryStore()).page(401, 100);
    expect(page.items.map((item) => item.id)).toEqual(older.map((record) => record.body.id));
    expect(page.next_cursor).toBeNull();
  });

  it('gives a delivery listed by two instances at once the one position both write', async () => {
    const now = Date.now();
    const older = [1, 2, 3, 4, 5, 6].map((n) => delivery(402, `evt_racing_${n}`, new Date(now - n * 60_000)));
    await db.collection<DeliveryRecord>('deliveries').insertMany(older);
    // Another instance has put them all below the list, and has not written their positions yet
    // when this one lists them too.
    await db
      .collection('delivery_index')
      .insertMany(older.map((record, i) => ({ _id: `s402:${-i}` as never, delivery_key: record._id, created_at: new Date() })));
    expect(await (await deliveryStore()).listUnlisted()).toBe(6);
    // The other instance's last writes land after this one's.
    for (const i of [3, 4, 5]) {
      await db.collection<DeliveryRecord>('deliveries').updateOne({ _id: older[i]._id }, { $set: { list_position: -i } });
    }

    const page = await (await deliveryStore()).page(402, 100);
    expect(page.items.map((item) => item.id)).toEqual(older.map((record) => record.body.id));
    expect(await db.collection('delivery_index').countDocuments({ delivery_key: { $in: older.map(({ _id }) => _id) } })).toBe(6);
  });

  it('numbers attempts made at once apart, and lists the latest 25 of many', async () => {
    const deliveries = await deliveryStore();
    const record = delivery(301, 'evt_many');
    await deliveries.create(record);
    const stored = (await deliveries.find(record._id))!;
    // Two instances attempt it at once from the same read of the delivery.
    const both = await Promise.all([
      deliveries.recordAttempt(stored, outcome(false), new Date(), 1),
      deliveries.recordAttempt(stored, outcome(false), new Date(), 1),
    ]);
    expect(both.map((attempt) => attempt.number).sort()).toEqual([1, 2]);
    let head = 2;
    for (let i = 0; i < 28; i++) {
      const attempt = await deliveries.recordAttempt({ ...stored, attempt_head: head }, outcome(i === 27), new Date(), 1);
      head = attempt.number;
      // The head is written one attempt late, as after an update that failed.
      if (i > 0) await deliveries.update(record._id, { attempt_head: head - 1 });
    }
    const shown = await deliveries.representation(record._id);
    expect(shown?.attempts.map((attempt) => attempt.number)).toEqual(Array.from({ length: 25 }, (_, i) => 6 + i));
    expect(shown?.attempts.at(-1)?.success).toBe(true);
  });

  it('holds each client to its limit however many creates race, frees a deleted one’s slot, and slots older subscriptions', async () => {
    const instances = [await subscriptionStore(), await subscriptionStore()];
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => instances[i % 2].insertOnce(subscription(400 + i, 4))),
    );
    const stored = results.filter((result) => result.status === 'fulfilled');
    expect(stored).toHaveLength(3);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(NoFreeSlot);
    }
    const live = await instances[0].listLive(4);
    expect(live).toHaveLength(3);

    await instances[1].markDeleted(live[0], new Date());
    await expect(instances[0].insertOnce(subscription(420, 4))).resolves.toMatchObject({ id: 420 });
    await expect(instances[0].insertOnce(subscription(421, 4))).rejects.toBeInstanceOf(NoFreeSlot);

    // Stored by an older version, without a slot, one more than the limit: each still gets events.
    const { secret: _secret, ...older } = subscription(431, 5);
    await db
      .collection<Omit<SubscriptionRecord, 'secret'>>('subscriptions')
      .insertMany([1, 2, 3, 4].map((n) => ({ ...older, _id: String(430 + n), id: 430 + n, request_key: `older-${n}` })));
    const later = await subscriptionStore();
    expect((await later.listLive(5)).map((record) => record.id)).toEqual([434, 433, 432, 431]);
  });
});
