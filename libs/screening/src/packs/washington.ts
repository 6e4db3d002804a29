import { stateCoverage } from './address';
import { RulePack, Source } from './types';

/**
 * Washington State, Residential Landlord-Tenant Act (chapter 59.18 RCW), as in force in 2026:
 * - RCW 59.18.255 (HB 2578 of 2018, in force since September 30, 2018): a landlord may not refuse an
 *   otherwise eligible applicant because of their source of income; where a landlord requires a
 *   threshold income, a rent voucher or subsidy is subtracted from the monthly rent before the
 *   income is compared with it. We cite the section as a whole: we have not verified which
 *   subsection numbers the income clause carries in the current text.
 * - RCW 59.18.257(1): before obtaining any information about a prospective tenant, the landlord
 *   notifies them in writing, or by posting, of the types of information accessed and the criteria
 *   that may result in denial (and of the consumer reporting agency, if a report is used).
 */

const SOURCE_OF_INCOME: Source = {
  title: 'Source of income: landlords prohibited from certain acts',
  citation: 'RCW 59.18.255',
  url: 'https://app.leg.wa.gov/RCW/default.aspx?cite=59.18.255',
};

const SCREENING_NOTICE: Source = {
  title: 'Tenant screening: notice to prospective tenants',
  citation: 'RCW 59.18.257(1)',
  url: 'https://app.leg.wa.gov/RCW/default.aspx?cite=59.18.257',
};

export const WASHINGTON: RulePack = {
  id: 'us-wa',
  version: '1.0.0',
  name: 'Washington State',
  sources: [SOURCE_OF_INCOME, SCREENING_NOTICE],
  covers: (address) => stateCoverage(address, 'WA', 'Washington'),
  rules: [
    {
      id: 'source_of_income',
      title: 'No decline on source of income',
      summary:
        'A decline may not rest on the source of an otherwise eligible applicant’s lawful income, a housing voucher included.',
      applies_when: null,
      effect: { kind: 'refuse_reason_codes', reason_codes: ['source_of_income'], until: null },
      source: SOURCE_OF_INCOME,
      notice: 'notice.source_of_income',
    },
    {
      id: 'voucher_income_on_tenant_share',
      title: 'Income judged on the tenant’s share of the rent',
      summary:
        'Where a minimum income applies, a rent voucher or subsidy is subtracted from the monthly rent before the income is compared with it.',
      applies_when: 'housing_voucher',
      effect: { kind: 'income_on_tenant_share' },
      source: SOURCE_OF_INCOME,
      notice: 'notice.voucher_tenant_share',
    },
    {
      id: 'criteria_before_applying',
      title: 'Screening criteria given before any information is taken',
      summary:
        'The criteria that may result in denial, and what information is used, are given to applicants before anything is asked of them.',
      applies_when: null,
      effect: { kind: 'criteria_before_applying' },
      source: SCREENING_NOTICE,
      notice: null,
    },
  ],
};
