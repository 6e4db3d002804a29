import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { formatTimestamp, WebhookRepresentation } from '@app/contracts';
import { documentKey, ignoreExistingCollection, insertOnce } from '@app/persistence';

export interface SubscriptionRecord {
  _id: string;
  id: number;
  client_id: number;
  url: string;
  events: string[];
  /** Needed in clear to sign each attempt; never returned after create. */
  secret: string;
  created_at: Date;
  deleted_at: Date | null;
  request_key: string;
}

/** Webhook subscriptions, in the webhooks service's own database. */
@Injectable()
export class SubscriptionStore implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get subscriptions() {
    return this.connection.collection<SubscriptionRecord>('subscriptions');
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection('subscriptions').catch(ignoreExistingCollection);
    await this.subscriptions.createIndex({ request_key: 1 }, { unique: true, name: 'request_key_unique' });
  }

  /** Stores it, or returns the one its request already stored. */
  insertOnce(record: SubscriptionRecord): Promise<SubscriptionRecord> {
    return insertOnce(this.connection.collection('subscriptions'), record);
  }

  /** The client's live subscription, or null: another client's is as unknown as none. */
  async findLive(clientId: number, id: number): Promise<SubscriptionRecord | null> {
    const record = await this.subscriptions.findOne({ _id: documentKey(id) });
    return record && record.client_id === clientId && !record.deleted_at ? record : null;
  }

  /** The client's live subscriptions, newest first. */
  listLive(clientId: number): Promise<SubscriptionRecord[]> {
    return this.subscriptions.find({ client_id: clientId, deleted_at: null }).sort({ id: -1 }).toArray();
  }

  async markDeleted(id: number, at: Date): Promise<void> {
    await this.subscriptions.updateOne({ _id: documentKey(id) }, { $set: { deleted_at: at } });
  }
}

export function toWebhookRepresentation(record: SubscriptionRecord): WebhookRepresentation {
  return { id: record.id, url: record.url, events: record.events, created_at: formatTimestamp(record.created_at) };
}
