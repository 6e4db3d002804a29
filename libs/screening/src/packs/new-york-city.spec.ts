import { declineUnder, DeclineCase } from '../screening.testing';
import { applicablePacks, NEW_YORK_CITY } from '.';
import { PropertyAddress } from './types';

describe('New York City rule pack', () => {
  it.each<[PropertyAddress, boolean, boolean]>([
    [{ state: 'NY', city: 'New York', zip: '10027' }, true, true],
    [{ state: 'NY', city: 'Brooklyn', zip: '11215' }, true, true],
    // Queens addresses name their neighbourhood: the ZIP code says it is the city.
    [{ state: 'NY', city: 'Flushing', zip: '11354' }, true, true],
    [{ state: 'NY', city: 'Glen Oaks', zip: '11004' }, true, true],
    [{ state: 'NY', city: 'Staten Island' }, true, true],
    [{ state: 'NY', county: 'Kings County', city: 'Brooklyn' }, true, true],
    [{ state: 'NY', county: 'Nassau', city: 'Floral Park', zip: '11001' }, false, true],
    [{ state: 'NY', city: 'Floral Park', zip: '11001' }, true, false],
    [{ state: 'NY', city: 'Yonkers', zip: '10701' }, false, true],
    [{ state: 'NY', city: 'Hempstead', zip: '11550' }, false, true],
    [{ state: 'NJ', city: 'New York' }, false, true],
  ])('%j: applies %s (certain %s)', (address, applies, certain) => {
    const coverage = NEW_YORK_CITY.covers(address);
    expect([coverage.applies, coverage.certain]).toEqual([applies, certain]);
  });

  it('applies with the federal baseline alone: no New York State pack yet', () => {
    expect(applicablePacks({ state: 'NY', city: 'Brooklyn', zip: '11215' }).map((pack) => pack.id)).toEqual([
      'us-federal',
      'us-ny-nyc',
    ]);
  });

  const cases: DeclineCase[] = [
    {
      clause: 'Admin. Code § 8-107(5): lawful source of income',
      codes: ['source_of_income'],
      offer: true,
      expected: { refused: 'us-ny-nyc/source_of_income' },
    },
    {
      clause: 'Local Law 24 of 2024: no criminal background check before a conditional offer',
      codes: ['criminal_conviction'],
      offer: false,
      expected: { refused: 'us-ny-nyc/no_criminal_history_before_offer' },
    },
    {
      clause: 'Local Law 24 of 2024: registry information is reviewable only after a conditional offer too',
      codes: ['sex_offender_registry'],
      offer: false,
      expected: { refused: 'us-ny-nyc/no_criminal_history_before_offer' },
    },
    {
      clause: 'Local Law 24 of 2024: an arrest is not reviewable criminal history, before or after the offer',
      codes: ['arrest_record'],
      offer: true,
      expected: { refused: 'us-ny-nyc/arrest_records' },
    },
    {
      clause:
        'Local Law 24 of 2024, the Fair Chance Process: withdrawing an offer on reviewable history needs an individualized assessment',
      codes: ['criminal_conviction', 'sex_offender_registry'],
      offer: true,
      expected: { note: 'us-ny-nyc/fair_chance_process,us-ny-nyc/fair_chance_process' },
    },
    {
      clause: 'Local Law 24 of 2024 leaves the general eligibility review before the offer as it was',
      codes: ['eviction_history', 'income_below_minimum'],
      offer: false,
      expected: 'allowed',
    },
  ];

  it.each(cases)('$clause', (row) => {
    expect(declineUnder([NEW_YORK_CITY], row)).toEqual(row.expected);
  });
});
