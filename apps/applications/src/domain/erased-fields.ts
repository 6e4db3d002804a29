import type { ApplicantRecord } from './application';

/**
 * What an erasure takes from an applicant, wherever a copy of it is kept: the sealed identity
 * fields (date of birth, SSN, driver's license number), the form's sections (identity, addresses,
 * employment and income, household, emergency contact) and the answers to the preset's
 * questions, which may ask for an address or an amount. What stays names who applied and what
 * was decided: the name and contact details, the form's progress and dates, the consent signed.
 */
export const ERASED_FORM_FIELDS = ['dob', 'id_number', 'drivers_license_number', 'sections', 'form_answers'] as const;

/** The applicant record without its personal data, marked with when it was erased. */
export function erasedApplicant(applicant: ApplicantRecord, erasedAt: Date): ApplicantRecord {
  const { form_sections: _sections, ...kept } = applicant;
  return {
    ...kept,
    dob: null,
    id_number: null,
    ...('drivers_license_number' in applicant ? { drivers_license_number: null } : {}),
    ...('form_answers' in applicant ? { form_answers: null } : {}),
    personal_data_erased_at: applicant.personal_data_erased_at ?? erasedAt,
  };
}

/** Whether a stored copy of an applicant still holds any of what an erasure takes. */
export function holdsPersonalData(applicant: ApplicantRecord): boolean {
  return Boolean(applicant.dob || applicant.id_number || applicant.drivers_license_number || applicant.form_answers);
}
