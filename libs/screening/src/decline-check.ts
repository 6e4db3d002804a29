import { FieldProblem, REASON_CODE_INFO, ScreeningReasonCode, ScreeningReportKind } from '@app/contracts';
import { Assessment } from './assess';
import { RuleReference } from './checks/check';
import { ScreeningCriteria } from './criteria';
import { ApplicationFacts } from './facts';
import { formatMessage } from './messages';
import { applicableRules } from './packs';
import { AppliedRule, RulePack, Source } from './packs/types';

/** What a decline is checked on before it is recorded. */
export interface DeclineToCheck {
  reason_codes: readonly ScreeningReasonCode[];
  /** The application's assessment; null when its property names no criteria set. */
  assessment: Assessment | null;
  /** The criteria set assessed against (what was published); null with the assessment. */
  criteria: ScreeningCriteria | null;
  /** The packs of the property's address (applicablePacks). */
  packs: readonly RulePack[];
  facts: ApplicationFacts;
  /** Whether a conditional offer was made (Cook County's prequalification, New York City's conditional offer). */
  conditional_offer_made: boolean;
}

/** A rule as a refusal or a required note names it: which, what it is called, and the text it implements. */
export interface NamedRule extends RuleReference {
  title: string;
  source: Source;
}

/** Why a decline needs an individualized note. */
export type NoteRequirement =
  /** The application meets every published criterion, and no reason given is one the assessment cannot see. */
  | { kind: 'meets_every_criterion' }
  /** A reason the assessment judges, which it did not find. */
  | { kind: 'not_found_by_assessment'; reason_code: ScreeningReasonCode }
  /** A part of the screening report the published criteria did not name. */
  | { kind: 'not_in_published_criteria'; reason_code: ScreeningReasonCode }
  /** A rule of the property's jurisdiction requires an individualized assessment for this reason. */
  | { kind: 'rule'; reason_code: ScreeningReasonCode; rule: NamedRule };

export type DeclineCheck =
  | { outcome: 'allowed' }
  | { outcome: 'needs_individualized_note'; because: NoteRequirement[] }
  | { outcome: 'refused'; reason_code: ScreeningReasonCode; rule: NamedRule; until: 'conditional_offer' | null };

/** The part of a screening report each reason rests on: declining on it is published if the criteria name that part. */
const REPORT_PART: Partial<Record<ScreeningReasonCode, ScreeningReportKind>> = {
  credit_history: 'credit_history',
  rental_history: 'rental_history',
  eviction_history: 'eviction_history',
  criminal_conviction: 'criminal_history',
  arrest_record: 'criminal_history',
  sex_offender_registry: 'criminal_history',
};

/** Reasons found by checking what the application says, which an assessment of what it says cannot see. */
const VERIFICATION_REASONS: readonly ScreeningReasonCode[] = [
  'income_not_verified',
  'identity_not_verified',
  'information_inaccurate',
];

/**
 * Checks a decline: refused when a rule of the property's jurisdiction forbids one of its reasons
 * (at this stage: some only before a conditional offer), naming the first such rule; else it
 * needs an individualized note when the application meets every published criterion, when a
 * reason is one the assessment judged and did not find or one the criteria never published, or
 * when a rule requires an individualized assessment for a reason; else it is allowed.
 */
export function checkDecline(decline: DeclineToCheck): DeclineCheck {
  const rules = applicableRules(decline.packs, decline.facts);
  for (const rule of rules) {
    const effect = rule.effect;
    if (effect.kind !== 'refuse_reason_codes') continue;
    if (effect.until === 'conditional_offer' && decline.conditional_offer_made) continue;
    const refused = decline.reason_codes.find((code) => effect.reason_codes.includes(code));
    if (refused) return { outcome: 'refused', reason_code: refused, rule: namedRule(rule), until: effect.until };
  }
  const because = [...criteriaNoteRequirements(decline), ...ruleNoteRequirements(decline, rules)];
  return because.length === 0 ? { outcome: 'allowed' } : { outcome: 'needs_individualized_note', because };
}

function criteriaNoteRequirements(decline: DeclineToCheck): NoteRequirement[] {
  const { assessment, criteria, reason_codes: codes } = decline;
  if (assessment === null || criteria === null) return [];
  const published = (code: ScreeningReasonCode) => {
    const part = REPORT_PART[code];
    return part !== undefined && criteria.screening_report.includes(part);
  };
  const found = new Set(assessment.checks.map((check) => check.reason_code));
  const requirements: NoteRequirement[] = [];
  const explained = codes.some((code) => published(code) || VERIFICATION_REASONS.includes(code));
  if (assessment.result === 'meets' && !explained) requirements.push({ kind: 'meets_every_criterion' });
  for (const code of codes) {
    if (REASON_CODE_INFO[code].origin === 'assessment' && !found.has(code))
      requirements.push({ kind: 'not_found_by_assessment', reason_code: code });
    if (REPORT_PART[code] !== undefined && !published(code))
      requirements.push({ kind: 'not_in_published_criteria', reason_code: code });
  }
  return requirements;
}

function ruleNoteRequirements(decline: DeclineToCheck, rules: readonly AppliedRule[]): NoteRequirement[] {
  return rules.flatMap((rule) => {
    const effect = rule.effect;
    if (effect.kind !== 'requires_individualized_note') return [];
    return decline.reason_codes
      .filter((code) => effect.reason_codes.includes(code))
      .map((code): NoteRequirement => ({ kind: 'rule', reason_code: code, rule: namedRule(rule) }));
  });
}

function namedRule(rule: AppliedRule): NamedRule {
  return { pack_id: rule.pack_id, rule_id: rule.id, version: rule.pack_version, title: rule.title, source: rule.source };
}

/**
 * What an API error says of a decline check: each a problem of `decision.reason_codes` (a refusal,
 * naming the pack, the rule, its version and its source) or of `decision.note` (a note required).
 * These are for integrators, in English, as every error message of the API is.
 */
export const DECLINE_MESSAGES = {
  refused:
    'must not name {code}: {title} (rule {rule_id} of rule pack {pack_id}, version {version}; {citation}, {url}) forbids it' +
    '{until, select, conditional_offer { before a conditional offer} other {}}',
  meets_every_criterion:
    'is required: the application meets every published criterion, so declining it needs an individualized explanation',
  not_found_by_assessment: 'is required: the assessment did not find {code}, so declining on it needs an explanation',
  not_in_published_criteria: 'is required: {code} rests on a part of the screening report the published criteria do not name',
  rule: 'is required for {code}: {title} (rule {rule_id} of rule pack {pack_id}, version {version}; {citation}) requires an individualized assessment',
} as const;

/** The problems a decline check finds, for a 422 (none when allowed); `note` tells whether the decline has one. */
export function declineProblems(check: DeclineCheck, note: string | null | undefined): FieldProblem[] {
  if (check.outcome === 'allowed') return [];
  if (check.outcome === 'refused') {
    const { rule } = check;
    const message = formatMessage(DECLINE_MESSAGES.refused, {
      code: check.reason_code,
      title: rule.title,
      rule_id: rule.rule_id,
      pack_id: rule.pack_id,
      version: rule.version,
      citation: rule.source.citation,
      url: rule.source.url,
      until: check.until ?? 'always',
    });
    return [{ field: 'decision.reason_codes', message }];
  }
  if (typeof note === 'string' && note.trim() !== '') return [];
  return check.because.map((requirement) => ({ field: 'decision.note', message: requirementMessage(requirement) }));
}

function requirementMessage(requirement: NoteRequirement): string {
  switch (requirement.kind) {
    case 'meets_every_criterion':
      return formatMessage(DECLINE_MESSAGES.meets_every_criterion);
    case 'not_found_by_assessment':
    case 'not_in_published_criteria':
      return formatMessage(DECLINE_MESSAGES[requirement.kind], { code: requirement.reason_code });
    case 'rule':
      return formatMessage(DECLINE_MESSAGES.rule, {
        code: requirement.reason_code,
        title: requirement.rule.title,
        rule_id: requirement.rule.rule_id,
        pack_id: requirement.rule.pack_id,
        version: requirement.rule.version,
        citation: requirement.rule.source.citation,
      });
  }
}
