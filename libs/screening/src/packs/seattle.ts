import { cityName, coverage, inUnitedStates, stateCode, zip5 } from './address';
import { RulePack, Source } from './types';

/**
 * The City of Seattle, Seattle Municipal Code title 14 (Washington State's pack applies too):
 * - Fair Chance Housing, SMC 14.09 (Ordinance 125393, in force since February 19, 2018): no adverse
 *   action based on an arrest record, a conviction record or criminal history; registry information
 *   about an adult's conviction only with a legitimate business reason, weighed on the factors the
 *   ordinance lists. Yim v. City of Seattle, 63 F.4th 783 (9th Cir. 2023) struck down the provision
 *   against asking, and upheld the one against adverse action, which is what this pack enforces.
 *   Not modelled: registry information about a conviction as a juvenile may never count (we cannot
 *   tell the age at conviction), and the exclusions of SMC 14.09.115 (owner-occupied units, ADUs,
 *   federally assisted housing that must deny): a client waives the pack, with its reason, there.
 * - Open Housing, SMC 14.08.040 as amended by Ordinance 125114 (2016): no discrimination based on an
 *   alternative source of income or a subsidy, a Section 8 voucher included.
 * - First-in-time, SMC 14.08.050 (Ordinance 125114, amended by Ordinance 125228, in force since
 *   January 1, 2017, upheld by the Washington Supreme Court on November 14, 2019): the criteria given
 *   before applications are taken, complete applications screened in the order they were
 *   completed, at least 72 hours to supply missing information (an applicant may ask for more,
 *   which may not be unreasonably refused), and 48 hours to accept an offer before the next in line
 *   is considered. The two figures are as the Seattle Office for Civil Rights' guidance states them;
 *   we have not read them in the codified text, and found nothing allowing a different time to
 *   accept, so that one is fixed here.
 */

const FAIR_CHANCE: Source = {
  title: 'Fair Chance Housing Ordinance',
  citation: 'Seattle Municipal Code 14.09.025 (Ordinance 125393, 2017)',
  url: 'http://clerk.seattle.gov/search/ordinances/125393',
};

const OPEN_HOUSING: Source = {
  title: 'Open Housing Ordinance: unfair practices, alternative source of income and subsidies',
  citation: 'Seattle Municipal Code 14.08.040 (as amended by Ordinance 125114, 2016)',
  url: 'https://clerk.seattle.gov/search/ordinances/125114',
};

const FIRST_IN_TIME: Source = {
  title: 'Screening criteria in rental housing (first-in-time)',
  citation: 'Seattle Municipal Code 14.08.050 (Ordinance 125114, 2016, as amended by Ordinance 125228, 2016)',
  url: 'https://clerk.seattle.gov/search/ordinances/125228',
};

export const SEATTLE: RulePack = {
  id: 'us-wa-seattle',
  version: '1.0.0',
  name: 'Seattle, Washington',
  sources: [FAIR_CHANCE, OPEN_HOUSING, FIRST_IN_TIME],
  covers: (address) => {
    const place = 'Seattle, Washington';
    if (!inUnitedStates(address)) return coverage(false, 'country', 'coverage.country.out', {});
    if (stateCode(address) !== 'WA') return coverage(false, 'state', 'coverage.state.out', { place: 'Washington' });
    const city = cityName(address);
    if (city !== '')
      return coverage(city === 'seattle', 'city', city === 'seattle' ? 'coverage.city.in' : 'coverage.city.out', { place });
    // Without a city, a 981 ZIP code may be Seattle's or a neighbour's (Bellevue is 98004).
    const zip = zip5(address);
    if (zip.startsWith('981')) return coverage(true, 'zip', 'coverage.zip.maybe', { zip, place, missing: 'city' }, false);
    return zip === ''
      ? coverage(false, 'none', 'coverage.unknown', { place }, false)
      : coverage(false, 'zip', 'coverage.zip.out', { zip, place });
  },
  rules: [
    {
      id: 'fair_chance_housing',
      title: 'No decline on criminal history',
      summary: 'A decline may not rest on an arrest record, a conviction record or other criminal history, at any stage.',
      applies_when: null,
      effect: { kind: 'refuse_reason_codes', reason_codes: ['criminal_conviction', 'arrest_record'], until: null },
      source: FAIR_CHANCE,
      notice: 'notice.seattle_fair_chance',
    },
    {
      id: 'registry_legitimate_business_reason',
      title: 'Sex offender registry only for a legitimate business reason',
      summary:
        'A decline on sex offender registry information needs a legitimate business reason, weighed on the ordinance’s ' +
        'factors (the offense, the time since, the age then, tenant history, rehabilitation), written in the note.',
      applies_when: null,
      effect: { kind: 'requires_individualized_note', reason_codes: ['sex_offender_registry'] },
      source: FAIR_CHANCE,
      notice: null,
    },
    {
      id: 'source_of_income',
      title: 'No decline on source of income',
      summary: 'A decline may not rest on an alternative source of income or a subsidy, a Section 8 voucher included.',
      applies_when: null,
      effect: { kind: 'refuse_reason_codes', reason_codes: ['source_of_income'], until: null },
      source: OPEN_HOUSING,
      notice: 'notice.source_of_income',
    },
    {
      id: 'criteria_before_applying',
      title: 'Screening criteria published before applications are taken',
      summary:
        'The criteria, the minimum for each and every document asked for are given and posted before an application is taken.',
      applies_when: null,
      effect: { kind: 'criteria_before_applying' },
      source: FIRST_IN_TIME,
      notice: null,
    },
    {
      id: 'first_in_time',
      title: 'Complete applications screened in the order completed',
      summary:
        'Complete applications are screened one at a time in the order they were completed; the first who meets the criteria is offered the home.',
      applies_when: null,
      effect: { kind: 'screening_order', setting: 'required' },
      source: FIRST_IN_TIME,
      notice: 'notice.seattle_first_in_time',
    },
    {
      id: 'missing_items_72_hours',
      title: 'At least 72 hours to supply what is missing',
      summary:
        'An applicant told of missing information keeps their place for at least 72 hours; a longer time may be given, not a shorter one.',
      applies_when: null,
      effect: { kind: 'missing_items_time', hours: 72, setting: 'longer_only' },
      source: FIRST_IN_TIME,
      notice: null,
    },
    {
      id: 'offer_48_hours',
      title: '48 hours to accept an offer',
      summary: 'An applicant offered the home has 48 hours to accept before the next complete application is considered.',
      applies_when: null,
      effect: { kind: 'offer_acceptance_time', hours: 48, setting: 'fixed' },
      source: FIRST_IN_TIME,
      notice: null,
    },
  ],
};
