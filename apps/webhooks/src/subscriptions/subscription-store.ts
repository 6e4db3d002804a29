import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { formatTimestamp, WebhookRepresentation } from '@app/contracts';
import { documentKey, ignoreExistingCollection, insertOnce } from '@app/persistence';
import { StoredSecret, WebhookSecrets } from './webhook-secrets';

export interface SubscriptionRecord {
  _id: string;
  id: number;
  client_id: number;
  url: string;
  events: string[];
  /** In clear, in memory only: needed to sign each attempt; never returned after create or rotation. */
  secret: string;
  created_at: Date;
  deleted_at: Date | null;
  request_key: string;
}

/** A subscription without its secret: what listings and the fan-out of events need. */
export type SubscriptionSummary = Omit<SubscriptionRecord, 'secret'>;

/**
 * A subscription as stored: its secret sealed (in clear on subscriptions stored before secrets
 * were sealed, until their next write), none once it is deleted.
 */
interface SubscriptionDocument extends SubscriptionSummary {
  secret?: StoredSecret;
}

/** Webhook subscriptions, in the webhooks service's own database. */
@Injectable()
export class SubscriptionStore implements OnModuleInit {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly secrets: WebhookSecrets,
  ) {}

  private get subscriptions() {
    return this.connection.collection<SubscriptionDocument>('subscriptions');
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection('subscriptions').catch(ignoreExistingCollection);
    await this.subscriptions.createIndex({ request_key: 1 }, { unique: true, name: 'request_key_unique' });
  }

  /** Stores it, its secret sealed, or returns the one its request already stored. */
  async insertOnce(record: SubscriptionRecord): Promise<SubscriptionRecord> {
    const document: SubscriptionDocument = { ...record, secret: this.secrets.seal(record.secret, ownerOf(record)) };
    const stored = await insertOnce(this.connection.collection('subscriptions'), document);
    // Deleted since its request stored it: its secret is gone, and signs nothing any more.
    return stored.secret === undefined ? { ...stored, secret: record.secret } : this.opened(stored);
  }

  /** The client's live subscription, or null: another client's is as unknown as none. */
  async findLive(clientId: number, id: number): Promise<SubscriptionRecord | null> {
    const document = await this.subscriptions.findOne({ _id: documentKey(id) });
    return document && document.client_id === clientId && !document.deleted_at ? this.opened(document) : null;
  }

  /** The client's live subscriptions, newest first, without their secrets; the first `limit`, when given. */
  listLive(clientId: number, limit?: number): Promise<SubscriptionSummary[]> {
    const newest = this.subscriptions
      .find({ client_id: clientId, deleted_at: null }, { projection: { secret: 0 } })
      .sort({ id: -1 });
    return (limit === undefined ? newest : newest.limit(limit)).toArray();
  }

  /** The client's live subscriptions, but for the one stored by the request `exceptRequestKey`. */
  countLive(clientId: number, exceptRequestKey: string): Promise<number> {
    return this.subscriptions.countDocuments({ client_id: clientId, deleted_at: null, request_key: { $ne: exceptRequestKey } });
  }

  /** Replaces the live subscription's secret with `secret`, sealed; false when it is deleted meanwhile. */
  async replaceSecret(subscription: SubscriptionSummary, secret: string): Promise<boolean> {
    const sealed = this.secrets.seal(secret, ownerOf(subscription));
    const { matchedCount } = await this.subscriptions.updateOne(
      { _id: subscription._id, deleted_at: null },
      { $set: { secret: sealed } },
    );
    return matchedCount === 1;
  }

  /** Nothing is signed for a deleted subscription: its secret goes with it. */
  async markDeleted(id: number, at: Date): Promise<void> {
    await this.subscriptions.updateOne({ _id: documentKey(id) }, { $set: { deleted_at: at }, $unset: { secret: '' } });
  }

  private opened({ secret, ...summary }: SubscriptionDocument): SubscriptionRecord {
    if (secret === undefined) throw new Error(`subscription ${summary.id} has no secret`);
    return { ...summary, secret: this.secrets.open(secret, ownerOf(summary)) };
  }
}

export function ownerOf(subscription: Pick<SubscriptionRecord, 'client_id' | 'id'>) {
  return { clientId: subscription.client_id, webhookId: subscription.id };
}

export function toWebhookRepresentation(record: SubscriptionSummary): WebhookRepresentation {
  return { id: record.id, url: record.url, events: record.events, created_at: formatTimestamp(record.created_at) };
}
