import { RulePackId } from '@app/contracts';
import { ApplicationFacts } from '../facts';
import { CALIFORNIA } from './california';
import { COOK_COUNTY } from './cook-county';
import { FEDERAL } from './federal';
import { NEW_YORK_CITY } from './new-york-city';
import { SEATTLE } from './seattle';
import { AppliedRule, Coverage, packRules, PropertyAddress, RulePack } from './types';
import { WASHINGTON } from './washington';

export * from './types';
export { NOTICE_MESSAGES, NoticeId } from './notices';
export { COVERAGE_MESSAGES } from './address';
export { CALIFORNIA, COOK_COUNTY, FEDERAL, NEW_YORK_CITY, SEATTLE, WASHINGTON };

/** Every pack, the widest jurisdiction first: the order rules are listed and checked in. */
export const RULE_PACKS: readonly RulePack[] = [FEDERAL, WASHINGTON, SEATTLE, CALIFORNIA, COOK_COUNTY, NEW_YORK_CITY];

/** A client turning a pack off for a property: only with a reason, which the audit trail keeps. */
export interface PackWaiver {
  pack_id: RulePackId;
  reason: string;
  /** When the client turned it off (ISO 8601, as the audit trail has it). */
  waived_at: string;
}

/** A pack as matched against a property's address. */
export interface PackMatch {
  pack: RulePack;
  coverage: Coverage;
  waiver: PackWaiver | null;
  /** Covered and not waived. */
  applies: boolean;
}

/**
 * Every pack, with whether it applies to the address and why; a waiver turns a covering pack off.
 * A waiver without a reason is a programming error: the API refuses one before it gets here.
 */
export function matchPacks(address: PropertyAddress, waivers: readonly PackWaiver[] = []): PackMatch[] {
  for (const waiver of waivers)
    if (waiver.reason.trim() === '') throw new Error(`the waiver of rule pack ${waiver.pack_id} gives no reason`);
  return RULE_PACKS.map((pack) => {
    const coverage = pack.covers(address);
    const waiver = waivers.find((candidate) => candidate.pack_id === pack.id) ?? null;
    return { pack, coverage, waiver, applies: coverage.applies && waiver === null };
  });
}

/** The packs that apply to the address, waived ones left out: what assess and checkDecline take. */
export function applicablePacks(address: PropertyAddress, waivers: readonly PackWaiver[] = []): RulePack[] {
  return matchPacks(address, waivers)
    .filter((match) => match.applies)
    .map((match) => match.pack);
}

/** The rules of `packs` that apply to an application with these facts (every rule for null facts), in pack order. */
export function applicableRules(packs: readonly RulePack[], facts: ApplicationFacts | null): AppliedRule[] {
  return packs.flatMap((pack) => packRules(pack, facts));
}

/** How the coming first-come work (issue 54) reads the packs: what the law of the place sets. */
export interface ScreeningProcess {
  /** required: screening in order of completion is the law; one_of_two_lawful_ways: a lawful choice; null: up to the client. */
  screening_order: { setting: 'required' | 'one_of_two_lawful_ways'; rule: AppliedRule } | null;
  /** The time to supply missing items, where a rule gives one. */
  missing_items: { hours: number; setting: 'longer_only' | 'fixed'; rule: AppliedRule } | null;
  /** The time to accept an offer, where a rule gives one. */
  offer_acceptance: { hours: number; setting: 'longer_only' | 'fixed'; rule: AppliedRule } | null;
  /** The rules that require the criteria to be given before anything is asked of an applicant. */
  criteria_before_applying: AppliedRule[];
}

export function screeningProcess(packs: readonly RulePack[]): ScreeningProcess {
  const process: ScreeningProcess = {
    screening_order: null,
    missing_items: null,
    offer_acceptance: null,
    criteria_before_applying: [],
  };
  for (const rule of applicableRules(packs, null)) {
    const effect = rule.effect;
    if (effect.kind === 'screening_order' && process.screening_order?.setting !== 'required')
      process.screening_order = { setting: effect.setting, rule };
    // The longest time any applicable rule gives is the one that satisfies them all.
    if (effect.kind === 'missing_items_time' && effect.hours > (process.missing_items?.hours ?? 0))
      process.missing_items = { hours: effect.hours, setting: effect.setting, rule };
    if (effect.kind === 'offer_acceptance_time' && effect.hours > (process.offer_acceptance?.hours ?? 0))
      process.offer_acceptance = { hours: effect.hours, setting: effect.setting, rule };
    if (effect.kind === 'criteria_before_applying') process.criteria_before_applying.push(rule);
  }
  return process;
}
