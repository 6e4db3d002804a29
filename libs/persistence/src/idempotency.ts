import { createHash, randomUUID } from 'node:crypto';
import { Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Collection, Connection } from 'mongoose';
import { claimed, isDuplicateKey } from './mongo-errors';
import { ErrorCode, ErrorPayload, ServiceError } from '@app/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A claim older than this whose worker never finished is taken over by the next try. */
const LEASE_MS = 60 * 1000;
const PURGE_EVERY_MS = 10 * 60 * 1000;
/** Refusals that the same request would get again: kept and replayed like a success. */
const FINAL_ERRORS = new Set<string>([ErrorCode.VALIDATION_FAILED, ErrorCode.PROPERTY_ID_INVALID, ErrorCode.PROPERTY_NOT_FOUND]);

interface IdempotencyRecord {
  /** `<client_id>:<Idempotency-Key>` */
  _id: string;
  /** Names the work of this claim; the resource stores it, so a second try finds the first's. */
  token: string;
  fingerprint: string;
  state: 'pending' | 'done';
  message_id: string;
  outcome: { response?: unknown; error?: ErrorPayload } | null;
  claimed_at: Date;
  expires_at: Date;
}

export interface CreateScope {
  clientId: number;
  /** The caller's Idempotency-Key, if it sent one. */
  key?: string;
  /** The broker message's correlation id: the same on every delivery of one request. */
  messageId: string;
  /** The normalized request; two requests with one key must have equal bodies. */
  body: unknown;
}

/**
 * Does a create at most once per request. Each create is given a request key that its resource
 * stores under a unique index: the message id (so a redelivered message finds the resource its
 * first delivery stored) or, for a request with an Idempotency-Key, the token of the key's claim
 * (so a retry of the request finds it too). Claims live 24 hours in this service's own database,
 * `_id` unique across instances; a repeat gets the first outcome, a different body with the same
 * key is refused, and a repeat while the first is at work gets IDEMPOTENCY_IN_PROGRESS.
 * Expiry is read from `expires_at` and old claims are purged here, as FerretDB has no TTL index.
 */
export class Idempotency implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  private purgeTimer?: NodeJS.Timeout;

  constructor(private readonly connection: Connection) {}

  private get claims() {
    return this.connection.collection<IdempotencyRecord>('idempotency_keys');
  }

  onModuleInit(): void {
    this.purgeTimer = setInterval(() => void this.purgeExpired(), PURGE_EVERY_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.purgeTimer);
  }

  async purgeExpired(now = new Date()): Promise<number> {
    try {
      const { deletedCount } = await this.claims.deleteMany({ expires_at: { $lte: now } });
      return deletedCount;
    } catch (error) {
      this.logger.warn(`purging expired idempotency keys failed: ${String(error)}`);
      return 0;
    }
  }

  async run<T>(scope: CreateScope, work: (requestKey: string) => Promise<T>): Promise<T> {
    if (scope.key === undefined) return work(`message:${scope.messageId}`);
    const id = `${scope.clientId}:${scope.key}`;
    const fingerprint = fingerprintOf(scope.body);
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = new Date();
      const token = randomUUID();
      const won = await claimed(
        this.claims.insertOne({
          _id: id,
          token,
          fingerprint,
          state: 'pending',
          message_id: scope.messageId,
          outcome: null,
          claimed_at: now,
          expires_at: new Date(now.getTime() + DAY_MS),
        }),
      );
      if (won) return this.complete(id, token, work);
      const existing = await this.claims.findOne({ _id: id });
      if (!existing) continue;
      if (existing.expires_at <= now) {
        await this.claims.deleteOne({ _id: id, token: existing.token });
        continue;
      }
      if (existing.fingerprint !== fingerprint) throw ServiceError.idempotencyKeyReused();
      if (existing.state === 'done') return replay<T>(existing.outcome);
      const redelivered = existing.message_id === scope.messageId;
      const abandoned = now.getTime() - existing.claimed_at.getTime() > LEASE_MS;
      if (!redelivered && !abandoned) throw ServiceError.idempotencyInProgress();
      await this.claims.updateOne({ _id: id, token: existing.token }, { $set: { claimed_at: now, message_id: scope.messageId } });
      return this.complete(id, existing.token, work);
    }
    throw ServiceError.idempotencyInProgress();
  }

  private async complete<T>(id: string, token: string, work: (requestKey: string) => Promise<T>): Promise<T> {
    let response: T;
    try {
      response = await work(`key:${token}`);
    } catch (error) {
      if (error instanceof ServiceError && FINAL_ERRORS.has(error.code)) {
        await this.claims.updateOne({ _id: id, token }, { $set: { state: 'done', outcome: { error: error.toPayload() } } });
      } else {
        // Whether or not the work got stored, the next try may take the claim over at once:
        // it reuses this token, so it finds what was stored instead of storing it again.
        await this.claims.updateOne({ _id: id, token }, { $set: { claimed_at: new Date(0) } }).catch(() => undefined);
      }
      throw error;
    }
    await this.claims.updateOne({ _id: id, token }, { $set: { state: 'done', outcome: { response } } });
    return response;
  }
}

function replay<T>(outcome: IdempotencyRecord['outcome']): T {
  if (outcome?.error) throw new ServiceError(outcome.error.code, outcome.error.message, outcome.error.details);
  return outcome?.response as T;
}

/** The same for equal bodies whatever the order of their keys. */
export function fingerprintOf(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
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
