import { AddedApplicantType, FormAddedPerson, FormJoining } from '@app/contracts';
import { ApplicantRecord, ApplicationRecord } from './application';

/**
 * How an applicant that another applicant's form listed is keyed: by who listed it, as what, and
 * where in the list. A repeated submission of that form finds the key and adds nobody twice, and
 * the key says afterwards who added whom.
 */
export function formAddedKey(listedBy: number, type: AddedApplicantType, index: number): string {
  return `form:${listedBy}:${type}:${index}`;
}

/** How the request key of an application that step 1 of the form created starts. */
export const FORM_STARTED_KEY_PREFIX = 'form:';

/** Whether a visitor started `application` on the public form, rather than an integrator through the API. */
export function startedOnPublicForm(application: Pick<ApplicationRecord, 'request_key'>): boolean {
  return (application.request_key ?? '').startsWith(FORM_STARTED_KEY_PREFIX);
}

const FORM_ADDED_KEY = /^form:(\d+):(co_applicant|guarantor):\d+$/;

/** The id of the applicant whose form listed `applicant`; null for one added otherwise. */
function listedBy(applicant: ApplicantRecord): number | null {
  const match = FORM_ADDED_KEY.exec(applicant.request_key ?? '');
  return match ? Number(match[1]) : null;
}

function fullName(applicant: ApplicantRecord): string {
  return `${applicant.first_name} ${applicant.last_name}`;
}

/** The full name of the applicant whose form listed `applicant`; null for one added otherwise. */
export function addedBy(application: ApplicationRecord, applicant: ApplicantRecord): string | null {
  const id = listedBy(applicant);
  const lister = id === null ? undefined : application.applicants.find((candidate) => candidate.id === id);
  return lister ? fullName(lister) : null;
}

/**
 * Whether the address `shown` (the applicant as its form left it) was typed on the public form,
 * by the applicant or by the one who named it, rather than given by the integrator: the primary
 * applicant of an application the form started, one the form named, or one that changed the
 * integrator's address on the form.
 */
export function emailTypedOnForm(application: ApplicationRecord, applicant: ApplicantRecord, shown: ApplicantRecord): boolean {
  if (listedBy(applicant) !== null) return true;
  if (applicant.type === 'primary' && startedOnPublicForm(application)) return true;
  return shown.email.trim().toLowerCase() !== applicant.email.trim().toLowerCase();
}

/** For one the form named: the address of the applicant whose form named it; null otherwise. */
export function addedByEmail(application: ApplicationRecord, applicant: ApplicantRecord): string | null {
  const id = listedBy(applicant);
  return (id === null ? undefined : application.applicants.find((candidate) => candidate.id === id))?.email ?? null;
}

/** For a co-applicant or guarantor: whose application it joins, and how it came to; null for the primary. */
export function joining(application: ApplicationRecord, applicant: ApplicantRecord): FormJoining | null {
  if (applicant.type === 'primary') return null;
  const primary = application.applicants.find((candidate) => candidate.type === 'primary');
  if (!primary) return null;
  return { primary_name: fullName(primary), listed_by_primary: listedBy(applicant) === primary.id };
}

/** The people `applicant`'s form listed, as added to the application, in the order listed. */
export function addedThroughForm(application: ApplicationRecord, applicant: ApplicantRecord): FormAddedPerson[] {
  return application.applicants
    .filter((candidate) => candidate.type !== 'primary' && listedBy(candidate) === applicant.id)
    .map((candidate) => ({ name: fullName(candidate), type: candidate.type as AddedApplicantType }));
}
