import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { RecordRepository } from '@app/persistence';
import { ApplicationRecord } from './application.schema';

/** Stored applications, as plain objects; mongoose documents never leave this class. */
@Injectable()
export class ApplicationsRepository extends RecordRepository<ApplicationRecord> {
  constructor(@InjectModel(ApplicationRecord.name) applications: Model<ApplicationRecord>) {
    super(applications);
  }
}
