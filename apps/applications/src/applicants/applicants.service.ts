import { Injectable } from '@nestjs/common';
import { ApplicantSealer, SEALED_APPLICANT_FIELDS, SealedApplicantField } from '@app/crypto';
import { EventOutbox } from '@app/events';
import {
  ApplicantChanges,
  ApplicantRepresentation,
  ErrorCode,
  ifMatchHolds,
  SealedSensitiveApplicant,
  SensitiveReader,
  ServiceError,
} from '@app/contracts';
import { ApplicantForm, ApplicantForms, withFormProgress } from '../applications/applicant-forms';
import { ApplicationVersions } from '../applications/application-versions';
import { ApplicantRecord, ApplicationRecord } from '../applications/application.schema';
import { ApplicationsRepository } from '../applications/applications.repository';
import { applicantEventData, ApplicationsService } from '../applications/applications.service';
import { AuditEvents } from '../audit/audit-events';
import { ApplicantFiles } from '../documents/applicant-files';
import { ApplicantChange, CONTACT_FIELDS, correctedApplicant, withApplicantChange } from './applicant-change';

/** Changes of one application that lost their version to another change read again, this often. */
const MAX_CHANGE_ATTEMPTS = 50;

/** An applicant as the caller sees it, with its application and its form record. */
interface Current {
  application: ApplicationRecord;
  /** As stored, without what the form added. */
  stored: ApplicantRecord;
  form: ApplicantForm | null;
  representation: ApplicantRepresentation;
}

/** What a change decides from the current applicant: the change (null for none) and its event. */
interface Decision {
  change: ApplicantChange | null;
  event: 'applicant.updated' | 'applicant.removed';
  /** Done once the change is claimed: what else keeps a copy of what changed. */
  after?: () => Promise<void>;
  answer: (changed: ApplicationRecord) => ApplicantRepresentation;
}

/**
 * Corrections and removals of applicants, and reads of their sensitive data. A change is the
 * application's next version (ApplicationVersions), as adding a co-applicant is: one that loses
 * its version to a concurrent change reads again and decides again, so changes made at once
 * through any number of instances are all kept, and none is decided on a stale read.
 */
@Injectable()
export class ApplicantsService {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly repository: ApplicationsRepository,
    private readonly versions: ApplicationVersions,
    private readonly forms: ApplicantForms,
    private readonly sealer: ApplicantSealer,
    private readonly audit: AuditEvents,
    private readonly outbox: EventOutbox,
    private readonly files: ApplicantFiles,
  ) {}

  /**
   * The applicant with its date of birth and SSN (as the form last gave them), sealed for the
   * client and the message this answers. The read is recorded before anything is answered: a read
   * that cannot be recorded is not made.
   */
  async readSensitive(
    clientId: number,
    applicationId: number,
    id: number,
    reader: SensitiveReader,
    messageId: string,
  ): Promise<SealedSensitiveApplicant> {
    const { stored, form, representation } = await this.current(clientId, applicationId, id);
    const shown = withFormProgress(stored, form);
    const owner = { clientId, applicantId: id };
    const open = (field: SealedApplicantField) => (shown[field] ? this.sealer.openField(field, shown[field], owner) : null);
    // Every identity field the applicant gives sealed is sensitive data: a new one is included by being sealed.
    const values = Object.fromEntries(SEALED_APPLICANT_FIELDS.map((field) => [field, open(field)]));
    await this.audit.recordRead(clientId, reader, { applicationId, applicantId: id });
    return { applicant: representation, sensitive_data: { sealed: this.sealer.sealForMessage(values, { clientId, messageId }) } };
  }

  /** Corrects the applicant's contact details, reference_id and custom_data. */
  update(clientId: number, applicationId: number, id: number, changes: ApplicantChanges, ifMatch?: string) {
    return this.change(clientId, applicationId, id, ifMatch, ({ application, stored, form, representation }) => {
      // What the form keeps of the contact details is what is shown: the correction starts from it.
      const next = correctedApplicant({ ...stored, ...(form?.contact ?? {}) }, changes, new Date());
      if (!next) return { change: null, event: 'applicant.updated', answer: () => representation };
      const contact = Object.fromEntries(CONTACT_FIELDS.map((field) => [field, next[field] ?? null])) as ApplicantForm['contact'];
      const corrected = form?.contact ? { ...form, contact } : form;
      return {
        change: { updated_applicant: next },
        event: 'applicant.updated',
        after: async () => {
          if (corrected !== form)
            await this.forms.save(form!._id, { application_id: application.id, applicant_id: id }, { contact });
        },
        answer: (changed) => this.represent(changed, next, corrected),
      };
    });
  }

  /**
   * Removes a co-applicant or guarantor; its form link stops working, and what its form kept goes
   * with it: the form's record (its identity numbers, sections and answers) and its documents,
   * files included. Never the primary applicant.
   */
  remove(clientId: number, applicationId: number, id: number, ifMatch?: string) {
    return this.change(clientId, applicationId, id, ifMatch, ({ stored, representation }) => {
      if (stored.type === 'primary') throw primaryNotRemovable(id);
      return {
        change: { removed_applicant_id: id },
        event: 'applicant.removed',
        after: async () => {
          if (stored.form_token_digest) await this.forms.erase(stored.form_token_digest);
          await this.files.removeAll({ applicationId, applicantId: id });
        },
        answer: () => representation,
      };
    });
  }

  private async change(
    clientId: number,
    applicationId: number,
    id: number,
    ifMatch: string | undefined,
    decide: (current: Current) => Decision,
  ): Promise<ApplicantRepresentation> {
    for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt++) {
      const current = await this.current(clientId, applicationId, id);
      if (!ifMatchHolds(ifMatch, current.representation)) throw ServiceError.preconditionFailed();
      const { change, event, after, answer } = decide(current);
      const { application, stored } = current;
      if (!change) return answer(application);

      const version = (application.version ?? 0) + 1;
      const now = new Date();
      const eventIds = await this.outbox.record(clientId, this.versions.witness(application.id, version), [
        { event, data: applicantEventData(application.id, application.property_id, change.updated_applicant ?? stored) },
      ]);
      if (await this.versions.claimChange(application.id, version, change, now, eventIds)) {
        const changed = {
          ...application,
          applicants: withApplicantChange(application.applicants, change),
          version,
          updated_at: now,
        };
        await this.repository.saveApplicants(changed);
        await after?.();
        this.outbox.written(eventIds);
        return answer(changed);
      }
      await this.outbox.discard(eventIds);
    }
    throw ServiceError.unavailable(`application ${applicationId} is being changed by many requests at once; retry later`);
  }

  private async current(clientId: number, applicationId: number, id: number): Promise<Current> {
    const application = await this.applications.owned(clientId, applicationId);
    const stored = application.applicants.find((candidate) => candidate.id === id);
    if (!stored) throw ServiceError.notFound('applicant', id);
    const form = stored.form_token_digest ? await this.forms.find(stored.form_token_digest) : null;
    return { application, stored, form, representation: this.represent(application, stored, form) };
  }

  private represent(
    application: ApplicationRecord,
    applicant: ApplicantRecord,
    form: ApplicantForm | null,
  ): ApplicantRepresentation {
    return this.applications.applicantRepresentation(application, withFormProgress(applicant, form));
  }
}

function primaryNotRemovable(id: number): ServiceError {
  const message = 'cannot be removed: it is the primary applicant; only co-applicants and guarantors can be';
  return new ServiceError(ErrorCode.VALIDATION_FAILED, `applicant ${id} ${message}`, [{ field: 'applicant', message }]);
}
