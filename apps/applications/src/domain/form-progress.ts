import { FormStatus, SealedValue } from '@app/contracts';
import { ApplicantRecord, StoredConsent } from './application';
import { ERASED_FORM_FIELDS } from './erased-fields';

/**
 * How far one applicant got in the online form, keyed by the digest of its form token: the form
 * finds an applicant by its token, and the API by the applicant's stored digest. Kept beside the
 * application rather than inside it: a co-applicant added through the API rewrites the
 * application's applicants, which would otherwise drop a form step saved at the same moment.
 */
export interface ApplicantForm {
  /** The applicant's form_token_digest. */
  _id: string;
  application_id: number;
  applicant_id: number;
  form_status: FormStatus;
  form_started_at: Date | null;
  form_completed_at: Date | null;
  /** Contact details as the applicant gave them on step 1, over those stored at creation. */
  contact?: Pick<ApplicantRecord, 'first_name' | 'last_name' | 'email' | 'phone'> | null;
  /** The preset's answers, as JSON text: the keys are the preset's question ids. */
  form_answers?: string | null;
  signature?: string | null;
  /** Written by the completion's insert-once claim and copied here; nothing changes it afterwards. */
  consent?: StoredConsent | null;
  dob?: SealedValue | null;
  id_number?: SealedValue | null;
  drivers_license_number?: SealedValue | null;
  /** Each saved section (but the questions, in form_answers) as JSON text, by kind. */
  sections?: Record<string, string>;
  /** The steps saved so far: `details` and section kinds. */
  steps?: string[];
  updated_at: Date;
}

/**
 * What completing the form stores: everything of the last step, and the answers as they were
 * signed (contact, sections, identity), which the form record then shows.
 */
export type FormCompletionChanges = Pick<
  ApplicantForm,
  | 'form_status'
  | 'form_completed_at'
  | 'signature'
  | 'consent'
  | 'contact'
  | 'form_answers'
  | 'sections'
  | 'dob'
  | 'id_number'
  | 'drivers_license_number'
>;

/**
 * The applicant as the form left it: its progress and the details it gave over the stored ones,
 * and updated when either was last changed (a form step is a change of the applicant).
 */
export function withFormProgress(applicant: ApplicantRecord, saved: ApplicantForm | null): ApplicantRecord {
  if (!saved) return applicant;
  const form = applicant.personal_data_erased_at ? erasedForm(saved) : saved;
  const stored = applicant.updated_at ?? applicant.created_at;
  return {
    ...applicant,
    ...(form.contact ?? {}),
    form_status: form.form_status,
    form_started_at: form.form_started_at,
    form_completed_at: form.form_completed_at,
    form_answers: form.form_answers ?? null,
    consent: form.consent ?? null,
    form_sections: form.sections ?? null,
    form_steps: form.steps ?? [],
    dob: form.dob ?? applicant.dob,
    id_number: form.id_number ?? applicant.id_number,
    drivers_license_number: form.drivers_license_number ?? null,
    updated_at: stored && stored > form.updated_at ? stored : form.updated_at,
  };
}

/**
 * The form record as an erased applicant shows it: without what the erasure took, should a step
 * saved as the erasure ran have written it again (until the sweep erases that too).
 */
export function erasedForm(form: ApplicantForm): ApplicantForm {
  const kept: ApplicantForm = { ...form };
  for (const field of ERASED_FORM_FIELDS) delete kept[field];
  return kept;
}

/**
 * The form record with its completion's fields over it, every one of them: the completion is the
 * record of truth, as a step saved while the form completed may have written the record after it.
 */
export function withCompletion(form: ApplicantForm, completion: FormCompletionChanges | null): ApplicantForm {
  if (!completion) return form;
  const {
    _id: _digest,
    event_ids: _events,
    ...completed
  } = completion as FormCompletionChanges & {
    _id?: string;
    event_ids?: string[];
  };
  return { ...form, ...completed };
}
