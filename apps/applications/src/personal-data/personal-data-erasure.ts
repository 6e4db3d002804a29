import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { ApplicationRepresentation, SensitiveReader, ServiceError } from '@app/contracts';
import { claimed, documentKey, ignoreExistingCollection } from '@app/persistence';
import { ApplicantForms } from '../applications/applicant-forms';
import { withChange } from '../applications/application-changes';
import { ApplicationVersions } from '../applications/application-versions';
import { ApplicantRecord, ApplicationRecord } from '../applications/application.schema';
import { ApplicationsRepository } from '../applications/applications.repository';
import { ApplicationsService } from '../applications/applications.service';
import { AuditEvents, ErasureAudit } from '../audit/audit-events';
import { ApplicantFiles } from '../documents/applicant-files';

const ERASURES = 'personal_data_erasures';
/**
 * Longer than any form step or upload takes: one under way as an erasure ran, which read the
 * application before it was marked, has written what it writes by then. The sweep erases once
 * more after it, and the erasure is settled.
 */
export const SETTLE_MS = 10 * 60 * 1000;
/** Marks that lost their version to another change read again, this often. */
const MAX_MARK_ATTEMPTS = 20;

/**
 * An application's erasure, under `_id` = the application's key: the insert that only the first
 * of two erasures at once makes (the `_id` index decides), which fixes when it was erased, who
 * asked and the ids of its audit events, so that whoever completes it, again or at the same time,
 * completes the same one.
 */
interface ErasureRecord {
  _id: string;
  application_id: number;
  client_id: number;
  erased_at: Date;
  requester: ErasureAudit['requester'];
  audit_events: ErasureAudit['events'];
  /** When it was completed SETTLE_MS or more after erased_at; absent until then. */
  settled_at?: Date;
}

/**
 * Erases the personal data of an application's applicants (see erasedApplicant): at once when an
 * applicant asks (through the API), or when the client's retention period ends after a decision,
 * or a form started on the public form has been abandoned for ABANDONED_FORM_DAYS
 * (PersonalDataRetention). Its decisions, its dates and the applicants' names stay; it shows
 * `personal_data_erased_at`; each applicant gets a `personal_data.erased` audit event.
 *
 * FerretDB has no transactions, so the erasure is steps that are each safe to do again, by any
 * instance and at the same time: the record (insert-once), the mark (the application's next
 * version, as a PATCH claims one, so that no change made at once is lost and every later read
 * shows it), then every copy erased (the application document, the claims of its versions, the
 * form records, the documents with their files) and the audit events stored under the ids the
 * record fixed. A request that dies half-way is done again by its retry, or by the sweep.
 */
@Injectable()
export class PersonalDataErasure implements OnModuleInit {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly applications: ApplicationsService,
    private readonly repository: ApplicationsRepository,
    private readonly versions: ApplicationVersions,
    private readonly forms: ApplicantForms,
    private readonly files: ApplicantFiles,
    private readonly audit: AuditEvents,
  ) {}

  private get records() {
    return this.connection.collection<ErasureRecord>(ERASURES);
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection(ERASURES).catch(ignoreExistingCollection);
  }

  /** Erases the personal data of the client's application now, as `requester` asked; done again, changes nothing. */
  async erase(clientId: number, id: number, requester: SensitiveReader): Promise<ApplicationRepresentation> {
    const application = await this.applications.owned(clientId, id);
    await this.complete(await this.recorded(application, requester));
    return this.applications.get(clientId, id);
  }

  /** Erases the personal data of an application kept as long as it may be: past its retention, or a form abandoned. */
  async eraseExpired(application: ApplicationRecord, now = Date.now()): Promise<void> {
    await this.complete(await this.recorded(application, null), now);
  }

  /**
   * Completes again the erasures not settled yet, once SETTLE_MS has passed since each: what a
   * form step or an upload under way as it ran wrote is erased too. Returns how many. A scan on
   * FerretDB, hence for the sweep alone.
   */
  async settle(now = Date.now()): Promise<number> {
    const due = await this.records
      .find({ settled_at: { $exists: false }, erased_at: { $lte: new Date(now - SETTLE_MS) } })
      .toArray();
    for (const record of due) await this.complete(record, now);
    return due.length;
  }

  /** The application's erasure record: a new one, or the one an earlier or concurrent erasure stored. */
  private async recorded(application: ApplicationRecord, requester: SensitiveReader | null): Promise<ErasureRecord> {
    const key = documentKey(application.id);
    const earlier = await this.records.findOne({ _id: key });
    if (earlier) return earlier;
    const ids = await this.audit.allocateIds(application.applicants.length);
    const record: ErasureRecord = {
      _id: key,
      application_id: application.id,
      client_id: application.client_id,
      erased_at: new Date(),
      requester: requester && { key_id: requester.key_id, request_id: requester.request_id },
      audit_events: application.applicants.map((applicant, i) => ({ applicant_id: applicant.id, event_id: ids[i] })),
    };
    if (await claimed(this.records.insertOne(record))) return record;
    return (await this.records.findOne({ _id: key }))!;
  }

  private async complete(record: ErasureRecord, now = Date.now()): Promise<void> {
    const application = await this.mark(record);
    await this.eraseCopies(application, record.erased_at);
    await this.audit.recordErasure({
      client_id: record.client_id,
      application_id: record.application_id,
      erased_at: record.erased_at,
      requester: record.requester,
      events: record.audit_events,
    });
    if (now - record.erased_at.getTime() >= SETTLE_MS) {
      await this.records.updateOne({ _id: record._id }, { $set: { settled_at: new Date(now) } });
    }
  }

  /** The application marked erased, as its next version unless one already says so: read with every change. */
  private async mark(record: ErasureRecord): Promise<ApplicationRecord> {
    const fields = { personal_data_erased_at: record.erased_at };
    for (let attempt = 0; attempt < MAX_MARK_ATTEMPTS; attempt++) {
      const current = await this.applications.owned(record.client_id, record.application_id);
      if (current.personal_data_erased_at) return current;
      const version = (current.version ?? 0) + 1;
      const at = new Date();
      if (await this.versions.claimFields(current.id, version, fields, at, [])) return withChange(current, fields, version, at);
    }
    throw ServiceError.unavailable(`application ${record.application_id} is being changed by many requests at once; retry later`);
  }

  /**
   * Erases every stored copy of the applicants' personal data: the application document (written
   * whole, as every change writes it), the claims of its versions, and for every applicant they
   * name (one removed since too) its form record and its documents, whose room in the client's
   * storage budget is given back.
   */
  private async eraseCopies(application: ApplicationRecord, erasedAt: Date): Promise<void> {
    await this.repository.saveApplicants(application);
    const named = await this.versions.eraseFromClaims(application.id, application.version ?? 0, erasedAt);
    const applicants = new Map<number, ApplicantRecord>();
    for (const applicant of [...application.applicants, ...named]) applicants.set(applicant.id, applicant);
    for (const applicant of applicants.values()) {
      if (applicant.form_token_digest) await this.forms.erase(applicant.form_token_digest);
      const subject = { applicationId: application.id, applicantId: applicant.id };
      await this.files.removeAll(subject);
    }
  }
}
