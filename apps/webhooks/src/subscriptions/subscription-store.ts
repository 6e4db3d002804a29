import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { formatTimestamp, outsideRequests, WebhookRepresentation } from '@app/contracts';
import { documentKey, IdAllocator, ignoreExistingCollection, insertOnce } from '@app/persistence';
import { WebhooksEnvironment } from '../config/webhooks.environment';
import { NoFreeSlot, SlotHolder, SubscriptionSlots } from './subscription-slots.repository';
import { StoredSecret, WebhookSecrets } from './webhook-secrets';

/** How often each instance gives a slot to subscriptions stored without one (by an older version). */
const SLOT_PASS_EVERY_MS = 60_000;

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
  /** Its slot among the client's (SubscriptionSlots); absent on subscriptions stored before slots, until given one. */
  slot?: number;
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
export class SubscriptionStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SubscriptionStore');
  private readonly slots: SubscriptionSlots;
  /** Until this instance has given every subscription stored without a slot one, it lists by `client_id`. */
  private slotted = false;
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly secrets: WebhookSecrets,
    private readonly env: WebhooksEnvironment,
    private readonly ids: IdAllocator,
  ) {
    this.slots = new SubscriptionSlots(connection);
  }

  private get subscriptions() {
    return this.connection.collection<SubscriptionDocument>('subscriptions');
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection('subscriptions').catch(ignoreExistingCollection);
    await this.subscriptions.createIndex({ request_key: 1 }, { unique: true, name: 'request_key_unique' });
    await this.slots.createCollection();
    await this.giveSlots();
    this.timer = setInterval(() => outsideRequests(() => void this.giveSlots()), SLOT_PASS_EVERY_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /**
   * Claims a slot for the subscription, then stores it, its secret sealed; or returns the one its
   * request already stored. The slot is claimed first, under the subscription's id, so the client's
   * limit holds whatever number of creates race; a retry of the request finds the slot its first
   * try claimed and takes the id that try chose. Throws NoFreeSlot when the client has no room.
   */
  async insertOnce(record: SubscriptionRecord): Promise<SubscriptionRecord> {
    const slot = await this.slots.claim(record.client_id, record, this.env.WEBHOOK_MAX_SUBSCRIPTIONS, (ids) => this.holders(ids));
    const document: SubscriptionDocument = { ...record, slot, secret: this.secrets.seal(record.secret, ownerOf(record)) };
    const stored = await insertOnce(this.connection.collection('subscriptions'), document);
    // Deleted since its request stored it: its secret is gone, and signs nothing any more.
    return stored.secret === undefined ? { ...stored, secret: record.secret } : this.opened(stored);
  }

  /**
   * The id a request's subscription is stored under: the one an earlier try of it chose, when
   * that try claimed a slot (a retry stores under it), else a new one.
   */
  async idFor(clientId: number, requestKey: string): Promise<number> {
    const slots = await this.slots.read(clientId, this.env.WEBHOOK_MAX_SUBSCRIPTIONS);
    return slots.find((slot) => slot.request_key === requestKey)?.subscription_id ?? this.ids.allocate('webhooks');
  }

  /** The client's live subscription, or null: another client's is as unknown as none. */
  async findLive(clientId: number, id: number): Promise<SubscriptionRecord | null> {
    const document = await this.subscriptions.findOne({ _id: documentKey(id) });
    return document && document.client_id === clientId && !document.deleted_at ? this.opened(document) : null;
  }

  /**
   * The client's live subscriptions, newest first, without their secrets: those its slots name,
   * read by `_id` (and, until this instance has slotted every older subscription, by `client_id`).
   */
  async listLive(clientId: number): Promise<SubscriptionSummary[]> {
    const slots = await this.slots.read(clientId, this.env.WEBHOOK_MAX_SUBSCRIPTIONS);
    const ids = [...new Set(slots.map((slot) => documentKey(slot.subscription_id)))];
    const slotted =
      ids.length === 0 ? [] : await this.subscriptions.find({ _id: { $in: ids } }, { projection: { secret: 0 } }).toArray();
    const unslotted = this.slotted
      ? []
      : await this.subscriptions.find({ client_id: clientId, deleted_at: null }, { projection: { secret: 0 } }).toArray();
    const live = new Map<number, SubscriptionSummary>();
    for (const document of [...slotted, ...unslotted]) {
      if (document.client_id === clientId && !document.deleted_at) live.set(document.id, document);
    }
    return [...live.values()].sort((a, b) => b.id - a.id);
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

  /** Nothing is signed for a deleted subscription: its secret goes with it, and its slot is free. */
  async markDeleted(subscription: SubscriptionSummary, at: Date): Promise<void> {
    await this.subscriptions.updateOne({ _id: subscription._id }, { $set: { deleted_at: at }, $unset: { secret: '' } });
    if (subscription.slot !== undefined) await this.slots.free(subscription.client_id, subscription.slot, subscription.id);
  }

  /**
   * Gives a slot to each live subscription stored without one (by a version before slots), above
   * its client's limit if need be. A scan of the subscriptions: at boot and once a minute, in the
   * background. Once a pass finds none, this instance reads subscriptions by their slots alone.
   */
  async giveSlots(): Promise<void> {
    try {
      const unslotted = await this.subscriptions
        .find({ slot: { $exists: false }, deleted_at: null }, { projection: { secret: 0 } })
        .toArray();
      for (const subscription of unslotted) {
        const slot = await this.slots.claim(subscription.client_id, subscription, Infinity, (ids) => this.holders(ids));
        await this.subscriptions.updateOne({ _id: subscription._id }, { $set: { slot } });
      }
      if (unslotted.length > 0) this.logger.log(`gave ${unslotted.length} subscription(s) stored without one a slot`);
      this.slotted = true;
    } catch (error) {
      this.logger.warn(`giving subscriptions their slots failed; they are read by client meanwhile: ${String(error)}`);
    }
  }

  /** What the subscriptions with these ids say of themselves: whether they live, and in which slot. */
  private async holders(ids: number[]): Promise<SlotHolder[]> {
    if (ids.length === 0) return [];
    return this.subscriptions
      .find({ _id: { $in: ids.map(documentKey) } }, { projection: { id: 1, slot: 1, deleted_at: 1 } })
      .toArray();
  }

  private opened({ secret, ...summary }: SubscriptionDocument): SubscriptionRecord {
    if (secret === undefined) throw new Error(`subscription ${summary.id} has no secret`);
    return { ...summary, secret: this.secrets.open(secret, ownerOf(summary)) };
  }
}

export { NoFreeSlot };

export function ownerOf(subscription: Pick<SubscriptionRecord, 'client_id' | 'id'>) {
  return { clientId: subscription.client_id, webhookId: subscription.id };
}

export function toWebhookRepresentation(record: SubscriptionSummary): WebhookRepresentation {
  return { id: record.id, url: record.url, events: record.events, created_at: formatTimestamp(record.created_at) };
}
