import { ApplicantChange, withApplicantChange } from './applicant-change';
import { ApplicationFields, withChange } from './application-changes';
import { ApplicationRecord } from './application';

/**
 * What one version of an application changes, as its claim stores it: the co-applicant it added
 * (`applicant`), the applicant it corrected or removed, or the fields a PATCH, a decision, the
 * form's details or an erasure set.
 */
export interface ApplicationChangeClaim extends ApplicantChange {
  fields?: ApplicationFields;
}

/** The application with the change claimed as `version` at `at` folded in. */
export function withClaimedChange(
  application: ApplicationRecord,
  change: ApplicationChangeClaim,
  version: number,
  at: Date,
): ApplicationRecord {
  const applicants = withApplicantChange(application.applicants, change);
  return withChange({ ...application, applicants }, change.fields ?? {}, version, at);
}
