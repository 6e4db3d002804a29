import { ScreeningCriteria } from '../criteria';
import { ApplicantFacts, ApplicationFacts, guarantors, householdApplicants, roundCents } from '../facts';
import { MessageValues, sentence } from '../messages';
import { AppliedRule } from '../packs/types';
import { AssessmentCheck, Figures, resultOf, ruleReference } from './check';

export const INCOME_MESSAGES = {
  'check.income.meets':
    'Your household’s monthly income of {income, number, currency} meets the minimum of {required, number, currency}, ' +
    '{ratio} times {basis, select, share {your share of the rent, {rent, number, currency}} other {the rent of {rent, number, currency}}}.',
  'check.income.voucher_pays_rent': 'Your housing voucher pays the whole rent, so no minimum income applies.',
  'check.income.below':
    'Your household’s monthly income of {income, number, currency} is below the minimum of {required, number, currency}, ' +
    '{ratio} times {basis, select, share {your share of the rent, {rent, number, currency}} other {the rent of {rent, number, currency}}}.',
  'check.income.below_guarantor_possible':
    'Your household’s monthly income of {income, number, currency} is below the minimum of {required, number, currency}; ' +
    'a guarantor with a monthly income of at least {guarantor_required, number, currency} could qualify you instead.',
  'check.income.guarantor_meets':
    'Your household’s income is below its minimum, but your guarantors’ monthly income of {guarantor_income, number, currency} ' +
    'meets theirs, {guarantor_required, number, currency}.',
  'check.income.guarantor_below':
    'Your household’s monthly income of {income, number, currency} is below its minimum of {required, number, currency}, and ' +
    'your guarantors’ monthly income of {guarantor_income, number, currency} is below theirs, {guarantor_required, number, currency}.',
  'check.income.not_stated':
    'Not every applicant has stated their income yet; what is stated so far, {income, number, currency} a month, is below ' +
    'the minimum of {required, number, currency}.',
  'check.income.guarantor_not_stated':
    'Your household’s monthly income of {income, number, currency} is below the minimum of {required, number, currency}, ' +
    'and your guarantor has not stated their income yet.',
  'check.income.rent_unknown': 'The rent of this home is not known yet, so income cannot be compared with it.',
} as const;

type IncomeMessage = keyof typeof INCOME_MESSAGES;

/** What several people state together: the sum of what is known, and how many have stated nothing yet. */
interface Stated {
  known: number;
  unstated: number;
}

/**
 * The income check: the household's counted income against the minimum ratio times the rent
 * judged (the rent less a housing voucher where the voucher counts, by the criteria or by a rule);
 * failing that, the guarantors' against theirs. Income only adds up, so what is stated so far
 * meeting the minimum meets it even while someone has not stated theirs.
 */
export function incomeCheck(
  criteria: ScreeningCriteria,
  facts: ApplicationFacts,
  rules: readonly AppliedRule[],
): AssessmentCheck | null {
  const income = criteria.income;
  if (income === null) return null;
  const rent = facts.monthly_rent;
  const voucher = facts.housing_voucher?.monthly_amount ?? 0;
  const shareRule = rules.find((rule) => rule.effect.kind === 'income_on_tenant_share');
  const voucherCounts = voucher > 0 && (income.counts.housing_voucher || shareRule !== undefined);
  const overridingRule = voucherCounts && !income.counts.housing_voucher && shareRule ? ruleReference(shareRule) : null;
  const figures: Figures = {
    monthly_rent: rent,
    housing_voucher: voucher > 0 ? voucher : null,
    minimum_ratio: income.minimum_ratio,
  };
  const check = (id: IncomeMessage, code: AssessmentCheck['reason_code'], values: MessageValues = {}): AssessmentCheck => ({
    criterion: 'income',
    applicant_id: null,
    result: resultOf(code),
    reason_code: code,
    figures,
    explanation: sentence(INCOME_MESSAGES, id, values),
    // Nothing was judged without a rent, so no rule changed how.
    rule: rent === null ? null : overridingRule,
  });
  if (rent === null) return check('check.income.rent_unknown', 'rent_unknown');

  const judged = voucherCounts ? roundCents(Math.max(0, rent - voucher)) : rent;
  const required = roundCents(income.minimum_ratio * judged);
  const household = stated(householdApplicants(facts), criteria);
  Object.assign(figures, { rent_judged: judged, required_monthly_income: required, household_monthly_income: household.known });
  if (judged === 0) return check('check.income.voucher_pays_rent', null);
  const values = {
    income: household.known,
    required,
    ratio: income.minimum_ratio,
    rent: judged,
    basis: voucherCounts ? 'share' : 'rent',
  };
  if (household.known >= required) return check('check.income.meets', null, values);
  if (household.unstated > 0) return check('check.income.not_stated', 'income_not_stated', values);

  const guarantor = criteria.guarantor;
  if (guarantor === null) return check('check.income.below', 'income_below_minimum', values);
  const guarantorRequired = roundCents(guarantor.minimum_ratio * judged);
  Object.assign(figures, {
    guarantor_minimum_ratio: guarantor.minimum_ratio,
    guarantor_required_monthly_income: guarantorRequired,
  });
  const backers = guarantors(facts);
  if (backers.length === 0)
    return check('check.income.below_guarantor_possible', 'income_below_minimum', {
      ...values,
      guarantor_required: guarantorRequired,
    });
  const backing = stated(backers, criteria);
  figures.guarantor_monthly_income = backing.known;
  const guarantorValues = { ...values, guarantor_income: backing.known, guarantor_required: guarantorRequired };
  if (backing.known >= guarantorRequired) return check('check.income.guarantor_meets', null, guarantorValues);
  if (backing.unstated > 0) return check('check.income.guarantor_not_stated', 'guarantor_income_not_stated', values);
  return check('check.income.guarantor_below', 'income_below_minimum', guarantorValues);
}

function stated(applicants: readonly ApplicantFacts[], criteria: ScreeningCriteria): Stated {
  const counts = criteria.income!.counts;
  let known = 0;
  let unstated = 0;
  for (const applicant of applicants) {
    if (applicant.employment === null || applicant.other_income === null) {
      unstated += 1;
      continue;
    }
    if (counts.employment) known += applicant.employment.reduce((sum, entry) => sum + entry.monthly_income, 0);
    if (counts.other_income) known += applicant.other_income.reduce((sum, entry) => sum + entry.monthly_amount, 0);
  }
  return { known: roundCents(known), unstated };
}
