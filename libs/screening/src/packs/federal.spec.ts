import { SCREENING_REASON_CODES } from '@app/contracts';
import { declineUnder, DeclineCase } from '../screening.testing';
import { applicablePacks, FEDERAL } from '.';

describe('federal baseline rule pack', () => {
  it.each([
    [{ state: 'TX', city: 'Austin' }, true],
    [{ country: 'USA', state: 'OH' }, true],
    [{ country: 'United States of America' }, true],
    [{}, true],
    [{ country: 'MX', state: 'Jalisco' }, false],
  ])('%j: applies %s', (address, applies) => {
    expect(FEDERAL.covers(address).applies).toBe(applies);
  });

  it('is the only pack where no state or local pack applies', () => {
    expect(applicablePacks({ state: 'TX', city: 'Austin', zip: '78701' }).map((pack) => pack.id)).toEqual(['us-federal']);
  });

  const cases: DeclineCase[] = [
    {
      clause: 'Fair Housing Act, 42 U.S.C. § 3604: source of income is not a protected class',
      codes: ['source_of_income'],
      offer: false,
      expected: 'allowed',
    },
    {
      clause: '15 U.S.C. § 1681m(a): a decline on a consumer report is lawful, with its notice',
      codes: ['credit_history', 'eviction_history'],
      offer: false,
      expected: 'allowed',
    },
  ];

  it.each(cases)('$clause', (row) => {
    expect(declineUnder([FEDERAL], row)).toEqual(row.expected);
  });

  it('refuses no reason code anywhere', () => {
    for (const code of SCREENING_REASON_CODES)
      expect(declineUnder([FEDERAL], { clause: code, codes: [code], offer: false, expected: 'allowed' })).toBe('allowed');
  });

  it('63 FR 70256: two persons per bedroom as the occupancy baseline', () => {
    expect(FEDERAL.rules.find((rule) => rule.id === 'occupancy_two_per_bedroom')?.effect).toEqual({
      kind: 'occupancy_baseline',
      persons_per_bedroom: 2,
    });
  });

  it('15 U.S.C. § 1681m(a): names the reasons that rest on a consumer report', () => {
    expect(FEDERAL.rules.find((rule) => rule.id === 'adverse_action_notice')?.effect).toEqual({
      kind: 'adverse_action_notice',
      reason_codes: ['credit_history', 'eviction_history', 'criminal_conviction', 'arrest_record', 'sex_offender_registry'],
    });
  });
});
