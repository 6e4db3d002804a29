import { ScreeningReasonCode } from '@app/contracts';
import { assess } from './assess';
import { checkDecline, declineProblems, DeclineToCheck } from './decline-check';
import { applicablePacks, RulePack } from './packs';
import { AT, application, criteria, earning, THREE_TIMES } from './screening.testing';

const set = criteria({ income: THREE_TIMES, screening_report: ['credit_history'] });
const meeting = application();
const poor = application({ applicants: [earning(1, 1000)] });

function decline(codes: ScreeningReasonCode[], changes: Partial<DeclineToCheck> = {}): DeclineToCheck {
  const facts = changes.facts ?? meeting;
  const packs = changes.packs ?? [];
  return {
    reason_codes: codes,
    assessment: assess(set, facts, packs, AT),
    criteria: set,
    packs,
    facts,
    conditional_offer_made: false,
    ...changes,
  };
}

describe('checkDecline', () => {
  it('allows a decline on what the assessment found', () => {
    expect(checkDecline(decline(['income_below_minimum'], { facts: poor }))).toEqual({ outcome: 'allowed' });
  });

  it('allows a decline on a published part of the screening report, or on verification, of an application that meets every criterion', () => {
    expect(checkDecline(decline(['credit_history']))).toEqual({ outcome: 'allowed' });
    expect(checkDecline(decline(['income_not_verified']))).toEqual({ outcome: 'allowed' });
  });

  it('needs a note to decline an application that meets every published criterion', () => {
    expect(checkDecline(decline(['other']))).toEqual({
      outcome: 'needs_individualized_note',
      because: [{ kind: 'meets_every_criterion' }],
    });
  });

  it('needs a note for a reason the assessment judged and did not find, and for one the criteria never published', () => {
    expect(checkDecline(decline(['occupancy_over_limit'], { facts: poor }))).toEqual({
      outcome: 'needs_individualized_note',
      because: [{ kind: 'not_found_by_assessment', reason_code: 'occupancy_over_limit' }],
    });
    expect(checkDecline(decline(['income_below_minimum', 'eviction_history'], { facts: poor }))).toEqual({
      outcome: 'needs_individualized_note',
      because: [{ kind: 'not_in_published_criteria', reason_code: 'eviction_history' }],
    });
  });

  it('leaves the criteria out of it when the property names no criteria set', () => {
    expect(checkDecline(decline(['other'], { assessment: null, criteria: null }))).toEqual({ outcome: 'allowed' });
  });

  it('refuses a reason a rule of the place forbids, naming the rule, and before anything else', () => {
    const packs = applicablePacks({ state: 'NY', city: 'Brooklyn', zip: '11215' });
    const check = checkDecline(decline(['other', 'criminal_conviction'], { packs }));
    expect(check).toEqual({
      outcome: 'refused',
      reason_code: 'criminal_conviction',
      until: 'conditional_offer',
      rule: {
        pack_id: 'us-ny-nyc',
        rule_id: 'no_criminal_history_before_offer',
        version: '1.0.0',
        title: 'Criminal history only after a conditional offer',
        source: expect.objectContaining({ citation: expect.stringContaining('Local Law 24 of 2024') }),
      },
    });
    const after = checkDecline(decline(['criminal_conviction'], { packs, conditional_offer_made: true }));
    expect(after.outcome).toBe('needs_individualized_note');
  });

  it('ignores the rules of a pack that does not apply', () => {
    const texas: RulePack[] = applicablePacks({ state: 'TX' });
    expect(checkDecline(decline(['source_of_income'], { packs: texas, facts: poor })).outcome).not.toBe('refused');
  });
});

describe('declineProblems', () => {
  it('names the pack, the rule, its version and its source in a refusal', () => {
    const packs = applicablePacks({ state: 'WA', city: 'Seattle' });
    expect(declineProblems(checkDecline(decline(['arrest_record'], { packs })), 'a note')).toEqual([
      {
        field: 'decision.reason_codes',
        message:
          'must not name arrest_record: No decline on criminal history (rule fair_chance_housing of rule pack us-wa-seattle, ' +
          'version 1.0.0; Seattle Municipal Code 14.09.025 (Ordinance 125393, 2017), http://clerk.seattle.gov/search/ordinances/125393) forbids it',
      },
    ]);
    const nyc = applicablePacks({ state: 'NY', zip: '10027' });
    expect(declineProblems(checkDecline(decline(['sex_offender_registry'], { packs: nyc })), null)[0].message).toMatch(
      /forbids it before a conditional offer$/,
    );
  });

  it('asks for the note, once per requirement, until there is one', () => {
    const check = checkDecline(
      decline(['credit_history'], {
        packs: applicablePacks({ state: 'CA' }),
        facts: application({ housing_voucher: { monthly_amount: 500 } }),
      }),
    );
    expect(declineProblems(check, '  ')).toEqual([
      {
        field: 'decision.note',
        message:
          'is required for credit_history: Alternative evidence of ability to pay in place of credit history (rule ' +
          'alternative_to_credit_history of rule pack us-ca, version 1.0.0; California Government Code § 12955(o) as amended ' +
          'by SB 267, Stats. 2023, ch. 776) requires an individualized assessment',
      },
    ]);
    expect(declineProblems(check, 'Her benefit statements show she can pay her share.')).toEqual([]);
    expect(declineProblems(checkDecline(decline(['other'])), null)).toEqual([
      {
        field: 'decision.note',
        message:
          'is required: the application meets every published criterion, so declining it needs an individualized explanation',
      },
    ]);
    expect(declineProblems({ outcome: 'allowed' }, null)).toEqual([]);
  });
});
