import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { claimed, documentKey, RecordRepository } from '@app/persistence';
import { PropertyRecord } from './property.schema';

/** Stored properties, as plain objects; mongoose documents never leave this class. */
@Injectable()
export class PropertiesRepository extends RecordRepository<PropertyRecord> {
  constructor(@InjectModel(PropertyRecord.name) properties: Model<PropertyRecord>) {
    super(properties);
  }

  /**
   * Reads by the document key alone, then checks the owner and deletion here: a filter on
   * `_id` alone is the one FerretDB answers from an index; any other filter (a unique index
   * notwithstanding) reads and decodes every property, so each read grew with the collection.
   */
  async findLive(clientId: number, id: number): Promise<PropertyRecord | null> {
    const record = await this.findByKey(id);
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
    return this.model.db.collection<{ _id: string; at: Date }>('property_deletions');
  }
}
