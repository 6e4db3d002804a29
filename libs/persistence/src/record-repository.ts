import { OnModuleInit } from '@nestjs/common';
import { Model, mongo } from 'mongoose';
import { insertOnce } from './idempotency';
import { ignoreExistingCollection } from './mongo-errors';

/** What every stored resource carries: its public id and the request that created it. */
export interface StoredRecord {
  id: number;
  request_key: string;
  /** The domain events its creation recorded in the outbox (see EventOutbox). */
  event_ids?: string[];
}

/** A record under its document key. */
export type Keyed<T> = T & { _id: string };

/**
 * A resource's public id as its document key, in text: a filter on `_id` alone is the one that
 * FerretDB answers from an index (string and ObjectId keys, not numbers; `$in` of them in the
 * project's build); any other filter reads and decodes every document of the collection.
 */
export function documentKey(id: number): string {
  return String(id);
}

/**
 * The part every repository of a stored resource repeats: the collection created at boot with
 * its unique `id` and `request_key` indexes (and any the subclass adds), stores that happen at
 * most once per request, and reads by document key. It hands out plain objects; mongoose
 * documents never leave it.
 */
export abstract class RecordRepository<T extends StoredRecord> implements OnModuleInit {
  /** The driver's collection, for reads that need none of mongoose's casting. */
  protected readonly documents: mongo.Collection<Keyed<T>>;

  protected constructor(protected readonly model: Model<T>) {
    this.documents = model.db.db!.collection<Keyed<T>>(model.collection.collectionName);
  }

  /** Indexes beyond `id` and `request_key`, by name. */
  protected extraIndexes(): Record<string, mongo.IndexSpecification> {
    return {};
  }

  async onModuleInit(): Promise<void> {
    await this.model.createCollection().catch(ignoreExistingCollection);
    await this.model.collection.createIndex({ id: 1 }, { unique: true, name: 'id_unique' });
    await this.model.collection.createIndex({ request_key: 1 }, { unique: true, name: 'request_key_unique' });
    for (const [name, spec] of Object.entries(this.extraIndexes())) {
      await this.model.collection.createIndex(spec, { name });
    }
  }

  /** Stores the record under its document key, or returns the one its request already stored. */
  insertOnce(record: T): Promise<T> {
    return insertOnce(this.model.collection, { _id: documentKey(record.id), ...record });
  }

  /**
   * The record the request named by `requestKey` stored, or null. FerretDB reads and decodes every
   * record for it (a filter other than `_id`), so it is only for the rare try that resumes another.
   */
  findByRequestKey(requestKey: string): Promise<Keyed<T> | null> {
    return this.documents.findOne({ request_key: requestKey } as mongo.Filter<Keyed<T>>) as Promise<Keyed<T> | null>;
  }

  /** Removes the record with this public id, as a refused request does with what it stored. */
  protected async remove(id: number): Promise<void> {
    await this.documents.deleteOne({ _id: documentKey(id) } as mongo.Filter<Keyed<T>>);
  }

  /**
   * The records with these public ids that exist, in no particular order: one read of their keys,
   * which MongoDB and the project's FerretDB build both answer from the `_id` index.
   */
  async findAllByKey(ids: number[]): Promise<Keyed<T>[]> {
    if (ids.length === 0) return [];
    const keys = ids.map(documentKey);
    return (await this.documents.find({ _id: { $in: keys } } as mongo.Filter<Keyed<T>>).toArray()) as Keyed<T>[];
  }

  /** The record with this public id, whoever owns it and whatever its state, or null. */
  findByKey(id: number): Promise<Keyed<T> | null> {
    return this.documents.findOne({ _id: documentKey(id) } as mongo.Filter<Keyed<T>>) as Promise<Keyed<T> | null>;
  }
}
