import { Connection } from 'mongoose';
import { ClaimStorage } from './claims/claim-storage';

type Stored = Record<string, unknown> & { _id: string | number };
type Filter = Record<string, unknown>;

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const duplicateKey = (extra: object = {}) => Object.assign(new Error('E11000 duplicate key'), { code: 11000, ...extra });

/**
 * A collection in memory with what the storage blocks rely on from FerretDB: a unique `_id` and
 * unique indexes, answers on a later turn of the event loop, and updates that read and then
 * write a turn later (so that concurrent updates of one document can overwrite each other, as
 * FerretDB's do). Reads by `_id` (one key, or `$in` of keys) are counted as `reads`; any other
 * filter is a scan, counted as `scans`, which a spec can hold at zero for a request's path.
 */
export class MemoryCollection {
  readonly documents = new Map<string, Stored>();
  /** Per unique field, the key of the document holding each value (as JSON). */
  private readonly unique = new Map<string, Map<string, string>>();
  reads = 0;
  scans = 0;
  writes = 0;
  /** Ordered inserts of several documents at once. */
  batches = 0;
  /** Updates, of which `writes` counts each too. */
  updates = 0;

  async createIndex(spec: Record<string, number>, options: { unique?: boolean } = {}): Promise<string> {
    if (options.unique) {
      for (const field of Object.keys(spec)) {
        const index = new Map<string, string>();
        for (const [key, document] of this.documents)
          if (document[field] !== undefined) index.set(JSON.stringify(document[field]), key);
        this.unique.set(field, index);
      }
    }
    return Object.keys(spec).join('_');
  }

  async insertOne(document: Stored): Promise<void> {
    this.writes++;
    await nextTurn();
    this.put(document);
  }

  /** Stops at the first duplicate, saying how many it inserted before, as an ordered insert does. */
  async insertMany(documents: Stored[], options: { ordered?: boolean } = {}): Promise<void> {
    if (options.ordered !== true) throw new Error('only ordered inserts stop at the first duplicate');
    this.writes++;
    this.batches++;
    await nextTurn();
    for (const [insertedCount, document] of documents.entries()) {
      try {
        this.put(document);
      } catch (error) {
        throw Object.assign(error as Error, { insertedCount });
      }
    }
  }

  async findOne(filter: Filter, options: { projection?: Record<string, 0 | 1> } = {}): Promise<Stored | null> {
    const [found] = await this.query(filter, options.projection, 1);
    return found ?? null;
  }

  find(filter: Filter, options: { projection?: Record<string, 0 | 1> } = {}): MemoryCursor {
    return new MemoryCursor((limit, sort) => this.query(filter, options.projection, limit, sort));
  }

  async updateOne(
    filter: Filter,
    update: Record<string, Record<string, unknown>>,
    options: { upsert?: boolean } = {},
  ): Promise<{ matchedCount: number; modifiedCount: number }> {
    this.writes++;
    this.updates++;
    const [found] = this.match(filter);
    await nextTurn();
    if (!found && !options.upsert) return { matchedCount: 0, modifiedCount: 0 };
    const base: Stored = found ? structuredClone(found) : { _id: filter._id as string };
    const next = applyUpdate(base, update);
    if (found) {
      this.unindex(found);
      this.documents.set(keyOf(found._id), next);
      this.index(next);
    } else this.put(next);
    return { matchedCount: found ? 1 : 0, modifiedCount: 1 };
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    this.writes++;
    await nextTurn();
    const [found] = this.match(filter);
    if (found) this.delete(found);
    return { deletedCount: found ? 1 : 0 };
  }

  async deleteMany(filter: Filter): Promise<{ deletedCount: number }> {
    this.writes++;
    await nextTurn();
    const found = this.match(filter);
    for (const document of found) this.delete(document);
    return { deletedCount: found.length };
  }

  private put(document: Stored): void {
    if (this.documents.has(keyOf(document._id))) throw duplicateKey();
    for (const [field, index] of this.unique) {
      const value = document[field];
      if (value !== undefined && index.has(JSON.stringify(value))) throw duplicateKey({ keyPattern: { [field]: 1 } });
    }
    const stored = structuredClone(document);
    this.documents.set(keyOf(document._id), stored);
    this.index(stored);
  }

  private delete(document: Stored): void {
    this.unindex(document);
    this.documents.delete(keyOf(document._id));
  }

  private index(document: Stored): void {
    for (const [field, index] of this.unique) {
      if (document[field] !== undefined) index.set(JSON.stringify(document[field]), keyOf(document._id));
    }
  }

  private unindex(document: Stored): void {
    for (const [field, index] of this.unique) index.delete(JSON.stringify(document[field]));
  }

  private async query(filter: Filter, projection?: Record<string, 0 | 1>, limit?: number, sort?: Record<string, 1 | -1>) {
    if (byKeys(filter)) this.reads++;
    else this.scans++;
    await nextTurn();
    let found = this.match(filter);
    if (sort) found = [...found].sort(comparing(sort));
    if (limit !== undefined) found = found.slice(0, limit);
    return found.map((document) => project(structuredClone(document), projection));
  }

  private match(filter: Filter): Stored[] {
    const id = filter._id;
    if (typeof id === 'string' || typeof id === 'number') {
      const found = this.documents.get(keyOf(id));
      return found && matches(found, filter) ? [found] : [];
    }
    return [...this.documents.values()].filter((document) => matches(document, filter));
  }
}

export class MemoryCursor {
  private limited?: number;
  private sorted?: Record<string, 1 | -1>;

  constructor(private readonly run: (limit?: number, sort?: Record<string, 1 | -1>) => Promise<Stored[]>) {}

  limit(count: number): this {
    this.limited = count;
    return this;
  }

  sort(order: Record<string, 1 | -1>): this {
    this.sorted = order;
    return this;
  }

  toArray(): Promise<Stored[]> {
    return this.run(this.limited, this.sorted);
  }
}

/** The collections of one database, shared by every "instance" given a connection to it. */
export class MemoryDatabase {
  readonly collections = new Map<string, MemoryCollection>();

  collection(name: string): MemoryCollection {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new MemoryCollection();
      this.collections.set(name, collection);
    }
    return collection;
  }

  /** What the blocks use of a mongoose connection. */
  connection(): Connection {
    return {
      collection: (name: string) => this.collection(name),
      createCollection: async (name: string) => this.collection(name),
    } as unknown as Connection;
  }

  /**
   * Reads, scans and writes over every collection so far, but those `except` names (the id
   * allocator's, say, which reads its highest claim with a sort once per process).
   */
  counts(except?: RegExp): { reads: number; scans: number; writes: number } {
    let reads = 0;
    let scans = 0;
    let writes = 0;
    for (const [name, collection] of this.collections) {
      if (except?.test(name)) continue;
      reads += collection.reads;
      scans += collection.scans;
      writes += collection.writes;
    }
    return { reads, scans, writes };
  }
}

/**
 * The in-memory Storage that service specs run on: the same blocks as the apps' storage, over
 * collections in memory. Several given one MemoryDatabase stand for several instances of a service.
 */
export class MemoryStorage extends ClaimStorage {
  constructor(readonly database = new MemoryDatabase()) {
    super(database.connection());
  }
}

function keyOf(id: unknown): string {
  return typeof id === 'number' ? `#${id}` : String(id);
}

function byKeys(filter: Filter): boolean {
  if (Object.keys(filter).join() !== '_id') return false;
  const id = filter._id;
  return typeof id !== 'object' || (id !== null && Object.keys(id).join() === '$in');
}

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function valueAt(document: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((value, part) => (value as Record<string, unknown> | undefined)?.[part], document);
}

function matches(document: Record<string, unknown>, filter: Filter): boolean {
  return Object.entries(filter).every(([path, condition]) => {
    if (path === '$or') return (condition as Filter[]).some((each) => matches(document, each));
    const value = valueAt(document, path);
    if (condition === null || typeof condition !== 'object' || condition instanceof Date || Array.isArray(condition)) {
      return condition === null ? value === null || value === undefined : equal(value, condition);
    }
    return Object.entries(condition as Record<string, unknown>).every(([operator, operand]) => test(value, operator, operand));
  });
}

function test(value: unknown, operator: string, operand: unknown): boolean {
  const compared = value instanceof Date ? value.getTime() : value;
  const against = operand instanceof Date ? operand.getTime() : operand;
  switch (operator) {
    case '$in':
      return (operand as unknown[]).some((each) => equal(value, each));
    case '$nin':
      return !(operand as unknown[]).some((each) => equal(value, each));
    case '$exists':
      return (value !== undefined) === operand;
    case '$ne':
      return !equal(value, operand);
    case '$lt':
      return value !== undefined && value !== null && (compared as number) < (against as number);
    case '$lte':
      return value !== undefined && value !== null && (compared as number) <= (against as number);
    case '$gt':
      return value !== undefined && value !== null && (compared as number) > (against as number);
    case '$gte':
      return value !== undefined && value !== null && (compared as number) >= (against as number);
    case '$regex':
      return typeof value === 'string' && new RegExp(operand as string).test(value);
    default:
      throw new Error(`the memory collection does not know ${operator}`);
  }
}

function applyUpdate(document: Stored, update: Record<string, Record<string, unknown>>): Stored {
  for (const [operator, fields] of Object.entries(update)) {
    for (const [path, operand] of Object.entries(fields)) {
      const parts = path.split('.');
      const last = parts.pop()!;
      let target = document as Record<string, unknown>;
      for (const part of parts) target = (target[part] ??= {}) as Record<string, unknown>;
      if (operator === '$set') target[last] = structuredClone(operand);
      else if (operator === '$unset') delete target[last];
      else if (operator === '$max')
        target[last] = target[last] === undefined ? operand : Math.max(target[last] as number, operand as number);
      else if (operator === '$addToSet') {
        const values = (operand as { $each?: unknown[] }).$each ?? [operand];
        const present = (target[last] as unknown[] | undefined) ?? [];
        target[last] = [...present, ...values.filter((value) => !present.some((each) => equal(each, value)))];
      } else throw new Error(`the memory collection does not know ${operator}`);
    }
  }
  return document;
}

function project(document: Stored, projection?: Record<string, 0 | 1>): Stored {
  if (!projection) return document;
  const included = Object.entries(projection).filter(([, flag]) => flag === 1);
  if (included.length > 0) {
    const kept: Stored = { _id: document._id };
    for (const [field] of included) if (field in document) kept[field] = document[field];
    return kept;
  }
  for (const [field] of Object.entries(projection)) delete document[field];
  return document;
}

function comparing(sort: Record<string, 1 | -1>) {
  return (a: Stored, b: Stored): number => {
    for (const [field, direction] of Object.entries(sort)) {
      const x = a[field] as number;
      const y = b[field] as number;
      if (x !== y) return (x < y ? -1 : 1) * direction;
    }
    return 0;
  };
}
