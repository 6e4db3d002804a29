import { cityName, countyName, coverage, inUnitedStates, stateCode, zip5 } from './address';
import { RulePack, Source } from './types';

/**
 * Cook County, Illinois (Chicago included), Cook County Human Rights Ordinance, § 42-38 of the
 * County Code, as in force in 2026:
 * - Source of income, a protected class, housing choice voucher holders included since the
 *   amendment in force on August 8, 2013.
 * - The Just Housing Amendment (Ordinance 19-2394, in force January 1, 2020, enforced from February
 *   1, 2020) and the Commission on Human Rights' procedural rules (part 700): a two-step process.
 *   First the applicant is prequalified on every other criterion; only then may criminal history be
 *   checked, and a denial on a conviction follows an individualized assessment (the offense and its
 *   age, the sentence, the number of convictions, the age then, rehabilitation, tenant history,
 *   whether it relates to a disability). Arrests, juvenile records and sealed or expunged records are
 *   never considered; convictions older than three years are not, except a current duty to register
 *   as a sex offender, which the ordinance lets a landlord deny on. The tenant selection criteria
 *   are disclosed before an application fee is accepted (rules, § 730.100).
 * This pack maps "prequalified" to a conditional offer having been made (the decision check's
 * conditional_offer_made). The three-year look-back cannot be checked here (no dates of
 * conviction reach us): the individualized note is where the landlord says it was respected.
 * Illinois' own Human Rights Act, which has protected source of income statewide since 2023, is
 * not a pack yet.
 */

const HUMAN_RIGHTS_ORDINANCE: Source = {
  title: 'Cook County Human Rights Ordinance: real estate transactions, source of income',
  citation: 'Cook County Code of Ordinances § 42-38',
  url: 'https://library.municode.com/il/cook_county/codes/code_of_ordinances',
};

const JUST_HOUSING: Source = {
  title: 'Just Housing Amendment to the Human Rights Ordinance',
  citation:
    'Cook County Code § 42-38 as amended by Ordinance 19-2394 (2019); Commission on Human Rights procedural rules, part 700',
  url: 'https://www.cookcountyil.gov/content/just-housing-amendment-human-rights-ordinance',
};

const SELECTION_CRITERIA: Source = {
  title: 'Disclosure of tenant selection criteria before an application fee',
  citation: 'Cook County Commission on Human Rights procedural rules, § 730.100',
  url: 'https://www.cookcountyil.gov/content/just-housing-amendment-human-rights-ordinance',
};

/** ZIP codes beginning so lie in Cook County or its neighbours (DuPage, Lake, Will, Kane, McHenry). */
const CHICAGO_AREA_ZIP_PREFIXES = ['600', '601', '602', '603', '604', '605', '606', '607', '608'];

export const COOK_COUNTY: RulePack = {
  id: 'us-il-cook-county',
  version: '1.0.0',
  name: 'Cook County, Illinois',
  sources: [HUMAN_RIGHTS_ORDINANCE, JUST_HOUSING, SELECTION_CRITERIA],
  covers: (address) => {
    const place = 'Cook County, Illinois';
    if (!inUnitedStates(address)) return coverage(false, 'country', 'coverage.country.out', {});
    if (stateCode(address) !== 'IL') return coverage(false, 'state', 'coverage.state.out', { place: 'Illinois' });
    const county = countyName(address);
    if (county !== '')
      return coverage(county === 'cook', 'county', county === 'cook' ? 'coverage.county.in' : 'coverage.county.out', { place });
    // Chicago lies in Cook County but for O'Hare's edge in DuPage, where no one rents a home.
    if (cityName(address) === 'chicago') return coverage(true, 'city', 'coverage.city.in', { place: 'Chicago, Illinois' });
    const zip = zip5(address);
    if (CHICAGO_AREA_ZIP_PREFIXES.includes(zip.slice(0, 3)))
      return coverage(true, 'zip', 'coverage.zip.maybe', { zip, place, missing: 'county' }, false);
    return zip === ''
      ? coverage(false, 'none', 'coverage.unknown', { place }, false)
      : coverage(false, 'zip', 'coverage.zip.out', { zip, place });
  },
  rules: [
    {
      id: 'source_of_income',
      title: 'No decline on source of income',
      summary: 'A decline may not rest on the source of an applicant’s lawful income, a housing choice voucher included.',
      applies_when: null,
      effect: { kind: 'refuse_reason_codes', reason_codes: ['source_of_income'], until: null },
      source: HUMAN_RIGHTS_ORDINANCE,
      notice: 'notice.source_of_income',
    },
    {
      id: 'arrest_and_juvenile_records',
      title: 'No decline on arrests',
      summary: 'A decline may not rest on an arrest record (nor on juvenile or sealed or expunged records), at any stage.',
      applies_when: null,
      effect: { kind: 'refuse_reason_codes', reason_codes: ['arrest_record'], until: null },
      source: JUST_HOUSING,
      notice: 'notice.cook_just_housing',
    },
    {
      id: 'criminal_history_after_prequalification',
      title: 'Criminal history only after prequalification',
      summary: 'A decline may not rest on a conviction until the applicant has been prequalified on every other criterion.',
      applies_when: null,
      effect: { kind: 'refuse_reason_codes', reason_codes: ['criminal_conviction'], until: 'conditional_offer' },
      source: JUST_HOUSING,
      notice: 'notice.cook_just_housing',
    },
    {
      id: 'individualized_assessment',
      title: 'Individualized assessment before a decline on a conviction',
      summary:
        'After prequalification, a decline on a conviction from the last three years needs an individualized assessment, ' +
        'written in the note, considering the applicant’s own information.',
      applies_when: null,
      effect: { kind: 'requires_individualized_note', reason_codes: ['criminal_conviction'] },
      source: JUST_HOUSING,
      notice: null,
    },
    {
      id: 'criteria_before_applying',
      title: 'Tenant selection criteria disclosed before an application fee',
      summary: 'The tenant selection criteria are given to applicants before any application fee is accepted.',
      applies_when: null,
      effect: { kind: 'criteria_before_applying' },
      source: SELECTION_CRITERIA,
      notice: null,
    },
  ],
};
