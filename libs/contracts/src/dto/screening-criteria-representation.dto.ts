import { ApiProperty } from '@nestjs/swagger';
import { FORM_DOCUMENT_KINDS, FormDocumentKind } from '../form-presets';
import { REQUIRED_DOCUMENT_FROM, RequiredDocumentFrom, SCREENING_REPORT_KINDS, ScreeningReportKind } from '../screening';
import { SCREENING_CRITERIA_LIMITS } from './screening-criteria.dto';

/** A screening criteria set as the API returns it (the inputs are in screening-criteria.dto.ts). */

export class IncomeCounts {
  @ApiProperty({ example: true })
  employment: boolean;

  @ApiProperty({ example: true })
  other_income: boolean;

  @ApiProperty({ example: true })
  housing_voucher: boolean;
}

export class IncomeCriterion {
  @ApiProperty({ example: 3 })
  minimum_ratio: number;

  @ApiProperty({ type: IncomeCounts })
  counts: IncomeCounts;
}

export class GuarantorCriterion {
  @ApiProperty({ example: 5 })
  minimum_ratio: number;
}

export class OccupancyCriterion {
  @ApiProperty({ type: 'integer', example: 2 })
  persons_per_bedroom: number;

  @ApiProperty({ type: 'integer', nullable: true, example: null })
  children_under_age_not_counted: number | null;
}

export class RequiredDocument {
  @ApiProperty({ enum: FORM_DOCUMENT_KINDS, example: 'proof_of_income' })
  kind: FormDocumentKind;

  @ApiProperty({ enum: REQUIRED_DOCUMENT_FROM, example: 'every_applicant' })
  from: RequiredDocumentFrom;
}

export class IdentityCriterion {
  @ApiProperty({ example: true })
  accepts_itin: boolean;

  @ApiProperty({ example: true })
  accepts_other_evidence: boolean;

  @ApiProperty({
    enum: FORM_DOCUMENT_KINDS,
    isArray: true,
    description: 'Empty unless accepts_other_evidence.',
    example: ['photo_id', 'proof_of_income'],
  })
  other_evidence: FormDocumentKind[];
}

/** One sentence of the criteria in plain language, whole (a translation replaces it whole). */
export class CriteriaSentenceItem {
  @ApiProperty({
    description: 'The message id of the sentence: the same sentence in any language.',
    example: 'document.photo_id',
  })
  id: string;

  @ApiProperty({ example: 'A photo ID.' })
  text: string;
}

export class CriteriaSentence extends CriteriaSentenceItem {
  @ApiProperty({
    type: [CriteriaSentenceItem],
    description: 'A list the sentence introduces (it then ends with a colon); empty otherwise.',
  })
  items: CriteriaSentenceItem[];
}

export class ScreeningCriteriaRepresentation {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  id: number;

  @ApiProperty({
    type: 'integer',
    description: 'Goes up by one on each update; an application is assessed against the version its property named.',
    example: 1,
  })
  version: number;

  @ApiProperty({ example: 'Three times the rent' })
  name: string;

  @ApiProperty({ type: IncomeCriterion, nullable: true })
  income: IncomeCriterion | null;

  @ApiProperty({ type: GuarantorCriterion, nullable: true })
  guarantor: GuarantorCriterion | null;

  @ApiProperty({ type: OccupancyCriterion })
  occupancy: OccupancyCriterion;

  @ApiProperty({ type: [RequiredDocument], maxItems: SCREENING_CRITERIA_LIMITS.documents })
  required_documents: RequiredDocument[];

  @ApiProperty({ type: IdentityCriterion })
  identity: IdentityCriterion;

  @ApiProperty({ enum: SCREENING_REPORT_KINDS, isArray: true, example: ['credit_history'] })
  screening_report: ScreeningReportKind[];

  @ApiProperty({
    type: [CriteriaSentence],
    description:
      'The criteria in plain language, as the form shows them before the first step (without the rules of any ' +
      'jurisdiction: a property’s rules add their own sentences).',
  })
  text: CriteriaSentence[];

  @ApiProperty({ description: 'ISO 8601, seconds precision, numeric offset.', example: '2026-11-22T14:03:09+00:00' })
  created_at: string;

  @ApiProperty({ description: 'When this version was made.', example: '2026-11-22T14:03:09+00:00' })
  updated_at: string;
}

export class ScreeningCriteriaResponse {
  @ApiProperty({ type: ScreeningCriteriaRepresentation })
  screening_criteria: ScreeningCriteriaRepresentation;
}

export class ScreeningCriteriaListResponse {
  @ApiProperty({ type: [ScreeningCriteriaRepresentation], description: 'At most `limit` criteria sets, newest first.' })
  screening_criteria: ScreeningCriteriaRepresentation[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `cursor` for the next page; null on the last page.',
    example: 'djE6MTI',
  })
  next_cursor: string | null;
}
