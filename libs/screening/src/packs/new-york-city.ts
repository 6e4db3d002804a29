import { cityName, countyName, coverage, inUnitedStates, stateCode, zip5 } from './address';
import { RulePack, Source } from './types';

/**
 * New York City, the City Human Rights Law (Administrative Code title 8), as in force in 2026:
 * - Lawful source of income (§ 8-107(5), since 2008): no refusal because rent is paid with a
 *   voucher, a subsidy or public assistance. (New York State's Human Rights Law protects it
 *   statewide since 2019; no State pack yet.)
 * - The Fair Chance for Housing Law, Local Law 24 of 2024 (Int. 632-A), in force January 1, 2025:
 *   no criminal background check before a conditional offer; after one, only "reviewable criminal
 *   history" may be considered: a conviction that requires sex offender registration, a felony
 *   conviction within five years and a misdemeanor conviction within three years of release or of
 *   sentencing. Arrests and pending cases, sealed convictions, violations and youthful offender
 *   adjudications never count. To withdraw an offer, the provider gives the applicant every record
 *   it got, waits five business days for their answer, makes an individualized assessment and
 *   explains it in writing. The look-back periods cannot be checked here (no dates of conviction
 *   reach us): the individualized note is where the provider says they were respected. Not
 *   modelled: the exclusion of owner-occupied buildings of one or two families (waive the pack,
 *   with that reason, there).
 */

const SOURCE_OF_INCOME: Source = {
  title: 'New York City Human Rights Law: lawful source of income',
  citation: 'New York City Administrative Code § 8-107(5)',
  url: 'https://www.nyc.gov/site/cchr/media/source-of-income.page',
};

const FAIR_CHANCE: Source = {
  title: 'Fair Chance for Housing Law',
  citation: 'New York City Administrative Code § 8-107, as amended by Local Law 24 of 2024 (Int. 632-A)',
  url: 'https://nyc.gov/site/cchr/media/fair-chance-housing-campaign.page',
};

const BOROUGH_COUNTIES = ['new york', 'kings', 'queens', 'bronx', 'richmond'];
const CITY_NAMES = ['new york', 'new york city', 'nyc', 'manhattan', 'brooklyn', 'bronx', 'the bronx', 'queens', 'staten island'];
/**
 * ZIP codes of the five boroughs: 100-102 Manhattan, 103 Staten Island, 104 the Bronx, 112
 * Brooklyn, 111, 113, 114 and 116 Queens, and Queens' 11004 and 11005 among Nassau's 110.
 */
const BOROUGH_ZIP_PREFIXES = ['100', '101', '102', '103', '104', '111', '112', '113', '114', '116'];
const BOROUGH_ZIPS = ['11004', '11005'];
/** ZIP codes shared by Queens and Nassau County. */
const STRADDLING_ZIPS = ['11001', '11040'];

export const NEW_YORK_CITY: RulePack = {
  id: 'us-ny-nyc',
  version: '1.0.0',
  name: 'New York City',
  sources: [SOURCE_OF_INCOME, FAIR_CHANCE],
  covers: (address) => {
    const place = 'New York City';
    if (!inUnitedStates(address)) return coverage(false, 'country', 'coverage.country.out', {});
    if (stateCode(address) !== 'NY') return coverage(false, 'state', 'coverage.state.out', { place: 'New York State' });
    const county = countyName(address);
    if (county !== '') {
      const inCity = BOROUGH_COUNTIES.includes(county);
      return coverage(inCity, 'county', inCity ? 'coverage.county.in' : 'coverage.county.out', { place });
    }
    // Queens addresses carry their neighbourhood as the city (Flushing, Astoria): the ZIP code decides first.
    const zip = zip5(address);
    if (STRADDLING_ZIPS.includes(zip))
      return coverage(true, 'zip', 'coverage.zip.maybe', { zip, place, missing: 'county' }, false);
    if (zip !== '') {
      const inCity = BOROUGH_ZIP_PREFIXES.includes(zip.slice(0, 3)) || BOROUGH_ZIPS.includes(zip);
      return coverage(inCity, 'zip', inCity ? 'coverage.zip.in' : 'coverage.zip.out', { zip, place });
    }
    const city = cityName(address);
    if (city === '') return coverage(false, 'none', 'coverage.unknown', { place }, false);
    const inCity = CITY_NAMES.includes(city);
    return coverage(inCity, 'city', inCity ? 'coverage.city.in' : 'coverage.city.out', { place });
  },
  rules: [
    {
      id: 'source_of_income',
      title: 'No decline on lawful source of income',
      summary: 'A decline may not rest on a lawful source of income, a voucher, subsidy or public assistance included.',
      applies_when: null,
      effect: { kind: 'refuse_reason_codes', reason_codes: ['source_of_income'], until: null },
      source: SOURCE_OF_INCOME,
      notice: 'notice.source_of_income',
    },
    {
      id: 'arrest_records',
      title: 'No decline on arrests',
      summary: 'Arrests (and pending cases) are not reviewable criminal history: a decline may never rest on them.',
      applies_when: null,
      effect: { kind: 'refuse_reason_codes', reason_codes: ['arrest_record'], until: null },
      source: FAIR_CHANCE,
      notice: 'notice.nyc_fair_chance',
    },
    {
      id: 'no_criminal_history_before_offer',
      title: 'Criminal history only after a conditional offer',
      summary: 'A decline may not rest on a conviction or registry information before a conditional offer was made.',
      applies_when: null,
      effect: {
        kind: 'refuse_reason_codes',
        reason_codes: ['criminal_conviction', 'sex_offender_registry'],
        until: 'conditional_offer',
      },
      source: FAIR_CHANCE,
      notice: 'notice.nyc_fair_chance',
    },
    {
      id: 'fair_chance_process',
      title: 'The Fair Chance Process before an offer is withdrawn',
      summary:
        'After a conditional offer, withdrawing it on reviewable criminal history needs the records given to the applicant, ' +
        'five business days for their answer and an individualized assessment, written in the note.',
      applies_when: null,
      effect: { kind: 'requires_individualized_note', reason_codes: ['criminal_conviction', 'sex_offender_registry'] },
      source: FAIR_CHANCE,
      notice: null,
    },
  ],
};
