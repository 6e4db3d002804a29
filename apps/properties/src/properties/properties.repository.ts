import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { insertOnce } from '@app/common';
import { PropertyRecord } from './property.schema';

/** Stored properties, as plain objects; mongoose documents never leave this class. */
@Injectable()
export class PropertiesRepository implements OnModuleInit {
  constructor(@InjectModel(PropertyRecord.name) private readonly properties: Model<PropertyRecord>) {}

  async onModuleInit(): Promise<void> {
    await this.properties.createCollection().catch(ignoreExisting);
    await this.properties.collection.createIndex({ id: 1 }, { unique: true, name: 'id_unique' });
    await this.properties.collection.createIndex({ request_key: 1 }, { unique: true, name: 'request_key_unique' });
  }

  /** Stores the property, or returns the one its request already stored. */
  insertOnce(record: PropertyRecord): Promise<PropertyRecord> {
    return insertOnce(this.properties.collection, record);
  }

  findLive(clientId: number, id: number): Promise<PropertyRecord | null> {
    return this.properties
      .findOne({ id, client_id: clientId, deleted_at: null }, { _id: 0 })
      .lean<PropertyRecord>()
      .exec();
  }

  /**
   * Marks the property deleted and returns it as it was, or null if there was none live. Of
   * deletes racing each other exactly one wins: each first claims the property's id by inserting
   * `{_id: id}` into property_deletions, atomic on MongoDB and FerretDB alike (FerretDB's
   * find-and-modify is not: 20 concurrent deletes of one property answered 200 up to 11 times).
   */
  async markDeleted(clientId: number, id: number, at: Date): Promise<PropertyRecord | null> {
    const live = await this.findLive(clientId, id);
    if (!live) return null;
    const claimed = await this.deletions.insertOne({ _id: id, at }).then(
      () => true,
      (error: { code?: number }) => {
        if (error.code === DUPLICATE_KEY) return false;
        throw error;
      },
    );
    const mark = { $set: { deleted_at: at, updated_at: at } };
    if (!claimed) {
      // Another delete won; if it died before marking the property, this finishes its work.
      await this.properties.updateOne({ id, client_id: clientId, deleted_at: null }, mark).exec();
      return null;
    }
    await this.properties.updateOne({ id, client_id: clientId }, mark).exec();
    return live;
  }

  private get deletions() {
    return this.properties.db.collection<{ _id: number; at: Date }>('property_deletions');
  }
}

const DUPLICATE_KEY = 11000;

function ignoreExisting(error: { codeName?: string; code?: number }): void {
  if (error.code === 48 || error.codeName === 'NamespaceExists') return;
  throw error;
}
