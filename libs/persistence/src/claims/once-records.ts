import { Connection } from 'mongoose';
import type { EventWitness } from '../event-witness';
import { Keyed, OnceRecords, ScanFilter, ScanOptions } from '../storage';
import { DriverRecords } from './records';

/**
 * Documents inserted once under their key. The `_id` index decides which of several inserts at
 * once stands, on MongoDB and FerretDB alike (FerretDB's conditional updates read and then write,
 * so nothing else there can decide a race); the losers read the winner's.
 */
export class DriverOnceRecords<T extends object> implements OnceRecords<T> {
  private readonly records: DriverRecords<T>;

  constructor(connection: Connection, collection: string) {
    this.records = new DriverRecords<T>(connection, collection);
  }

  prepare(): Promise<void> {
    return this.records.prepare();
  }

  claim(key: string, record: T): Promise<boolean> {
    return this.records.insert(key, record);
  }

  async claimOrRead(key: string, record: T): Promise<{ won: boolean; record: Keyed<T> }> {
    if (await this.records.insert(key, record)) return { won: true, record: { ...record, _id: key } };
    const standing = await this.records.get(key);
    // Released between the insert and the read: the key is free again, and this try takes it.
    if (!standing) return this.claimOrRead(key, record);
    return { won: false, record: standing };
  }

  get(key: string): Promise<Keyed<T> | null> {
    return this.records.get(key);
  }

  getMany(keys: string[]): Promise<Map<string, Keyed<T>>> {
    return this.records.getMany(keys);
  }

  annotate(key: string, fields: Partial<T>): Promise<void> {
    // Without upsert: an annotation never makes a claim that was released.
    return this.records.update(key, { set: fields });
  }

  strip(key: string, fields: Array<keyof T & string>): Promise<void> {
    return this.records.update(key, { unset: fields });
  }

  release(key: string): Promise<void> {
    return this.records.remove(key);
  }

  updateWhere(key: string, condition: ScanFilter, fields: Partial<T>): Promise<boolean> {
    return this.records.updateWhere(key, condition, { set: fields });
  }

  releaseWhere(key: string, condition: ScanFilter): Promise<boolean> {
    return this.records.removeWhereKey(key, condition);
  }

  scan(filter: ScanFilter, options?: ScanOptions): Promise<Array<Keyed<T>>> {
    return this.records.scan(filter, options);
  }

  removeWhere(filter: ScanFilter): Promise<number> {
    return this.records.removeWhere(filter);
  }

  purgeExpired(now: Date): Promise<number> {
    return this.records.removeWhere({ expires_at: { $lte: now } });
  }

  witness(key: string): EventWitness {
    return this.records.witness(key);
  }
}
