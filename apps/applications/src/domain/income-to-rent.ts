import { EmploymentSectionInput } from '@app/contracts';
import { ApplicantRecord } from './application';

/** What an application is judged on: the rent, each person's stated income, and their ratios. */
export interface IncomeFigures {
  rent: number | null;
  /** The primary applicant's and co-applicants' incomes summed; null when one of them stated none. */
  household_monthly_income: number | null;
  income_to_rent: number | null;
  /** By applicant id: its own income and ratio. */
  applicants: Map<number, { monthly_income: number | null; income_to_rent: number | null }>;
}

/**
 * The rent an application is judged against: its floor plan's rent when one is chosen and has a
 * rent, else the rent the caller specified; null when neither is known.
 */
export function judgedRent(floorPlanRent: number | null, userSpecifiedRent: number | null | undefined): number | null {
  return floorPlanRent ?? userSpecifiedRent ?? null;
}

/**
 * An applicant's stated monthly income: its employment's monthly incomes and its other incomes'
 * monthly amounts summed, from the employment section of the form; null until that section is
 * saved (an applicant who saved it with no entries states an income of 0).
 */
export function statedMonthlyIncome(applicant: ApplicantRecord): number | null {
  const saved = applicant.form_sections?.employment;
  if (!saved) return null;
  const section = JSON.parse(saved) as EmploymentSectionInput;
  const earned = (section.employment ?? []).reduce((sum, entry) => sum + entry.monthly_income, 0);
  const other = (section.other_income ?? []).reduce((sum, entry) => sum + entry.monthly_amount, 0);
  return roundCents(earned + other);
}

/** Income divided by rent, to two decimals; null when either is unknown or the rent is 0. */
export function ratio(income: number | null, rent: number | null): number | null {
  if (income === null || rent === null || rent === 0) return null;
  return Math.round((income / rent) * 100) / 100;
}

/**
 * The figures of an application whose applicants carry their form progress (withFormProgress).
 * The household is the primary applicant and the co-applicants, who will live there; guarantors
 * guarantee the rent without living there, so their income counts for them alone.
 */
export function incomeFigures(applicants: ApplicantRecord[], rent: number | null): IncomeFigures {
  const incomes = new Map(applicants.map((applicant) => [applicant.id, statedMonthlyIncome(applicant)]));
  const household = applicants
    .filter((applicant) => applicant.type !== 'guarantor')
    .map((applicant) => incomes.get(applicant.id)!);
  const householdIncome = household.some((income) => income === null)
    ? null
    : roundCents(household.reduce<number>((sum, income) => sum + income!, 0));
  return {
    rent,
    household_monthly_income: householdIncome,
    income_to_rent: ratio(householdIncome, rent),
    applicants: new Map(
      applicants.map((applicant) => {
        const income = incomes.get(applicant.id)!;
        return [applicant.id, { monthly_income: income, income_to_rent: ratio(income, rent) }];
      }),
    ),
  };
}

function roundCents(amount: number): number {
  return Math.round(amount * 100) / 100;
}
