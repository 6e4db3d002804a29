import { ApplicantRecord } from './application';
import { incomeFigures, judgedRent, ratio, statedMonthlyIncome } from './income-to-rent';

function person(id: number, type: ApplicantRecord['type'], employment?: { jobs: number[]; other: number[] }): ApplicantRecord {
  const sections = employment
    ? {
        employment: JSON.stringify({
          employment: employment.jobs.map((monthly_income, i) => ({
            employer: `E${i}`,
            start_date: '2020-01-01',
            monthly_income,
          })),
          other_income: employment.other.map((monthly_amount, i) => ({ source: `S${i}`, monthly_amount })),
        }),
      }
    : null;
  return { id, type, first_name: 'A', last_name: 'B', email: 'a@example.com', form_sections: sections } as ApplicantRecord;
}

describe('income to rent', () => {
  it('judges against the floor plan’s rent, else the rent the caller specified', () => {
    expect(judgedRent(1850, 1500)).toBe(1850);
    expect(judgedRent(null, 1500)).toBe(1500);
    expect(judgedRent(null, undefined)).toBeNull();
    expect(judgedRent(0, 1500)).toBe(0);
  });

  it('sums each person’s employment and other income; none until the section is saved', () => {
    expect(statedMonthlyIncome(person(1, 'primary', { jobs: [5200, 800.5], other: [400] }))).toBe(6400.5);
    expect(statedMonthlyIncome(person(1, 'primary', { jobs: [], other: [] }))).toBe(0);
    expect(statedMonthlyIncome(person(1, 'primary'))).toBeNull();
  });

  it('divides to two decimals, and has no ratio without both figures or with a rent of 0', () => {
    expect(ratio(5600, 1850)).toBe(3.03);
    expect(ratio(null, 1850)).toBeNull();
    expect(ratio(5600, null)).toBeNull();
    expect(ratio(5600, 0)).toBeNull();
  });

  it('sums the household without the guarantors, and is null while one of the household stated nothing', () => {
    const primary = person(1, 'primary', { jobs: [3000], other: [] });
    const co = person(2, 'co_applicant', { jobs: [1500], other: [500] });
    const guarantor = person(3, 'guarantor', { jobs: [9000], other: [] });
    const figures = incomeFigures([primary, co, guarantor], 2000);
    expect({ ...figures, applicants: Object.fromEntries(figures.applicants) }).toEqual({
      rent: 2000,
      household_monthly_income: 5000,
      income_to_rent: 2.5,
      applicants: {
        1: { monthly_income: 3000, income_to_rent: 1.5 },
        2: { monthly_income: 2000, income_to_rent: 1 },
        3: { monthly_income: 9000, income_to_rent: 4.5 },
      },
    });
    const silent = incomeFigures([primary, person(2, 'co_applicant'), guarantor], 2000);
    expect([silent.household_monthly_income, silent.income_to_rent]).toEqual([null, null]);
    expect(silent.applicants.get(2)).toEqual({ monthly_income: null, income_to_rent: null });
    // A guarantor who stated nothing does not hold the household up.
    expect(incomeFigures([primary, person(3, 'guarantor')], null)).toMatchObject({
      household_monthly_income: 3000,
      income_to_rent: null,
    });
  });
});
