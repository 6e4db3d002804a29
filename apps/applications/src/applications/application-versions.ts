import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { EventWitness } from '@app/events';
import { claimed, ignoreExistingCollection } from '@app/persistence';
import { ApplicantChange, withApplicantChange } from '../applicants/applicant-change';
import { ApplicationFields, withChange } from './application-changes';
import { erasedApplicant, holdsPersonalData } from '../personal-data/erased-fields';
import { ApplicantRecord, ApplicationRecord } from './application.schema';

/**
 * Change `version` of an application: the co-applicant it added, the applicant it changed or
 * removed, or the fields a PATCH of the application set.
 */
interface VersionClaim extends ApplicantChange {
  /** `<application id>:<version>` */
  _id: string;
  application_id: number;
  version: number;
  fields?: ApplicationFields;
  created_at: Date;
  /** The domain events of the change (see EventOutbox). */
  event_ids: string[];
}

/**
 * The changes made to applications after their creation, one claim per version. FerretDB has no
 * atomic read-modify-write (its find-and-modify and conditional updates read and then write), so
 * two co-applicants added at once by two instances could each rewrite the applicants list without
 * the other's. Instead each change first claims its version number by inserting
 * `{_id: "<application id>:<version>"}`, which the `_id` index makes atomic; the loser of a race
 * reads again and tries the next version. The claims are the record of truth: the application
 * document is written afterwards as a copy, and a reader folds in any claim beyond the version
 * that copy shows, so a writer that dies between its claim and its copy, or a copy written late
 * over a newer one, loses nothing.
 */
@Injectable()
export class ApplicationVersions implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get claims() {
    return this.connection.collection<VersionClaim>('application_versions');
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection('application_versions').catch(ignoreExistingCollection);
  }

  /** The claim of version `version` of the application, which carries the ids of its events. */
  witness(applicationId: number, version: number): EventWitness {
    return { collection: 'application_versions', key: claimKey(applicationId, version) };
  }

  /** Whether this caller won version `version` of the application, adding `applicant` with it. */
  claim(applicationId: number, version: number, applicant: ApplicantRecord, eventIds: string[] = []): Promise<boolean> {
    return this.claimChange(applicationId, version, { applicant }, applicant.created_at ?? new Date(), eventIds);
  }

  /** Whether this caller won version `version` of the application, making `change` with it at `at`. */
  claimChange(
    applicationId: number,
    version: number,
    change: ApplicantChange,
    at: Date,
    eventIds: string[] = [],
  ): Promise<boolean> {
    return claimed(
      this.claims.insertOne({
        _id: claimKey(applicationId, version),
        application_id: applicationId,
        version,
        ...change,
        created_at: at,
        event_ids: eventIds,
      }),
    );
  }

  /** Whether this caller won version `version` of the application, setting `fields` with it (a PATCH). */
  claimFields(applicationId: number, version: number, fields: ApplicationFields, at: Date, eventIds: string[]): Promise<boolean> {
    return claimed(
      this.claims.insertOne({
        _id: claimKey(applicationId, version),
        application_id: applicationId,
        version,
        fields,
        created_at: at,
        event_ids: eventIds,
      }),
    );
  }

  /** The application as of its last claimed change: one read by `_id` per version, and one more. */
  async current<T extends ApplicationRecord>(stored: T): Promise<T> {
    let current = stored;
    for (;;) {
      const version = nextVersion(current);
      const claim = await this.claims.findOne({ _id: claimKey(current.id, version) });
      if (!claim) return current;
      current = withClaim(current, claim);
    }
  }

  /**
   * Takes the personal data out of every applicant the claims of the application's versions up
   * to `version` keep (co-applicants added, applicants corrected), as erased at `erasedAt`; a claim
   * erased already is left as it is. Returns every applicant they name, those removed since too,
   * whose form records and documents the erasure reaches as well.
   */
  async eraseFromClaims(applicationId: number, version: number, erasedAt: Date): Promise<ApplicantRecord[]> {
    const named: ApplicantRecord[] = [];
    for (let from = 1; from <= version; from += CLAIMS_READ_AT_ONCE) {
      const upTo = Math.min(version, from + CLAIMS_READ_AT_ONCE - 1);
      const keys = Array.from({ length: upTo - from + 1 }, (_, i) => claimKey(applicationId, from + i));
      for (const claim of await this.claims.find({ _id: { $in: keys } }).toArray()) {
        for (const field of ['applicant', 'updated_applicant'] as const) {
          const applicant = claim[field];
          if (!applicant) continue;
          named.push(applicant);
          if (holdsPersonalData(applicant)) {
            await this.claims.updateOne({ _id: claim._id }, { $set: { [field]: erasedApplicant(applicant, erasedAt) } });
          }
        }
      }
    }
    return named;
  }

  /**
   * Each application as of its last claimed change, in the order given. The claims just past the
   * copies are looked for in one read by `_id`s (the index answers it), so a page whose copies
   * are up to date, as they nearly always are, costs one round trip; an application that has a
   * claim past its copy reads on one version at a time.
   */
  async currentAll<T extends ApplicationRecord>(stored: T[]): Promise<T[]> {
    if (stored.length === 0) return [];
    const keys = stored.map((application) => claimKey(application.id, nextVersion(application)));
    const claims = new Map<string, VersionClaim>();
    for (const claim of await this.claims.find({ _id: { $in: keys } }).toArray()) claims.set(claim._id, claim);
    return Promise.all(
      stored.map((application, i) => {
        const claim = claims.get(keys[i]);
        return claim ? this.current(withClaim(application, claim)) : application;
      }),
    );
  }
}

/** Claims read by `_id` in one round trip when an erasure goes through all of an application's. */
const CLAIMS_READ_AT_ONCE = 100;

function nextVersion(application: ApplicationRecord): number {
  return (application.version ?? 0) + 1;
}

/**
 * The application with the change of `claim`, the version after the one it shows, folded in: the
 * applicant it added, changed or removed, or the fields a PATCH set.
 */
function withClaim<T extends ApplicationRecord>(application: T, claim: VersionClaim): T {
  const applicants = withApplicantChange(application.applicants, claim);
  return withChange({ ...application, applicants }, claim.fields ?? {}, claim.version, claim.created_at);
}

function claimKey(applicationId: number, version: number): string {
  return `${applicationId}:${version}`;
}
