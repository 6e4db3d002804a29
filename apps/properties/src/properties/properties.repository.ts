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

  /** Marks the property deleted and returns it as it was, or null if there was none live. */
  markDeleted(clientId: number, id: number, at: Date): Promise<PropertyRecord | null> {
    return this.properties
      .findOneAndUpdate(
        { id, client_id: clientId, deleted_at: null },
        { $set: { deleted_at: at, updated_at: at } },
        // FerretDB does not implement findAndModify with a projection; the mapper ignores _id.
        { new: false },
      )
      .lean<PropertyRecord>()
      .exec();
  }
}

function ignoreExisting(error: { codeName?: string; code?: number }): void {
  if (error.code === 48 || error.codeName === 'NamespaceExists') return;
  throw error;
}
