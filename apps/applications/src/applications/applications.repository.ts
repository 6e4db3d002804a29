import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, mongo } from 'mongoose';
import { EventWitness } from '@app/events';
import { claimed, documentKey, Keyed, RecordRepository } from '@app/persistence';
import { changeableState } from './application-changes';
import { ApplicationRecord } from './application.schema';
import { FORM_STARTED_KEY_PREFIX } from './form-added';

/**
 * One document per application whose creation was settled: `{_id: <application key>, event_ids}`
 * once it can no longer be undone, `{_id, event_ids: [], removed: true}` once its removal began.
 * Whichever is inserted first stands (the `_id` is unique), so that a try that answered with the
 * application and a try that removes it never both succeed.
 */
const APPLICATIONS_CREATED = 'applications_created';

interface CreationSettled {
  _id: string;
  event_ids: string[];
  removed?: true;
}

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

  /**
   * Where the events of an application's creation show: not in the application, which a create
   * still removes when the second look finds its property gone, but in the record that it was
   * kept (confirmCreated), so that the relay never publishes the creation of one removed.
   */
  createdWitness(id: number): EventWitness {
    return { collection: APPLICATIONS_CREATED, key: documentKey(id) };
  }

  /**
   * Says the application `id` is kept, with its creation's events; once, whoever says it again.
   * False when its removal began first (removeUnlessKept), which is finished here (its try may
   * have died half-way): it is not to be answered with.
   */
  async confirmCreated(id: number, eventIds: string[]): Promise<boolean> {
    if (await this.settle({ _id: documentKey(id), event_ids: eventIds })) return true;
    await this.remove(id);
    return false;
  }

  /**
   * Removes the application `id`, unless it was said kept first: another try of the same request
   * may have answered with it (a redelivery that found it stored). True when it was removed.
   */
  async removeUnlessKept(id: number): Promise<boolean> {
    if (!(await this.settle({ _id: documentKey(id), event_ids: [], removed: true }))) return false;
    await this.remove(id);
    return true;
  }

  /** Inserts `settled` unless the creation was settled already; true when it stands, as first or alike. */
  private async settle(settled: CreationSettled): Promise<boolean> {
    const settlements = this.model.db.collection<CreationSettled>(APPLICATIONS_CREATED);
    if (await claimed(settlements.insertOne(settled))) return true;
    const first = await settlements.findOne({ _id: settled._id });
    return first !== null && first.removed === settled.removed;
  }

  /**
   * The ids of the applications not erased whose copy shows a current decision made at or before
   * `before`. A scan on FerretDB (only a filter on `_id` uses an index), hence for the background
   * sweep alone; read whole before any is worked on, so that no cursor stays open meanwhile. An
   * application whose decision is in a claim only (its writer died before the copy) is found once
   * a later change writes the copy.
   */
  async decidedBefore(before: Date): Promise<number[]> {
    const found = await this.documents
      .find(
        { personal_data_erased_at: { $exists: false }, 'decisions.0.decided_at': { $lte: before } } as mongo.Filter<
          Keyed<ApplicationRecord>
        >,
        { projection: { id: 1 } },
      )
      .toArray();
    return found.map((application) => application.id);
  }

  /**
   * The ids of the applications not erased, started on the public form and undecided, whose copy
   * was last changed at or before `before`: those that may be forms abandoned since (their form
   * records and uploads, kept beside the document, tell). A scan on FerretDB, as decidedBefore.
   */
  async abandonedFormsBefore(before: Date): Promise<number[]> {
    const found = await this.documents
      .find(
        {
          personal_data_erased_at: { $exists: false },
          request_key: { $regex: `^${FORM_STARTED_KEY_PREFIX}` },
          'decisions.0': { $exists: false },
          updated_at: { $lte: before },
        } as mongo.Filter<Keyed<ApplicationRecord>>,
        { projection: { id: 1 } },
      )
      .toArray();
    return found.map((application) => application.id);
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
