import { DecisionInput } from '@app/contracts';
import { StoredDecision } from './application';

/** Who recorded a decision: an API key (its id), or the applicant withdrawing on the form (null). */
export interface Decider {
  keyId: string | null;
}

/** A decision as stored: every field, conditions and reasons as lists (empty where they do not apply). */
export function storedDecision(input: DecisionInput, decider: Decider, at: Date, requestKey: string): StoredDecision {
  return {
    status: input.status,
    conditions: (input.conditions ?? []).map((condition) => ({
      kind: condition.kind,
      amount: condition.amount ?? null,
      text: condition.text ?? null,
    })),
    reasons: [...(input.reasons ?? [])],
    note: input.note ?? null,
    decided_by: input.decided_by ?? null,
    key_id: decider.keyId,
    decided_at: at,
    request_key: requestKey,
  };
}
