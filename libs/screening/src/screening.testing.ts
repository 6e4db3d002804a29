import { ScreeningReasonCode } from '@app/contracts';
import { VersionedScreeningCriteria, withDefaults, ScreeningCriteriaGiven } from './criteria';
import { checkDecline } from './decline-check';
import { ApplicantFacts, ApplicationFacts } from './facts';
import { RulePack } from './packs/types';

/** Builders for the specs: an application and a criteria set as plain as can be, changed by what a case names. */

/** An applicant who stated an income from work, has a social security number and uploaded nothing. */
export function applicant(id: number, changes: Partial<ApplicantFacts> = {}): ApplicantFacts {
  return {
    id,
    type: id === 1 ? 'primary' : 'co_applicant',
    employment: [{ monthly_income: 0 }],
    other_income: [],
    id_number_type: 'ssn',
    documents: [],
    ...changes,
  };
}

/** One who earns `monthly` from work. */
export function earning(id: number, monthly: number, changes: Partial<ApplicantFacts> = {}): ApplicantFacts {
  return applicant(id, { employment: [{ monthly_income: monthly }], ...changes });
}

/** A one-bedroom home at $1,000 a month, applied for by one applicant earning $3,000, no children, no voucher. */
export function application(changes: Partial<ApplicationFacts> = {}): ApplicationFacts {
  return {
    monthly_rent: 1000,
    bedrooms: 1,
    housing_voucher: null,
    minors: [],
    applicants: [earning(1, 3000)],
    ...changes,
  };
}

/** A stored criteria set (id 7, version 2) from what a request would give. */
export function criteria(given: ScreeningCriteriaGiven = {}): VersionedScreeningCriteria {
  return { id: 7, version: 2, ...withDefaults(given) };
}

/** Three times the rent, everything counting. */
export const THREE_TIMES = { minimum_ratio: 3 } as const;

export const AT = new Date('2026-11-22T14:03:09Z');

/**
 * A row of a pack's table of cases taken from its sources: the clause it comes from (cited, not
 * quoted), and what a decline naming `codes` gets where the pack applies.
 */
export interface DeclineCase {
  clause: string;
  codes: ScreeningReasonCode[];
  offer: boolean;
  voucher?: boolean;
  /** refused by the rule, needs a note by the rule, or allowed by the pack. */
  expected: { refused: string } | { note: string } | 'allowed';
}

/** What the pack's rules alone make of a decline: no assessment and no criteria, so that only rules speak. */
export function declineUnder(packs: readonly RulePack[], row: DeclineCase): DeclineCase['expected'] {
  const facts = application({ housing_voucher: row.voucher ? { monthly_amount: 500 } : null });
  const check = checkDecline({
    reason_codes: row.codes,
    assessment: null,
    criteria: null,
    packs,
    facts,
    conditional_offer_made: row.offer,
  });
  if (check.outcome === 'allowed') return 'allowed';
  if (check.outcome === 'refused') return { refused: `${check.rule.pack_id}/${check.rule.rule_id}` };
  const rules = check.because.flatMap((requirement) => (requirement.kind === 'rule' ? [requirement.rule] : []));
  return { note: rules.map((rule) => `${rule.pack_id}/${rule.rule_id}`).join(',') };
}
