import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { ignoreExistingCollection, insertOnce } from '@app/common';
import { ApplicationRecord } from './application.schema';

/** Stored applications, as plain objects; mongoose documents never leave this class. */
@Injectable()
export class ApplicationsRepository implements OnModuleInit {
  constructor(
    @InjectModel(ApplicationRecord.name) private readonly applications: Model<ApplicationRecord>,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.applications.createCollection().catch(ignoreExistingCollection);
    await this.applications.collection.createIndex({ id: 1 }, { unique: true, name: 'id_unique' });
    await this.applications.collection.createIndex({ request_key: 1 }, { unique: true, name: 'request_key_unique' });
  }

  /** Stores the application, or returns the one its request already stored. */
  insertOnce(record: ApplicationRecord): Promise<ApplicationRecord> {
    return insertOnce(this.applications.collection, record);
  }
}
