import { ScreeningCriteria } from '../criteria';
import { ApplicationFacts, householdApplicants } from '../facts';
import { MessageValues, sentence } from '../messages';
import { AssessmentCheck, Figures, resultOf } from './check';

export const OCCUPANCY_MESSAGES = {
  'check.occupancy.meets':
    '{occupants, plural, one {# person} other {# people}} will live in the home, within its limit of {limit}.',
  'check.occupancy.over':
    '{occupants, plural, one {# person} other {# people}} would live in the home, more than its limit of {limit} ' +
    '({persons} per bedroom).',
  'check.occupancy.household_not_stated': 'Who will live in the home has not been stated yet.',
  'check.occupancy.bedrooms_unknown':
    'The number of bedrooms of this home is not known yet, so the household cannot be compared with it.',
} as const;

/**
 * The occupancy check: the applicants who will live there (guarantors do not) and the children
 * counted, against persons per bedroom times the bedrooms, a studio counting as one.
 */
export function occupancyCheck(criteria: ScreeningCriteria, facts: ApplicationFacts): AssessmentCheck {
  const { persons_per_bedroom: persons, children_under_age_not_counted: underAge } = criteria.occupancy;
  const figures: Figures = { bedrooms: facts.bedrooms, persons_per_bedroom: persons };
  const check = (id: keyof typeof OCCUPANCY_MESSAGES, code: AssessmentCheck['reason_code'], values: MessageValues = {}) => ({
    criterion: 'occupancy' as const,
    applicant_id: null,
    result: resultOf(code),
    reason_code: code,
    figures,
    explanation: sentence(OCCUPANCY_MESSAGES, id, values),
    rule: null,
  });
  if (facts.minors === null) return check('check.occupancy.household_not_stated', 'household_not_stated');
  if (facts.bedrooms === null) return check('check.occupancy.bedrooms_unknown', 'bedrooms_unknown');

  const counted = facts.minors.filter((minor) => underAge === null || minor.age >= underAge).length;
  const occupants = householdApplicants(facts).length + counted;
  const limit = persons * Math.max(1, Math.floor(facts.bedrooms));
  Object.assign(figures, { occupants, children_not_counted: facts.minors.length - counted, maximum_occupants: limit });
  return occupants <= limit
    ? check('check.occupancy.meets', null, { occupants, limit })
    : check('check.occupancy.over', 'occupancy_over_limit', { occupants, limit, persons });
}
