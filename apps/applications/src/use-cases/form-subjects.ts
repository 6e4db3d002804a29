import { Injectable } from '@nestjs/common';
import { FormApplicant, FormPresetVersionRef, HouseholdSectionInput, ServiceError } from '@app/contracts';
import { linkToTrace } from '@app/observability';
import { ApplicantRecord, ApplicationRecord } from '../domain/application';
import { addedThroughForm, joining } from '../domain/form-added';
import { ApplicantForm, withFormProgress } from '../domain/form-progress';
import { alreadyCompleted, personalDataErased, refused } from '../domain/form-refusals';
import { ApplicantFormsRepository } from '../store/applicant-forms.repository';
import { ApplicationsRepository } from '../store/applications.repository';

/**
 * An applicant's form link as the service is given it: the digest of its token, and the
 * application the token names (the form checked the token's MAC before it asked).
 */
export interface FormLink {
  digest: string;
  applicationId: number | null;
}

/** An applicant found by its form token, with its application and its form record (if any). */
export interface FormSubject {
  digest: string;
  application: ApplicationRecord;
  applicant: ApplicantRecord;
  form: ApplicantForm | null;
  /** The preset version the application is filled with, null before the form resolved one. */
  preset: FormPresetVersionRef | null;
}

/** Finds the applicant a form link names, as the form's pages and uploads need it. */
@Injectable()
export class FormSubjects {
  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly forms: ApplicantFormsRepository,
  ) {}

  /**
   * Found by keys alone: the form record by the digest, else (an applicant that never opened its
   * form) the application the token names. A token that names none (issued before tokens named
   * their application) finds nothing: searching every application for it is what made a made-up
   * link cost seconds of database time.
   */
  async find({ digest, applicationId: named }: FormLink): Promise<FormSubject | null> {
    const form = await this.forms.find(digest);
    const applicationId = form?.application_id ?? named;
    if (applicationId === null || applicationId === undefined) return null;
    const [application, preset] = await Promise.all([
      this.applications.find(applicationId),
      this.forms.findPreset(applicationId),
    ]);
    const applicant = application?.applicants.find((candidate) => candidate.form_token_digest === digest);
    if (!application || !applicant) return null;
    linkToTrace(applicant.form_trace);
    return { digest, application, applicant: withFormProgress(applicant, form), form, preset };
  }

  /** The applicant the link names; a 404 when none. */
  async get(link: FormLink): Promise<FormSubject> {
    const subject = await this.find(link);
    if (!subject) throw ServiceError.notFound('applicant', 'for this form link');
    return subject;
  }

  /** Whether the form of the link's applicant is completed, as its claim says: a write checks it again once it is done. */
  isCompleted(link: FormLink): Promise<boolean> {
    return this.forms.isCompleted(link.digest);
  }

  /** The applicant to change, whose form is not completed yet, nor its personal data erased, nor withdrawn from it. */
  async open(link: FormLink): Promise<FormSubject> {
    const subject = await this.get(link);
    if (subject.form?.form_status === 'completed') throw alreadyCompleted();
    if (subject.application.personal_data_erased_at) throw personalDataErased();
    if (subject.applicant.withdrawn_at) throw refused('you withdrew from this application; the form takes no more answers');
    return subject;
  }
}

/** The applicant as the form shows it. */
export function formView({ application, applicant, form, preset }: FormSubject): FormApplicant {
  const current = withFormProgress(applicant, form);
  return {
    client_id: application.client_id,
    application_id: application.id,
    property_id: application.property_id,
    applicant_id: current.id,
    type: current.type,
    first_name: current.first_name,
    last_name: current.last_name,
    email: current.email,
    phone: current.phone ?? null,
    redirect_url: current.redirect_url ?? null,
    form_status: current.form_status ?? 'not_started',
    form_answers: current.form_answers ? (JSON.parse(current.form_answers) as Record<string, string>) : null,
    form_sections: Object.fromEntries(
      Object.entries(form?.sections ?? {}).map(([kind, json]) => [kind, JSON.parse(json) as unknown]),
    ),
    form_steps: form?.steps ?? [],
    floor_plan_id: application.floor_plan_id ?? null,
    desired_unit_description: application.desired_unit_description ?? null,
    desired_move_in: application.desired_move_in ?? null,
    form_preset: preset,
    joining: joining(application, current),
    added: addedThroughForm(application, current),
    withdrawn: application.decisions?.[0]?.status === 'withdrawn',
    applicant_withdrawn: Boolean(current.withdrawn_at),
  };
}

/** The ids a form record is stored with. */
export function formIds(subject: FormSubject): Pick<ApplicantForm, 'application_id' | 'applicant_id'> {
  return { application_id: subject.application.id, applicant_id: subject.applicant.id };
}

/** The household the primary applicant saved, if any. */
export function savedHousehold(form: ApplicantForm): HouseholdSectionInput | null {
  const json = form.sections?.household;
  return json ? (JSON.parse(json) as HouseholdSectionInput) : null;
}
