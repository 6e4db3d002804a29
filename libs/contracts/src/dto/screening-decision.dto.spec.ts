import { ErrorCode, FieldProblem, ServiceError } from '../errors';
import { parseRequest } from '../validation/parse';
import { RecordScreeningDecisionRequest } from './screening-decision.dto';

function problems(decision: Record<string, unknown>): FieldProblem[] {
  try {
    parseRequest(RecordScreeningDecisionRequest, { decision });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    return error.details ?? [];
  }
  throw new Error('the decision was accepted');
}

describe('RecordScreeningDecisionRequest', () => {
  it('takes a decline with reason codes in place of reasons', () => {
    const { decision } = parseRequest(RecordScreeningDecisionRequest, {
      decision: { status: 'declined', reason_codes: ['income_below_minimum', 'credit_history'] },
    });
    expect(decision).toEqual({ status: 'declined', reason_codes: ['income_below_minimum', 'credit_history'] });
  });

  it('still takes a decline with reasons alone, and every other decision as before', () => {
    expect(
      parseRequest(RecordScreeningDecisionRequest, { decision: { status: 'declined', reasons: ['income'] } }).decision.reasons,
    ).toEqual(['income']);
    expect(
      parseRequest(RecordScreeningDecisionRequest, { decision: { status: 'approved', reason_codes: null } }).decision.status,
    ).toBe('approved');
  });

  it('keeps every check of a decision: a decline needs a reason, conditions only go with a conditional approval', () => {
    expect(problems({ status: 'declined' })).toEqual(
      [{ field: 'reasons', message: 'must list at least one reason for declined' }].map(at),
    );
    expect(problems({ status: 'approved', conditions: [{ kind: 'guarantor' }] })).toEqual(
      [{ field: 'conditions', message: 'are only for conditionally_approved' }].map(at),
    );
  });

  it('refuses reason codes but for a decline, both codes and reasons, and other without a note', () => {
    expect(problems({ status: 'approved', reason_codes: ['other'] })).toEqual([
      at({ field: 'reason_codes', message: 'are only for declined' }),
      at({ field: 'note', message: 'is required when reason_codes include other: it says what the other reason is' }),
    ]);
    expect(problems({ status: 'declined', reasons: ['income'], reason_codes: ['income_below_minimum'] })).toEqual([
      at({ field: 'reasons', message: 'must be left out when reason_codes are given: they are derived from them' }),
    ]);
  });

  it('refuses a code a decline may not name, and one it does not know', () => {
    const [problem] = problems({ status: 'declined', reason_codes: ['rent_unknown'] });
    expect(problem.field).toBe('decision.reason_codes');
    expect(problem.message).toMatch(/^must list only income_below_minimum, /);
    expect(problem.message).not.toContain('rent_unknown');
    expect(problems({ status: 'declined', reason_codes: ['bad_vibes'] })[0].field).toBe('decision.reason_codes');
  });
});

function at(problem: FieldProblem): FieldProblem {
  return { field: `decision.${problem.field}`, message: problem.message };
}
