import { Connection } from 'mongoose';

type Stored = Record<string, unknown> & { _id: string };

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A collection in memory with what the applications service relies on from FerretDB: a unique
 * `_id`, answers on a later turn of the event loop, and reads by `_id` only (one key, or `$in` of
 * keys, as the project's FerretDB build reads from the index). Any other filter fails the spec,
 * since FerretDB would answer it by reading the whole collection.
 */
export class MemoryCollection {
  readonly documents = new Map<string, Stored>();
  reads = 0;
  updates = 0;
  batches = 0;

  async insertOne(document: Stored): Promise<void> {
    await nextTurn();
    if (this.documents.has(document._id)) throw Object.assign(new Error('E11000 duplicate key'), { code: 11000 });
    this.documents.set(document._id, structuredClone(document));
  }

  /** Stops at the first duplicate, saying how many it inserted before, as an ordered insert does. */
  async insertMany(documents: Stored[], options: { ordered?: boolean }): Promise<void> {
    if (options.ordered !== true) throw new Error('only ordered inserts stop at the first duplicate');
    this.batches++;
    await nextTurn();
    for (const [insertedCount, document] of documents.entries()) {
      if (this.documents.has(document._id)) {
        throw Object.assign(new Error('E11000 duplicate key'), { code: 11000, insertedCount });
      }
      this.documents.set(document._id, structuredClone(document));
    }
  }

  async findOne(filter: Record<string, unknown>): Promise<Stored | null> {
    expectKeyFilter(filter);
    this.reads++;
    await nextTurn();
    const found = this.documents.get(filter._id as string);
    return found ? structuredClone(found) : null;
  }

  /** A read of several keys at once, `{_id: {$in: [...]}}`: one round trip, counted as one read. */
  find(filter: Record<string, unknown>): { toArray(): Promise<Stored[]> } {
    expectKeysFilter(filter);
    return {
      toArray: async () => {
        this.reads++;
        await nextTurn();
        const keys = (filter._id as { $in: string[] }).$in;
        return keys.flatMap((key) => {
          const found = this.documents.get(key);
          return found ? [structuredClone(found)] : [];
        });
      },
    };
  }

  async updateOne(
    filter: Record<string, unknown>,
    update: { $set: Record<string, unknown> },
    options: { upsert?: boolean } = {},
  ): Promise<void> {
    expectKeyFilter(filter);
    this.updates++;
    // Read, then write a turn later, as FerretDB does: concurrent updates can overwrite each other.
    const found = this.documents.get(filter._id as string);
    await nextTurn();
    if (found) this.documents.set(found._id, structuredClone({ ...found, ...update.$set }));
    else if (options.upsert)
      this.documents.set(filter._id as string, structuredClone({ _id: filter._id as string, ...update.$set }));
  }

  /** For rare paths only: `_id` and equal values of other fields, which FerretDB checks row by row. */
  async deleteOne(filter: Record<string, unknown>): Promise<void> {
    await nextTurn();
    const found = this.documents.get(filter._id as string);
    if (found && Object.entries(filter).every(([field, value]) => found[field] === value)) this.documents.delete(found._id);
  }

  /** Only `{_id: {$in: [...]}}`, a filter on the document key. */
  async deleteMany(filter: { _id: { $in: string[] } }): Promise<void> {
    await nextTurn();
    for (const id of filter._id.$in) this.documents.delete(id);
  }
}

function expectKeyFilter(filter: Record<string, unknown>): void {
  if (Object.keys(filter).join() !== '_id' || typeof filter._id !== 'string') {
    throw new Error(`a read not by _id alone scans the collection: ${JSON.stringify(filter)}`);
  }
}

function expectKeysFilter(filter: Record<string, unknown>): void {
  const keys = (filter._id as { $in?: unknown } | undefined)?.$in;
  if (Object.keys(filter).join() !== '_id' || !Array.isArray(keys) || keys.some((key) => typeof key !== 'string')) {
    throw new Error(`a read not by _id keys alone scans the collection: ${JSON.stringify(filter)}`);
  }
}

/** The collections of one database, shared by every "instance" given its connection. */
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

  connection(): Connection {
    return {
      collection: (name: string) => this.collection(name),
      createCollection: async () => undefined,
    } as unknown as Connection;
  }
}
