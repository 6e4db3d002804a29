import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { FieldProblem } from '../errors';
import { FORM_DOCUMENT_KINDS, FormDocumentKind } from '../form-presets';
import { REQUIRED_DOCUMENT_FROM, RequiredDocumentFrom, SCREENING_REPORT_KINDS, ScreeningReportKind } from '../screening';
import {
  BooleanField,
  CrossChecked,
  EnumField,
  EnumListField,
  IntegerField,
  isPlainObject,
  NestedField,
  NestedListField,
  NumberField,
  StringField,
} from '../validation/fields';

/**
 * A client's screening criteria set (`/api/v2/screening_criteria`): what an applicant must show,
 * published before anyone applies and assessed on every application to a property that names the
 * set. Versioned as form presets are: a change is the set's next version, and an application is
 * assessed against the version its property named when it was submitted.
 */

export const SCREENING_CRITERIA_LIMITS = {
  name: 255,
  /** Income to rent: at least 1 (the rent itself), at most 10 times it. */
  minRatio: 1,
  maxRatio: 10,
  maxGuarantorRatio: 20,
  /** Persons per bedroom: 1 to 4. */
  minPersonsPerBedroom: 1,
  maxPersonsPerBedroom: 4,
  /** The age under which children are not counted as occupants: 1 to 17. */
  minChildAge: 1,
  maxChildAge: 17,
  documents: FORM_DOCUMENT_KINDS.length,
} as const;

/**
 * What a new criteria set holds for each part its creator leaves out. Occupancy defaults to two
 * persons per bedroom: the general rule HUD holds reasonable under the Fair Housing Act (the
 * Keating Memorandum of 1991, published as HUD's statement of policy at 63 FR 70256, December 18,
 * 1998: https://www.govinfo.gov/content/pkg/FR-1998-12-18/html/98-33568.htm), which the federal
 * rule pack names.
 */
export const SCREENING_CRITERIA_DEFAULTS = {
  income: null,
  guarantor: null,
  occupancy: { persons_per_bedroom: 2, children_under_age_not_counted: null },
  required_documents: [],
  identity: { accepts_itin: true, accepts_other_evidence: true, other_evidence: ['photo_id', 'proof_of_income'] },
  screening_report: [],
} as const;

/** What counts as income; each true when left out. */
export class IncomeCountsInput {
  @BooleanField()
  @ApiProperty({ description: 'Wages and salaries (the employment section of the form).', default: true, example: true })
  employment?: boolean;

  @BooleanField()
  @ApiProperty({
    description: 'Other regular income: benefits, child support, a pension... (other_income in the form).',
    default: true,
    example: true,
  })
  other_income?: boolean;

  @BooleanField()
  @ApiProperty({
    description:
      'A housing voucher’s share of the rent: when true, income is compared with the rent minus what the voucher pays. ' +
      'Where a rule pack requires it (California, Washington), it is true whatever is set.',
    default: true,
    example: true,
  })
  housing_voucher?: boolean;
}

@CrossChecked<IncomeCriterionInput>((income) => {
  const counts: unknown = income.counts;
  return isPlainObject(counts) && counts.employment === false && counts.other_income === false
    ? [{ field: 'counts', message: 'must count employment or other_income: no income would count' }]
    : [];
})
export class IncomeCriterionInput {
  @NumberField({ required: true, min: SCREENING_CRITERIA_LIMITS.minRatio, max: SCREENING_CRITERIA_LIMITS.maxRatio })
  @ApiProperty({
    description:
      'The household’s monthly income must be at least this many times the monthly rent (or the tenant’s share of it).',
    example: 3,
  })
  minimum_ratio: number;

  @NestedField(() => IncomeCountsInput)
  @ApiProperty({ description: 'What counts as income; everything counts when left out.' })
  counts?: IncomeCountsInput;
}

export class GuarantorCriterionInput {
  @NumberField({ required: true, min: SCREENING_CRITERIA_LIMITS.minRatio, max: SCREENING_CRITERIA_LIMITS.maxGuarantorRatio })
  @ApiProperty({
    description:
      'A guarantor or co-signer (an applicant of type guarantor) qualifies the household instead when the guarantors’ ' +
      'monthly income, counted as the household’s is, is at least this many times the rent (or the tenant’s share).',
    example: 5,
  })
  minimum_ratio: number;
}

export class OccupancyCriterionInput {
  @IntegerField({ min: SCREENING_CRITERIA_LIMITS.minPersonsPerBedroom, max: SCREENING_CRITERIA_LIMITS.maxPersonsPerBedroom })
  @ApiProperty({
    description:
      'Most people who may live in the home per bedroom (a studio counts as one); 2 when left out, the federal baseline.',
    default: SCREENING_CRITERIA_DEFAULTS.occupancy.persons_per_bedroom,
    example: 2,
  })
  persons_per_bedroom?: number;

  @IntegerField({ nullable: true, min: SCREENING_CRITERIA_LIMITS.minChildAge, max: SCREENING_CRITERIA_LIMITS.maxChildAge })
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Children younger than this are not counted (an infant sharing the parents’ room); null counts everyone.',
    default: null,
    example: 2,
  })
  children_under_age_not_counted?: number | null;
}

export class RequiredDocumentInput {
  @EnumField(FORM_DOCUMENT_KINDS, { required: true })
  @ApiProperty({ example: 'proof_of_income' })
  kind: FormDocumentKind;

  @EnumField(REQUIRED_DOCUMENT_FROM)
  @ApiProperty({
    description: 'every_applicant: each applicant and guarantor uploads one; primary_applicant: the primary applicant alone.',
    default: 'every_applicant',
    example: 'every_applicant',
  })
  from?: RequiredDocumentFrom;
}

/** What an applicant without a social security number can apply with. */
@CrossChecked<IdentityCriterionInput>((identity) =>
  identity.accepts_other_evidence === false && identity.other_evidence !== undefined && identity.other_evidence !== null
    ? [{ field: 'other_evidence', message: 'is only for accepts_other_evidence true' }]
    : [],
)
export class IdentityCriterionInput {
  @BooleanField()
  @ApiProperty({ description: 'An ITIN is accepted in place of a social security number.', default: true, example: true })
  accepts_itin?: boolean;

  @BooleanField()
  @ApiProperty({
    description: 'An applicant with neither number may apply with the documents of other_evidence instead.',
    default: true,
    example: true,
  })
  accepts_other_evidence?: boolean;

  @EnumListField(FORM_DOCUMENT_KINDS, { nullable: true, max: FORM_DOCUMENT_KINDS.length })
  @ApiProperty({
    description: 'The documents an applicant with neither number uploads instead; photo_id and proof_of_income when left out.',
    example: ['photo_id', 'proof_of_income'],
  })
  other_evidence?: FormDocumentKind[] | null;
}

/** Each document kind asked once. */
function documentProblems(criteria: { required_documents?: unknown }): FieldProblem[] {
  const documents = Array.isArray(criteria.required_documents) ? criteria.required_documents : [];
  const seen = new Set<unknown>();
  const problems: FieldProblem[] = [];
  documents.forEach((document: unknown, index) => {
    const kind = isPlainObject(document) ? document.kind : undefined;
    if (kind !== undefined && seen.has(kind))
      problems.push({ field: `required_documents.${index}.kind`, message: 'must not repeat an earlier document' });
    seen.add(kind);
  });
  return problems;
}

/** The fields of a criteria set, as create (name required) and update (each optional) declare them. */
const criteriaFields = (nameRequired: boolean) => ({
  name: applyDecorators(
    StringField({ required: nameRequired, trim: true, min: 1, max: SCREENING_CRITERIA_LIMITS.name }),
    ApiProperty({ example: 'Three times the rent' }),
  ),
  income: applyDecorators(
    NestedField(() => IncomeCriterionInput, { nullable: true }),
    ApiProperty({ description: 'The minimum income; null (the default) sets none.' }),
  ),
  guarantor: applyDecorators(
    NestedField(() => GuarantorCriterionInput, { nullable: true }),
    ApiProperty({
      description: 'What a guarantor or co-signer must show instead; null (the default): none is accepted instead.',
    }),
  ),
  occupancy: applyDecorators(
    NestedField(() => OccupancyCriterionInput),
    ApiProperty({ description: 'How many may live in the home; two persons per bedroom when left out.' }),
  ),
  required_documents: applyDecorators(
    NestedListField(() => RequiredDocumentInput, { max: SCREENING_CRITERIA_LIMITS.documents }),
    ApiProperty({ description: 'What must be uploaded; each kind at most once.', default: [] }),
  ),
  identity: applyDecorators(
    NestedField(() => IdentityCriterionInput),
    ApiProperty({ description: 'What an applicant without a social security number can apply with.' }),
  ),
  screening_report: applyDecorators(
    EnumListField(SCREENING_REPORT_KINDS, { nullable: true, max: SCREENING_REPORT_KINDS.length }),
    ApiProperty({
      description:
        'What the landlord looks at in a screening report, published with the criteria (never assessed here); null or ' +
        'left out: no screening report. A rule pack may narrow it where the property is (criminal history in Seattle).',
      example: ['credit_history', 'eviction_history'],
    }),
  ),
});

const CREATE = criteriaFields(true);
const CHANGE = criteriaFields(false);

/** `screening_criteria` inside POST /api/v2/screening_criteria. */
@CrossChecked<ScreeningCriteriaInput>(documentProblems)
export class ScreeningCriteriaInput {
  @CREATE.name
  name: string;

  @CREATE.income
  income?: IncomeCriterionInput | null;

  @CREATE.guarantor
  guarantor?: GuarantorCriterionInput | null;

  @CREATE.occupancy
  occupancy?: OccupancyCriterionInput;

  @CREATE.required_documents
  required_documents?: RequiredDocumentInput[];

  @CREATE.identity
  identity?: IdentityCriterionInput;

  @CREATE.screening_report
  screening_report?: ScreeningReportKind[] | null;
}

export class CreateScreeningCriteriaRequest {
  @NestedField(() => ScreeningCriteriaInput, { required: true })
  screening_criteria: ScreeningCriteriaInput;
}

/**
 * `screening_criteria` inside PATCH /api/v2/screening_criteria/:id: any field of the create, each
 * checked as there; a part given replaces that whole part. The change becomes the set's next version.
 */
@CrossChecked<ScreeningCriteriaChanges>(documentProblems)
export class ScreeningCriteriaChanges {
  @CHANGE.name
  name?: string;

  @CHANGE.income
  income?: IncomeCriterionInput | null;

  @CHANGE.guarantor
  guarantor?: GuarantorCriterionInput | null;

  @CHANGE.occupancy
  occupancy?: OccupancyCriterionInput;

  @CHANGE.required_documents
  required_documents?: RequiredDocumentInput[];

  @CHANGE.identity
  identity?: IdentityCriterionInput;

  @CHANGE.screening_report
  screening_report?: ScreeningReportKind[] | null;
}

export class UpdateScreeningCriteriaRequest {
  @NestedField(() => ScreeningCriteriaChanges, { required: true })
  screening_criteria: ScreeningCriteriaChanges;
}
