import { AssessmentRepresentation, AssessmentResult, formatTimestamp, RulePackId } from '@app/contracts';
import { documentChecks, identityChecks } from './checks/applicant-checks';
import { AssessmentCheck } from './checks/check';
import { incomeCheck } from './checks/income';
import { occupancyCheck } from './checks/occupancy';
import { VersionedScreeningCriteria } from './criteria';
import { ApplicationFacts } from './facts';
import { applicableRules } from './packs';
import { RulePack } from './packs/types';

/** An application assessed against a criteria set, under the rule packs of its property's address. */
export interface Assessment {
  result: AssessmentResult;
  criteria_id: number;
  criteria_version: number;
  rule_packs: Array<{ id: RulePackId; version: string }>;
  /** Income, occupancy, then each applicant's identity, then each required document by applicant. */
  checks: AssessmentCheck[];
  /** ISO 8601, seconds precision, numeric offset: the time the caller gave. */
  assessed_at: string;
}

/**
 * Assesses `facts` against `criteria` under `packs` (applicablePacks of the property's address).
 * Deterministic: the same arguments give the same assessment, the time included, which the caller
 * supplies.
 */
export function assess(
  criteria: VersionedScreeningCriteria,
  facts: ApplicationFacts,
  packs: readonly RulePack[],
  assessedAt: Date,
): Assessment {
  const rules = applicableRules(packs, facts);
  const income = incomeCheck(criteria, facts, rules);
  const checks = [
    ...(income ? [income] : []),
    occupancyCheck(criteria, facts),
    ...identityChecks(criteria, facts),
    ...documentChecks(criteria, facts),
  ];
  return {
    result: overallResult(checks),
    criteria_id: criteria.id,
    criteria_version: criteria.version,
    rule_packs: packs.map((pack) => ({ id: pack.id, version: pack.version })),
    checks,
    assessed_at: formatTimestamp(assessedAt),
  };
}

/** does_not_meet when any check does not meet its criterion; else incomplete when any is incomplete; else meets. */
export function overallResult(checks: readonly AssessmentCheck[]): AssessmentResult {
  if (checks.some((check) => check.result === 'does_not_meet')) return 'does_not_meet';
  if (checks.some((check) => check.result === 'incomplete')) return 'incomplete';
  return 'meets';
}

/**
 * Whether a new assessment of an application changes its result (or is its first):
 * `application.assessed` is published when it does, not on every reassessment.
 */
export function resultChanged(before: Assessment | null, after: Assessment): boolean {
  return before === null || before.result !== after.result;
}

/** The API's representation of an assessment: each explanation as its text. */
export function assessmentRepresentation(assessment: Assessment): AssessmentRepresentation {
  return {
    result: assessment.result,
    criteria_id: assessment.criteria_id,
    criteria_version: assessment.criteria_version,
    rule_packs: assessment.rule_packs.map((pack) => ({ id: pack.id, version: pack.version })),
    checks: assessment.checks.map((check) => ({
      criterion: check.criterion,
      applicant_id: check.applicant_id,
      result: check.result,
      reason_code: check.reason_code,
      figures: check.figures,
      explanation: check.explanation.text,
      rule: check.rule && { pack_id: check.rule.pack_id, rule_id: check.rule.rule_id, version: check.rule.version },
    })),
    assessed_at: assessment.assessed_at,
  };
}
