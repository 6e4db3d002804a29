import { REASON_CODE_INFO, ScreeningReasonCode } from '@app/contracts';
import { Sentence, sentence } from './messages';

/**
 * Every reason code in plain language, as an adverse action notice lists the reasons of a
 * decline and as docs/screening.md documents them: one whole sentence each.
 */
export const REASON_CODE_MESSAGES = {
  income_below_minimum: 'Your household’s income is below the minimum the criteria set for this home.',
  income_not_stated: 'Not every applicant stated their income.',
  guarantor_income_not_stated: 'Your guarantor did not state their income.',
  occupancy_over_limit: 'More people would live in the home than the criteria allow for its size.',
  household_not_stated: 'Who would live in the home was not stated.',
  identity_number_required: 'The criteria for this home require an identification number that was not given.',
  identity_number_not_stated: 'It was not stated whether each applicant has a Social Security number or an ITIN.',
  document_missing: 'A document the criteria require was not uploaded.',
  rent_unknown: 'The rent of the home was not known.',
  bedrooms_unknown: 'The number of bedrooms of the home was not known.',
  income_not_verified: 'The income stated in the application could not be verified.',
  identity_not_verified: 'Your identity could not be verified.',
  information_inaccurate: 'Information given in the application was found to be inaccurate.',
  credit_history: 'Your credit history, as shown in a consumer report.',
  rental_history: 'Your rental history, as your past landlords described it.',
  eviction_history: 'Eviction records, as shown in a consumer report.',
  criminal_conviction: 'A criminal conviction, as shown in a consumer report.',
  arrest_record: 'An arrest record, as shown in a consumer report.',
  sex_offender_registry: 'Information on a sex offender registry.',
  source_of_income: 'The source of your income.',
  other: 'Another reason, explained in the note with this decision.',
} as const satisfies Record<ScreeningReasonCode, string>;

export function reasonCodeSentence(code: ScreeningReasonCode): Sentence {
  return sentence(REASON_CODE_MESSAGES, code);
}

/** The reasons an adverse action notice lists for a decline's codes, in the order given. */
export function adverseActionReasons(codes: readonly ScreeningReasonCode[]): Sentence[] {
  return codes.map(reasonCodeSentence);
}

/** True when a decline naming these codes rests on a consumer report, which calls for an adverse action notice. */
export function restsOnScreeningReport(codes: readonly ScreeningReasonCode[]): boolean {
  return codes.some((code) => REASON_CODE_INFO[code].origin === 'screening_report');
}
