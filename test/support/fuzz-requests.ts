/**
 * Generated requests for the property routes and for creating an application, made of the values
 * of fuzz-values.ts sent as fuzz-request-parts.ts sends them (fuzz-application-requests.ts has
 * the other application routes).
 */
import fc, { Arbitrary } from 'fast-check';
import { FuzzRequest, headersFor, idSegment, authorization, post, query } from './fuzz-request-parts';
import {
  anyDate,
  asUsDate,
  dateBetween,
  field,
  hostileValue,
  mostlyPlausible,
  objectOf,
  printable,
  shortText,
  wrapped,
} from './fuzz-values';

const property = objectOf({
  name: field(shortText),
  kind: field(fc.constantFrom('multi_family', 'single_family', 'generic')),
  available: field(fc.boolean()),
  street: field(shortText),
  city: field(shortText),
  state: field(fc.constantFrom('IL', 'NY', 'CA')),
  zip: field(fc.stringMatching(/^\d{5}$/)),
  invitation_only: field(fc.boolean()),
  invitation_only_message: field(shortText),
});

const birthDate = dateBetween('1920-01-01', '2005-12-31');

/** The applicant fields a PATCH may correct. */
const correctable = {
  first_name: field(shortText, mostlyPlausible),
  last_name: field(shortText, mostlyPlausible),
  email: field(fc.stringMatching(/^[a-z0-9._-]{1,20}@[a-z0-9-]{1,20}\.(com|org|example)$/), mostlyPlausible),
  phone: field(fc.stringMatching(/^\+?1? ?\(?\d{3}\)? ?\d{3}-?\d{4}$/), mostlyPlausible),
  custom_data: field(fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }), mostlyPlausible),
  reference_id: field(shortText, mostlyPlausible),
};

export const applicant = objectOf(
  {
    ...correctable,
    dob: field(fc.oneof(birthDate, birthDate.map(asUsDate)), mostlyPlausible),
    id_number: field(fc.oneof(fc.stringMatching(/^\d{9}$/), fc.stringMatching(/^\d{3}-\d{2}-\d{4}$/)), mostlyPlausible),
    redirect_url: field(fc.webUrl(), mostlyPlausible),
  },
  ['first_name', 'last_name', 'email'],
);

/** A correction: any of the correctable fields, none required; now and then `type`, which is not one. */
export const applicantChanges = fc
  .tuple(
    objectOf(correctable),
    fc.oneof(
      { weight: 6, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: fc.constantFrom('primary', 'co_applicant', 'guarantor').map((type) => ({ type })) },
    ),
  )
  .map(([changes, type]) => ({ ...changes, ...type }));

function application(propertyIds: number[]) {
  return objectOf(
    {
      property_id: field(
        fc.oneof(fc.constantFrom(...propertyIds), fc.constantFrom(...propertyIds).map(String), fc.nat()),
        mostlyPlausible,
      ),
      user_specified_rent: field(fc.nat({ max: 1_100_000 }), mostlyPlausible),
      desired_move_in: field(fc.oneof(anyDate, anyDate.map(asUsDate)), mostlyPlausible),
      assigned_user_id: field(fc.integer({ min: 1, max: 2_200_000_000 }), mostlyPlausible),
      applicant: fc.oneof({ weight: 6, arbitrary: applicant }, { weight: 1, arbitrary: hostileValue }),
    },
    ['property_id', 'applicant'],
  );
}

export const createPropertyRequest = (): Arbitrary<FuzzRequest> => post('/api/v2/properties', wrapped('property', property));

export const createApplicationRequest = (propertyIds: number[]): Arbitrary<FuzzRequest> =>
  post('/api/v2/applications', wrapped('application', application(propertyIds)));

function byId(method: 'GET' | 'DELETE', knownIds: number[]): Arbitrary<FuzzRequest> {
  const body = fc.oneof(
    { weight: 8, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant({ body: '{"id":{"$gt":0}}', contentType: 'application/json' }) },
    { weight: 1, arbitrary: fc.constant({ body: '{"id":', contentType: 'application/json' }) },
  );
  return fc
    .tuple(idSegment(knownIds), query, authorization, method === 'GET' ? fc.constant(null) : body)
    .map(([id, q, auth, sent]) => ({
      method,
      path: `/api/v2/properties/${id}${q}`,
      body: sent?.body ?? null,
      headers: headersFor(auth, sent?.contentType ?? null),
    }));
}

export const getPropertyRequest = (knownIds: number[]) => byId('GET', knownIds);
export const deletePropertyRequest = (knownIds: number[]) => byId('DELETE', knownIds);

const amount = (max: number) => fc.oneof(fc.nat({ max }), fc.double({ min: 0, max, noNaN: true }));

const floorPlan = objectOf(
  {
    name: field(shortText, mostlyPlausible),
    beds: field(amount(100), mostlyPlausible),
    baths: field(fc.constantFrom(0, 1, 1.5, 2, 2.5), mostlyPlausible),
    deposit: field(amount(10_000_000), mostlyPlausible),
    rent: field(amount(10_000_000), mostlyPlausible),
  },
  ['name'],
);

/** `limit`, `cursor` and `available` as a caller might send them, or worse. */
const listQuery = fc
  .tuple(
    fc.option(fc.oneof(fc.integer({ min: -5, max: 150 }).map(String), printable, fc.constantFrom('1e1', '01', '', '25&limit=2'))),
    fc.option(fc.oneof(printable, fc.constantFrom('djE6MQ', 'djE6MA', 'djE6LTE', 'djE6OTk5OTk5OTk5OTk5OTk5OTk5', ''))),
    fc.option(fc.constantFrom('true', 'false', 'TRUE', '1', '', 'yes')),
  )
  .map(([limit, cursor, available]) => {
    const parts = [
      limit === null ? null : `limit=${encodeURIComponent(limit)}`,
      cursor === null ? null : `cursor=${encodeURIComponent(cursor)}`,
      available === null ? null : `available=${available}`,
    ].filter((part): part is string => part !== null);
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  });

export const listPropertiesRequest = (): Arbitrary<FuzzRequest> =>
  fc.tuple(fc.oneof(listQuery, query), authorization).map(([q, auth]) => ({
    method: 'GET' as const,
    path: `/api/v2/properties${q}`,
    body: null,
    headers: headersFor(auth, null),
  }));

/** A request to one of `knownIds` (or anything else in its place), its body made by `body`. */
function toProperty(knownIds: number[], suffix: string, body: Arbitrary<unknown>, method: 'POST' | 'PATCH') {
  return idSegment(knownIds).chain((id) => post(`/api/v2/properties/${id}${suffix}`, body, method));
}

export const updatePropertyRequest = (knownIds: number[]): Arbitrary<FuzzRequest> =>
  toProperty(knownIds, '', wrapped('property', property), 'PATCH');

export const createFloorPlanRequest = (knownIds: number[]): Arbitrary<FuzzRequest> =>
  toProperty(knownIds, '/floor_plans', wrapped('floor_plan', floorPlan), 'POST');

export const updateFloorPlanRequest = (knownIds: number[], knownPlanIds: number[]): Arbitrary<FuzzRequest> =>
  idSegment(knownPlanIds).chain((planId) =>
    toProperty(knownIds, `/floor_plans/${planId}`, wrapped('floor_plan', floorPlan), 'PATCH'),
  );
