import { assess } from '../assess';
import { AT, application, criteria, declineUnder, DeclineCase, earning } from '../screening.testing';
import { applicableRules, CALIFORNIA, screeningProcess } from '.';

describe('California rule pack', () => {
  it.each([
    [{ state: 'CA', city: 'Oakland', zip: '94612' }, true],
    [{ state: 'California' }, true],
    [{ state: 'NV', city: 'Los Angeles' }, false],
  ])('%j: applies %s', (address, applies) => {
    expect(CALIFORNIA.covers(address).applies).toBe(applies);
  });

  const cases: DeclineCase[] = [
    {
      clause: 'Gov. Code § 12955(a), source of income as § 12955(p) defines it (vouchers included since SB 329)',
      codes: ['source_of_income'],
      offer: false,
      expected: { refused: 'us-ca/source_of_income' },
    },
    {
      clause: '2 CCR § 12269(a)(1): no adverse action based on an arrest that did not result in a conviction',
      codes: ['arrest_record'],
      offer: true,
      expected: { refused: 'us-ca/arrest_records' },
    },
    {
      clause:
        'Gov. Code § 12955(o) as amended by SB 267: credit history of a rent subsidy holder only with alternative evidence considered',
      codes: ['credit_history'],
      offer: false,
      voucher: true,
      expected: { note: 'us-ca/alternative_to_credit_history' },
    },
    {
      clause: 'SB 267 reaches only applicants with a government rent subsidy: credit history stands for others',
      codes: ['credit_history'],
      offer: false,
      voucher: false,
      expected: 'allowed',
    },
    {
      clause: '2 CCR § 12269 leaves convictions to an individualized judgement it does not forbid',
      codes: ['criminal_conviction'],
      offer: false,
      expected: 'allowed',
    },
  ];

  it.each(cases)('$clause', (row) => {
    expect(declineUnder([CALIFORNIA], row)).toEqual(row.expected);
  });

  describe('Gov. Code § 12955(o): with a government rent subsidy, income is judged on the tenant’s portion', () => {
    const notCounted = criteria({ income: { minimum_ratio: 3, counts: { housing_voucher: false } } });

    it.each([
      // Rent $2,100, the subsidy pays $1,470, the tenant $630: three times that is $1,890.
      [1890, 'meets'],
      [1889, 'does_not_meet'],
    ])('income $%d on a $2,100 rent with $1,470 subsidized: %s', (monthly, result) => {
      const facts = application({
        monthly_rent: 2100,
        housing_voucher: { monthly_amount: 1470 },
        applicants: [earning(1, monthly)],
      });
      const check = assess(notCounted, facts, [CALIFORNIA], AT).checks[0];
      expect([check.result, check.figures.rent_judged, check.figures.required_monthly_income]).toEqual([result, 630, 1890]);
    });

    it('names its rules only for an application with a subsidy', () => {
      const withVoucher = applicableRules([CALIFORNIA], application({ housing_voucher: { monthly_amount: 100 } }));
      const without = applicableRules([CALIFORNIA], application());
      expect(withVoucher.map((rule) => rule.id)).toContain('alternative_to_credit_history');
      expect(without.map((rule) => rule.id)).not.toContain('alternative_to_credit_history');
      expect(without.map((rule) => rule.id)).not.toContain('voucher_income_on_tenant_share');
    });
  });

  it('Civil Code § 1950.6 (AB 2493): screening in order is one of two lawful ways, not a requirement', () => {
    expect(screeningProcess([CALIFORNIA]).screening_order).toMatchObject({ setting: 'one_of_two_lawful_ways' });
  });
});
