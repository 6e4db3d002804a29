import { assess } from '../assess';
import { AT, application, criteria, declineUnder, DeclineCase, earning } from '../screening.testing';
import { screeningProcess, WASHINGTON } from '.';

describe('Washington State rule pack', () => {
  it.each([
    [{ state: 'WA', city: 'Spokane' }, true],
    [{ state: 'washington' }, true],
    [{ state: 'W.A.' }, false],
    [{ state: 'CA', city: 'Washington' }, false],
    [{ country: 'US', state: 'wa' }, true],
  ])('%j: applies %s', (address, applies) => {
    expect(WASHINGTON.covers(address).applies).toBe(applies);
  });

  const cases: DeclineCase[] = [
    {
      clause: 'RCW 59.18.255: no refusal of an otherwise eligible applicant based on source of income',
      codes: ['source_of_income'],
      offer: false,
      expected: { refused: 'us-wa/source_of_income' },
    },
    {
      clause: 'RCW 59.18.255 protects the source of income, not a low income: a decline on the minimum stands',
      codes: ['income_below_minimum'],
      offer: false,
      expected: 'allowed',
    },
    {
      clause: 'Chapter 59.18 RCW sets no statewide rule on criminal history in screening',
      codes: ['criminal_conviction'],
      offer: false,
      expected: 'allowed',
    },
  ];

  it.each(cases)('$clause', (row) => {
    expect(declineUnder([WASHINGTON], row)).toEqual(row.expected);
  });

  describe('RCW 59.18.255: a rent voucher is subtracted from the rent before income is compared with it', () => {
    const notCounted = criteria({ income: { minimum_ratio: 2, counts: { housing_voucher: false } } });

    it.each([
      // Twice the rent of $1,000, of which a voucher pays $900: the tenant needs twice $100.
      [900, 200, 'meets'],
      [900, 199.99, 'does_not_meet'],
      // A voucher of $600 on $1,000: twice the $400 share.
      [600, 800, 'meets'],
    ])('voucher $%d, income $%d: %s', (voucher, monthly, result) => {
      const facts = application({ housing_voucher: { monthly_amount: voucher }, applicants: [earning(1, monthly)] });
      expect(assess(notCounted, facts, [WASHINGTON], AT).checks[0].result).toBe(result);
    });

    it('leaves the rent whole for an applicant without a voucher', () => {
      const facts = application({ applicants: [earning(1, 1999)] });
      expect(assess(notCounted, facts, [WASHINGTON], AT).checks[0].result).toBe('does_not_meet');
    });
  });

  it('RCW 59.18.257(1): requires the criteria before any information is taken, not screening in order', () => {
    const process = screeningProcess([WASHINGTON]);
    expect(process.criteria_before_applying.map((rule) => rule.id)).toEqual(['criteria_before_applying']);
    expect(process.screening_order).toBeNull();
  });
});
