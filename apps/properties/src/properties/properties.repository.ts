import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, mongo } from 'mongoose';
import { claimed, ignoreExistingCollection, insertOnce } from '@app/common';
import { PropertyRecord } from './property.schema';

/** A stored property: the record under its document key. */
type PropertyDocument = PropertyRecord & { _id: string };

/** Stored properties, as plain objects; mongoose documents never leave this class. */
@Injectable()
export class PropertiesRepository implements OnModuleInit {
  /** The driver's collection, for reads that need none of mongoose's casting. */
  private readonly documents: mongo.Collection<PropertyDocument>;

  constructor(@InjectModel(PropertyRecord.name) private readonly properties: Model<PropertyRecord>) {
    this.documents = properties.db.db!.collection<PropertyDocument>(properties.collection.collectionName);
  }

  async onModuleInit(): Promise<void> {
    await this.properties.createCollection().catch(ignoreExistingCollection);
    await this.properties.collection.createIndex({ id: 1 }, { unique: true, name: 'id_unique' });
    await this.properties.collection.createIndex({ request_key: 1 }, { unique: true, name: 'request_key_unique' });
  }

  /** Stores the property, or returns the one its request already stored. */
  insertOnce(record: PropertyRecord): Promise<PropertyRecord> {
    return insertOnce(this.properties.collection, { _id: documentKey(record.id), ...record });
  }

  /**
   * Reads by the document key alone, then checks the owner and deletion here: a filter on
   * `_id` alone is the one FerretDB answers from an index; any other filter (a unique index
   * notwithstanding) reads and decodes every property, so each read grew with the collection.
   */
  async findLive(clientId: number, id: number): Promise<PropertyRecord | null> {
    const record = await this.documents.findOne({ _id: documentKey(id) });
    return record && record.client_id === clientId && !record.deleted_at ? record : null;
  }

  /**
   * Marks the property deleted and returns it as it was, or null if there was none live. Of
   * deletes racing each other exactly one wins: each first claims the property's key by inserting
   * `{_id: key}` into property_deletions, atomic on MongoDB and FerretDB alike (FerretDB's
   * find-and-modify is not: 20 concurrent deletes of one property answered 200 up to 11 times).
   */
  async markDeleted(clientId: number, id: number, at: Date): Promise<PropertyRecord | null> {
    const live = await this.findLive(clientId, id);
    if (!live) return null;
    const won = await claimed(this.deletions.insertOne({ _id: documentKey(id), at }));
    const mark = { $set: { deleted_at: at, updated_at: at } };
    if (!won) {
      // Another delete won; if it died before marking the property, this finishes its work.
      await this.documents.updateOne({ _id: documentKey(id), deleted_at: null }, mark);
      return null;
    }
    await this.documents.updateOne({ _id: documentKey(id) }, mark);
    return live;
  }

  private get deletions() {
    return this.properties.db.collection<{ _id: string; at: Date }>('property_deletions');
  }
}

/**
 * A property's document key: its public id as text (FerretDB looks up string and ObjectId keys
 * by index, not numbers). Properties stored before keys were set this way have ObjectId keys
 * and are not found by id.
 */
function documentKey(id: number): string {
  return String(id);
}

