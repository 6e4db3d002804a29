import { ApiProperty } from '@nestjs/swagger';
import { FieldProblem } from '../errors';
import { DECLINABLE_REASON_CODES, ScreeningReasonCode, SCREENING_REASON_CODES } from '../screening';
import { crossCheckOf, CrossChecked, EnumListField, NestedField } from '../validation/fields';
import { DecisionInput, DecisionRepresentation } from './decision.dto';

const NEEDS_REASONS = 'must list at least one reason for declined';

/**
 * A decision that speaks the language of the assessment: a decline names reason codes (those of
 * its assessment, or the documented ones for what is not assessed, such as the screening report)
 * in place of the older `reasons`, which are then derived from them (declineReasonsOf). Every
 * check of DecisionInput holds, and a decline needs `reason_codes` or `reasons`, not both.
 */
@CrossChecked<ScreeningDecisionInput>((decision) => {
  const codes: unknown = decision.reason_codes;
  const hasCodes = Array.isArray(codes) && codes.length > 0;
  const inherited = (crossCheckOf(DecisionInput)?.(decision) ?? []).filter(
    (problem) => !(hasCodes && problem.field === 'reasons' && problem.message === NEEDS_REASONS),
  );
  const problems: FieldProblem[] = [...inherited];
  if (decision.status !== 'declined' && hasCodes) problems.push({ field: 'reason_codes', message: 'are only for declined' });
  const reasons: unknown = decision.reasons;
  if (hasCodes && Array.isArray(reasons) && reasons.length > 0)
    problems.push({ field: 'reasons', message: 'must be left out when reason_codes are given: they are derived from them' });
  if (hasCodes && (codes as unknown[]).includes('other') && (typeof decision.note !== 'string' || decision.note.trim() === ''))
    problems.push({ field: 'note', message: 'is required when reason_codes include other: it says what the other reason is' });
  return problems;
})
export class ScreeningDecisionInput extends DecisionInput {
  @EnumListField(DECLINABLE_REASON_CODES, { nullable: true, max: DECLINABLE_REASON_CODES.length })
  @ApiProperty({
    description:
      'For declined (in place of reasons): the reason codes of the decline, from its assessment or the documented list ' +
      '(docs/screening.md). The adverse action notice lists each in plain language. A code a rule of the property’s ' +
      'jurisdiction forbids is refused (422, naming the rule); declining an application that meets every criterion needs a note.',
    example: ['income_below_minimum'],
  })
  reason_codes?: ScreeningReasonCode[] | null;
}

export class RecordScreeningDecisionRequest {
  @NestedField(() => ScreeningDecisionInput, { required: true })
  decision: ScreeningDecisionInput;
}

export class ScreeningDecisionRepresentation extends DecisionRepresentation {
  @ApiProperty({
    enum: SCREENING_REASON_CODES,
    isArray: true,
    description: 'The reason codes of a decline; empty otherwise, and for a decline recorded with reasons alone.',
    example: [],
  })
  reason_codes: ScreeningReasonCode[];
}
