import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, mongo } from 'mongoose';
import { documentKey, Keyed, RecordRepository } from '@app/persistence';
import { changeableState } from './application-changes';
import { ApplicationRecord } from './application.schema';

/** Stored applications, as plain objects; mongoose documents never leave this class. */
@Injectable()
export class ApplicationsRepository extends RecordRepository<ApplicationRecord> {
  constructor(@InjectModel(ApplicationRecord.name) applications: Model<ApplicationRecord>) {
    super(applications);
  }

  /**
   * Writes the applicants, the changeable fields and the version of `application` into its
   * document: the copy of what ApplicationVersions records, so that a read usually needs no claim
   * folded in. Everything a change can set goes in whole, never only what the last change set:
   * FerretDB's update reads the document and writes it back, so of two copies written at once
   * the one written last is the document, and it must hold every change up to its version.
   * Readers fold in the claims after that version.
   */
  async saveApplicants(application: ApplicationRecord): Promise<void> {
    const { applicants, version, updated_at } = application;
    await this.documents.updateOne(
      { _id: documentKey(application.id) } as mongo.Filter<Keyed<ApplicationRecord>>,
      {
        $set: { ...changeableState(application), applicants, version, updated_at },
      } as mongo.UpdateFilter<Keyed<ApplicationRecord>>,
    );
  }

  /** The online form's step 2: fields of the application itself, never its applicants. */
  async saveFormDetails(
    id: number,
    details: Pick<ApplicationRecord, 'floor_plan_id' | 'desired_unit_description' | 'desired_move_in'>,
  ): Promise<void> {
    await this.documents.updateOne(
      { _id: documentKey(id) } as mongo.Filter<Keyed<ApplicationRecord>>,
      { $set: { ...details, updated_at: new Date() } } as mongo.UpdateFilter<Keyed<ApplicationRecord>>,
    );
  }
}
