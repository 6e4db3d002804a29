import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Collection, Connection } from 'mongoose';
import { BackgroundPurge } from './background-purge';
import { claimed, isDuplicateKey } from './mongo-errors';
import { parseKeyRing, RingKey } from '@app/config';
import { ErrorCode, ErrorPayload, ServiceError } from '@app/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A claim older than this whose worker never finished is taken over by the next try. */
const LEASE_MS = 60 * 1000;
const PURGE_EVERY_MS = 10 * 60 * 1000;
/** Refusals that the same request would get again: kept and replayed like a success. */
const FINAL_ERRORS = new Set<string>([ErrorCode.VALIDATION_FAILED, ErrorCode.PROPERTY_ID_INVALID, ErrorCode.PROPERTY_NOT_FOUND]);

interface ClaimRecord {
  /** `<client_id>:<Idempotency-Key>` */
  _id: string;
  /** Names the work of this claim; the resource stores it, so a second try finds the first's. */
  token: string;
  /** `<key id>:<HMAC-SHA-256 of the body>` (see BodyFingerprints). */
  fingerprint: string;
  /** The API key that made the claim (claims made before keys were told apart have none). */
  key_id?: string;
  message_id: string;
  claimed_at: Date;
  expires_at: Date;
  /** Claims stored before outcomes were kept apart carry them here. */
  state?: 'pending' | 'done';
  outcome?: Outcome | null;
}

type Outcome = { response?: unknown; error?: ErrorPayload };

/** The outcome of a finished claim, under the claim's `_id`. */
interface OutcomeRecord {
  _id: string;
  /** The token of the claim it finished; one of an earlier claim under the same `_id` is not its. */
  token: string;
  outcome: Outcome;
  expires_at: Date;
}

export interface CreateScope {
  clientId: number;
  /** The caller's Idempotency-Key, if it sent one. */
  key?: string;
  /** The API key that sent it: a claim answers only the key that made it. */
  keyId?: string;
  /** The broker message's correlation id: the same on every delivery of one request. */
  messageId: string;
  /** The normalized request; two requests with one key must have equal bodies. */
  body: unknown;
}

/**
 * The work of a create, given its request key; `resumed` is true when an earlier try of the
 * same request may have done some of it already (the claim was taken over), so that the work
 * looks for what that try stored before deciding anything afresh.
 */
export type CreateWork<T> = (requestKey: string, resumed: boolean) => Promise<T>;

/**
 * Does a create at most once per request. Each create is given a request key that its resource
 * stores under a unique index: the message id (so a redelivered message finds the resource its
 * first delivery stored) or, for a request with an Idempotency-Key, the token of the key's claim
 * (so a retry of the request finds it too). Claims live 24 hours in this service's own database,
 * `_id` unique across instances; a repeat gets the first outcome, a different body with the same
 * key is refused, and a repeat while the first is at work gets IDEMPOTENCY_IN_PROGRESS.
 * Expiry is read from `expires_at` and old claims are purged here, as FerretDB has no TTL index.
 *
 * A request done once costs two inserts and no read: its claim, then its outcome in a collection
 * of its own. FerretDB on SQLite answers an insert from the unique `_id` index, but no filter
 * from any index: a filter on `_id` alone reads the rows stored before the match, one with more
 * fields (`{_id, token}`) decodes each of them too, and the newest claim is the last row. Reads
 * and updates, by `_id` alone, happen only for repeats and takeovers.
 */
export class Idempotency implements OnModuleInit, OnModuleDestroy {
  private readonly purge = new BackgroundPurge('expired idempotency keys', PURGE_EVERY_MS, () => this.purgeExpired());

  constructor(
    private readonly connection: Connection,
    private readonly fingerprints: BodyFingerprints,
  ) {}

  private get claims() {
    return this.connection.collection<ClaimRecord>('idempotency_keys');
  }

  private get outcomes() {
    return this.connection.collection<OutcomeRecord>('idempotency_outcomes');
  }

  onModuleInit(): void {
    this.purge.start();
  }

  onModuleDestroy(): void {
    this.purge.stop();
  }

  /** Removes the claims and outcomes past their 24 hours; returns how many claims went. */
  async purgeExpired(now = new Date()): Promise<number> {
    const { deletedCount } = await this.claims.deleteMany({ expires_at: { $lte: now } });
    await this.outcomes.deleteMany({ expires_at: { $lte: now } });
    return deletedCount;
  }

  async run<T>(scope: CreateScope, work: CreateWork<T>): Promise<T> {
    if (scope.key === undefined) return work(`message:${scope.messageId}`, false);
    const id = `${scope.clientId}:${scope.key}`;
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = new Date();
      const claim: ClaimRecord = {
        _id: id,
        token: randomUUID(),
        fingerprint: this.fingerprints.of(scope.body),
        ...(scope.keyId === undefined ? {} : { key_id: scope.keyId }),
        message_id: scope.messageId,
        claimed_at: now,
        expires_at: new Date(now.getTime() + DAY_MS),
      };
      if (await claimed(this.claims.insertOne(claim))) return this.complete(claim, work, false);
      const existing = await this.claims.findOne({ _id: id });
      if (!existing) continue;
      if (existing.expires_at <= now) {
        // Rare (the purge removes expired claims every few minutes): the token keeps a claim made
        // since by another request from being removed with this one.
        await this.claims.deleteOne({ _id: id, token: existing.token });
        await this.outcomes.deleteOne({ _id: id, token: existing.token });
        continue;
      }
      // Before the body is compared: another key learns only that the Idempotency-Key is taken,
      // never whether its body matches (the body may hold an SSN and a date of birth).
      if (existing.key_id !== undefined && scope.keyId !== undefined && existing.key_id !== scope.keyId) {
        throw ServiceError.idempotencyKeyOfAnotherKey();
      }
      if (!this.fingerprints.matches(existing.fingerprint, scope.body)) throw ServiceError.idempotencyKeyReused();
      const outcome = existing.state === 'done' ? existing.outcome : await this.outcomeOf(existing);
      if (outcome) return replay<T>(outcome);
      const redelivered = existing.message_id === scope.messageId;
      const abandoned = now.getTime() - existing.claimed_at.getTime() > LEASE_MS;
      if (!redelivered && !abandoned) throw ServiceError.idempotencyInProgress();
      await this.claims.updateOne({ _id: id }, { $set: { claimed_at: now, message_id: scope.messageId } });
      return this.complete(existing, work, true);
    }
    throw ServiceError.idempotencyInProgress();
  }

  private async outcomeOf(claim: ClaimRecord): Promise<Outcome | null> {
    const stored = await this.outcomes.findOne({ _id: claim._id });
    return stored?.token === claim.token ? stored.outcome : null;
  }

  private async complete<T>(claim: ClaimRecord, work: CreateWork<T>, resumed: boolean): Promise<T> {
    let response: T;
    try {
      response = await work(`key:${claim.token}`, resumed);
    } catch (error) {
      if (error instanceof ServiceError && FINAL_ERRORS.has(error.code)) {
        await this.record(claim, { error: error.toPayload() });
      } else {
        // Whether or not the work got stored, the next try may take the claim over at once:
        // it reuses this token, so it finds what was stored instead of storing it again.
        await this.claims.updateOne({ _id: claim._id }, { $set: { claimed_at: new Date(0) } }).catch(() => undefined);
      }
      throw error;
    }
    await this.record(claim, { response });
    return response;
  }

  /** Keeps the outcome; when a taken-over try recorded one first, that one stands. */
  private async record(claim: ClaimRecord, outcome: Outcome): Promise<void> {
    await claimed(this.outcomes.insertOne({ _id: claim._id, token: claim.token, outcome, expires_at: claim.expires_at }));
  }
}

function replay<T>(outcome: Outcome): T {
  if (outcome.error) throw new ServiceError(outcome.error.code, outcome.error.message, outcome.error.details);
  return outcome.response as T;
}

/**
 * The fingerprints that tell two bodies sent with one Idempotency-Key apart: an HMAC-SHA-256
 * under FINGERPRINT_KEYS of the body in canonical JSON, so that a fingerprint of a body holding
 * an SSN or a date of birth cannot be matched against guesses by whoever reads the database.
 * Each names its key, so that a new key can be put first while claims made under the old ones
 * still match until they expire.
 */
export class BodyFingerprints {
  private readonly keys: ReadonlyMap<string, Buffer>;
  private readonly current: RingKey;

  constructor(config: string | undefined) {
    const keys = parseKeyRing('FINGERPRINT_KEYS', config);
    this.current = keys[0];
    this.keys = new Map(keys.map(({ id, key }) => [id, key]));
  }

  /** The same for equal bodies whatever the order of their keys. */
  of(body: unknown): string {
    return `${this.current.id}:${hmac(this.current.key, body)}`;
  }

  /**
   * Whether `stored` is the fingerprint of `body`. One under a key no longer configured matches
   * nothing. A bare SHA-256 (from before fingerprints were keyed) is still compared, so that a
   * claim made just before the upgrade is not taken for another request during its last hours.
   */
  matches(stored: string, body: unknown): boolean {
    const separator = stored.indexOf(':');
    if (separator < 0) return sameText(stored, createHash('sha256').update(canonicalJson(body)).digest('hex'));
    const key = this.keys.get(stored.slice(0, separator));
    return key !== undefined && sameText(stored.slice(separator + 1), hmac(key, body));
  }
}

function hmac(key: Buffer, body: unknown): string {
  return createHmac('sha256', key).update(canonicalJson(body)).digest('hex');
}

function sameText(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Inserts a resource whose document carries `request_key` under a unique index; if the request
 * was already done, returns the resource stored then instead.
 */
export async function insertOnce<T extends { request_key: string }>(collection: Collection, record: T): Promise<T> {
  try {
    await collection.insertOne({ ...record });
    return record;
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    const stored = await collection.findOne<T>({ request_key: record.request_key });
    if (!stored) throw error;
    return stored;
  }
}
