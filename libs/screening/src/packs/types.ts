import { CoverageBasis, RulePackId, ScreeningReasonCode } from '@app/contracts';
import { ApplicationFacts } from '../facts';
import { Sentence } from '../messages';
import { NoticeId } from './notices';

/**
 * A jurisdiction's rule pack: the rules a property's address brings, as data, each naming the
 * text it implements. A pack is versioned as a whole: any change to one of its rules, or to what
 * its coverage matches, is a new version, so that an assessment or a refusal names exactly what
 * was applied. docs/screening.md lists the packs, their versions and their sources.
 */
export interface RulePack {
  id: RulePackId;
  /** Major.minor.patch: major when a rule refuses or requires more, minor when less or a rule is added, patch for wording. */
  version: string;
  name: string;
  sources: readonly Source[];
  /** Whether the address lies in the jurisdiction, and why: a pure function of the address. */
  covers(address: PropertyAddress): Coverage;
  rules: readonly Rule[];
}

/**
 * A property's address as the property resource holds it (street left out: no rule turns on
 * it). `county` and `country` are optional: without a county, a ZIP code that straddles a county
 * line leaves a county's pack uncertain, and it then applies.
 */
export interface PropertyAddress {
  country?: string | null;
  state?: string | null;
  county?: string | null;
  city?: string | null;
  zip?: string | null;
}

/** A text a rule implements: its name, its exact citation, and where to read it. */
export interface Source {
  title: string;
  citation: string;
  url: string;
}

export interface Coverage {
  applies: boolean;
  /** False when the address leaves it open; the pack then applies, erring toward the applicant's protection. */
  certain: boolean;
  basis: CoverageBasis;
  explanation: Sentence;
}

/** A condition on an application's facts for a rule to apply to it; null: every application. */
export type RuleCondition = 'housing_voucher';

/** What a rule does; docs/screening.md explains each kind. */
export type RuleEffect =
  /** A decline may not name these codes: never (until null), or not before a conditional offer. */
  | { kind: 'refuse_reason_codes'; reason_codes: readonly ScreeningReasonCode[]; until: 'conditional_offer' | null }
  /** A decline naming these codes needs an individualized note (the assessment the rule requires). */
  | { kind: 'requires_individualized_note'; reason_codes: readonly ScreeningReasonCode[] }
  /** A housing voucher's share counts: income is compared with the tenant's share of the rent. */
  | { kind: 'income_on_tenant_share' }
  /** The criteria must be given to applicants before any information is taken from them. */
  | { kind: 'criteria_before_applying' }
  /** Complete applications are screened in the order they were completed. */
  | { kind: 'screening_order'; setting: 'required' | 'one_of_two_lawful_ways' }
  /** The time an applicant told of missing items has to supply them. */
  | { kind: 'missing_items_time'; hours: number; setting: 'longer_only' | 'fixed' }
  /** The time an applicant offered the home has to accept. */
  | { kind: 'offer_acceptance_time'; hours: number; setting: 'longer_only' | 'fixed' }
  /** The occupancy standard a criteria set defaults to. */
  | { kind: 'occupancy_baseline'; persons_per_bedroom: number }
  /** A decline naming these codes calls for an adverse action notice. */
  | { kind: 'adverse_action_notice'; reason_codes: readonly ScreeningReasonCode[] };

export interface Rule {
  /** Unique in its pack and never reused. */
  id: string;
  title: string;
  /** What the rule does, in a sentence an integrator can read. */
  summary: string;
  applies_when: RuleCondition | null;
  effect: RuleEffect;
  source: Source;
  /** What applicants are told where the rule applies (packs/notices.ts), if anything. */
  notice: NoticeId | null;
}

/** A rule as applied: with the pack it came from. */
export interface AppliedRule extends Rule {
  pack_id: RulePackId;
  pack_version: string;
}

/** The rules of `pack` that apply to an application with these facts; every rule for null facts. */
export function packRules(pack: RulePack, facts: ApplicationFacts | null): AppliedRule[] {
  return pack.rules
    .filter((rule) => facts === null || conditionMet(rule.applies_when, facts))
    .map((rule) => ({ ...rule, pack_id: pack.id, pack_version: pack.version }));
}

function conditionMet(condition: RuleCondition | null, facts: ApplicationFacts): boolean {
  if (condition === null) return true;
  return facts.housing_voucher !== null && facts.housing_voucher.monthly_amount > 0;
}
