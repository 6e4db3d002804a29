import { Injectable } from '@nestjs/common';
import { ApplicationRepresentation, ErasureTrigger, SensitiveReader } from '@app/contracts';
import { ApplicantRecord, ApplicationRecord } from '../domain/application';
import { ApplicantFormsRepository } from '../store/applicant-forms.repository';
import { ApplicationsRepository } from '../store/applications.repository';
import { AuditEventsRepository } from '../store/audit-events.repository';
import { ErasureRecord, ErasuresRepository } from '../store/erasures.repository';
import { ApplicantFiles } from './applicant-files';
import { ApplicationViews } from './application-views';

/**
 * Longer than any form step or upload takes: one under way as an erasure ran, which read the
 * application before it was marked, has written what it writes by then. The sweep erases once
 * more after it, and the erasure is settled.
 */
export const SETTLE_MS = 10 * 60 * 1000;
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
export class PersonalDataErasure {
  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly erasures: ErasuresRepository,
    private readonly views: ApplicationViews,
    private readonly forms: ApplicantFormsRepository,
    private readonly files: ApplicantFiles,
    private readonly audit: AuditEventsRepository,
  ) {}

  /** Erases the personal data of the client's application now, as `requester` asked; done again, changes nothing. */
  async erase(clientId: number, id: number, requester: SensitiveReader): Promise<ApplicationRepresentation> {
    const application = await this.applications.findOwned(clientId, id);
    await this.complete(await this.recorded(application, requester, 'api_request'));
    return this.views.represent(await this.applications.findOwned(clientId, id));
  }

  /**
   * Erases the personal data of an application kept as long as it may be: past its retention, or
   * a form abandoned, which `trigger` names.
   */
  async eraseExpired(
    application: ApplicationRecord,
    trigger: Exclude<ErasureTrigger, 'api_request'>,
    now = Date.now(),
  ): Promise<void> {
    await this.complete(await this.recorded(application, null, trigger), now);
  }

  /**
   * Completes again the erasures not settled yet, once SETTLE_MS has passed since each: what a
   * form step or an upload under way as it ran wrote is erased too. Returns how many. A scan on
   * FerretDB, hence for the sweep alone.
   */
  async settle(now = Date.now()): Promise<number> {
    const due = await this.erasures.unsettledBefore(new Date(now - SETTLE_MS));
    for (const record of due) await this.complete(record, now);
    return due.length;
  }

  /** The application's erasure record: a new one, or the one an earlier or concurrent erasure stored. */
  private async recorded(
    application: ApplicationRecord,
    requester: SensitiveReader | null,
    trigger: ErasureTrigger,
  ): Promise<ErasureRecord> {
    const earlier = await this.erasures.find(application.id);
    if (earlier) return earlier;
    const ids = await this.audit.allocateIds(application.applicants.length);
    const record: ErasureRecord = {
      application_id: application.id,
      client_id: application.client_id,
      erased_at: new Date(),
      requester: requester && { key_id: requester.key_id, request_id: requester.request_id },
      trigger,
      audit_events: application.applicants.map((applicant, i) => ({ applicant_id: applicant.id, event_id: ids[i] })),
    };
    return this.erasures.record(record);
  }

  private async complete(record: ErasureRecord, now = Date.now()): Promise<void> {
    const application = await this.mark(record);
    await this.eraseCopies(application, record.erased_at);
    await this.audit.recordErasure({
      client_id: record.client_id,
      application_id: record.application_id,
      erased_at: record.erased_at,
      requester: record.requester,
      trigger: record.trigger,
      events: record.audit_events,
    });
    if (now - record.erased_at.getTime() >= SETTLE_MS) await this.erasures.settle(record.application_id, new Date(now));
  }

  /**
   * The application marked erased, as its next version unless one already says so: read with every
   * change. The mark publishes `application.personal_data_erased`, which has the notifications
   * service erase the messages it keeps, and tells integrators to erase their copies.
   */
  private mark(record: ErasureRecord): Promise<ApplicationRecord> {
    const applicantIds = record.audit_events.map((event) => event.applicant_id);
    return this.applications.change(record.client_id, record.application_id, (current) => ({
      change: current.personal_data_erased_at ? null : { fields: { personal_data_erased_at: record.erased_at } },
      events: [
        {
          event: 'application.personal_data_erased',
          data: { application_id: current.id, property_id: current.property_id, applicant_ids: applicantIds },
        },
      ],
      answer: (marked) => marked,
    }));
  }

  /**
   * Erases every stored copy of the applicants' personal data: the application document (written
   * whole, as every change writes it), the claims of its versions, and for every applicant they
   * name (one removed since too) its form record and its documents, whose room in the client's
   * storage budget is given back.
   */
  private async eraseCopies(application: ApplicationRecord, erasedAt: Date): Promise<void> {
    const named = await this.applications.erasePersonalData(application, erasedAt);
    const applicants = new Map<number, ApplicantRecord>();
    for (const applicant of [...application.applicants, ...named]) applicants.set(applicant.id, applicant);
    for (const applicant of applicants.values()) {
      if (applicant.form_token_digest) await this.forms.erase(applicant.form_token_digest);
      const subject = { applicationId: application.id, applicantId: applicant.id };
      await this.files.removeAll(subject);
    }
  }
}
