import { MessageValues } from '../messages';

/**
 * What applicants are told where a rule applies, shown with the criteria before anyone applies
 * (criteria-text.ts). Rules of several packs that say the same share one notice, shown once.
 * Every text is a whole sentence or two, rendered by formatMessage.
 */
export const NOTICE_MESSAGES = {
  'notice.source_of_income':
    'You may not be refused because of where your income comes from, such as a housing voucher, benefits, child support or a pension.',
  'notice.voucher_tenant_share':
    'If you have a housing voucher or another rent subsidy, your income is compared only with the part of the rent you pay yourself.',
  'notice.ca_alternative_to_credit_history':
    'If you have a housing voucher or another rent subsidy and your credit history is checked, you may instead show other ' +
    'evidence that you can pay your share of the rent, such as benefit statements, pay records or bank statements. You will ' +
    'be given reasonable time to provide it, and it will be considered in place of your credit history.',
  'notice.ca_records_not_considered':
    'Arrests that did not lead to a conviction, juvenile records, and convictions that were sealed, dismissed or expunged are not held against you.',
  'notice.seattle_fair_chance':
    'Under Seattle’s Fair Chance Housing Ordinance, you may not be declined because of arrests, convictions or other criminal ' +
    'history. Only sex offender registry information about a conviction as an adult may count, and only for a legitimate business reason.',
  'notice.seattle_first_in_time':
    'Complete applications are screened one at a time, in the order they were completed. If something is missing, you will be ' +
    'told what, and you will have at least {missing_hours} hours to provide it. If you are offered the home, you will have ' +
    '{accept_hours} hours to accept.',
  'notice.cook_just_housing':
    'In Cook County, criminal history is checked only after you have met every other criterion. Only convictions from the ' +
    'last three years, or a current duty to register as a sex offender, may count against you, and a conviction only after an ' +
    'individual assessment in which you can tell your side. Arrests, juvenile records and sealed or expunged records never count.',
  'notice.nyc_fair_chance':
    'In New York City, criminal history may be checked only after you have been given a conditional offer, and only certain ' +
    'recent convictions may be reviewed. Before an offer is taken back, you get a copy of what was found and five business ' +
    'days to respond.',
} as const;

export type NoticeId = keyof typeof NOTICE_MESSAGES;

/** The figures a notice shows, from the times the applicable rules give (screeningProcess). */
export function noticeValues(id: NoticeId, times: { missing_hours: number; accept_hours: number }): MessageValues {
  return id === 'notice.seattle_first_in_time' ? times : {};
}
