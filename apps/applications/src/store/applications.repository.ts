import { Injectable, OnModuleInit } from '@nestjs/common';
import { ServiceError } from '@app/contracts';
import { EventOutbox, EventSpec } from '@app/events';
import { Ids, OnceRecords, Storage, Versioned, VersionedRecords } from '@app/persistence';
import { ApplicantRecord, ApplicationRecord } from '../domain/application';
import { changeableState } from '../domain/application-changes';
import { ApplicationChangeClaim, withClaimedChange } from '../domain/application-versions';
import { erasedApplicant, holdsPersonalData } from '../domain/erased-fields';
import { FORM_STARTED_KEY_PREFIX } from '../domain/form-added';
import { ApplicationLists } from './application-lists';

/** Changes of one application that lost their version to another change read again, this often. */
const MAX_CHANGE_ATTEMPTS = 50;

/**
 * That an application's creation was settled: kept (with its events) once nothing can undo it,
 * or removed (`removed`) once its removal began. Whichever is inserted first stands, so that a try
 * that answered with the application and a try that removes it never both succeed.
 */
interface CreationSettled {
  event_ids: string[];
  removed?: true;
}

/** That a property was deleted: inserted before its DELETE is answered (see fenceProperty). */
interface PropertyFence {
  client_id: number;
  property_id: number;
  at: Date;
}

/** What a change decides from the application as it is: what to claim (null for nothing), and what follows. */
export interface ApplicationDecision<T> {
  change: ApplicationChangeClaim | null;
  /** When the change is made (now, by default). */
  at?: Date;
  events?: EventSpec[];
  /** Done once the change is claimed, before its events go out: what else keeps a copy of what changed. */
  after?: (changed: ApplicationRecord) => Promise<void>;
  answer: (changed: ApplicationRecord) => T | Promise<T>;
}

/** A create refused because its property was deleted while it was stored. */
export class PropertyFenced extends Error {}

/**
 * Applications, with their applicants, as versioned records (VersionedRecords): the document in
 * `applications` is a copy that may lag, each change after creation is the claim of the
 * application's next version in `application_versions`, and reads fold in the claims past the
 * copy. Listed in ApplicationLists. Plain objects in and out.
 */
@Injectable()
export class ApplicationsRepository implements OnModuleInit {
  private readonly versions: VersionedRecords<ApplicationRecord, ApplicationChangeClaim>;
  private readonly creations: OnceRecords<CreationSettled>;
  private readonly fences: OnceRecords<PropertyFence>;
  private readonly ids: Ids;

  constructor(
    storage: Storage,
    private readonly lists: ApplicationLists,
    private readonly outbox: EventOutbox,
  ) {
    this.versions = storage.versionedRecords<ApplicationRecord, ApplicationChangeClaim>({
      copies: 'applications',
      claims: 'application_versions',
      idField: 'application_id',
      unique: { id_unique: 'id', request_key_unique: 'request_key' },
      fold: (application, claim) => withClaimedChange(application!, claim.change, claim.version, claim.at),
      // Everything a change can set goes in whole, never only what the last change set: FerretDB's
      // update reads the document and writes it back, so of two copies written at once the one
      // written last is the copy, and it must hold every change up to its version.
      copyFields: (application) => ({
        ...changeableState(application),
        applicants: application.applicants,
        updated_at: application.updated_at,
      }),
    });
    this.creations = storage.onceRecords<CreationSettled>('applications_created');
    this.fences = storage.onceRecords<PropertyFence>('property_fences');
    this.ids = storage.ids();
  }

  async onModuleInit(): Promise<void> {
    await this.versions.prepare();
    await this.creations.prepare();
    await this.fences.prepare();
  }

  /** Ids for a new application and its primary applicant, claimed at once. */
  async newIds(): Promise<{ applicationId: number; applicantId: number }> {
    const [applicationId, applicantId] = await Promise.all([this.ids.allocate('applications'), this.newApplicantId()]);
    return { applicationId, applicantId };
  }

  newApplicantId(): Promise<number> {
    return this.ids.allocate('applicants');
  }

  /** The application with every change folded in, whoever owns it, or null. */
  async find(id: number): Promise<ApplicationRecord | null> {
    return (await this.versions.current(id))?.state ?? null;
  }

  /** The client's application with every change folded in; 404 for none, or another client's. */
  async findOwned(clientId: number, id: number): Promise<ApplicationRecord> {
    const application = await this.find(id);
    if (!application || application.client_id !== clientId) throw ServiceError.notFound('application', id);
    return application;
  }

  /** Those of the applications `ids` that exist (and are the client's, when given), in that order. */
  async findMany(ids: number[], clientId?: number): Promise<ApplicationRecord[]> {
    const found = await this.versions.currentMany(ids);
    return ids.flatMap((id) => {
      const application = found.get(id)?.state;
      return application && (clientId === undefined || application.client_id === clientId) ? [application] : [];
    });
  }

  /**
   * Stores a new application once per request (its `request_key`), listed in its client's and its
   * property's lists, with the events of its creation. Kept only if its property was not deleted
   * meanwhile: a property's DELETE fences its property before it answers, and the fence is looked
   * at after the insert, so no application is created after that DELETE answered. Returns the
   * application stored (an earlier try's, for a request done again), or null when the one met
   * under the request key was being removed (the caller tries again); throws PropertyFenced.
   */
  async create(record: ApplicationRecord, events: EventSpec[]): Promise<ApplicationRecord | null> {
    // Recorded and listed before it is stored, side by side: readers skip an entry until its
    // application exists, and the relay drops events whose creation is never settled.
    const [eventIds] = await Promise.all([
      this.outbox.record(record.client_id, this.creations.witness(String(record.id)), events),
      this.lists.add(record.client_id, record.property_id, record.id),
    ]);
    const stored = (await this.versions.create(record.id, { ...record, event_ids: eventIds })).state;
    if (stored.id !== record.id) {
      // Another try of the request stored it; its events are its own.
      await this.outbox.discard(eventIds);
    } else if (await this.fenced(record.client_id, record.property_id)) {
      if (await this.settle(record.id, { event_ids: [], removed: true })) {
        await this.removeCopy(record.id);
        throw new PropertyFenced();
      }
    }
    if (!(await this.confirmCreated(stored))) return null;
    if (stored.id === record.id) this.outbox.written(eventIds);
    return stored;
  }

  /**
   * The application an earlier, unfinished try of the request stored, kept now; null when there is
   * none, or when that try was removing it (the caller then creates afresh).
   */
  async resumeCreation(requestKey: string): Promise<ApplicationRecord | null> {
    const earlier = (await this.versions.createdBy('request_key', requestKey))?.state;
    return earlier && (await this.confirmCreated(earlier)) ? earlier : null;
  }

  /**
   * Fences the client's property: no application is created for it from now on, whatever lookup a
   * create under way made. Its DELETE does this before it answers.
   */
  async fenceProperty(clientId: number, propertyId: number): Promise<void> {
    await this.fences.claim(fenceKey(clientId, propertyId), { client_id: clientId, property_id: propertyId, at: new Date() });
  }

  /**
   * Changes the client's application: `decide` sees it as of its latest version and says what to
   * change; the change is claimed as the next version, with its events, and one that lost its
   * version to another change reads again and decides again, so that changes made at once through
   * any number of instances are all kept and none is decided on a stale read.
   */
  async change<T>(
    clientId: number,
    id: number,
    decide: (current: ApplicationRecord) => ApplicationDecision<T> | Promise<ApplicationDecision<T>>,
  ): Promise<T> {
    for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt++) {
      const current = await this.findOwned(clientId, id);
      const decision = await decide(current);
      if (!decision.change) return decision.answer(current);
      const version = (current.version ?? 0) + 1;
      const events = decision.events ?? [];
      const eventIds = events.length === 0 ? [] : await this.outbox.record(clientId, this.versions.witness(id, version), events);
      const changed = await this.versions.claimNext(id, versioned(current), decision.change, {
        at: decision.at,
        event_ids: eventIds,
      });
      if (changed) {
        await decision.after?.(changed.state);
        this.outbox.written(eventIds);
        return decision.answer(changed.state);
      }
      await this.outbox.discard(eventIds);
    }
    throw ServiceError.unavailable(`application ${id} is being changed by many requests at once; retry later`);
  }

  /**
   * Takes the personal data out of every copy the application's versions keep: the application
   * document (written whole, `erased` as erased), and the applicants the claims of its versions hold
   * (co-applicants added, applicants corrected). Returns every applicant they name, those removed
   * since too, whose form records and documents the erasure reaches as well.
   */
  async erasePersonalData(erased: ApplicationRecord, erasedAt: Date): Promise<ApplicantRecord[]> {
    await this.versions.writeCopy(erased.id, versioned(erased));
    const named: ApplicantRecord[] = [];
    for (const claim of await this.versions.changes(erased.id, 1, erased.version ?? 0)) {
      for (const field of ['applicant', 'updated_applicant'] as const) {
        const applicant = claim.change[field];
        if (!applicant) continue;
        named.push(applicant);
        if (holdsPersonalData(applicant)) {
          await this.versions.rewriteChange(erased.id, claim.version, { [field]: erasedApplicant(applicant, erasedAt) });
        }
      }
    }
    return named;
  }

  /**
   * The ids of the applications not erased whose copy shows a current decision made at or before
   * `before`. A scan on FerretDB, hence for the background sweep alone; an application whose
   * decision is in a claim only (its writer died before the copy) is found once a later change
   * writes the copy.
   */
  decidedBefore(before: Date): Promise<number[]> {
    return this.versions.scanCopies({ personal_data_erased_at: { $exists: false }, 'decisions.0.decided_at': { $lte: before } });
  }

  /**
   * The ids of the applications not erased, started on the public form and undecided, whose copy
   * was last changed at or before `before`: those that may be forms abandoned since. A scan, as
   * decidedBefore.
   */
  abandonedFormsBefore(before: Date): Promise<number[]> {
    return this.versions.scanCopies({
      personal_data_erased_at: { $exists: false },
      request_key: { $regex: `^${FORM_STARTED_KEY_PREFIX}` },
      'decisions.0': { $exists: false },
      updated_at: { $lte: before },
    });
  }

  /**
   * Says the application is kept, with its creation's events; once, whoever says it again. False
   * when its removal began first, which is finished here (its try may have died half-way).
   */
  private async confirmCreated(application: ApplicationRecord): Promise<boolean> {
    if (await this.settle(application.id, { event_ids: application.event_ids ?? [] })) return true;
    await this.removeCopy(application.id);
    return false;
  }

  /** Inserts the settlement unless the creation was settled already; true when it stands, as first or alike. */
  private async settle(id: number, settled: CreationSettled): Promise<boolean> {
    const { record } = await this.creations.claimOrRead(String(id), settled);
    return record.removed === settled.removed;
  }

  private async fenced(clientId: number, propertyId: number): Promise<boolean> {
    return (await this.fences.get(fenceKey(clientId, propertyId))) !== null;
  }

  private removeCopy(id: number): Promise<void> {
    return this.versions.removeCopy(id);
  }
}

function versioned(application: ApplicationRecord): Versioned<ApplicationRecord> {
  return { version: application.version ?? 0, state: application };
}

function fenceKey(clientId: number, propertyId: number): string {
  return `${clientId}:${propertyId}`;
}
