import type { EventWitness } from './event-witness';

/**
 * The seam between the services and their database: the storage guarantees every service relies
 * on, each a named building block with one implementation. Repositories are made of these blocks;
 * services see only repositories. A block is asked for by the name of the collection it keeps its
 * documents in, so that what is stored keeps its shape whichever adapter stores it.
 *
 * The adapter the apps run on (`ClaimStorage`) keeps every guarantee with inserts under a unique
 * `_id` and reads by `_id` alone, the operations that are atomic and indexed on MongoDB and on the
 * project's FerretDB alike (no transactions, no atomic read-modify-write, no secondary index
 * there). An adapter for MongoDB alone could keep the same promises with transactions,
 * `findOneAndUpdate`, secondary and TTL indexes, behind these same interfaces
 * (docs/architecture.md, "The persistence seam").
 */
export abstract class Storage {
  /** Plain documents by key: no promise beyond what one write of one document makes. */
  abstract records<T extends object>(collection: string, options?: RecordsOptions): Records<T>;
  /** Documents inserted once under their key: the first insert stands, however many try at once. */
  abstract onceRecords<T extends object>(collection: string): OnceRecords<T>;
  /** Records changed only by claiming their next version, never losing a change. */
  abstract versionedRecords<S extends object, C extends object>(spec: VersionedSpec<S, C>): VersionedRecords<S, C>;
  /** Named lists of ids, newest first, each position taken once. */
  abstract orderedLists<Id extends number | string = number>(collection: string, options?: OrderedListsOptions): OrderedLists<Id>;
  /** Positive, increasing public ids, never reused, per kind. */
  abstract ids(): Ids;
  /** Each owner's use of a budget, taken and given back once per item. */
  abstract budgets(collection: string): Budgets;
}

/** A document as a block hands it out: the stored fields and its key. */
export type Keyed<T> = T & { _id: string };

/**
 * A filter for background work only (sweeps, purges, migrations of old data): MongoDB answers it
 * from a secondary index where one is declared; FerretDB reads and decodes the whole collection.
 * Field names and MongoDB query operators as the driver takes them.
 */
export type ScanFilter = Record<string, unknown>;

export interface RecordsOptions {
  /** Fields each unique over the collection (besides `_id`), by index name. */
  unique?: Record<string, string>;
  /**
   * A date field after which a record may go: where the database has TTL indexes (MongoDB), one
   * removes the records on its own; elsewhere the owner's own sweep (`removeWhere`) does.
   */
  expiresAt?: string;
}

export interface ScanOptions {
  /** Fields to read (1) or leave out (0); all when absent. */
  projection?: Record<string, 0 | 1>;
  limit?: number;
}

export interface Records<T extends object> {
  /** Creates the collection and its indexes; at boot. */
  prepare(): Promise<void>;
  get(key: string): Promise<Keyed<T> | null>;
  /** The records of those keys that exist, by key: one read. */
  getMany(keys: string[]): Promise<Map<string, Keyed<T>>>;
  /** Inserts a new record; false when its key (or a unique field) is taken. */
  insert(key: string, record: T): Promise<boolean>;
  /**
   * Sets fields of the record (creating it with `upsert`), adds to array fields with `add`,
   * removes fields with `unset`. One write; on FerretDB it reads and writes back the whole
   * document, so two writes at once to one record keep one of them: write whole state, or use a
   * block that promises more.
   */
  update(key: string, change: RecordChange<T>, options?: { upsert?: boolean }): Promise<void>;
  remove(key: string): Promise<void>;
  removeMany(keys: string[]): Promise<number>;
  /** Background only (see ScanFilter). */
  scan(filter: ScanFilter, options?: ScanOptions): Promise<Array<Keyed<T>>>;
  /** Background only (see ScanFilter): removes the matching records, a batch at a time; says how many. */
  removeWhere(filter: ScanFilter): Promise<number>;
  /** Where a write of record `key` shows the events it carries in `event_ids` (see EventOutbox). */
  witness(key: string): EventWitness;
}

export interface RecordChange<T> {
  set?: Partial<T>;
  unset?: Array<keyof T & string>;
  /** Values added to array fields unless there already. */
  add?: Partial<Record<keyof T & string, unknown[]>>;
}

export interface OnceRecords<T extends object> {
  prepare(): Promise<void>;
  /** True when this insert made the record; false when another had (and its record stands). */
  claim(key: string, record: T): Promise<boolean>;
  /** The record that stands under `key` after this try: this one, or the first one made. */
  claimOrRead(key: string, record: T): Promise<{ won: boolean; record: Keyed<T> }>;
  get(key: string): Promise<Keyed<T> | null>;
  getMany(keys: string[]): Promise<Map<string, Keyed<T>>>;
  /**
   * Adds fields the claim did not have (an outcome, say). Never changes what the claim decided;
   * a claim that is gone stays gone.
   */
  annotate(key: string, fields: Partial<T>): Promise<void>;
  /** Takes fields out of a claim (an erasure of the personal data it holds). */
  strip(key: string, fields: Array<keyof T & string>): Promise<void>;
  /** Gives the key back, so that it can be claimed again. */
  release(key: string): Promise<void>;
  /**
   * Sets `fields` of the claim if it matches `condition` (a filter on its own fields); true when it
   * did. One command; on FerretDB it reads and then writes, so two at once may both succeed: only
   * where doing the work twice is safe (taking over a claim whose holder died, say).
   */
  updateWhere(key: string, condition: ScanFilter, fields: Partial<T>): Promise<boolean>;
  /** Gives the key back if the claim matches `condition` (see updateWhere); true when it did. */
  releaseWhere(key: string, condition: ScanFilter): Promise<boolean>;
  /** Background only (see ScanFilter). */
  scan(filter: ScanFilter, options?: ScanOptions): Promise<Array<Keyed<T>>>;
  /** Background only: removes claims whose `expires_at` has passed; says how many. */
  purgeExpired(now: Date): Promise<number>;
  /** Background only (see ScanFilter): removes the claims that match; says how many. */
  removeWhere(filter: ScanFilter): Promise<number>;
  witness(key: string): EventWitness;
}

/** A record's state at a version, and the version. */
export interface Versioned<S> {
  version: number;
  state: S;
}

/** A change claimed as version `version` of record `id`, with what every claim carries. */
export interface ClaimedChange<C> {
  id: number;
  version: number;
  change: C;
  at: Date;
  /** The request that made it, when its retry must know it was done. */
  request_key?: string;
  event_ids: string[];
}

export interface VersionedSpec<S extends object, C extends object> {
  /** Where each record's copy of its state is kept (a hint: claims may be ahead of it). */
  copies: string;
  /** Where the claims are kept, one document `<id>:<version>` each. */
  claims: string;
  /** The field of a claim that names its record (`application_id`, say). */
  idField: string;
  /** Fields of the copies each unique over the collection, by index name (see RecordsOptions). */
  unique?: Record<string, string>;
  /**
   * The state after `change`: `state` is the one before it, null for the first claim of a
   * version-only record (whose claims hold whole states).
   */
  fold(state: S | null, change: ClaimedChange<C>): S;
  /**
   * How a copy stores the state: `state` (the default) keeps its fields at the top of the copy
   * document beside `version`; `versionOnly` copies are hints of the latest version (and of the
   * fields `hint` gives), the state being that of the claims alone.
   */
  copy?: 'state' | 'versionOnly';
  /** What a `versionOnly` copy keeps beside the version. */
  hint?(state: S): Record<string, unknown>;
  /** What a `state` copy writes of the state when a change is claimed: all of it, by default. */
  copyFields?(state: S): Record<string, unknown>;
  /**
   * Whether a claim records when it was made, as `created_at`: yes by default. Records whose
   * claims were stored without it say no, so that every claim keeps that shape for the releases
   * that read them; a change's `at` then reads as the epoch.
   */
  stampClaims?: boolean;
}

export interface VersionedRecords<S extends object, C extends object> {
  prepare(): Promise<void>;
  /**
   * Stores record `id` with `state` (at `state.version`, else 0), once: when its key or one of
   * the unique fields was taken already, the record stored then is the answer.
   */
  create(id: number, state: S): Promise<Versioned<S>>;
  /** The record a unique field's value names (the request that created it, say), or null. Rare: a scan on FerretDB. */
  createdBy(field: string, value: unknown): Promise<Versioned<S> | null>;
  /** The record with every claimed change folded in, or null. */
  current(id: number): Promise<Versioned<S> | null>;
  /** Several records so, by id: one read of the copies and one of their next claims, as a rule. */
  currentMany(ids: number[]): Promise<Map<number, Versioned<S>>>;
  /**
   * Claims the version after `from.version` (after 0 for none) with `change`: the new state when
   * this caller won it, null when another change claimed that version first (read again and
   * decide again). The copy is written before it answers.
   */
  claimNext(
    id: number,
    from: Versioned<S> | null,
    change: C,
    options?: { at?: Date; request_key?: string; event_ids?: string[] },
  ): Promise<Versioned<S> | null>;
  /** The claim of version `version`, or null. */
  change(id: number, version: number): Promise<ClaimedChange<C> | null>;
  /** The claims of versions `from` to `to` that exist, in order: one read per hundred. */
  changes(id: number, from: number, to: number): Promise<Array<ClaimedChange<C>>>;
  /** Rewrites fields of a claim's change: only for an erasure of the personal data it holds. */
  rewriteChange(id: number, version: number, change: Partial<C>): Promise<void>;
  /** Writes the state into the copy of record `id` (a copy written late may set an older one). */
  writeCopy(id: number, current: Versioned<S>): Promise<void>;
  /** Removes the copy of a record whose creation was refused after it was stored; its claims, if any, stay. */
  removeCopy(id: number): Promise<void>;
  /** Where the claim of version `version` shows its events. */
  witness(id: number, version: number): EventWitness;
  /** Where the copy's creation shows its events. */
  createdWitness(id: number): EventWitness;
  /** Background only (see ScanFilter): the ids of the copies that match. */
  scanCopies(filter: ScanFilter): Promise<number[]>;
}

export interface OrderedListsOptions {
  /** The field an entry stores its item's id under. */
  field?: string;
  /** When an entry may be removed; never, by default. */
  expiresAt?: () => Date;
  /**
   * Fields every entry of list `name` carries besides its item's id (the owner the list is named
   * after, say), for lists stored with them before: readers of that shape find them there.
   */
  entryFields?: (name: string) => Record<string, unknown>;
  /** Whether an entry records when it was put, as `created_at`: yes by default (see entryFields). */
  stampEntries?: boolean;
  /**
   * For lists stored with a hint of their newest position: the field of `<list>:head` that holds
   * it. Each append raises it to the positions it took, and a search for the head starts there.
   * It may lag, never lead.
   */
  headHint?: string;
}

/** An item of a list at its position. */
export interface Positioned<Id extends number | string = number> {
  position: number;
  id: Id;
}

export interface OrderedLists<Id extends number | string = number> {
  prepare(): Promise<void>;
  /** Puts `id` at the head of list `name`, and says its position (1, 2, 3, ... with no gaps). */
  append(name: string, id: Id): Promise<number>;
  /** Up to `count` entries from position `from` downwards to `floor`, newest first: one read. */
  read(name: string, from: number, count: number, floor?: number): Promise<Array<Positioned<Id>>>;
  /** The newest position; 0 for an empty list. */
  head(name: string): Promise<number>;
  /** The lowest position: 1, unless items were put below it. */
  bottom(name: string): Promise<number>;
  /** Puts `ids`, newest first, below the lowest position; instances doing the same at once agree. */
  prepend(name: string, ids: Id[]): Promise<number[]>;
  /** Background only: removes the entries `filter` matches (on their own fields); says how many. */
  remove(filter: ScanFilter): Promise<number>;
}

export interface Ids {
  /** The next id of `kind`: positive, increasing, never handed out twice across instances. */
  allocate(kind: string): Promise<number>;
}

export interface Budgets {
  prepare(): Promise<void>;
  /**
   * Takes `units` of `owner`'s budget of `limit` for `item`: false, with nothing taken, when they
   * do not fit. Asking again for an item that was granted answers true and takes nothing more;
   * once it was given back, false: an item's use is settled once, and a try that asks after
   * another gave its room back may not hold it. The units held never pass the limit, whatever
   * the takes, refusals and give-backs of several instances at once.
   * `expiresAt`: when the grant may be forgotten (a day's cap, say).
   */
  take(owner: string, item: string, units: number, limit: number, expiresAt?: Date): Promise<boolean>;
  /**
   * Gives back what `item` took, once, however many times and places ask. `units` counts for an
   * item taken before grants were recorded; a recorded grant says its own.
   */
  giveBack(owner: string, item: string, units: number): Promise<void>;
  /** The units `owner` uses. */
  used(owner: string): Promise<number>;
  /** Background only: forgets grants past their expiry; says how many. */
  purgeExpired(now: Date): Promise<number>;
}
