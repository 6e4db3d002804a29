import { AssessmentResult, RulePackId, ScreeningCriterion, ScreeningReasonCode } from '@app/contracts';
import { Sentence } from '../messages';
import { AppliedRule } from '../packs/types';

/** The figures a check used: dollars a month, ratios, counts, document kinds. */
export type Figures = Record<string, number | string | boolean | null | string[]>;

/** A rule of a pack, as an assessment or a refused decline names it. */
export interface RuleReference {
  pack_id: RulePackId;
  rule_id: string;
  version: string;
}

/** One check of an assessment: one criterion, for the household or for one applicant. */
export interface AssessmentCheck {
  criterion: ScreeningCriterion;
  /** The applicant the check is about; null for the household's (income, occupancy). */
  applicant_id: number | null;
  result: AssessmentResult;
  /** Null when the check meets its criterion. */
  reason_code: ScreeningReasonCode | null;
  figures: Figures;
  /** One line an applicant can read, with its message id and values for a translation. */
  explanation: Sentence;
  /** The rule that changed how the check was judged, if any. */
  rule: RuleReference | null;
}

export function ruleReference(rule: AppliedRule): RuleReference {
  return { pack_id: rule.pack_id, rule_id: rule.id, version: rule.pack_version };
}

/** A check's result from its reason code: none meets, an incomplete kind is incomplete, any other does not meet. */
export function resultOf(code: ScreeningReasonCode | null): AssessmentResult {
  if (code === null) return 'meets';
  return INCOMPLETE_CODES.has(code) ? 'incomplete' : 'does_not_meet';
}

/** What an application does not yet say (or its home does not): more information may still meet the criterion. */
const INCOMPLETE_CODES = new Set<ScreeningReasonCode>([
  'income_not_stated',
  'guarantor_income_not_stated',
  'household_not_stated',
  'identity_number_not_stated',
  'document_missing',
  'rent_unknown',
  'bedrooms_unknown',
]);
