import { Connection } from 'mongoose';
import { ClaimBatches, ignoreExistingCollection, isDuplicateKey } from '@app/persistence';

/** Position `n` of a list: the n-th item put in it; `value` is the item's id, under the field the lists name. */
type Entry = { _id: string; created_at: Date; expires_at?: Date } & Record<string, unknown>;

export interface Positioned {
  position: number;
  id: number;
}

const MAX_ATTEMPTS = 50;
/** Lists whose head is remembered; past this many the memory starts over (heads are found again). */
const MAX_REMEMBERED_HEADS = 10_000;

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
 */
export class PositionLists {
  /** Per list, a position known to be taken: where probing for the head starts. */
  private readonly heads = new Map<string, number>();
  /** Per list, the appends waiting for the one under way to finish. */
  private readonly batches = new ClaimBatches<string, number>((name, ids) => this.claim(name, ids));

  /**
   * @param collection where the entries are kept
   * @param field the name an entry stores its item's id under
   * @param expiresAt when an entry may be deleted (see AuditEvents); never, by default
   */
  constructor(
    private readonly connection: Connection,
    private readonly collection: string,
    private readonly field: string,
    private readonly expiresAt?: () => Date,
  ) {}

  private get entries() {
    return this.connection.collection<Entry>(this.collection);
  }

  async createCollection(): Promise<void> {
    await this.connection.createCollection(this.collection).catch(ignoreExistingCollection);
  }

  /**
   * Puts `id` at the head of list `name`. The appends that arrive while one is under way are
   * claimed together by the next one: one ordered insert of consecutive positions, handed out in
   * the order the callers came. So one process does not race itself, and a busy list costs one
   * insert per batch; only instances race, and the loser moves past the winner.
   */
  append(name: string, id: number): Promise<number> {
    return this.batches.take(name, id);
  }

  /**
   * Up to `count` entries from position `from` downwards, newest first: one read of their keys,
   * which MongoDB and the project's FerretDB build both answer from the `_id` index.
   */
  async read(name: string, from: number, count: number): Promise<Positioned[]> {
    const positions = Array.from({ length: Math.max(0, Math.min(count, from)) }, (_, i) => from - i);
    if (positions.length === 0) return [];
    const keys = positions.map((position) => entryKey(name, position));
    const found = new Map<string, Entry>();
    for (const entry of await this.entries.find({ _id: { $in: keys } }).toArray()) found.set(entry._id, entry);
    return positions.flatMap((position, i) => {
      const entry = found.get(keys[i]);
      return entry ? [{ position, id: entry[this.field] as number }] : [];
    });
  }

  /** The newest position of list `name`; 0 when it is empty. */
  async head(name: string): Promise<number> {
    let taken = this.heads.get(name) ?? 0;
    let step = 1;
    while (await this.exists(name, taken + step)) {
      taken += step;
      step *= 2;
    }
    let free = taken + step;
    while (free - taken > 1) {
      const middle = Math.floor((taken + free) / 2);
      if (await this.exists(name, middle)) taken = middle;
      else free = middle;
    }
    this.remember(name, taken);
    return taken;
  }

  private async claim(name: string, ids: number[]): Promise<number[]> {
    const positions: number[] = [];
    let next = (this.heads.get(name) ?? (await this.head(name))) + 1;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && positions.length < ids.length; attempt++) {
      const pending = ids.slice(positions.length);
      const created_at = new Date();
      const expiry = this.expiresAt ? { expires_at: this.expiresAt() } : {};
      const entries = pending.map((id, i) => ({ _id: entryKey(name, next + i), [this.field]: id, created_at, ...expiry }));
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
    return positions;
  }

  private async exists(name: string, position: number): Promise<boolean> {
    return (await this.entries.findOne({ _id: entryKey(name, position) }, { projection: { _id: 1 } })) !== null;
  }

  private remember(name: string, position: number): void {
    if (position <= (this.heads.get(name) ?? 0)) return;
    if (this.heads.size >= MAX_REMEMBERED_HEADS) this.heads.clear();
    this.heads.set(name, position);
  }
}

function entryKey(name: string, position: number): string {
  return `${name}:${position}`;
}
