import { Connection, mongo } from 'mongoose';
import type { EventWitness } from '../event-witness';
import { claimed, ignoreExistingCollection } from '../mongo-errors';
import { Keyed, RecordChange, Records, RecordsOptions, ScanFilter, ScanOptions } from '../storage';

/** Documents removed per round trip of a background removal, so that no write holds the database long. */
const REMOVE_BATCH = 500;

type Document = Keyed<Record<string, unknown>>;

/**
 * Plain documents by key over the driver. Every read and write a request makes is by `_id`
 * alone (one key, or `$in` of keys): the one filter the project's FerretDB build answers from an
 * index, as MongoDB does. Other filters are for background work (`scan`, `removeWhere`).
 */
export class DriverRecords<T extends object> implements Records<T> {
  constructor(
    private readonly connection: Connection,
    readonly collection: string,
    private readonly options: RecordsOptions = {},
  ) {}

  protected get documents(): mongo.Collection<Document> {
    return this.connection.collection<Document>(this.collection) as unknown as mongo.Collection<Document>;
  }

  async prepare(): Promise<void> {
    await this.connection.createCollection(this.collection).catch(ignoreExistingCollection);
    for (const [name, field] of Object.entries(this.options.unique ?? {})) {
      await this.documents.createIndex({ [field]: 1 }, { unique: true, name });
    }
    const expiresAt = this.options.expiresAt;
    if (expiresAt) {
      // FerretDB has no TTL index: there the owner's sweep removes what has expired.
      await this.documents.createIndex({ [expiresAt]: 1 }, { expireAfterSeconds: 0 }).catch(() => undefined);
    }
  }

  /** Sets fields of the record if it matches `condition` too; true when it did (see OnceRecords.updateWhere). */
  async updateWhere(key: string, condition: ScanFilter, change: RecordChange<T>): Promise<boolean> {
    const { modifiedCount } = await this.documents.updateOne(
      { ...condition, _id: key } as mongo.Filter<Document>,
      toUpdate(change),
    );
    return modifiedCount === 1;
  }

  /** Removes the record if it matches `condition` too; true when it did. */
  async removeWhereKey(key: string, condition: ScanFilter): Promise<boolean> {
    const { deletedCount } = await this.documents.deleteOne({ ...condition, _id: key } as mongo.Filter<Document>);
    return deletedCount === 1;
  }

  async get(key: string): Promise<Keyed<T> | null> {
    return (await this.documents.findOne({ _id: key })) as Keyed<T> | null;
  }

  async getMany(keys: string[]): Promise<Map<string, Keyed<T>>> {
    const found = new Map<string, Keyed<T>>();
    if (keys.length === 0) return found;
    const unique = [...new Set(keys)];
    for (const document of await this.documents.find({ _id: { $in: unique } }).toArray()) {
      found.set(document._id, document as Keyed<T>);
    }
    return found;
  }

  insert(key: string, record: T): Promise<boolean> {
    return claimed(this.documents.insertOne({ ...(record as Record<string, unknown>), _id: key }));
  }

  async update(key: string, change: RecordChange<T>, options: { upsert?: boolean } = {}): Promise<void> {
    await this.documents.updateOne({ _id: key }, toUpdate(change), { upsert: options.upsert === true });
  }

  async remove(key: string): Promise<void> {
    await this.documents.deleteOne({ _id: key });
  }

  async removeMany(keys: string[]): Promise<number> {
    if (keys.length === 0) return 0;
    return (await this.documents.deleteMany({ _id: { $in: keys } })).deletedCount;
  }

  async scan(filter: ScanFilter, options: ScanOptions = {}): Promise<Array<Keyed<T>>> {
    let cursor = this.documents.find(
      filter as mongo.Filter<Document>,
      options.projection ? { projection: options.projection } : {},
    );
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as Array<Keyed<T>>;
  }

  async removeWhere(filter: ScanFilter): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.scan(filter, { projection: { _id: 1 }, limit: REMOVE_BATCH });
      if (batch.length === 0) return removed;
      removed += await this.removeMany(batch.map(({ _id }) => _id));
      if (batch.length < REMOVE_BATCH) return removed;
    }
  }

  witness(key: string): EventWitness {
    return { collection: this.collection, key };
  }
}

export function toUpdate<T>(change: RecordChange<T>): mongo.UpdateFilter<Document> {
  const update: Record<string, unknown> = {};
  if (change.set && Object.keys(change.set).length > 0) update.$set = change.set;
  if (change.unset && change.unset.length > 0) update.$unset = Object.fromEntries(change.unset.map((field) => [field, 1]));
  const add = Object.entries(change.add ?? {}).filter(([, values]) => Array.isArray(values) && values.length > 0);
  if (add.length > 0) update.$addToSet = Object.fromEntries(add.map(([field, values]) => [field, { $each: values }]));
  return update as mongo.UpdateFilter<Document>;
}
