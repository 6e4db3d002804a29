import { SCREENING_CRITERIA_DEFAULTS } from '@app/contracts';
import { coverage, inUnitedStates } from './address';
import { RulePack, Source } from './types';

/**
 * The federal baseline: what applies to every US property. It refuses no reason code. The Fair
 * Housing Act protects race, color, religion, sex, disability, familial status and national
 * origin, none of which is a reason code; it does not protect source of income, so where no state
 * or local pack applies, a decline may name source_of_income. HUD's guidance on criminal records
 * (2016) and on tenant screening (2024) is not implemented: HUD withdrew its fair housing guidance
 * documents in September 2025, and guidance is not law. docs/screening.md says the same.
 */

const KEATING: Source = {
  title: 'Fair Housing Enforcement: Occupancy Standards; Statement of Policy (the Keating Memorandum)',
  citation:
    'HUD, 63 FR 70256 (December 18, 1998), adopting the General Counsel’s memorandum of 1991 under section 589 of the ' +
    'Quality Housing and Work Responsibility Act of 1998',
  url: 'https://www.govinfo.gov/content/pkg/FR-1998-12-18/html/98-33568.htm',
};

const FCRA_615: Source = {
  title: 'Fair Credit Reporting Act, duties of users taking adverse actions',
  citation: '15 U.S.C. § 1681m(a) (FCRA section 615(a))',
  url: 'https://www.law.cornell.edu/uscode/text/15/1681m',
};

export const FEDERAL: RulePack = {
  id: 'us-federal',
  version: '1.0.0',
  name: 'United States (federal baseline)',
  sources: [KEATING, FCRA_615],
  covers: (address) =>
    inUnitedStates(address)
      ? coverage(true, 'country', 'coverage.country.in', {})
      : coverage(false, 'country', 'coverage.country.out', {}),
  rules: [
    {
      id: 'occupancy_two_per_bedroom',
      title: 'Two persons per bedroom as the general rule',
      summary:
        'HUD holds an occupancy policy of two persons per bedroom reasonable as a general rule, rebuttable by the size of ' +
        'the rooms and the unit, the age of children and local law; criteria sets default to it.',
      applies_when: null,
      effect: { kind: 'occupancy_baseline', persons_per_bedroom: SCREENING_CRITERIA_DEFAULTS.occupancy.persons_per_bedroom },
      source: KEATING,
      notice: null,
    },
    {
      id: 'adverse_action_notice',
      title: 'Adverse action notice for a decline on a consumer report',
      summary:
        'A decline based in whole or in part on a consumer report calls for an adverse action notice naming the consumer ' +
        'reporting agency and the applicant’s rights to a free copy of the report and to dispute it.',
      applies_when: null,
      effect: {
        kind: 'adverse_action_notice',
        reason_codes: ['credit_history', 'eviction_history', 'criminal_conviction', 'arrest_record', 'sex_offender_registry'],
      },
      source: FCRA_615,
      notice: null,
    },
  ],
};
