import { assess } from '../assess';
import { AT, application, criteria, declineUnder, DeclineCase, earning } from '../screening.testing';
import { applicablePacks, screeningProcess, SEATTLE, WASHINGTON } from '.';
import { PropertyAddress } from './types';

describe('Seattle rule pack', () => {
  describe('applies by the address', () => {
    it.each<[PropertyAddress, boolean, boolean, string]>([
      [{ state: 'WA', city: 'Seattle', zip: '98103' }, true, true, 'The property is in the city of Seattle, Washington.'],
      [
        { state: 'Washington', city: ' city of seattle ', zip: '' },
        true,
        true,
        'The property is in the city of Seattle, Washington.',
      ],
      [{ state: 'WA', city: 'Bellevue', zip: '98004' }, false, true, 'The property is not in the city of Seattle, Washington.'],
      [{ state: 'OR', city: 'Seattle' }, false, true, 'The property is not in Washington.'],
      [{ country: 'Canada', state: 'WA', city: 'Seattle' }, false, true, 'The property is not in the United States.'],
      [
        { state: 'WA', city: '', zip: '98146-1234' },
        true,
        false,
        'The property’s ZIP code 98146 may lie in Seattle, Washington; its city is not given, so the pack applies until it is.',
      ],
      [
        { state: 'WA', city: '', zip: '99201' },
        false,
        true,
        'The property’s ZIP code 99201 does not lie in Seattle, Washington.',
      ],
      [{ state: 'WA' }, false, false, 'The property’s address does not say whether it is in Seattle, Washington.'],
    ])('%j: applies %s (certain %s)', (address, applies, certain, explanation) => {
      const coverage = SEATTLE.covers(address);
      expect([coverage.applies, coverage.certain, coverage.explanation.text]).toEqual([applies, certain, explanation]);
    });

    it('comes with Washington State’s pack and the federal baseline', () => {
      expect(applicablePacks({ state: 'WA', city: 'Seattle' }).map((pack) => pack.id)).toEqual([
        'us-federal',
        'us-wa',
        'us-wa-seattle',
      ]);
    });
  });

  // Each case cites the clause it comes from (docs/screening.md links each text).
  const cases: DeclineCase[] = [
    {
      clause: 'SMC 14.09.025 (Ord. 125393): no adverse action based on a conviction record, before or after any offer',
      codes: ['criminal_conviction'],
      offer: false,
      expected: { refused: 'us-wa-seattle/fair_chance_housing' },
    },
    {
      clause: 'SMC 14.09.025: the prohibition does not end with an offer (Seattle has no conditional-offer stage)',
      codes: ['criminal_conviction'],
      offer: true,
      expected: { refused: 'us-wa-seattle/fair_chance_housing' },
    },
    {
      clause: 'SMC 14.09.025: no adverse action based on an arrest record',
      codes: ['income_below_minimum', 'arrest_record'],
      offer: true,
      expected: { refused: 'us-wa-seattle/fair_chance_housing' },
    },
    {
      clause: 'SMC 14.09.025: registry information about an adult conviction only with a legitimate business reason',
      codes: ['sex_offender_registry'],
      offer: false,
      expected: { note: 'us-wa-seattle/registry_legitimate_business_reason' },
    },
    {
      clause: 'SMC 14.08.040 (Ord. 125114): no discrimination based on an alternative source of income or a subsidy',
      codes: ['source_of_income'],
      offer: false,
      expected: { refused: 'us-wa-seattle/source_of_income' },
    },
    {
      clause: 'SMC 14.08.050: screening on the published criteria (income, credit) stays the landlord’s to decide',
      codes: ['income_below_minimum', 'credit_history'],
      offer: false,
      expected: 'allowed',
    },
  ];

  it.each(cases)('$clause', (row) => {
    expect(declineUnder([SEATTLE], row)).toEqual(row.expected);
  });

  describe('first-in-time (SMC 14.08.050)', () => {
    it('requires screening in the order completed, at least 72 hours for missing items and 48 hours to accept', () => {
      const process = screeningProcess([SEATTLE]);
      expect(process.screening_order).toMatchObject({ setting: 'required', rule: { id: 'first_in_time' } });
      expect(process.missing_items).toMatchObject({ hours: 72, setting: 'longer_only' });
      expect(process.offer_acceptance).toMatchObject({ hours: 48, setting: 'fixed' });
      expect(process.criteria_before_applying.map((rule) => `${rule.pack_id}/${rule.id}`)).toEqual([
        'us-wa-seattle/criteria_before_applying',
      ]);
    });

    it('leaves screening order to the client where no pack requires it', () => {
      expect(screeningProcess([WASHINGTON])).toMatchObject({
        screening_order: null,
        missing_items: null,
        offer_acceptance: null,
      });
    });
  });

  it('judges a voucher holder on their share in Seattle through Washington State’s rule', () => {
    const facts = application({ housing_voucher: { monthly_amount: 700 }, applicants: [earning(1, 900)] });
    const notCounted = criteria({ income: { minimum_ratio: 3, counts: { housing_voucher: false } } });
    const income = assess(notCounted, facts, applicablePacks({ state: 'WA', city: 'Seattle' }), AT).checks[0];
    expect([income.result, income.rule?.pack_id]).toEqual(['meets', 'us-wa']);
  });
});
