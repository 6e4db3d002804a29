import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, mongo } from 'mongoose';
import { documentKey, Keyed, RecordRepository } from '@app/persistence';
import { ApplicationRecord } from './application.schema';

/** Stored applications, as plain objects; mongoose documents never leave this class. */
@Injectable()
export class ApplicationsRepository extends RecordRepository<ApplicationRecord> {
  constructor(@InjectModel(ApplicationRecord.name) applications: Model<ApplicationRecord>) {
    super(applications);
  }

  /**
   * Writes the applicants and version of `application` into its document: the copy of what
   * ApplicationVersions records, so that a read usually needs no claim folded in.
   */
  async saveApplicants(application: ApplicationRecord): Promise<void> {
    const { applicants, version, updated_at } = application;
    await this.documents.updateOne(
      { _id: documentKey(application.id) } as mongo.Filter<Keyed<ApplicationRecord>>,
      {
        $set: { applicants, version, updated_at },
      } as mongo.UpdateFilter<Keyed<ApplicationRecord>>,
    );
  }
}
