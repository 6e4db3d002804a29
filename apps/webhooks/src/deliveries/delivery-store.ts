import { randomBytes } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import {
  DeliveryPosition,
  DeliveryRepresentation,
  DeliveryStatus,
  DomainEvent,
  encodeDeliveryCursor,
  formatTimestamp,
  MAX_LISTED_ATTEMPTS,
  Page,
} from '@app/contracts';
import { claimed, ignoreExistingCollection } from '@app/persistence';
import { AttemptOutcome } from './webhook-sender';

/** The webhook body: the event without the client it belongs to. */
export type WebhookBody = Omit<DomainEvent, 'client_id'>;

/** One event to one subscription, under `<subscription id>:<event id>`: made once, however often the event arrives. */
export interface DeliveryRecord {
  _id: string;
  subscription_id: number;
  client_id: number;
  body: WebhookBody;
  status: DeliveryStatus;
  next_attempt_at: Date | null;
  created_at: Date;
  /**
   * While `retrying`: the number of the retry waiting, and the token its task carries. A task
   * with another token was superseded (queued again because it was overdue) and is dropped.
   */
  next_retry?: number;
  retry_token?: string | null;
  /**
   * When it last changed or was asked to be made again: its retention counts from here. Absent
   * from deliveries stored before it was kept, whose retention counts from created_at.
   */
  updated_at?: Date;
}

/** The n-th redelivery of a delivery, under `<delivery key>:<n>`: its unique `_id` makes it once. */
interface RedeliveryRecord {
  _id: string;
  delivery_key: string;
  at: Date;
}

export interface AttemptRecord extends AttemptOutcome {
  _id: string;
  delivery_key: string;
  subscription_id: number;
  number: number;
  attempted_at: Date;
}

/** How often one delivery may be asked to be made again. */
export const MAX_REDELIVERIES = 10;

/** Expired deliveries removed per round trip of a purge, so that no write holds the database long. */
const PURGE_BATCH = 500;

/** A delivery that no attempt will change any more: only those expire. */
const FINISHED: DeliveryStatus[] = ['succeeded', 'failed'];

export function deliveryKey(subscriptionId: number, eventId: string): string {
  return `${subscriptionId}:${eventId}`;
}

/** Deliveries and every attempt of each, in the webhooks service's own database. */
@Injectable()
export class DeliveryStore implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get deliveries() {
    return this.connection.collection<DeliveryRecord>('deliveries');
  }

  private get redeliveries() {
    return this.connection.collection<RedeliveryRecord>('delivery_redeliveries');
  }

  private get attempts() {
    return this.connection.collection<AttemptRecord>('delivery_attempts');
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection('deliveries').catch(ignoreExistingCollection);
    await this.connection.createCollection('delivery_attempts').catch(ignoreExistingCollection);
    await this.connection.createCollection('delivery_redeliveries').catch(ignoreExistingCollection);
    // What a page of a subscription's deliveries reads, on MongoDB; FerretDB filters by _id alone.
    await this.deliveries.createIndex({ subscription_id: 1, created_at: -1, _id: -1 }, { name: 'subscription_newest_first' });
    await this.attempts.createIndex({ delivery_key: 1 }, { name: 'delivery_key' });
  }

  /** Stores the delivery; false when it exists already (the event came twice). */
  create(record: DeliveryRecord): Promise<boolean> {
    return claimed(this.deliveries.insertOne({ updated_at: record.created_at, ...record }));
  }

  /**
   * Deliveries whose retry is overdue since before `cutoff`, at most `limit`. On FerretDB this
   * reads every delivery: it runs in the background, never on a request's path.
   */
  overdueRetries(cutoff: Date, limit: number): Promise<DeliveryRecord[]> {
    return this.deliveries
      .find({ status: 'retrying', next_attempt_at: { $lt: cutoff } })
      .limit(limit)
      .toArray();
  }

  find(key: string): Promise<DeliveryRecord | null> {
    return this.deliveries.findOne({ _id: key });
  }

  /** Changes the delivery, which restarts its retention; with no changes, only restarts it. */
  async update(key: string, changes: Partial<Omit<DeliveryRecord, '_id'>> = {}): Promise<void> {
    await this.deliveries.updateOne({ _id: key }, { $set: { ...changes, updated_at: new Date() } });
  }

  /**
   * Claims one of the delivery's MAX_REDELIVERIES redeliveries, the first free one; false when
   * every one is taken. Each is a document of its own, inserted under a unique `_id`: a counter
   * in the delivery would lose increments on FerretDB, whose updates rewrite the whole document
   * and so undo one that a concurrent attempt's update read before.
   */
  async claimRedelivery(key: string): Promise<boolean> {
    for (let n = 1; n <= MAX_REDELIVERIES; n++) {
      if (await claimed(this.redeliveries.insertOne({ _id: `${key}:${n}`, delivery_key: key, at: new Date() }))) return true;
    }
    return false;
  }

  /**
   * Removes the finished deliveries that have not changed for `retentionMs`, and their attempts,
   * in batches; returns how many deliveries went. A delivery under way, or retried or asked for
   * again within the retention, stays with every attempt. FerretDB has no TTL index, and a
   * delivery's attempts must go with it, so this runs on MongoDB too. Its filters read every
   * delivery and attempt on FerretDB: it runs in the background, never on a request's path.
   */
  async purgeExpired(retentionMs: number, now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - retentionMs);
    const expired = {
      status: { $in: FINISHED },
      $or: [{ updated_at: { $lt: cutoff } }, { updated_at: { $exists: false }, created_at: { $lt: cutoff } }],
    };
    let purged = 0;
    for (;;) {
      const batch = await this.deliveries
        .find(expired, { projection: { _id: 1 } })
        .limit(PURGE_BATCH)
        .toArray();
      if (batch.length === 0) return purged;
      const keys = batch.map(({ _id }) => _id);
      // The filter again: a delivery asked for again since it was read is kept.
      const { deletedCount } = await this.deliveries.deleteMany({ _id: { $in: keys }, ...expired });
      const kept = new Set(
        (await this.deliveries.find({ _id: { $in: keys } }, { projection: { _id: 1 } }).toArray()).map(({ _id }) => _id),
      );
      const gone = keys.filter((key) => !kept.has(key));
      if (gone.length > 0) {
        await this.attempts.deleteMany({ delivery_key: { $in: gone } });
        await this.redeliveries.deleteMany({ delivery_key: { $in: gone } });
      }
      purged += deletedCount;
      if (batch.length < PURGE_BATCH) return purged;
    }
  }

  /**
   * Records an attempt under the number its task gave it (listings number attempts by time, so a
   * repeated number, after a redelivery or a crash, shows as the next one there).
   */
  async recordAttempt(delivery: DeliveryRecord, outcome: AttemptOutcome, at: Date, number: number): Promise<AttemptRecord> {
    const attempt: AttemptRecord = {
      _id: `${delivery._id}:${number}:${randomBytes(4).toString('hex')}`,
      delivery_key: delivery._id,
      subscription_id: delivery.subscription_id,
      number,
      attempted_at: at,
      ...outcome,
    };
    await this.attempts.insertOne(attempt);
    return attempt;
  }

  /**
   * A page of the subscription's deliveries, newest first (by creation time, then id), each with
   * its latest attempts; `after` is the last delivery of the previous page.
   */
  async page(subscriptionId: number, limit: number, after?: DeliveryPosition): Promise<Page<DeliveryRepresentation>> {
    const before = after && {
      $or: [
        { created_at: { $lt: new Date(after.created_at) } },
        { created_at: new Date(after.created_at), _id: { $lt: deliveryKey(subscriptionId, after.id) } },
      ],
    };
    const found = await this.deliveries
      .find({ subscription_id: subscriptionId, ...before })
      .sort({ created_at: -1, _id: -1 })
      .limit(limit + 1)
      .toArray();
    const deliveries = found.slice(0, limit);
    const keys = deliveries.map(({ _id }) => _id);
    const attempts = keys.length === 0 ? [] : await this.attempts.find({ delivery_key: { $in: keys } }).toArray();
    const last = deliveries.at(-1);
    return {
      items: deliveries.map((delivery) =>
        toDeliveryRepresentation(
          delivery,
          attempts.filter((a) => a.delivery_key === delivery._id),
        ),
      ),
      next_cursor:
        found.length > limit && last ? encodeDeliveryCursor({ created_at: last.created_at.getTime(), id: last.body.id }) : null,
    };
  }

  async representation(key: string): Promise<DeliveryRepresentation | null> {
    const delivery = await this.find(key);
    if (!delivery) return null;
    return toDeliveryRepresentation(delivery, await this.attempts.find({ delivery_key: key }).toArray());
  }
}

export function toDeliveryRepresentation(delivery: DeliveryRecord, attempts: AttemptRecord[]): DeliveryRepresentation {
  return {
    id: delivery.body.id,
    event: delivery.body.event,
    test_mode: delivery.body.test_mode,
    status: delivery.status,
    next_attempt_at: delivery.next_attempt_at ? formatTimestamp(delivery.next_attempt_at) : null,
    created_at: formatTimestamp(delivery.created_at),
    attempts: [...attempts]
      .sort((a, b) => a.attempted_at.getTime() - b.attempted_at.getTime())
      .slice(-MAX_LISTED_ATTEMPTS)
      .map((attempt, index, listed) => ({
        number: attempts.length - listed.length + index + 1,
        attempted_at: formatTimestamp(attempt.attempted_at),
        success: attempt.success,
        response_status: attempt.response_status,
        error: attempt.error,
        duration_ms: attempt.duration_ms,
      })),
  };
}
