import { Connection } from 'mongoose';
import { claimed, ignoreExistingCollection, isDuplicateKey } from '@app/persistence';

/** Slot n of a client's subscriptions, under `<client id>:<n>`: the subscription that holds it. */
export interface SlotRecord {
  _id: string;
  client_id: number;
  subscription_id: number;
  request_key: string;
  claimed_at: Date;
}

/** `<client id>:high`: the highest slot number the client has ever had, when past its limit. */
interface HighSlot {
  _id: string;
  slot: number;
}

/** What a slot holds, as its subscription says. */
export interface SlotHolder {
  id: number;
  slot?: number;
  deleted_at: Date | null;
}

/** How long a slot whose subscription is not stored yet counts as taken: its create is under way. */
export const SLOT_CLAIM_GRACE_MS = 60_000;
const MAX_CLAIM_ATTEMPTS = 20;

export class NoFreeSlot extends Error {}

/**
 * The slots of each client's live subscriptions, numbered 1 to its limit, each a document under
 * `<client id>:<n>`. What every event needs, the client's subscriptions, is then one read of
 * those keys and one of the subscriptions they name, both by `_id`: the reads that FerretDB
 * answers from its index, where a filter on `client_id` reads every subscription stored. A create
 * claims a free slot by inserting it, so the limit holds across instances however many creates
 * race; a delete frees it. Subscriptions stored before slots are given one above the limit if
 * need be (`<client id>:high` then says how far the slots go).
 */
export class SubscriptionSlots {
  constructor(
    private readonly connection: Connection,
    private readonly now: () => number = Date.now,
  ) {}

  private get slots() {
    return this.connection.collection<SlotRecord | HighSlot>('subscription_slots');
  }

  async createCollection(): Promise<void> {
    await this.connection.createCollection('subscription_slots').catch(ignoreExistingCollection);
  }

  /** The client's slots, lowest first: its slots up to `limit`, and those above, if it has any. */
  async read(clientId: number, limit: number): Promise<SlotRecord[]> {
    const keys = [highKey(clientId), ...numbers(1, limit).map((n) => slotKey(clientId, n))];
    const found = await this.slots.find({ _id: { $in: keys } }).toArray();
    const high = found.find((slot): slot is HighSlot => slot._id === highKey(clientId))?.slot ?? 0;
    if (high > limit) {
      const above = numbers(limit + 1, high).map((n) => slotKey(clientId, n));
      found.push(...(await this.slots.find({ _id: { $in: above } }).toArray()));
    }
    return found
      .filter((slot): slot is SlotRecord => 'subscription_id' in slot && slot.client_id === clientId)
      .sort((a, b) => slotNumber(a) - slotNumber(b));
  }

  /**
   * Claims the lowest free slot of `1..limit` for the subscription (`Infinity`: no limit); the
   * slot it holds already, if one does. `holders` tells what each slot's subscription says of
   * itself: a slot that no live subscription holds, older than SLOT_CLAIM_GRACE_MS, is free (its
   * create stopped half-way, or its delete did). Throws NoFreeSlot when every slot is taken.
   */
  async claim(
    clientId: number,
    subscription: { id: number; request_key: string },
    limit: number,
    holders: (ids: number[]) => Promise<SlotHolder[]>,
  ): Promise<number> {
    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
      const slots = await this.read(clientId, Number.isFinite(limit) ? limit : (await this.high(clientId)) + 1);
      const own = slots.find((slot) => slot.subscription_id === subscription.id);
      if (own) return slotNumber(own);
      const taken = new Set((await this.held(slots, holders)).map(slotNumber));
      const free = numbers(1, Number.isFinite(limit) ? limit : slots.length + 1).find((n) => !taken.has(n));
      if (free === undefined) throw new NoFreeSlot();
      const record: SlotRecord = {
        _id: slotKey(clientId, free),
        client_id: clientId,
        subscription_id: subscription.id,
        request_key: subscription.request_key,
        claimed_at: new Date(this.now()),
      };
      // A stale slot goes first; only its own holder is removed, not one that took it since.
      const stale = slots.find((slot) => slotNumber(slot) === free);
      if (stale) await this.slots.deleteOne({ _id: stale._id, subscription_id: stale.subscription_id });
      if (await claimed(this.slots.insertOne(record))) {
        if (free > (await this.high(clientId))) await this.raiseHigh(clientId, free);
        return free;
      }
    }
    throw new Error(`no slot could be claimed for client ${clientId} after ${MAX_CLAIM_ATTEMPTS} attempts`);
  }

  /** The slots that count as taken: held by their live subscription, or claimed too recently to tell. */
  async held(slots: SlotRecord[], holders: (ids: number[]) => Promise<SlotHolder[]>): Promise<SlotRecord[]> {
    const byId = new Map((await holders(slots.map((slot) => slot.subscription_id))).map((holder) => [holder.id, holder]));
    return slots.filter((slot) => {
      const holder = byId.get(slot.subscription_id);
      if (holder && !holder.deleted_at && (holder.slot === undefined || holder.slot === slotNumber(slot))) return true;
      return !holder && this.now() - slot.claimed_at.getTime() < SLOT_CLAIM_GRACE_MS;
    });
  }

  /** Frees the slot, if `subscriptionId` still holds it. */
  async free(clientId: number, slot: number, subscriptionId: number): Promise<void> {
    await this.slots.deleteOne({ _id: slotKey(clientId, slot), subscription_id: subscriptionId });
  }

  private async high(clientId: number): Promise<number> {
    const high = (await this.slots.findOne({ _id: highKey(clientId) })) as HighSlot | null;
    return high?.slot ?? 0;
  }

  /** Written, then read back: on FerretDB a concurrent update can undo it. */
  private async raiseHigh(clientId: number, slot: number): Promise<void> {
    for (let write = 0; write < MAX_CLAIM_ATTEMPTS; write++) {
      if ((await this.high(clientId)) >= slot) return;
      try {
        await this.slots.updateOne({ _id: highKey(clientId) }, { $set: { slot } }, { upsert: true });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
  }
}

function slotKey(clientId: number, n: number): string {
  return `${clientId}:${n}`;
}

function highKey(clientId: number): string {
  return `${clientId}:high`;
}

export function slotNumber(slot: SlotRecord): number {
  return Number(slot._id.slice(slot._id.lastIndexOf(':') + 1));
}

function numbers(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}
