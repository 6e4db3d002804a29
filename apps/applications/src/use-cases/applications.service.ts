import { Injectable } from '@nestjs/common';
import { ApplicantSealer } from '@app/crypto';
import { CreateScope, Idempotency } from '@app/persistence';
import {
  AddedApplicantInput,
  AddedApplicantType,
  ApplicantInput,
  ApplicantRepresentation,
  ApplicantType,
  ApplicationInput,
  ApplicationRepresentation,
  ErrorCode,
  MAX_APPLICANTS,
  ServiceError,
} from '@app/contracts';
import { PropertiesClient } from '../clients/properties.client';
import { ApplicantRecord, ApplicationRecord } from '../domain/application';
import { applicantEventData } from '../domain/applicant-event';
import { FORM_STARTED_KEY_PREFIX } from '../domain/form-added';
import { ApplicationsRepository, PropertyFenced } from '../store/applications.repository';
import { ApplicationViews } from './application-views';
import { FormTokens } from './form-tokens';

/** Tries at storing a new application, each after finding another try's being removed. */
const MAX_STORE_ATTEMPTS = 3;

type Scope = Omit<CreateScope, 'clientId' | 'body'>;

/** Creating applications, and adding co-applicants and guarantors to them. */
@Injectable()
export class ApplicationsService {
  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly views: ApplicationViews,
    private readonly properties: PropertiesClient,
    private readonly idempotency: Idempotency,
    private readonly sealer: ApplicantSealer,
    private readonly formTokens: FormTokens,
  ) {}

  /** Creates the application and its primary applicant, for a live property the client owns; once per request. */
  create(clientId: number, input: ApplicationInput, scope: Scope): Promise<ApplicationRepresentation> {
    return this.idempotency.run({ ...scope, clientId, body: input }, async (requestKey, resumed) => {
      const { application, fresh } = await this.store(clientId, input, requestKey, resumed);
      // No form can have been opened for an application this very request created.
      return this.views.represent(application, undefined, fresh ? application.applicants : undefined);
    });
  }

  /**
   * An application and its primary applicant started on the online form: no Idempotency-Key
   * there, each submission of step 1 (`submission`, its CSRF token's nonce) is a request of its
   * own, and doing one again (its first try died) finds the application that try stored.
   */
  async createFromForm(clientId: number, input: ApplicationInput, submission: string): Promise<ApplicationRecord> {
    return (await this.store(clientId, input, `${FORM_STARTED_KEY_PREFIX}${submission}`, true)).application;
  }

  /** Adds a co-applicant to the client's application; once per request, and never losing a concurrent add. */
  addApplicant(
    clientId: number,
    applicationId: number,
    input: AddedApplicantInput,
    scope: Scope,
  ): Promise<ApplicantRepresentation> {
    const body = { application_id: applicationId, applicant: input };
    const { type, ...applicant } = input;
    return this.idempotency.run({ ...scope, clientId, body }, (requestKey) =>
      this.storeApplicant(clientId, applicationId, applicant, type ?? 'co_applicant', requestKey),
    );
  }

  /** The client's property was deleted: no application is created for it from now on. */
  fenceProperty(clientId: number, propertyId: number): Promise<void> {
    return this.applications.fenceProperty(clientId, propertyId);
  }

  /** A co-applicant or guarantor named on the form; `requestKey` makes a repeated submission add it once. */
  async addApplicantFromForm(
    clientId: number,
    applicationId: number,
    input: ApplicantInput,
    type: AddedApplicantType,
    requestKey: string,
  ): Promise<void> {
    // Whoever the form names is always e-mailed their own link: nobody else would give it to them.
    await this.storeApplicant(clientId, applicationId, { ...input, send_email: true }, type, requestKey);
  }

  /**
   * Stores the application unless its property is gone. A try that resumes an unfinished one first
   * looks for what that one stored: its property may have been deleted since, and what was stored
   * while the property was live stays the answer.
   */
  private async store(
    clientId: number,
    input: ApplicationInput,
    requestKey: string,
    resumed: boolean,
  ): Promise<{ application: ApplicationRecord; fresh: boolean }> {
    const earlier = resumed ? await this.applications.resumeCreation(requestKey) : null;
    if (earlier) return { application: earlier, fresh: false };
    for (let attempt = 0; attempt < MAX_STORE_ATTEMPTS; attempt++) {
      // The ids are claimed while the property is looked up rather than after it. A refused create
      // then leaves a gap in the ids, which are promised to increase, not to be dense.
      const [property, ids] = await Promise.all([
        this.properties.lookup(clientId, input.property_id),
        this.applications.newIds(),
      ]);
      if (!property) throw ServiceError.propertyIdInvalid();
      const now = new Date();
      const primary = this.newApplicant(clientId, ids.applicationId, ids.applicantId, 'primary', input.applicant, now);
      const record: ApplicationRecord = {
        id: ids.applicationId,
        client_id: clientId,
        property_id: property.id,
        property_name: property.name,
        assigned_user_id: input.assigned_user_id ?? null,
        user_specified_rent: input.user_specified_rent ?? null,
        desired_move_in: input.desired_move_in ?? null,
        applicants: [primary],
        version: 0,
        created_at: now,
        updated_at: now,
        request_key: requestKey,
      };
      let stored: ApplicationRecord | null;
      try {
        stored = await this.applications.create(record, [
          { event: 'application.created', data: { application_id: record.id, property_id: property.id } },
          { event: 'applicant.created', data: applicantEventData(record.id, property.id, primary) },
        ]);
      } catch (error) {
        if (error instanceof PropertyFenced) throw ServiceError.propertyIdInvalid();
        throw error;
      }
      if (stored) return { application: stored, fresh: stored.id === record.id };
    }
    throw ServiceError.unavailable('another try of this request is storing its application; retry later');
  }

  private async storeApplicant(
    clientId: number,
    applicationId: number,
    input: AddedApplicantInput,
    type: AddedApplicantType,
    requestKey: string,
  ): Promise<ApplicantRepresentation> {
    let applicantId: number | undefined;
    return this.applications.change(clientId, applicationId, async (application) => {
      const added = application.applicants.find((applicant) => applicant.request_key === requestKey);
      if (added) return { change: null, answer: () => this.views.applicant(application, added) };
      if (application.personal_data_erased_at) throw personalDataErased(applicationId);
      if (application.applicants.length >= MAX_APPLICANTS) throw tooManyApplicants();
      applicantId ??= await this.applications.newApplicantId();
      const applicant: ApplicantRecord = {
        ...this.newApplicant(clientId, applicationId, applicantId, type, input, new Date()),
        request_key: requestKey,
        ...(input.send_email === true ? { send_email: true } : {}),
      };
      return {
        change: { applicant },
        events: [{ event: 'applicant.created', data: applicantEventData(application.id, application.property_id, applicant) }],
        answer: (changed) => this.views.applicant(changed, applicant),
      };
    });
  }

  private newApplicant(
    clientId: number,
    applicationId: number,
    id: number,
    type: ApplicantType,
    input: ApplicantInput,
    now: Date,
  ): ApplicantRecord {
    const owner = { clientId, applicantId: id };
    return {
      id,
      type,
      first_name: input.first_name,
      last_name: input.last_name,
      email: input.email,
      dob: input.dob ? this.sealer.sealField('dob', input.dob, owner) : null,
      id_number: input.id_number ? this.sealer.sealField('id_number', input.id_number, owner) : null,
      phone: input.phone ?? null,
      custom_data: input.custom_data ? JSON.stringify(input.custom_data) : null,
      reference_id: input.reference_id ?? null,
      redirect_url: input.redirect_url ?? null,
      ...this.formTokens.issue(clientId, applicationId, id),
      form_status: 'not_started',
      form_started_at: null,
      form_completed_at: null,
      created_at: now,
      updated_at: now,
    };
  }
}

/** An applicant added to an application erased would bring back what the erasure took. */
function personalDataErased(id: number): ServiceError {
  return ServiceError.conflict(`the personal data of application ${id} was erased; no applicant can be added to it`);
}

function tooManyApplicants(): ServiceError {
  const message = `cannot be added: an application has at most ${MAX_APPLICANTS} applicants`;
  return new ServiceError(ErrorCode.VALIDATION_FAILED, `applicant ${message}`, [{ field: 'applicant', message }]);
}
