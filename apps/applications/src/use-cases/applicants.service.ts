import { Injectable } from '@nestjs/common';
import { ApplicantSealer, SEALED_APPLICANT_FIELDS, SealedApplicantField } from '@app/crypto';
import {
  ApplicantChanges,
  ApplicantRepresentation,
  ErrorCode,
  ifMatchHolds,
  SealedSensitiveApplicant,
  SensitiveReader,
  ServiceError,
} from '@app/contracts';
import { ApplicantRecord, ApplicationRecord } from '../domain/application';
import { CONTACT_FIELDS, correctedApplicant } from '../domain/applicant-change';
import { applicantEventData } from '../domain/applicant-event';
import { ApplicantForm, withFormProgress } from '../domain/form-progress';
import { ApplicantFormsRepository } from '../store/applicant-forms.repository';
import { ApplicationDecision, ApplicationsRepository } from '../store/applications.repository';
import { AuditEventsRepository } from '../store/audit-events.repository';
import { ApplicantFiles } from './applicant-files';
import { ApplicationViews } from './application-views';

/** An applicant as the caller sees it, with its application and its form record. */
interface Current {
  application: ApplicationRecord;
  /** As stored, without what the form added. */
  stored: ApplicantRecord;
  form: ApplicantForm | null;
  representation: ApplicantRepresentation;
}

/**
 * Corrections and removals of applicants, and reads of their sensitive data. A change is the
 * application's next version, as adding a co-applicant is (ApplicationsRepository.change).
 */
@Injectable()
export class ApplicantsService {
  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly forms: ApplicantFormsRepository,
    private readonly views: ApplicationViews,
    private readonly sealer: ApplicantSealer,
    private readonly audit: AuditEventsRepository,
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
    const { stored, form, representation } = await this.current(await this.applications.findOwned(clientId, applicationId), id);
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
      if (!next) return { change: null, answer: () => representation };
      const contact = Object.fromEntries(CONTACT_FIELDS.map((field) => [field, next[field] ?? null])) as ApplicantForm['contact'];
      const corrected = form?.contact ? { ...form, contact } : form;
      return {
        change: { updated_applicant: next },
        events: [{ event: 'applicant.updated', data: applicantEventData(application.id, application.property_id, next) }],
        after: async () => {
          if (corrected !== form)
            await this.forms.save(form!._id, { application_id: application.id, applicant_id: id }, { contact });
        },
        answer: (changed) => this.views.applicant(changed, next, corrected),
      };
    });
  }

  /**
   * Removes a co-applicant or guarantor; its form link stops working, and what its form kept goes
   * with it: the form's record (its identity numbers, sections and answers) and its documents,
   * files included. Never the primary applicant.
   */
  remove(clientId: number, applicationId: number, id: number, ifMatch?: string) {
    return this.change(clientId, applicationId, id, ifMatch, ({ application, stored, representation }) => {
      if (stored.type === 'primary') throw primaryNotRemovable(id);
      return {
        change: { removed_applicant_id: id },
        events: [{ event: 'applicant.removed', data: applicantEventData(application.id, application.property_id, stored) }],
        after: async () => {
          if (stored.form_token_digest) await this.forms.erase(stored.form_token_digest);
          await this.files.removeAll({ applicationId, applicantId: id });
        },
        answer: () => representation,
      };
    });
  }

  private change(
    clientId: number,
    applicationId: number,
    id: number,
    ifMatch: string | undefined,
    decide: (current: Current) => ApplicationDecision<ApplicantRepresentation>,
  ): Promise<ApplicantRepresentation> {
    return this.applications.change(clientId, applicationId, async (application) => {
      const current = await this.current(application, id);
      if (!ifMatchHolds(ifMatch, current.representation)) throw ServiceError.preconditionFailed();
      return decide(current);
    });
  }

  private async current(application: ApplicationRecord, id: number): Promise<Current> {
    const stored = application.applicants.find((candidate) => candidate.id === id);
    if (!stored) throw ServiceError.notFound('applicant', id);
    const form = await this.views.formOf(stored);
    return { application, stored, form, representation: this.views.applicant(application, stored, form) };
  }
}

function primaryNotRemovable(id: number): ServiceError {
  const message = 'cannot be removed: it is the primary applicant; only co-applicants and guarantors can be';
  return new ServiceError(ErrorCode.VALIDATION_FAILED, `applicant ${id} ${message}`, [{ field: 'applicant', message }]);
}
