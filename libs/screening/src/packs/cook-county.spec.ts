import { declineUnder, DeclineCase } from '../screening.testing';
import { COOK_COUNTY, screeningProcess } from '.';
import { PropertyAddress } from './types';

describe('Cook County rule pack', () => {
  it.each<[PropertyAddress, boolean, boolean]>([
    [{ state: 'IL', county: 'Cook County', city: 'Evanston', zip: '60201' }, true, true],
    [{ state: 'IL', county: 'DuPage', city: 'Naperville', zip: '60540' }, false, true],
    [{ state: 'IL', city: 'Chicago', zip: '60614' }, true, true],
    [{ state: 'Illinois', city: 'chicago' }, true, true],
    // Without a county, a Chicago-area ZIP code may be Cook County's or a neighbour's.
    [{ state: 'IL', city: 'Oak Park', zip: '60302' }, true, false],
    [{ state: 'IL', city: 'Springfield', zip: '62701' }, false, true],
    [{ state: 'IN', city: 'Chicago' }, false, true],
  ])('%j: applies %s (certain %s)', (address, applies, certain) => {
    const coverage = COOK_COUNTY.covers(address);
    expect([coverage.applies, coverage.certain]).toEqual([applies, certain]);
  });

  const cases: DeclineCase[] = [
    {
      clause: 'Human Rights Ordinance § 42-38: source of income, housing choice vouchers included (2013 amendment)',
      codes: ['source_of_income'],
      offer: true,
      expected: { refused: 'us-il-cook-county/source_of_income' },
    },
    {
      clause: 'Just Housing Amendment (Ord. 19-2394): arrest records are never considered',
      codes: ['arrest_record'],
      offer: true,
      expected: { refused: 'us-il-cook-county/arrest_and_juvenile_records' },
    },
    {
      clause: 'Just Housing Amendment, step one: criminal history is not screened before prequalification',
      codes: ['criminal_conviction'],
      offer: false,
      expected: { refused: 'us-il-cook-county/criminal_history_after_prequalification' },
    },
    {
      clause:
        'Just Housing Amendment, step two: after prequalification, a denial on a conviction follows an individualized assessment',
      codes: ['criminal_conviction'],
      offer: true,
      expected: { note: 'us-il-cook-county/individualized_assessment' },
    },
    {
      clause: 'Just Housing Amendment: a current duty to register as a sex offender may ground a denial',
      codes: ['sex_offender_registry'],
      offer: true,
      expected: 'allowed',
    },
    {
      clause: 'Just Housing Amendment, step one: prequalification on income, credit and rental history',
      codes: ['credit_history', 'income_below_minimum'],
      offer: false,
      expected: 'allowed',
    },
  ];

  it.each(cases)('$clause', (row) => {
    expect(declineUnder([COOK_COUNTY], row)).toEqual(row.expected);
  });

  it('procedural rules § 730.100: the selection criteria come before an application fee', () => {
    expect(screeningProcess([COOK_COUNTY]).criteria_before_applying.map((rule) => rule.id)).toEqual(['criteria_before_applying']);
    expect(screeningProcess([COOK_COUNTY]).screening_order).toBeNull();
  });
});
