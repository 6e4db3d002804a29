import { Connection } from 'mongoose';
import { claimed, ignoreExistingCollection, isDuplicateKey } from '../mongo-errors';
import { OrderedLists, OrderedListsOptions, Positioned, ScanFilter } from '../storage';
import { ClaimBatches } from './claim-batches';

/** Position `n` of a list: the n-th item put in it, under the field the lists name. */
type Entry = { _id: string; created_at?: Date; expires_at?: Date } & Record<string, unknown>;

/**
 * A list's stored bound: `<list>:head`, the highest position removed (and, with a head hint, a
 * position taken); `<list>:bottom`, the lowest taken.
 */
type Bound = { _id: string; position?: number } & Record<string, unknown>;

const MAX_ATTEMPTS = 50;
/** Lists whose head is remembered; past this many the memory starts over (heads are found again). */
const MAX_REMEMBERED_HEADS = 10_000;
/**
 * How long a head found stays the place where probing starts. Entries are removed only once they
 * are older than this (retentions count in days), so every position above a head remembered this
 * long is still there.
 */
export const REMEMBER_HEAD_MS = 10 * 60 * 1000;
/** Entries removed per round trip, so that no write holds the database long. */
const REMOVE_BATCH = 500;
/** Writes of a stored bound, each checked by reading it back: concurrent writers on FerretDB can undo each other's. */
const MAX_BOUND_WRITES = 10;

/**
 * Lists of ids, newest first, read without scanning. FerretDB (1.24, SQLite) uses an index only
 * for a filter on `_id` alone, `{_id: <string>}` or, in the project's build
 * (scripts/ferretdb-patches), `{_id: {$in: [...]}}`: a range on `_id`, a sort or any other field
 * reads and decodes every document of the collection. So each list is a dense run of positions
 * 1, 2, 3, ..., each an entry under its own `_id` (`<list>:<position>`), and a page is one read
 * of the keys of positions p, p-1, ... down from the newest (or from a cursor).
 *
 * A position is claimed by inserting its entry, which the `_id` index makes atomic across
 * instances. A position is claimed only once the one below it is known to be taken, so the
 * positions stay dense and the newest one (the head) is found by probing: doubling steps up from
 * the last head known, then halving. Entries whose item is missing are for readers to skip.
 *
 * Entries may be removed (`remove`), oldest first or not: each removal first raises the list's
 * stored `<list>:head` to the highest position it removes, and probing starts from there when no
 * head is remembered, so a run of removed positions never passes for the end of the list. Items
 * that predate a list can be put below its first position (`prepend`): positions 0, -1, ...,
 * down to the stored `<list>:bottom`, and further down as long as the positions below it are taken.
 */
export class DriverOrderedLists<Id extends number | string = number> implements OrderedLists<Id> {
  /** Per list, a position known to be taken, and when it was found: where probing for the head starts. */
  private readonly heads = new Map<string, { position: number; at: number }>();
  /** Per list, the appends waiting for the one under way to finish. */
  private readonly batches = new ClaimBatches<string, Id>((name, ids) => this.claim(name, ids));

  private readonly field: string;
  private readonly expiresAt?: () => Date;
  private readonly entryFields: (name: string) => Record<string, unknown>;
  private readonly stampEntries: boolean;
  private readonly headHint?: string;

  /** `collection` keeps the entries; `options` name the field of an entry's id and when it may go. */
  constructor(
    private readonly connection: Connection,
    private readonly collection: string,
    options: OrderedListsOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.field = options.field ?? 'id';
    this.expiresAt = options.expiresAt;
    this.entryFields = options.entryFields ?? (() => ({}));
    this.stampEntries = options.stampEntries ?? true;
    this.headHint = options.headHint;
  }

  private get entries() {
    return this.connection.collection<Entry>(this.collection);
  }

  private get bounds() {
    return this.connection.collection<Bound>(this.collection);
  }

  async prepare(): Promise<void> {
    await this.connection.createCollection(this.collection).catch(ignoreExistingCollection);
  }

  /**
   * Puts `id` at the head of list `name`. The appends that arrive while one is under way are
   * claimed together by the next one: one ordered insert of consecutive positions, handed out in
   * the order the callers came. So one process does not race itself, and a busy list costs one
   * insert per batch; only instances race, and the loser moves past the winner.
   */
  append(name: string, id: Id): Promise<number> {
    return this.batches.take(name, id);
  }

  /**
   * Up to `count` entries from position `from` downwards to `floor` (1 unless items were put
   * below it), newest first: one read of their keys, which MongoDB and the project's FerretDB
   * build both answer from the `_id` index.
   */
  async read(name: string, from: number, count: number, floor = 1): Promise<Array<Positioned<Id>>> {
    const positions = Array.from({ length: Math.max(0, Math.min(count, from - floor + 1)) }, (_, i) => from - i);
    if (positions.length === 0) return [];
    const keys = positions.map((position) => entryKey(name, position));
    const found = new Map<string, Entry>();
    for (const entry of await this.entries.find({ _id: { $in: keys } }).toArray()) found.set(entry._id, entry);
    return positions.flatMap((position, i) => {
      const entry = found.get(keys[i]);
      return entry ? [{ position, id: entry[this.field] as Id }] : [];
    });
  }

  /** The newest position of list `name`; 0 when it is empty. */
  async head(name: string): Promise<number> {
    const head = await this.probe(name, this.remembered(name) ?? (await this.storedHead(name)), 1);
    this.remember(name, head);
    return head;
  }

  /**
   * The lowest position of list `name`: 1, unless items were put below it. Probed down from the
   * stored bound: a writer that read the bound before another lowered it can raise it again
   * (FerretDB rewrites the document it read), and the entries below it must still be read.
   */
  async bottom(name: string): Promise<number> {
    return this.probe(name, Math.min(1, (await this.storedBound(name, 'bottom')) ?? 1), -1);
  }

  /**
   * Puts `ids`, newest first, below the lowest position of list `name`, in that order, and says
   * the position each took. Instances that put the same ids at once take the same positions: an
   * id already among the lowest entries keeps its place, and a position found taken by the same
   * id is that id's. So an item listed twice at once is listed once, where both say it is.
   */
  async prepend(name: string, ids: Id[]): Promise<number[]> {
    const bottom = await this.bottom(name);
    // What another instance putting the same ids has put already: the lowest entries.
    const placed = new Map<Id, number>();
    for (const { id, position } of await this.read(name, bottom + ids.length - 1, ids.length, bottom)) placed.set(id, position);
    const positions: number[] = [];
    let next = bottom - 1;
    for (const id of ids) {
      const known = placed.get(id);
      if (known !== undefined) {
        positions.push(known);
        continue;
      }
      for (let attempt = 0; ; attempt++) {
        if (attempt === MAX_ATTEMPTS) {
          throw new Error(`no position below list ${name} of ${this.collection} could be claimed after ${MAX_ATTEMPTS} attempts`);
        }
        const taken = await this.insertOnce(this.entry(name, next, id));
        const holder = taken ? id : (await this.read(name, next, 1, next))[0]?.id;
        next -= 1;
        if (holder === id) {
          positions.push(next + 1);
          break;
        }
      }
    }
    if (next < bottom - 1) await this.lowerBound(name, next + 1);
    return positions;
  }

  /**
   * Removes the entries that `filter` matches (a filter on their own fields: no stored bound has
   * them), and says how many went. For each list it first raises the stored head to the highest
   * position it removes. Its filter reads every entry on FerretDB: for background work only.
   */
  async remove(filter: ScanFilter): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.entries
        .find(filter, { projection: { _id: 1 } })
        .limit(REMOVE_BATCH)
        .toArray();
      if (batch.length === 0) return removed;
      const highest = new Map<string, number>();
      for (const { _id } of batch) {
        const { name, position } = parseEntryKey(_id);
        highest.set(name, Math.max(position, highest.get(name) ?? position));
      }
      for (const [name, position] of highest) await this.raiseHead(name, position);
      const { deletedCount } = await this.entries.deleteMany({ _id: { $in: batch.map(({ _id }) => _id) } });
      removed += deletedCount;
      if (batch.length < REMOVE_BATCH) return removed;
    }
  }

  private async claim(name: string, ids: Id[]): Promise<number[]> {
    const positions: number[] = [];
    let next = (this.remembered(name) ?? (await this.head(name))) + 1;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && positions.length < ids.length; attempt++) {
      const pending = ids.slice(positions.length);
      const entries = pending.map((id, i) => this.entry(name, next + i, id));
      try {
        await this.entries.insertMany(entries, { ordered: true });
        positions.push(...pending.map((_, i) => next + i));
        this.remember(name, next + pending.length - 1);
      } catch (error: unknown) {
        // An ordered insert stops at its first failure; what it inserted before is ours.
        const inserted = (error as { insertedCount?: number }).insertedCount ?? 0;
        positions.push(...pending.slice(0, inserted).map((_, i) => next + i));
        if (!isDuplicateKey(error)) throw error;
        // The position that failed is taken: the head is there or further up.
        this.remember(name, next + inserted);
        next = (await this.head(name)) + 1;
        continue;
      }
      next += pending.length;
    }
    if (positions.length < ids.length) {
      throw new Error(`no position in list ${name} of ${this.collection} could be claimed after ${MAX_ATTEMPTS} attempts`);
    }
    if (this.headHint) await this.raiseHint(name, positions[positions.length - 1], this.headHint);
    return positions;
  }

  /** The entry of `id` at `position` of list `name`, in the shape the lists are stored in. */
  private entry(name: string, position: number, id: Id): Entry {
    return {
      _id: entryKey(name, position),
      ...this.entryFields(name),
      [this.field]: id,
      ...(this.stampEntries ? { created_at: new Date(this.now()) } : {}),
      ...(this.expiresAt ? { expires_at: this.expiresAt() } : {}),
    };
  }

  /**
   * Raises the head hint to `position`: `$max`, so that a hint never goes back. Two first raises
   * may both upsert it; the loser's position is the winner's to give, or a later append's.
   */
  private async raiseHint(name: string, position: number, field: string): Promise<void> {
    await claimed(this.bounds.updateOne({ _id: `${name}:head` }, { $max: { [field]: position } }, { upsert: true }));
  }

  /**
   * The last taken position of the dense run that goes from `taken` in `direction` (1 up, -1
   * down): doubling steps, then halving.
   */
  private async probe(name: string, taken: number, direction: 1 | -1): Promise<number> {
    let step = 1;
    while (await this.exists(name, taken + direction * step)) {
      taken += direction * step;
      step *= 2;
    }
    let free = taken + direction * step;
    while (Math.abs(free - taken) > 1) {
      const middle = taken + direction * Math.floor(Math.abs(free - taken) / 2);
      if (await this.exists(name, middle)) taken = middle;
      else free = middle;
    }
    return taken;
  }

  /** Inserts the entry; false when its position was taken. */
  private async insertOnce(entry: Entry): Promise<boolean> {
    try {
      await this.entries.insertOne(entry);
      return true;
    } catch (error: unknown) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  private async exists(name: string, position: number): Promise<boolean> {
    return (await this.entries.findOne({ _id: entryKey(name, position) }, { projection: { _id: 1 } })) !== null;
  }

  private async storedBound(name: string, which: 'head' | 'bottom'): Promise<number | undefined> {
    return (await this.bounds.findOne({ _id: `${name}:${which}` }))?.position;
  }

  /** Where a search for the head may start: the highest position removed, or the hint, or 0. */
  private async storedHead(name: string): Promise<number> {
    const stored = await this.bounds.findOne({ _id: `${name}:head` });
    const hint = this.headHint ? stored?.[this.headHint] : undefined;
    return Math.max(stored?.position ?? 0, typeof hint === 'number' ? hint : 0);
  }

  private raiseHead(name: string, position: number): Promise<void> {
    return this.moveBound(name, 'head', position, (stored) => stored >= position);
  }

  private lowerBound(name: string, position: number): Promise<void> {
    return this.moveBound(name, 'bottom', position, (stored) => stored <= position);
  }

  /**
   * Sets the stored bound to `position` unless it is already past it, then reads it back: on
   * FerretDB an update rewrites the document it read, so a concurrent one can undo it, and the
   * writer that finds its bound undone writes it again.
   */
  private async moveBound(name: string, which: 'head' | 'bottom', position: number, reached: (stored: number) => boolean) {
    const _id = `${name}:${which}`;
    for (let write = 0; write < MAX_BOUND_WRITES; write++) {
      const stored = await this.storedBound(name, which);
      if (stored !== undefined && reached(stored)) return;
      try {
        await this.bounds.updateOne({ _id }, { $set: { position } }, { upsert: true });
      } catch (error: unknown) {
        // Two first writes both upserted: the loser reads the winner's and tries again.
        if (!isDuplicateKey(error)) throw error;
      }
    }
    throw new Error(`the ${which} of list ${name} in ${this.collection} could not be moved to ${position}`);
  }

  private remembered(name: string): number | undefined {
    const head = this.heads.get(name);
    return head && this.now() - head.at < REMEMBER_HEAD_MS ? head.position : undefined;
  }

  private remember(name: string, position: number): void {
    const known = this.remembered(name);
    if (known !== undefined && position <= known) return;
    if (this.heads.size >= MAX_REMEMBERED_HEADS) this.heads.clear();
    this.heads.set(name, { position, at: this.now() });
  }
}

function entryKey(name: string, position: number): string {
  return `${name}:${position}`;
}

function parseEntryKey(key: string): { name: string; position: number } {
  const colon = key.lastIndexOf(':');
  return { name: key.slice(0, colon), position: Number(key.slice(colon + 1)) };
}
