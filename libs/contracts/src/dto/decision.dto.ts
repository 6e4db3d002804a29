import { ApiProperty } from '@nestjs/swagger';
import { FieldProblem } from '../errors';
import {
  CrossChecked,
  EnumField,
  EnumListField,
  IntegerField,
  NestedField,
  NestedListField,
  NumberField,
  StringField,
} from '../validation/fields';
import { MAX_USER_ID } from './application.dto';
import { DECISION_STATUSES, DecisionStatus } from './decision-status';

export const DECISION_CONDITION_KINDS = ['deposit', 'guarantor', 'co_signer', 'other'] as const;
export type DecisionConditionKind = (typeof DECISION_CONDITION_KINDS)[number];

/** Why an application was declined; `screening_report` is the one that calls for an adverse action notice. */
export const DECLINE_REASONS = ['income', 'rental_history', 'screening_report', 'incomplete', 'other'] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/**
 * Decisions an application keeps: the whole history travels with every later change of it, so it
 * is bounded; no landlord changes its mind this often on one application.
 */
export const MAX_DECISIONS = 50;

/** Limits of a decision: no landlord sets more conditions than this, and the texts are read by a person. */
export const DECISION_LIMITS = { conditions: 10, text: 2000, deposit: 10_000_000 } as const;

/** One condition of a conditional approval. */
@CrossChecked<DecisionConditionInput>((condition) => {
  const problems: FieldProblem[] = [];
  if (condition.kind === 'deposit' && (condition.amount === undefined || condition.amount === null))
    problems.push({ field: 'amount', message: 'is required for a deposit condition' });
  if (condition.kind !== 'deposit' && condition.amount !== undefined && condition.amount !== null)
    problems.push({ field: 'amount', message: 'is only for a deposit condition' });
  if (condition.kind === 'other' && (typeof condition.text !== 'string' || condition.text.trim() === ''))
    problems.push({ field: 'text', message: 'is required for an other condition' });
  return problems;
})
export class DecisionConditionInput {
  @EnumField(DECISION_CONDITION_KINDS, { required: true })
  @ApiProperty({
    description:
      'deposit: a deposit of `amount`; guarantor: a guarantor is required; co_signer: a co-signer; other: as `text` says.',
    example: 'deposit',
  })
  kind: DecisionConditionKind;

  @NumberField({ nullable: true, min: 0, max: DECISION_LIMITS.deposit })
  @ApiProperty({ description: 'The deposit asked, in dollars: required for deposit, not given for the others.', example: 3700 })
  amount?: number | null;

  @StringField({ nullable: true, trim: true, max: DECISION_LIMITS.text })
  @ApiProperty({ description: 'The condition in words, trimmed: required for other.', example: 'Two months’ rent as deposit' })
  text?: string | null;
}

/**
 * `decision` inside POST /api/v2/applications/:id/decision. Conditions go with a conditional
 * approval only, reasons with a decline only, so that what the applicant is told can be read off
 * the decision without guessing which fields count.
 */
@CrossChecked<DecisionInput>((decision) => {
  const problems: FieldProblem[] = [];
  const conditions: unknown = decision.conditions;
  const reasons: unknown = decision.reasons;
  const has = (list: unknown) => Array.isArray(list) && list.length > 0;
  if (decision.status === 'conditionally_approved' && !has(conditions))
    problems.push({ field: 'conditions', message: 'must list at least one condition for conditionally_approved' });
  if (decision.status !== 'conditionally_approved' && has(conditions))
    problems.push({ field: 'conditions', message: 'are only for conditionally_approved' });
  if (decision.status === 'declined' && !has(reasons))
    problems.push({ field: 'reasons', message: 'must list at least one reason for declined' });
  if (decision.status !== 'declined' && has(reasons)) problems.push({ field: 'reasons', message: 'are only for declined' });
  if (Array.isArray(reasons) && reasons.includes('other') && (typeof decision.note !== 'string' || decision.note.trim() === ''))
    problems.push({ field: 'note', message: 'is required when reasons include other: it says what the other reason is' });
  return problems;
})
export class DecisionInput {
  @EnumField(DECISION_STATUSES, { required: true })
  @ApiProperty({ description: 'What was decided.', example: 'conditionally_approved' })
  status: DecisionStatus;

  @NestedListField(() => DecisionConditionInput, { nullable: true, max: DECISION_LIMITS.conditions })
  @ApiProperty({
    description: `For conditionally_approved (at least one, at most ${DECISION_LIMITS.conditions}); no other status takes any.`,
  })
  conditions?: DecisionConditionInput[] | null;

  @EnumListField(DECLINE_REASONS, { nullable: true, max: DECLINE_REASONS.length })
  @ApiProperty({ description: 'For declined (at least one); no other status takes any.', example: ['income'] })
  reasons?: DeclineReason[] | null;

  @StringField({ nullable: true, trim: true, max: DECISION_LIMITS.text })
  @ApiProperty({
    description: 'Free text, trimmed; required when reasons include other. Shown to the applicant in the decision’s e-mail.',
    example: 'Please bring the deposit to the office by December 1.',
  })
  note?: string | null;

  @IntegerField({ nullable: true, min: 1, max: MAX_USER_ID })
  @ApiProperty({ description: 'The id of the user (in the caller’s software) who decided.', example: 42 })
  decided_by?: number | null;
}

export class RecordDecisionRequest {
  @NestedField(() => DecisionInput, { required: true })
  decision: DecisionInput;
}

export class DecisionCondition {
  @ApiProperty({ enum: DECISION_CONDITION_KINDS, example: 'deposit' })
  kind: DecisionConditionKind;

  @ApiProperty({ type: 'number', nullable: true, description: 'Dollars, for a deposit; null otherwise.', example: 3700 })
  amount: number | null;

  @ApiProperty({ type: 'string', nullable: true, example: null })
  text: string | null;
}

export class DecisionRepresentation {
  @ApiProperty({ enum: DECISION_STATUSES, example: 'conditionally_approved' })
  status: DecisionStatus;

  @ApiProperty({
    type: [DecisionCondition],
    maxItems: DECISION_LIMITS.conditions,
    description: 'Empty unless conditionally_approved.',
  })
  conditions: DecisionCondition[];

  @ApiProperty({
    enum: DECLINE_REASONS,
    isArray: true,
    maxItems: DECLINE_REASONS.length,
    description: 'Empty unless declined.',
    example: [],
  })
  reasons: DeclineReason[];

  @ApiProperty({ type: 'string', nullable: true, example: null })
  note: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The user id given, if any.', example: 42 })
  decided_by: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Who recorded it: the first 16 hex digits of the SHA-256 of the API key (as in audit events), or null when ' +
      'the applicant withdrew on the form.',
    example: '4f2a9c0d1e3b5a7c',
  })
  key_id: string | null;

  @ApiProperty({
    format: 'date-time',
    description: 'ISO 8601, seconds precision, numeric offset.',
    example: '2026-11-28T10:00:00+00:00',
  })
  decided_at: string;
}

export class DecisionResponse {
  @ApiProperty()
  decision: DecisionRepresentation;
}

export class DecisionListResponse {
  @ApiProperty({
    type: [DecisionRepresentation],
    maxItems: MAX_DECISIONS,
    description: `Every decision recorded, newest first; at most ${MAX_DECISIONS}.`,
  })
  decisions: DecisionRepresentation[];
}
