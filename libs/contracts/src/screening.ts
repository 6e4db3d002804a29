import { DECLINE_REASONS, DeclineReason } from './dto/decision.dto';

/**
 * The names screening shares between the API, the services and libs/screening (which assesses
 * applications against published criteria and holds the jurisdictions' rule packs): what a
 * criteria set may ask, what an assessment says, and the reason codes a check or a decline gives.
 * docs/screening.md explains each.
 */

/** What one check of an assessment is about: one check per criterion (per applicant where it is theirs). */
export const SCREENING_CRITERIA = ['income', 'occupancy', 'identity', 'document'] as const;
export type ScreeningCriterion = (typeof SCREENING_CRITERIA)[number];

/** An assessment's result, and each check's. */
export const ASSESSMENT_RESULTS = ['meets', 'does_not_meet', 'incomplete'] as const;
export type AssessmentResult = (typeof ASSESSMENT_RESULTS)[number];

/** What identification number an applicant has: a social security number, an ITIN, or neither. */
export const ID_NUMBER_TYPES = ['ssn', 'itin', 'none'] as const;
export type IdNumberType = (typeof ID_NUMBER_TYPES)[number];

/** Whom a required document is asked of: every applicant and guarantor, or the primary applicant alone. */
export const REQUIRED_DOCUMENT_FROM = ['every_applicant', 'primary_applicant'] as const;
export type RequiredDocumentFrom = (typeof REQUIRED_DOCUMENT_FROM)[number];

/**
 * What a criteria set says the landlord looks at in a screening report (a consumer report):
 * published with the criteria, never assessed here, since the report is not ours to read.
 */
export const SCREENING_REPORT_KINDS = ['credit_history', 'rental_history', 'eviction_history', 'criminal_history'] as const;
export type ScreeningReportKind = (typeof SCREENING_REPORT_KINDS)[number];

/** The rule packs, one per jurisdiction (libs/screening/src/packs): their ids never change. */
export const RULE_PACK_IDS = ['us-federal', 'us-wa', 'us-wa-seattle', 'us-ca', 'us-il-cook-county', 'us-ny-nyc'] as const;
export type RulePackId = (typeof RULE_PACK_IDS)[number];

/**
 * Every reason code. The first group is what an assessment finds; the rest is what only the
 * landlord can find out (the screening report, verification), named by a decline. Codes are
 * added, never renamed or removed: integrators store them.
 */
export const SCREENING_REASON_CODES = [
  'income_below_minimum',
  'income_not_stated',
  'guarantor_income_not_stated',
  'occupancy_over_limit',
  'household_not_stated',
  'identity_number_required',
  'identity_number_not_stated',
  'document_missing',
  'rent_unknown',
  'bedrooms_unknown',
  'income_not_verified',
  'identity_not_verified',
  'information_inaccurate',
  'credit_history',
  'rental_history',
  'eviction_history',
  'criminal_conviction',
  'arrest_record',
  'sex_offender_registry',
  'source_of_income',
  'other',
] as const;
export type ScreeningReasonCode = (typeof SCREENING_REASON_CODES)[number];

/**
 * Where a reason comes from: an assessment against the criteria, a screening report (a consumer
 * report, whose use in a decline calls for an adverse action notice), or the landlord's own
 * verification and judgement.
 */
export const REASON_CODE_ORIGINS = ['assessment', 'screening_report', 'landlord'] as const;
export type ReasonCodeOrigin = (typeof REASON_CODE_ORIGINS)[number];

/**
 * What each reason code is: where it comes from, whether a decline may name it (the unit's own
 * missing rent or bedrooms are never the applicant's doing), and the older decline reason it
 * falls under, which a decision's `reasons` keeps for the consumers that read only those.
 */
export const REASON_CODE_INFO = {
  income_below_minimum: { origin: 'assessment', declinable: true, decline_reason: 'income' },
  income_not_stated: { origin: 'assessment', declinable: true, decline_reason: 'incomplete' },
  guarantor_income_not_stated: { origin: 'assessment', declinable: true, decline_reason: 'incomplete' },
  occupancy_over_limit: { origin: 'assessment', declinable: true, decline_reason: 'other' },
  household_not_stated: { origin: 'assessment', declinable: true, decline_reason: 'incomplete' },
  identity_number_required: { origin: 'assessment', declinable: true, decline_reason: 'other' },
  identity_number_not_stated: { origin: 'assessment', declinable: true, decline_reason: 'incomplete' },
  document_missing: { origin: 'assessment', declinable: true, decline_reason: 'incomplete' },
  rent_unknown: { origin: 'assessment', declinable: false, decline_reason: 'other' },
  bedrooms_unknown: { origin: 'assessment', declinable: false, decline_reason: 'other' },
  income_not_verified: { origin: 'landlord', declinable: true, decline_reason: 'income' },
  identity_not_verified: { origin: 'landlord', declinable: true, decline_reason: 'other' },
  information_inaccurate: { origin: 'landlord', declinable: true, decline_reason: 'other' },
  credit_history: { origin: 'screening_report', declinable: true, decline_reason: 'screening_report' },
  rental_history: { origin: 'landlord', declinable: true, decline_reason: 'rental_history' },
  eviction_history: { origin: 'screening_report', declinable: true, decline_reason: 'screening_report' },
  criminal_conviction: { origin: 'screening_report', declinable: true, decline_reason: 'screening_report' },
  arrest_record: { origin: 'screening_report', declinable: true, decline_reason: 'screening_report' },
  sex_offender_registry: { origin: 'screening_report', declinable: true, decline_reason: 'screening_report' },
  source_of_income: { origin: 'landlord', declinable: true, decline_reason: 'other' },
  other: { origin: 'landlord', declinable: true, decline_reason: 'other' },
} as const satisfies Record<
  ScreeningReasonCode,
  { origin: ReasonCodeOrigin; declinable: boolean; decline_reason: DeclineReason }
>;

/** The codes a decline may name. */
export const DECLINABLE_REASON_CODES = SCREENING_REASON_CODES.filter((code) => REASON_CODE_INFO[code].declinable);

/** The older decline reasons that `codes` fall under, each once, in DECLINE_REASONS order. */
export function declineReasonsOf(codes: readonly ScreeningReasonCode[]): DeclineReason[] {
  const reasons = new Set<DeclineReason>(codes.map((code) => REASON_CODE_INFO[code].decline_reason));
  return DECLINE_REASONS.filter((reason) => reasons.has(reason));
}
