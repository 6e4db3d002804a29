import { ApplicantChanges } from '@app/contracts';
import { ApplicantRecord } from './application';

/**
 * What one version of an application does to its applicants: exactly one of adding a
 * co-applicant (`applicant`, the shape claims have always had), replacing an applicant's record
 * by its corrected one, or removing an applicant.
 */
export interface ApplicantChange {
  applicant?: ApplicantRecord;
  updated_applicant?: ApplicantRecord;
  removed_applicant_id?: number;
}

/** The applicants after `change`; a change naming an applicant no longer there changes nothing. */
export function withApplicantChange(applicants: ApplicantRecord[], change: ApplicantChange): ApplicantRecord[] {
  if (change.applicant) return [...applicants, change.applicant];
  const updated = change.updated_applicant;
  if (updated) return applicants.map((applicant) => (applicant.id === updated.id ? updated : applicant));
  if (change.removed_applicant_id !== undefined) {
    return applicants.filter((applicant) => applicant.id !== change.removed_applicant_id);
  }
  return applicants;
}

/** The contact fields the online form also keeps (ApplicantForm.contact), which a correction must reach too. */
export const CONTACT_FIELDS = ['first_name', 'last_name', 'email', 'phone'] as const;

/**
 * The applicant with `changes` applied at `at`, or null when they change nothing: an edit that
 * changes nothing makes no version and no event.
 */
export function correctedApplicant(current: ApplicantRecord, changes: ApplicantChanges, at: Date): ApplicantRecord | null {
  const next: ApplicantRecord = { ...current };
  if (changes.first_name !== undefined) next.first_name = changes.first_name;
  if (changes.last_name !== undefined) next.last_name = changes.last_name;
  if (changes.email !== undefined) next.email = changes.email;
  if (changes.phone !== undefined) next.phone = changes.phone;
  if (changes.reference_id !== undefined) next.reference_id = changes.reference_id;
  if (changes.custom_data !== undefined)
    next.custom_data = changes.custom_data === null ? null : JSON.stringify(changes.custom_data);
  const fields = [...CONTACT_FIELDS, 'reference_id', 'custom_data'] as const;
  if (fields.every((field) => (next[field] ?? null) === (current[field] ?? null))) return null;
  next.updated_at = at;
  return next;
}
