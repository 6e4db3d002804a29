import { Connection } from 'mongoose';
import { Budgets } from '../storage';
import { DriverOnceRecords } from './once-records';
import { DriverOrderedLists } from './ordered-lists';

/** What an item was granted: the units it took of its owner's budget. */
interface Grant {
  owner: string;
  units: number;
  at: Date;
  expires_at?: Date;
}

/** That an item's units were given back: made once, by the first to give them back. */
interface Return {
  owner: string;
  units: number;
  at: Date;
  expires_at?: Date;
}

/**
 * Each owner's use of a budget, counted without a counter (an `$inc` loses increments on
 * FerretDB, whose updates read and then write): every unit taken is an entry appended to the
 * owner's `taken:<owner>` list, every unit given back one appended to `freed:<owner>`, and what the
 * owner uses is the difference of the two lists' heads (OrderedLists: positions claimed by
 * insert-once entries, read by `_id` alone). Of takes at once, those whose units came last are
 * refused, and the grants never hold more than the limit (see `take`). Each item's grant and each item's return is an insert-once record, so a retried take
 * is counted once and an item is given back once, however many erasures or sweeps at once ask;
 * a take of an item given back is refused, so that no try holds an item whose room is free.
 *
 * A process that dies between a return's record and its units' entries leaves those units
 * counted as used: the budget errs towards refusing, never towards more than its limit.
 */
export class DriverBudgets implements Budgets {
  private readonly lists: DriverOrderedLists<string>;
  private readonly grants: DriverOnceRecords<Grant>;
  private readonly returns: DriverOnceRecords<Return>;

  constructor(connection: Connection, collection: string) {
    this.lists = new DriverOrderedLists<string>(connection, collection, { field: 'item' });
    this.grants = new DriverOnceRecords<Grant>(connection, `${collection}_grants`);
    this.returns = new DriverOnceRecords<Return>(connection, `${collection}_returns`);
  }

  async prepare(): Promise<void> {
    await this.lists.prepare();
    await this.grants.prepare();
    await this.returns.prepare();
  }

  async take(owner: string, item: string, units: number, limit: number, expiresAt?: Date): Promise<boolean> {
    const key = itemKey(owner, item);
    // An item whose room was given back is settled: asked again (a try that was answered before
    // another try gave the room back), it is refused, since nothing holds its room any more.
    if (await this.grants.get(key)) return !(await this.returns.get(key));
    // The units freed before this take's own are taken: every one of them had a position below
    // this take's, so what the grants at or below its highest position hold is at most that
    // position less those. Frees that land meanwhile are not counted, so of takes and refusals
    // interleaving across instances none can lift the total past the limit.
    const freed = await this.lists.head(freedList(owner));
    const positions = await Promise.all(Array.from({ length: units }, () => this.lists.append(takenList(owner), item)));
    const expiry = expiresAt ? { expires_at: expiresAt } : {};
    if (Math.max(...positions) - freed <= limit) {
      const granted = await this.grants.claim(key, { owner, units, at: new Date(), ...expiry });
      // Another try of the same item was granted first: these units were taken twice.
      if (!granted) await this.free(owner, item, units);
      // Given back meanwhile (a give-back that found no grant yet frees the units it is told):
      // the room is free again, so the item may not be held.
      return !(await this.returns.get(key));
    }
    await this.free(owner, item, units);
    return false;
  }

  async giveBack(owner: string, item: string, units: number): Promise<void> {
    const key = itemKey(owner, item);
    const grant = await this.grants.get(key);
    const given = grant?.units ?? units;
    const expiry = grant?.expires_at ? { expires_at: grant.expires_at } : {};
    if (!(await this.returns.claim(key, { owner, units: given, at: new Date(), ...expiry }))) return;
    await this.free(owner, item, given);
  }

  async used(owner: string): Promise<number> {
    const [taken, freed] = await Promise.all([this.lists.head(takenList(owner)), this.lists.head(freedList(owner))]);
    return taken - freed;
  }

  /** Background only: forgets the grants and returns past their expiry (a day's cap, say). */
  async purgeExpired(now: Date): Promise<number> {
    return (await this.grants.purgeExpired(now)) + (await this.returns.purgeExpired(now));
  }

  private async free(owner: string, item: string, units: number): Promise<void> {
    await Promise.all(Array.from({ length: units }, () => this.lists.append(freedList(owner), item)));
  }
}

function itemKey(owner: string, item: string): string {
  return `${owner}|${item}`;
}

function takenList(owner: string): string {
  return `taken:${owner}`;
}

function freedList(owner: string): string {
  return `freed:${owner}`;
}
