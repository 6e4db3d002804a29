import { CoverageBasis } from '@app/contracts';
import { MessageValues, sentence } from '../messages';
import { Coverage, PropertyAddress } from './types';

/**
 * Reading a property's address the way people write it ("wa", "Washington", "Cook County",
 * "98103-1234"), and the sentences that say why a pack applies or not.
 */
export const COVERAGE_MESSAGES = {
  'coverage.country.in': 'The property is in the United States.',
  'coverage.country.out': 'The property is not in the United States.',
  'coverage.state.in': 'The property is in {place}.',
  'coverage.state.out': 'The property is not in {place}.',
  'coverage.county.in': 'The property is in {place}.',
  'coverage.county.out': 'The property is not in {place}.',
  'coverage.city.in': 'The property is in the city of {place}.',
  'coverage.city.out': 'The property is not in the city of {place}.',
  'coverage.zip.in': 'The property’s ZIP code {zip} lies in {place}.',
  'coverage.zip.out': 'The property’s ZIP code {zip} does not lie in {place}.',
  'coverage.zip.maybe':
    'The property’s ZIP code {zip} may lie in {place}; its {missing, select, county {county} other {city}} is not given, so the pack applies until it is.',
  'coverage.unknown': 'The property’s address does not say whether it is in {place}.',
} as const;

type CoverageMessage = keyof typeof COVERAGE_MESSAGES;

export function coverage(
  applies: boolean,
  basis: CoverageBasis,
  id: CoverageMessage,
  values: MessageValues,
  certain = true,
): Coverage {
  return { applies, certain, basis, explanation: sentence(COVERAGE_MESSAGES, id, values) };
}

/** Lower case, trimmed, inner white space and punctuation around words collapsed to one space. */
function plain(text: string | null | undefined): string {
  return (text ?? '').toLowerCase().replace(/[.,]/g, ' ').replace(/\s+/g, ' ').trim();
}

const STATE_NAMES: Readonly<Record<string, string>> = {
  washington: 'WA',
  california: 'CA',
  illinois: 'IL',
  'new york': 'NY',
};

/** The two-letter code of the address's state ("wa", "Washington"), or "" when it names none we read. */
export function stateCode(address: PropertyAddress): string {
  const state = plain(address.state);
  if (/^[a-z]{2}$/.test(state)) return state.toUpperCase();
  return STATE_NAMES[state] ?? '';
}

/** True for a US address, or one that names no country (the service serves US properties). */
export function inUnitedStates(address: PropertyAddress): boolean {
  const country = plain(address.country).replace(/ /g, '');
  return ['', 'us', 'usa', 'unitedstates', 'unitedstatesofamerica'].includes(country);
}

/** The county's name without "County" ("cook" for "Cook County"), or "" when not given. */
export function countyName(address: PropertyAddress): string {
  return plain(address.county).replace(/ county$/, '');
}

/** The city's name ("seattle"), or "" when not given; "City of Seattle" reads as Seattle. */
export function cityName(address: PropertyAddress): string {
  return plain(address.city).replace(/^city of /, '');
}

/** The five-digit ZIP code ("98103" for "98103-1234"), or "" when there is none. */
export function zip5(address: PropertyAddress): string {
  const match = /^(\d{5})(?:-?\d{4})?$/.exec((address.zip ?? '').trim());
  return match ? match[1] : '';
}

/** A pack that covers one state: the state's code decides. */
export function stateCoverage(address: PropertyAddress, code: string, place: string): Coverage {
  if (!inUnitedStates(address)) return coverage(false, 'country', 'coverage.country.out', {});
  if (stateCode(address) === '') return coverage(false, 'none', 'coverage.unknown', { place }, false);
  const inState = stateCode(address) === code;
  return coverage(inState, 'state', inState ? 'coverage.state.in' : 'coverage.state.out', { place });
}
