import { createHash, randomBytes } from 'node:crypto';
import { Injectable, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { formTokenDigest } from '@app/crypto';
import { BackgroundPurge, claimed, ignoreExistingCollection, OrderedLists, Storage } from '@app/persistence';
import { canonicalMailbox, maskedMailbox } from './mailbox';

/** What a link in an e-mail does for the address it was sent to. */
export type AddressLinkPurpose = 'confirm' | 'unsubscribe';

/** A link an e-mail carried, under the digest of its token: the token itself is only in the e-mail. */
export interface AddressLink {
  _id: string;
  purpose: AddressLinkPurpose;
  address: string;
  client_id: number;
  property_name: string;
  /** The address masked (maskedMailbox), for the link's page to name; absent on links made before. */
  mailbox?: string;
  created_at: Date;
}

/**
 * How long a link of an e-mail works after the e-mail was made: an unsubscribe must work at least
 * 30 days after a message is sent (CAN-SPAM), and a forwarded e-mail's link must not work for ever.
 */
export const MAIL_LINK_DAYS = 90;
const MAIL_LINK_MS = MAIL_LINK_DAYS * 24 * 3600 * 1000;

/** Whether the link's time is over. */
export function linkExpired(link: Pick<AddressLink, 'created_at'>, now = new Date()): boolean {
  return now.getTime() - link.created_at.getTime() > MAIL_LINK_MS;
}

/**
 * A fact about an address, under `_id` alone (insert-once, so instances at once make it once):
 * `suppressed:<address>`, `confirmed:<client>:<address>`, or one of a cap's places
 * `<cap>:<n>`, taken by the message `key`. Places of a day's cap expire with it. Two are moved
 * forward in time, never back ($max, so that writers at once agree without a transaction): a
 * suppression's `last_at`, its latest unsubscribe, and `lifted:<client>:<address>`'s `at`, the
 * client's latest lift of it.
 */
interface AddressMark {
  _id: string;
  at: Date;
  last_at?: Date;
  key?: string;
  expires_at?: Date;
}

/** An address's suppression as one client's mail sees it. */
export interface Suppression {
  suppressed: boolean;
  unsubscribedAt: Date | null;
  liftedAt: Date | null;
}

/** How often the places of past days' caps are removed. */
const PURGE_EVERY_MS = 3600 * 1000;
/** Marks expired removed per round trip of the purge. */
const PURGE_BATCH = 500;
/** Held messages read per round trip when an address is confirmed. */
const HELD_READ = 100;

/**
 * An address as the book keeps it: a digest of the mailbox it reaches (canonicalMailbox), so that
 * nothing here names anyone and every spelling of one mailbox counts as one.
 */
export function addressDigest(email: string): string {
  return digest(canonicalMailbox(email));
}

/**
 * The digest releases before the mailbox was counted kept an address under (it lowercased): the
 * suppression and confirmation marks they wrote are read under it too.
 */
export function formerAddressDigest(email: string): string {
  return digest(email.trim().toLowerCase());
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * What the notifications service knows of the addresses it mails, in its own database: the links
 * its e-mails carried (confirm the address, stop every e-mail to it), the addresses that asked for
 * no more mail (for every client), the addresses confirmed for a client, the places taken under
 * each cap, and the messages held until their address is confirmed.
 */
@Injectable()
export class AddressBook implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly held: OrderedLists<string>;
  private readonly purge = new BackgroundPurge('places of past days’ caps', PURGE_EVERY_MS, () => this.purgeExpired());

  constructor(
    @InjectConnection() private readonly connection: Connection,
    storage: Storage,
  ) {
    this.held = storage.orderedLists<string>('held_messages', { field: 'message_key' });
  }

  onApplicationBootstrap(): void {
    this.purge.start();
  }

  onModuleDestroy(): void {
    this.purge.stop();
  }

  private get links() {
    return this.connection.collection<AddressLink>('address_links');
  }

  private get marks() {
    return this.connection.collection<AddressMark>('address_marks');
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection('address_links').catch(ignoreExistingCollection);
    await this.connection.createCollection('address_marks').catch(ignoreExistingCollection);
    await this.held.prepare();
  }

  /** A new link for an e-mail to `address`: its token, for the e-mail; only its digest is kept. */
  async newLink(
    purpose: AddressLinkPurpose,
    address: string,
    to: { client_id: number; property_name: string; email: string },
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.links.insertOne({
      _id: formTokenDigest(token),
      purpose,
      address,
      client_id: to.client_id,
      property_name: to.property_name,
      mailbox: maskedMailbox(to.email),
      created_at: new Date(),
    });
    return token;
  }

  async findLink(tokenDigest: string, purpose: AddressLinkPurpose): Promise<AddressLink | null> {
    const link = await this.links.findOne({ _id: tokenDigest });
    return link?.purpose === purpose ? link : null;
  }

  /**
   * Whether the client's messages to `address` are suppressed: it unsubscribed, and the client has
   * not lifted it since its latest unsubscribe. `formerly`: the address's digest as an earlier
   * release kept it (formerAddressDigest), whose suppression is read too.
   */
  async isSuppressed(clientId: number, address: string, formerly = address): Promise<boolean> {
    return (await this.suppression(clientId, address, formerly)).suppressed;
  }

  /** The address's latest unsubscribe and the client's latest lift, and whether it is suppressed for the client. */
  async suppression(clientId: number, address: string, formerly = address): Promise<Suppression> {
    const ids = [`suppressed:${address}`, `suppressed:${formerly}`, liftedMark(clientId, address)];
    const marks = await this.marks.find({ _id: { $in: [...new Set(ids)] } }).toArray();
    const unsubscribes = marks.filter(({ _id }) => _id.startsWith('suppressed:')).map((mark) => mark.last_at ?? mark.at);
    const unsubscribedAt = unsubscribes.length === 0 ? null : new Date(Math.max(...unsubscribes.map((at) => at.getTime())));
    const liftedAt = marks.find(({ _id }) => _id === liftedMark(clientId, address))?.at ?? null;
    const suppressed = unsubscribedAt !== null && (liftedAt === null || liftedAt <= unsubscribedAt);
    return { suppressed, unsubscribedAt, liftedAt };
  }

  /** The address unsubscribed: suppressed for every client, those that lifted it before included. */
  async suppress(address: string, now = new Date()): Promise<void> {
    const _id = `suppressed:${address}`;
    if (await claimed(this.marks.insertOne({ _id, at: now }))) return;
    await this.marks.updateOne({ _id }, { $max: { last_at: now } });
  }

  /** The client lifts the address's suppression for its own mail, until the address unsubscribes again. */
  async lift(clientId: number, address: string, now = new Date()): Promise<void> {
    await this.marks.updateOne({ _id: liftedMark(clientId, address) }, { $max: { at: now } }, { upsert: true });
  }

  async isConfirmed(clientId: number, address: string, formerly = address): Promise<boolean> {
    return this.anyMark([`confirmed:${clientId}:${address}`, `confirmed:${clientId}:${formerly}`]);
  }

  private async anyMark(ids: string[]): Promise<boolean> {
    return (await this.marks.findOne({ _id: { $in: [...new Set(ids)] } }, { projection: { _id: 1 } })) !== null;
  }

  async confirm(clientId: number, address: string): Promise<void> {
    await claimed(this.marks.insertOne({ _id: `confirmed:${clientId}:${address}`, at: new Date() }));
  }

  /**
   * Takes one of the `count` places of cap `cap` for message `key`, each place an insert-once
   * mark: true when it has one. The same message asking again finds the place it took, so a
   * retried or redelivered message is counted once.
   */
  async takePlace(cap: string, count: number, key: string, expiresAt?: Date): Promise<boolean> {
    for (let n = 1; n <= count; n++) {
      const _id = `${cap}:${n}`;
      const mark: AddressMark = { _id, at: new Date(), key, ...(expiresAt ? { expires_at: expiresAt } : {}) };
      if (await claimed(this.marks.insertOne(mark))) return true;
      if ((await this.marks.findOne({ _id }))?.key === key) return true;
    }
    return false;
  }

  /** Puts the message in the list of those waiting for the client's `address` to be confirmed. */
  async hold(clientId: number, address: string, key: string): Promise<void> {
    await this.held.append(heldList(clientId, address), key);
  }

  /** The messages held for the client's `address`, newest first. */
  async heldMessages(clientId: number, address: string): Promise<string[]> {
    const name = heldList(clientId, address);
    const keys: string[] = [];
    for (let position = await this.held.head(name); position >= 1; position -= HELD_READ) {
      keys.push(...(await this.held.read(name, position, HELD_READ)).map((entry) => entry.id));
    }
    return keys;
  }

  /**
   * Forgets the keys of an erased applicant's messages, which name its address: off every list of
   * held messages, and the places they took under caps taken by their erased copies instead (still
   * counted). Scans on FerretDB, made by the queue worker alone.
   */
  async forgetMessages(keys: Array<{ key: string; erased: string }>): Promise<void> {
    if (keys.length === 0) return;
    await this.held.remove({ message_key: { $in: keys.map(({ key }) => key) } });
    for (const { key, erased } of keys) await this.marks.updateMany({ key }, { $set: { key: erased } });
  }

  /** Removes the places of caps that have expired; reads every mark on FerretDB, so only in the background. */
  async purgeExpired(now = new Date()): Promise<number> {
    let purged = 0;
    for (;;) {
      const batch = await this.marks
        .find({ expires_at: { $lt: now } }, { projection: { _id: 1 } })
        .limit(PURGE_BATCH)
        .toArray();
      if (batch.length === 0) return purged;
      purged += (await this.marks.deleteMany({ _id: { $in: batch.map(({ _id }) => _id) } })).deletedCount;
      if (batch.length < PURGE_BATCH) return purged;
    }
  }
}

function liftedMark(clientId: number, address: string): string {
  return `lifted:${clientId}:${address}`;
}

function heldList(clientId: number, address: string): string {
  return `${clientId}:${address}`;
}
