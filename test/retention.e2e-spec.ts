import { randomBytes } from 'node:crypto';
import mongoose, { Connection } from 'mongoose';
import { ClaimStorage } from '@app/persistence';
import { FormSubmissionsRepository, SUBMISSION_RETENTION_MS } from '../apps/applications/src/store/form-submissions.repository';
import { DeliveryRecord, DeliveryStore } from '../apps/webhooks/src/deliveries/delivery-store';

/**
 * What would grow without end gets a lifetime, removed by the services' own purges (FerretDB has
 * no TTL index). Each purge runs here against the real database, on data stored as the services
 * store it, with "now" chosen by the test.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const RETENTION_MS = 30 * DAY_MS;
const NOW = new Date('2026-11-25T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS);

describe('lifetimes of what is stored', () => {
  let connection: Connection;

  beforeAll(async () => {
    connection = await mongoose
      .createConnection(process.env.MONGODB_URI!, { dbName: `t${randomBytes(4).toString('hex')}_retention` })
      .asPromise();
  });

  afterAll(async () => {
    await connection?.dropDatabase();
    await connection?.close();
  });

  describe('webhook deliveries', () => {
    const store = () => new DeliveryStore(connection, new ClaimStorage(connection));
    const deliveries = () => connection.collection<DeliveryRecord>('deliveries');
    const attempts = () => connection.collection<{ _id: string; delivery_key: string }>('delivery_attempts');

    function delivery(key: string, status: DeliveryRecord['status'], created: Date, updated?: Date): DeliveryRecord {
      const record: DeliveryRecord = {
        _id: key,
        subscription_id: 1,
        client_id: 1,
        body: { id: `evt_${key}`, event: 'property.created', created_at: created.toISOString(), data: {} } as never,
        status,
        next_attempt_at: null,
        created_at: created,
      };
      return updated ? { ...record, updated_at: updated } : record;
    }

    beforeEach(async () => {
      await deliveries().deleteMany({});
      await attempts().deleteMany({});
    });

    async function seed(record: DeliveryRecord, attemptCount = 2): Promise<void> {
      await deliveries().insertOne(record);
      for (let n = 1; n <= attemptCount; n++) {
        await attempts().insertOne({ _id: `${record._id}:${n}`, delivery_key: record._id });
      }
    }

    it('removes finished deliveries past the retention with their attempts, and keeps every other', async () => {
      // Past the retention: finished, one stored before updated_at was kept, and enough of them
      // to take more than one batch.
      await seed(delivery('old-succeeded', 'succeeded', daysAgo(40), daysAgo(40)));
      await seed(delivery('old-failed-legacy', 'failed', daysAgo(45)));
      const many = Array.from({ length: 520 }, (_, i) => delivery(`old-${i}`, 'succeeded', daysAgo(31), daysAgo(31)));
      await deliveries().insertMany(many);
      // Kept: still being retried, changed within the retention, made within it.
      await seed(delivery('old-retrying', 'retrying', daysAgo(40), daysAgo(40)));
      await seed(delivery('redelivered', 'succeeded', daysAgo(40), daysAgo(2)));
      await seed(delivery('recent', 'failed', daysAgo(3), daysAgo(3)));
      await seed(delivery('recent-legacy', 'succeeded', daysAgo(29)));

      expect(await store().purgeExpired(RETENTION_MS, NOW)).toBe(522);

      const left = (
        await deliveries()
          .find({}, { projection: { _id: 1 } })
          .toArray()
      )
        .map((d) => d._id)
        .sort();
      expect(left).toEqual(['old-retrying', 'recent', 'recent-legacy', 'redelivered']);
      const attemptsLeft = new Set((await attempts().find({}).toArray()).map((a) => a.delivery_key));
      expect([...attemptsLeft].sort()).toEqual(['old-retrying', 'recent', 'recent-legacy', 'redelivered']);
      expect(await store().purgeExpired(RETENTION_MS, NOW)).toBe(0);
    });

    it('keeps a delivery asked for again, whatever its age: its retention starts over', async () => {
      await seed(delivery('asked-again', 'failed', daysAgo(60), daysAgo(60)));
      await store().update('asked-again');
      // Purged as if 29 days from now: still within the retention counted from the request.
      expect(await store().purgeExpired(RETENTION_MS, new Date(Date.now() + 29 * DAY_MS))).toBe(0);
      expect(await store().find('asked-again')).not.toBeNull();
      expect(await store().purgeExpired(RETENTION_MS, new Date(Date.now() + 31 * DAY_MS))).toBe(1);
      expect(await store().find('asked-again')).toBeNull();
    });
  });

  describe('form submission nonces', () => {
    it('are removed once older than the retention, and refuse a page sent again until then', async () => {
      const forms = new FormSubmissionsRepository(new ClaimStorage(connection));
      const now = Date.now();
      const submissions = connection.collection<{ _id: string; at: Date }>('form_submissions');
      await submissions.insertMany([
        { _id: 'expired', at: new Date(now - SUBMISSION_RETENTION_MS - 60_000) },
        { _id: 'recent', at: new Date(now - 4 * 60 * 60 * 1000) },
      ]);

      expect(await forms.purgeUsed(new Date(now))).toBe(1);
      expect(await forms.claim('recent')).toBe(false);
      expect(await forms.claim('expired')).toBe(true);
      expect(await submissions.countDocuments()).toBe(2);
    });
  });
});
