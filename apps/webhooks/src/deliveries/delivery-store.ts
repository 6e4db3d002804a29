import { randomBytes } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import {
  DeliveryRepresentation,
  DeliveryStatus,
  DomainEvent,
  encodeDeliveryCursor,
  formatTimestamp,
  MAX_LISTED_ATTEMPTS,
  Page,
} from '@app/contracts';
import { claimed, ignoreExistingCollection, isDuplicateKey, OrderedLists, Storage } from '@app/persistence';
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
  /**
   * Its position in its subscription's list (DELIVERY_INDEX); an entry of another position that
   * names it (the event came twice) is not it. Absent on deliveries stored before the lists, until
   * they are listed (`listUnlisted`).
   */
  list_position?: number;
  /**
   * Its attempts are `<key>:1`, `<key>:2`, ...; this is the highest number the last update knew
   * of. Absent on deliveries stored before, whose attempts carry random keys.
   */
  attempt_head?: number;
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

/** Each subscription's deliveries, newest first, as `s<subscription id>:<position>` entries (OrderedLists). */
const DELIVERY_INDEX = 'delivery_index';
/** Positions one page reads at most, so that entries of deliveries gone cannot make a page unbounded. */
const MAX_PAGE_SCAN = 500;
/** Deliveries given a list position per round trip of `listUnlisted`. */
const LIST_BATCH = 500;
/**
 * Attempt numbers read above a delivery's `attempt_head`: an update that failed after its attempt
 * was stored, or one undone by a concurrent one on FerretDB, leaves the head that far behind.
 */
const ATTEMPTS_PAST_HEAD = 2;
const MAX_ATTEMPT_CLAIMS = 50;

function listName(subscriptionId: number): string {
  return `s${subscriptionId}`;
}

export function deliveryKey(subscriptionId: number, eventId: string): string {
  return `${subscriptionId}:${eventId}`;
}

/** Deliveries and every attempt of each, in the webhooks service's own database. */
@Injectable()
export class DeliveryStore implements OnModuleInit {
  private readonly lists: OrderedLists<string>;

  constructor(
    @InjectConnection() private readonly connection: Connection,
    storage: Storage,
  ) {
    this.lists = storage.orderedLists<string>(DELIVERY_INDEX, { field: 'delivery_key' });
  }

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
    await this.lists.prepare();
    // For the purges and the attempts of deliveries stored before attempts were numbered, on MongoDB.
    await this.attempts.createIndex({ delivery_key: 1 }, { name: 'delivery_key' });
  }

  /**
   * Lists the delivery at the head of its subscription's list, then stores it; false when it
   * exists already (the event came twice: its entry in the list is not the one the delivery names).
   */
  async create(record: DeliveryRecord): Promise<boolean> {
    const list_position = await this.lists.append(listName(record.subscription_id), record._id);
    return claimed(this.deliveries.insertOne({ updated_at: record.created_at, ...record, list_position, attempt_head: 0 }));
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
        await this.lists.remove({ delivery_key: { $in: gone } });
      }
      purged += deletedCount;
      if (batch.length < PURGE_BATCH) return purged;
    }
  }

  /**
   * Gives each delivery stored before the lists a position below its subscription's first, newest
   * first, and says how many it listed; a delivery stored by an older instance while this one
   * runs lands below those listed before it. Reads every delivery on FerretDB: at boot and with
   * the hourly purge, never on a request's path.
   */
  async listUnlisted(): Promise<number> {
    let listed = 0;
    for (let round = 0; round < MAX_ATTEMPT_CLAIMS; round++) {
      const batch = await this.deliveries
        .find({ list_position: { $exists: false } }, { projection: { _id: 1, subscription_id: 1 } })
        .sort({ created_at: -1, _id: -1 })
        .limit(LIST_BATCH)
        .toArray();
      const bySubscription = new Map<number, string[]>();
      for (const { _id, subscription_id } of batch) {
        bySubscription.set(subscription_id, [...(bySubscription.get(subscription_id) ?? []), _id]);
      }
      for (const [subscriptionId, keys] of bySubscription) {
        const positions = await this.lists.prepend(listName(subscriptionId), keys);
        for (const [i, list_position] of positions.entries()) {
          await this.deliveries.updateOne({ _id: keys[i] }, { $set: { list_position } });
        }
        listed += positions.length;
      }
      if (batch.length < LIST_BATCH) break;
    }
    return listed;
  }

  /**
   * Records an attempt. On a delivery whose attempts are numbered, it takes the next free
   * number above the delivery's `attempt_head` (its key is unique, so two attempts at once take
   * two); the caller's update of the delivery moves the head to it. On an older delivery it is
   * stored under the number its task gave it, as before.
   */
  async recordAttempt(delivery: DeliveryRecord, outcome: AttemptOutcome, at: Date, number: number): Promise<AttemptRecord> {
    const record = (n: number, _id: string): AttemptRecord => ({
      _id,
      delivery_key: delivery._id,
      subscription_id: delivery.subscription_id,
      number: n,
      attempted_at: at,
      ...outcome,
    });
    if (delivery.attempt_head === undefined) {
      const attempt = record(number, `${delivery._id}:${number}:${randomBytes(4).toString('hex')}`);
      await this.attempts.insertOne(attempt);
      return attempt;
    }
    for (let n = delivery.attempt_head + 1; n <= delivery.attempt_head + MAX_ATTEMPT_CLAIMS; n++) {
      const attempt = record(n, attemptKey(delivery._id, n));
      try {
        await this.attempts.insertOne(attempt);
        return attempt;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
    throw new Error(`no attempt number could be claimed for delivery ${delivery._id}`);
  }

  /**
   * A page of the subscription's deliveries, newest first (by their place in its list), each with
   * its latest attempts; `after` is the position of the last delivery of the previous page. Reads
   * by `_id` only: the list's entries, the deliveries they name, and their attempts.
   */
  async page(subscriptionId: number, limit: number, after?: number): Promise<Page<DeliveryRepresentation>> {
    const name = listName(subscriptionId);
    // A cursor above the newest position (made up: none handed out is) reads from the newest.
    const head = await this.lists.head(name);
    let position = after === undefined ? head : Math.min(after - 1, head);
    let floor: number | undefined;
    const lowest = async () => (position >= 1 ? 1 : (floor ??= await this.lists.bottom(name)));
    const found: Array<{ position: number; delivery: DeliveryRecord }> = [];
    for (let scanned = 0; found.length <= limit && scanned < MAX_PAGE_SCAN && position >= (await lowest());) {
      const low = await lowest();
      const count = Math.min(limit + 1 - found.length, position - low + 1);
      const entries = await this.lists.read(name, position, count, low);
      const deliveries = await this.findMany(entries.map((entry) => entry.id));
      for (const entry of entries) {
        const delivery = deliveries.get(entry.id);
        if (delivery?.subscription_id === subscriptionId && delivery.list_position === entry.position) {
          found.push({ position: entry.position, delivery });
        }
      }
      position -= count;
      scanned += count;
    }
    const listed = found.slice(0, limit);
    const attempts = await this.latestAttempts(listed.map(({ delivery }) => delivery));
    const last = listed.at(-1);
    const more = found.length > limit ? last!.position : position >= (await lowest()) ? position + 1 : undefined;
    return {
      items: listed.map(({ delivery }) => toDeliveryRepresentation(delivery, attempts.get(delivery._id) ?? [])),
      next_cursor: more === undefined ? null : encodeDeliveryCursor({ position: more }),
    };
  }

  /** Where the delivery stands in its subscription's list; undefined when it is gone or not listed yet. */
  async positionOf(key: string): Promise<number | undefined> {
    return (await this.find(key))?.list_position;
  }

  async representation(key: string): Promise<DeliveryRepresentation | null> {
    const delivery = await this.find(key);
    if (!delivery) return null;
    return toDeliveryRepresentation(delivery, (await this.latestAttempts([delivery])).get(key) ?? []);
  }

  private async findMany(keys: string[]): Promise<Map<string, DeliveryRecord>> {
    if (keys.length === 0) return new Map();
    const found = await this.deliveries.find({ _id: { $in: keys } }).toArray();
    return new Map(found.map((delivery) => [delivery._id, delivery]));
  }

  /**
   * The latest MAX_LISTED_ATTEMPTS attempts of each delivery (every attempt of one stored before
   * attempts were numbered): one read of their keys, and one by `delivery_key` for older ones.
   */
  private async latestAttempts(deliveries: DeliveryRecord[]): Promise<Map<string, AttemptRecord[]>> {
    const numbered = deliveries.filter((delivery) => delivery.attempt_head !== undefined);
    const older = deliveries.filter((delivery) => delivery.attempt_head === undefined).map(({ _id }) => _id);
    const keys = numbered.flatMap(({ _id, attempt_head }) => {
      const top = attempt_head! + ATTEMPTS_PAST_HEAD;
      const from = Math.max(1, top - MAX_LISTED_ATTEMPTS - ATTEMPTS_PAST_HEAD + 1);
      return Array.from({ length: top - from + 1 }, (_, i) => attemptKey(_id, from + i));
    });
    const found = [
      ...(keys.length === 0 ? [] : await this.attempts.find({ _id: { $in: keys } }).toArray()),
      ...(older.length === 0 ? [] : await this.attempts.find({ delivery_key: { $in: older } }).toArray()),
    ];
    const byDelivery = new Map<string, AttemptRecord[]>();
    for (const attempt of found) byDelivery.set(attempt.delivery_key, [...(byDelivery.get(attempt.delivery_key) ?? []), attempt]);
    return byDelivery;
  }
}

function attemptKey(deliveryKey: string, n: number): string {
  return `${deliveryKey}:${n}`;
}

/**
 * The delivery as the API shows it, with its latest MAX_LISTED_ATTEMPTS attempts, oldest first:
 * numbered as stored, or, for a delivery stored before attempts were numbered, by time among all.
 */
export function toDeliveryRepresentation(delivery: DeliveryRecord, attempts: AttemptRecord[]): DeliveryRepresentation {
  const numbered = delivery.attempt_head !== undefined;
  const ordered = numbered
    ? [...attempts].sort((a, b) => a.number - b.number)
    : [...attempts].sort((a, b) => a.attempted_at.getTime() - b.attempted_at.getTime());
  const listed = ordered.slice(-MAX_LISTED_ATTEMPTS);
  return {
    id: delivery.body.id,
    event: delivery.body.event,
    test_mode: delivery.body.test_mode,
    status: delivery.status,
    next_attempt_at: delivery.next_attempt_at ? formatTimestamp(delivery.next_attempt_at) : null,
    created_at: formatTimestamp(delivery.created_at),
    attempts: listed.map((attempt, index) => ({
      number: numbered ? attempt.number : ordered.length - listed.length + index + 1,
      attempted_at: formatTimestamp(attempt.attempted_at),
      success: attempt.success,
      response_status: attempt.response_status,
      error: attempt.error,
      duration_ms: attempt.duration_ms,
    })),
  };
}
