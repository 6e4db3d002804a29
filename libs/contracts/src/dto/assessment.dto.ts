import { ApiProperty } from '@nestjs/swagger';
import { FieldProblem } from '../errors';
import { FORM_DOCUMENT_KINDS, FormDocumentKind } from '../form-presets';
import {
  ASSESSMENT_RESULTS,
  AssessmentResult,
  ID_NUMBER_TYPES,
  IdNumberType,
  RULE_PACK_IDS,
  RulePackId,
  SCREENING_CRITERIA,
  SCREENING_REASON_CODES,
  ScreeningCriterion,
  ScreeningReasonCode,
} from '../screening';
import {
  CrossChecked,
  EnumField,
  EnumListField,
  IntegerField,
  NestedField,
  NestedListField,
  NumberField,
} from '../validation/fields';
import { APPLICANT_TYPES, ApplicantType, MAX_APPLICANTS, MAX_RENT } from './application.dto';
import { MAX_MONTHLY_AMOUNT, MAX_SECTION_ENTRIES } from './form-sections.dto';

/** Most bedrooms a hypothetical home may have: a typo guard. */
export const MAX_BEDROOMS = 50;

const INCOME_LIST = 'null (or left out): not stated yet, which an assessment reads as incomplete; [] states none.';

/** An amount of monthly income from work, as the employment section stores each job's. */
export class EmploymentIncomeInput {
  @NumberField({ required: true, min: 0, max: MAX_MONTHLY_AMOUNT })
  @ApiProperty({ description: 'Gross dollars a month.', example: 5200 })
  monthly_income: number;
}

/** An amount of other monthly income, as the employment section stores each source's. */
export class OtherIncomeAmountInput {
  @NumberField({ required: true, min: 0, max: MAX_MONTHLY_AMOUNT })
  @ApiProperty({ description: 'Dollars a month.', example: 400 })
  monthly_amount: number;
}

export class HousingVoucherInput {
  @NumberField({ required: true, min: 0, max: MAX_MONTHLY_AMOUNT })
  @ApiProperty({ description: 'What the voucher pays toward the rent, in dollars a month.', example: 1200 })
  monthly_amount: number;
}

export class MinorAgeInput {
  @IntegerField({ required: true, min: 0, max: 17 })
  @ApiProperty({ example: 7 })
  age: number;
}

/** An applicant of a hypothetical application: only what an assessment reads. */
export class HypotheticalApplicantInput {
  @EnumField(APPLICANT_TYPES, { required: true })
  @ApiProperty({ description: 'Exactly one applicant is primary.', example: 'primary' })
  type: ApplicantType;

  @NestedListField(() => EmploymentIncomeInput, { nullable: true, max: MAX_SECTION_ENTRIES })
  @ApiProperty({ description: `Income from each job. ${INCOME_LIST}` })
  employment?: EmploymentIncomeInput[] | null;

  @NestedListField(() => OtherIncomeAmountInput, { nullable: true, max: MAX_SECTION_ENTRIES })
  @ApiProperty({ description: `Other regular income, by source. ${INCOME_LIST}` })
  other_income?: OtherIncomeAmountInput[] | null;

  @EnumField(ID_NUMBER_TYPES, { nullable: true })
  @ApiProperty({
    description: 'The number the applicant has: a social security number, an ITIN, or none; null: not said yet.',
    example: 'ssn',
  })
  id_number_type?: IdNumberType | null;

  @EnumListField(FORM_DOCUMENT_KINDS, { nullable: true, max: FORM_DOCUMENT_KINDS.length })
  @ApiProperty({ description: 'The kinds of document uploaded; null or left out: none.', example: ['photo_id'] })
  documents?: FormDocumentKind[] | null;
}

/**
 * An application that is not stored: what an assessment of it would say. The rule packs apply by
 * the property's address; the rent and bedrooms are the floor plan's unless given.
 */
@CrossChecked<HypotheticalApplicationInput>((application) => {
  const applicants: unknown = application.applicants;
  if (!Array.isArray(applicants)) return [];
  const primaries = applicants.filter((applicant: { type?: unknown } | null) => applicant?.type === 'primary').length;
  return primaries === 1 ? [] : [{ field: 'applicants', message: 'must hold exactly one primary applicant' }];
})
export class HypotheticalApplicationInput {
  @IntegerField({ required: true, min: 1 })
  @ApiProperty({ description: 'A property of the caller’s: its address decides which rule packs apply.', example: 3 })
  property_id: number;

  @IntegerField({ nullable: true, min: 1 })
  @ApiProperty({ description: 'One of the property’s floor plans: its rent and bedrooms, unless given below.', example: 4 })
  floor_plan_id?: number | null;

  @NumberField({ nullable: true, min: 0, max: MAX_RENT })
  @ApiProperty({ description: 'The monthly rent to judge income against, in dollars.', example: 1850 })
  monthly_rent?: number | null;

  @NumberField({ nullable: true, min: 0, max: MAX_BEDROOMS })
  @ApiProperty({ description: 'Bedrooms of the home; 0 for a studio.', example: 2 })
  bedrooms?: number | null;

  @NestedField(() => HousingVoucherInput, { nullable: true })
  @ApiProperty({ description: 'A housing voucher, if the household has one.' })
  housing_voucher?: HousingVoucherInput | null;

  @NestedListField(() => MinorAgeInput, { nullable: true, max: MAX_SECTION_ENTRIES })
  @ApiProperty({ description: 'Children who will live there; null: the household is not stated yet, [] none.' })
  minors?: MinorAgeInput[] | null;

  @NestedListField(() => HypotheticalApplicantInput, { required: true, max: MAX_APPLICANTS })
  @ApiProperty({ description: 'The applicants and guarantors; checks name each by its position here, from 1.' })
  applicants: HypotheticalApplicantInput[];
}

/** `evaluation` inside POST /api/v2/screening_criteria/:id/evaluate: a stored application, or a hypothetical one. */
@CrossChecked<EvaluationInput>((evaluation) => {
  const given = [evaluation.application_id, evaluation.application].filter((value) => value !== undefined && value !== null);
  const problems: FieldProblem[] = [];
  if (given.length !== 1) problems.push({ field: 'application_id', message: 'or application must be given, and not both' });
  return problems;
})
export class EvaluationInput {
  @IntegerField({ nullable: true, min: 1 })
  @ApiProperty({ description: 'A stored application of the caller’s, assessed as it is now; nothing is stored.', example: 7 })
  application_id?: number | null;

  @NestedField(() => HypotheticalApplicationInput, { nullable: true })
  @ApiProperty({ description: 'A hypothetical application, assessed and forgotten.' })
  application?: HypotheticalApplicationInput | null;
}

export class EvaluateScreeningCriteriaRequest {
  @NestedField(() => EvaluationInput, { required: true })
  evaluation: EvaluationInput;
}

/** A rule of a jurisdiction's pack that changed how a check was judged. */
export class AssessmentRuleReference {
  @ApiProperty({ enum: RULE_PACK_IDS, example: 'us-ca' })
  pack_id: RulePackId;

  @ApiProperty({ example: 'voucher_income_on_tenant_share' })
  rule_id: string;

  @ApiProperty({ description: 'The pack’s version.', example: '1.0.0' })
  version: string;
}

export class AssessmentCheck {
  @ApiProperty({ enum: SCREENING_CRITERIA, example: 'income' })
  criterion: ScreeningCriterion;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'The applicant the check is about (identity, document); null for the household’s (income, occupancy). For a ' +
      'hypothetical application, the applicant’s position in `applicants`, from 1.',
    example: null,
  })
  applicant_id: number | null;

  @ApiProperty({ enum: ASSESSMENT_RESULTS, example: 'does_not_meet' })
  result: AssessmentResult;

  @ApiProperty({
    enum: SCREENING_REASON_CODES,
    nullable: true,
    description: 'Why it does not meet the criterion or is incomplete; null when it meets it.',
    example: 'income_below_minimum',
  })
  reason_code: ScreeningReasonCode | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The figures used: amounts in dollars a month, ratios, counts, document kinds.',
    example: { monthly_rent: 1850, minimum_ratio: 3, required_monthly_income: 5550, household_monthly_income: 4200 },
  })
  figures: Record<string, number | string | boolean | null | string[]>;

  @ApiProperty({
    description: 'One line an applicant can read.',
    example: 'Your household’s monthly income of $4,200 is below the minimum of $5,550 (3 times the rent of $1,850).',
  })
  explanation: string;

  @ApiProperty({ type: AssessmentRuleReference, nullable: true, description: 'The rule that changed how it was judged, if any.' })
  rule: AssessmentRuleReference | null;
}

export class AssessmentRulePack {
  @ApiProperty({ enum: RULE_PACK_IDS, example: 'us-federal' })
  id: RulePackId;

  @ApiProperty({ example: '1.0.0' })
  version: string;
}

export class AssessmentRepresentation {
  @ApiProperty({
    enum: ASSESSMENT_RESULTS,
    description: 'does_not_meet when any check does not meet its criterion; else incomplete when any is incomplete; else meets.',
    example: 'meets',
  })
  result: AssessmentResult;

  @ApiProperty({ type: 'integer', example: 1 })
  criteria_id: number;

  @ApiProperty({ type: 'integer', description: 'The version of the criteria set assessed against.', example: 2 })
  criteria_version: number;

  @ApiProperty({ type: [AssessmentRulePack], description: 'The rule packs that applied, by the property’s address.' })
  rule_packs: AssessmentRulePack[];

  @ApiProperty({ type: [AssessmentCheck] })
  checks: AssessmentCheck[];

  @ApiProperty({ description: 'ISO 8601, seconds precision, numeric offset.', example: '2026-11-22T14:03:09+00:00' })
  assessed_at: string;
}

export class EvaluationResponse {
  @ApiProperty({ type: AssessmentRepresentation, description: 'What the assessment says; nothing was stored.' })
  assessment: AssessmentRepresentation;
}
