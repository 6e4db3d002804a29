import { ApplicantType, FormDocumentKind, IdNumberType } from '@app/contracts';

/**
 * What an assessment reads of an application, as plain data the applications service fills from
 * what it stores (or the evaluate request from a hypothetical application). The names are those of
 * the form's sections: an employment section's `employment` and `other_income` fit as they are.
 */
export interface ApplicationFacts {
  /**
   * The rent judged: the chosen floor plan's rent, else the rent the caller specified
   * (income-to-rent's judgedRent); null when neither is known.
   */
  monthly_rent: number | null;
  /** Bedrooms of the chosen floor plan, 0 for a studio; null when not known. */
  bedrooms: number | null;
  /** The household's housing voucher, if it has one. */
  housing_voucher: { monthly_amount: number } | null;
  /** Children who will live there (the household section's minors); null until that section is saved. */
  minors: ReadonlyArray<{ age: number }> | null;
  /** Every applicant, the primary one first, guarantors included. */
  applicants: readonly ApplicantFacts[];
}

export interface ApplicantFacts {
  id: number;
  type: ApplicantType;
  /** The employment section's jobs; null until that section is saved. */
  employment: ReadonlyArray<{ monthly_income: number }> | null;
  /** The employment section's other incomes; null until that section is saved. */
  other_income: ReadonlyArray<{ monthly_amount: number }> | null;
  /** Whether the applicant has a social security number, an ITIN or neither; null until said. */
  id_number_type: IdNumberType | null;
  /** The kinds of the documents the applicant uploaded. */
  documents: readonly FormDocumentKind[];
}

/** The primary applicant and the co-applicants: those who will live in the home. */
export function householdApplicants(facts: ApplicationFacts): ApplicantFacts[] {
  return facts.applicants.filter((applicant) => applicant.type !== 'guarantor');
}

export function guarantors(facts: ApplicationFacts): ApplicantFacts[] {
  return facts.applicants.filter((applicant) => applicant.type === 'guarantor');
}

/** Dollars to the cent, so that sums of entered amounts compare as people expect. */
export function roundCents(amount: number): number {
  return Math.round(amount * 100) / 100;
}
