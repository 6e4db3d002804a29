import { stateCoverage } from './address';
import { RulePack, Source } from './types';

/**
 * California, as in force in 2026:
 * - Fair Employment and Housing Act, Government Code § 12955: source of income is protected (the
 *   definition reaches federal, state and local housing subsidies, vouchers included, since SB 329,
 *   Stats. 2019, in force January 1, 2020); and under subdivision (o), where there is a government
 *   rent subsidy, a financial or income standard must rest on the portion of the rent the tenant pays.
 * - SB 267 (Stats. 2023, ch. 776, in force January 1, 2024) added to subdivision (o): where there is a
 *   government rent subsidy, a housing provider that uses credit history must offer the applicant the
 *   option of lawful, verifiable alternative evidence of ability to pay their share of the rent
 *   (government benefit payments, pay records, bank statements), give reasonable time to provide it,
 *   and reasonably consider it in lieu of the credit history. It reaches only applicants with a rent
 *   subsidy, not every applicant without a credit history, and this pack applies it to them alone.
 * - California Code of Regulations, title 2, § 12269(a) (Civil Rights Council, in force January 1,
 *   2020): no adverse action based on an arrest that did not result in a conviction (nor diversion,
 *   sealed or dismissed convictions, juvenile records: none of which has a reason code of its own).
 * - Civil Code § 1950.6 as amended by AB 2493 (Stats. 2024, ch. 966, in force January 1, 2025): a
 *   landlord charging an application screening fee either screens applications in the order received
 *   and approves the first who meets the written criteria given with the application, or refunds the
 *   fee of each applicant not selected (within 7 days of selecting a tenant or 30 days of the
 *   application, whichever is earlier). Screening in order is thus one of two lawful ways.
 * Local ordinances (Los Angeles' and others' fair chance rules) are not part of this pack.
 */

const FEHA: Source = {
  title: 'Fair Employment and Housing Act: unlawful housing practices, source of income',
  citation: 'California Government Code § 12955 (subdivisions (a) and (p); source of income as defined in § 12955(p))',
  url: 'https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?lawCode=GOV&sectionNum=12955',
};

const SUBSIDY_STANDARD: Source = {
  title: 'Financial standards where there is a government rent subsidy',
  citation: 'California Government Code § 12955(o)',
  url: 'https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?lawCode=GOV&sectionNum=12955',
};

const SB_267: Source = {
  title: 'Credit history of persons receiving government rent subsidies (SB 267)',
  citation: 'California Government Code § 12955(o) as amended by SB 267, Stats. 2023, ch. 776',
  url: 'https://leginfo.legislature.ca.gov/faces/billNavClient.xhtml?bill_id=202320240SB267',
};

const CRIMINAL_HISTORY_REGULATION: Source = {
  title: 'Consideration of criminal history information in housing: specific practices',
  citation: 'California Code of Regulations, title 2, § 12269(a)(1)',
  url: 'https://www.law.cornell.edu/regulations/california/2-CCR-12269',
};

const SCREENING_FEE: Source = {
  title: 'Application screening fees (AB 2493)',
  citation: 'California Civil Code § 1950.6 as amended by AB 2493, Stats. 2024, ch. 966',
  url: 'https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?lawCode=CIV&sectionNum=1950.6',
};

export const CALIFORNIA: RulePack = {
  id: 'us-ca',
  version: '1.0.0',
  name: 'California',
  sources: [FEHA, SUBSIDY_STANDARD, SB_267, CRIMINAL_HISTORY_REGULATION, SCREENING_FEE],
  covers: (address) => stateCoverage(address, 'CA', 'California'),
  rules: [
    {
      id: 'source_of_income',
      title: 'No decline on source of income',
      summary: 'A decline may not rest on the source of an applicant’s lawful income, housing subsidies and vouchers included.',
      applies_when: null,
      effect: { kind: 'refuse_reason_codes', reason_codes: ['source_of_income'], until: null },
      source: FEHA,
      notice: 'notice.source_of_income',
    },
    {
      id: 'voucher_income_on_tenant_share',
      title: 'Income judged on the tenant’s share of the rent',
      summary:
        'Where there is a government rent subsidy, a minimum income is judged against the portion of the rent the tenant pays.',
      applies_when: 'housing_voucher',
      effect: { kind: 'income_on_tenant_share' },
      source: SUBSIDY_STANDARD,
      notice: 'notice.voucher_tenant_share',
    },
    {
      id: 'alternative_to_credit_history',
      title: 'Alternative evidence of ability to pay in place of credit history',
      summary:
        'For an applicant with a rent subsidy, a decline on credit history needs a note saying how the alternative evidence ' +
        'of ability to pay they were offered to provide (benefit payments, pay records, bank statements) was considered.',
      applies_when: 'housing_voucher',
      effect: { kind: 'requires_individualized_note', reason_codes: ['credit_history'] },
      source: SB_267,
      notice: 'notice.ca_alternative_to_credit_history',
    },
    {
      id: 'arrest_records',
      title: 'No decline on an arrest without a conviction',
      summary: 'A decline may not rest on an arrest that did not result in a conviction.',
      applies_when: null,
      effect: { kind: 'refuse_reason_codes', reason_codes: ['arrest_record'], until: null },
      source: CRIMINAL_HISTORY_REGULATION,
      notice: 'notice.ca_records_not_considered',
    },
    {
      id: 'screening_fee_order',
      title: 'Screening in order as one of two lawful ways to charge a screening fee',
      summary:
        'A landlord charging a screening fee either screens in the order received and approves the first qualified applicant, ' +
        'or refunds the fee of every applicant not selected.',
      applies_when: null,
      effect: { kind: 'screening_order', setting: 'one_of_two_lawful_ways' },
      source: SCREENING_FEE,
      notice: null,
    },
  ],
};
