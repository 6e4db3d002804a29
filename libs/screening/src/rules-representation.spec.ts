import { PropertyRulesRepresentation } from '@app/contracts';
import { propertyRulesRepresentation } from './rules-representation';

describe('propertyRulesRepresentation', () => {
  const waiver = {
    pack_id: 'us-federal',
    reason: 'A test of the waiver, with a reason.',
    waived_at: '2026-11-22T14:03:09+00:00',
  } as const;
  const rules: PropertyRulesRepresentation = propertyRulesRepresentation(3, { state: 'CA', city: 'Oakland', zip: '94612' }, [
    waiver,
  ]);

  it('names the property and the address matched, US where no country is given', () => {
    expect(Object.keys(rules)).toEqual(['property_id', 'address', 'packs']);
    expect(rules.address).toEqual({ country: 'US', state: 'CA', county: '', city: 'Oakland', zip: '94612' });
  });

  it('lists the packs that apply first, then every other with why not', () => {
    expect(rules.packs.map((pack) => [pack.id, pack.coverage.applies, pack.waived !== null])).toEqual([
      ['us-ca', true, false],
      ['us-federal', true, true],
      ['us-wa', false, false],
      ['us-wa-seattle', false, false],
      ['us-il-cook-county', false, false],
      ['us-ny-nyc', false, false],
    ]);
    expect(rules.packs[2].coverage).toEqual({
      applies: false,
      certain: true,
      basis: 'state',
      explanation: 'The property is not in Washington.',
    });
    expect(rules.packs[1].waived).toEqual({ reason: waiver.reason, waived_at: waiver.waived_at });
  });

  it('gives each rule with its effect, its condition and its source', () => {
    const california = rules.packs[0];
    expect(Object.keys(california)).toEqual(['id', 'version', 'name', 'coverage', 'waived', 'sources', 'rules']);
    expect(california.rules.find((rule) => rule.id === 'alternative_to_credit_history')).toEqual({
      id: 'alternative_to_credit_history',
      title: 'Alternative evidence of ability to pay in place of credit history',
      summary: expect.stringContaining('rent subsidy'),
      applies_when: 'When an applicant has a housing voucher or another rent subsidy.',
      effect: {
        kind: 'requires_individualized_note',
        reason_codes: ['credit_history'],
        until: null,
        hours: null,
        persons_per_bedroom: null,
        setting: null,
      },
      source: {
        title: 'Credit history of persons receiving government rent subsidies (SB 267)',
        citation: 'California Government Code § 12955(o) as amended by SB 267, Stats. 2023, ch. 776',
        url: 'https://leginfo.legislature.ca.gov/faces/billNavClient.xhtml?bill_id=202320240SB267',
      },
    });
    const seattle = rules.packs.find((pack) => pack.id === 'us-wa-seattle')!;
    expect(seattle.rules.find((rule) => rule.id === 'offer_48_hours')?.effect).toEqual({
      kind: 'offer_acceptance_time',
      reason_codes: [],
      until: null,
      hours: 48,
      persons_per_bedroom: null,
      setting: 'fixed',
    });
    const federal = rules.packs.find((pack) => pack.id === 'us-federal')!;
    expect(federal.rules[0].effect).toMatchObject({ kind: 'occupancy_baseline', persons_per_bedroom: 2 });
  });
});
