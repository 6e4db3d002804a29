import fc, { Arbitrary } from 'fast-check';
import { KEYS } from '../../tools/stack';

/** One generated HTTP request, as the fuzz suite sends it. */
export interface FuzzRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Sent as given; null sends no body. */
  body: string | null;
  headers: Record<string, string>;
}

/**
 * JSON too deep to build as a value (JSON.stringify would overflow the stack) stands in a
 * value as this marker, replaced by its text once the rest is serialized.
 */
const DEEP = /"@@deep:(\d+):([ao])@@"/g;

function deepJson(depth: number, kind: string): string {
  return kind === 'a' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"d":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

export function toJsonText(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(DEEP, (_all, depth: string, kind: string) => deepJson(Number(depth), kind));
}

const OPERATORS: object[] = [
  { $gt: '' },
  { $ne: null },
  { $where: 'sleep(1000) || true' },
  { $regex: '.*' },
  { $in: [1, 2, 3] },
  { $exists: true },
  { $expr: { $eq: [1, 1] } },
  { 'a.b': 1 },
];

const printable = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~+/=:'),
});

/** A string of `length` copies of one character, plain or not. */
const longString = fc
  .tuple(fc.integer({ min: 200, max: 70_000 }), fc.constantFrom('x', 'é', '😀', '\u0000', '"', '\\', '\u202e', ' '))
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));

/** Values of every JSON type and shape that a field should refuse or survive. */
export const hostileValue: Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme' }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\t\n',
      '\u0000',
      'null',
      '{}',
      '[]',
      '-1',
      '1e309',
      '0x10',
      '02/30/2024',
      '123-45-678',
      '$gt',
    ),
  },
  { weight: 1, arbitrary: longString },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e21, 2 ** 31, -(2 ** 53)) },
  { weight: 1, arbitrary: fc.bigInt({ min: 10n ** 16n, max: 10n ** 30n }).map(String) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 3, arbitrary: fc.constantFrom(...OPERATORS) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 30_000 }), fc.constantFrom('a', 'o')).map(([d, k]) => `@@deep:${d}:${k}@@`),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 6_000 })
      .map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 12_000 }).map((n) => Array.from({ length: n }, () => 0)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom('$gt', '$where', 'a.b', '.', '$', 'ok', '__proto__', 'constructor'),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  },
);

/**
 * A plausible value or, `hostile` times in `plausible`, a hostile one (objectOf leaves the
 * field out now and then). The shares are chosen so that some requests of each kind pass
 * validation and reach the services: a few percent of properties, more of applications, whose
 * many fields would otherwise almost never all be right at once.
 */
export function field<T>(plausible: Arbitrary<T>, shares = { plausible: 3, hostile: 2 }): Arbitrary<unknown> {
  return fc.oneof({ weight: shares.plausible, arbitrary: plausible }, { weight: shares.hostile, arbitrary: hostileValue });
}

export const mostlyPlausible = { plausible: 12, hostile: 1 };

/** Keys nobody declared, named to tempt a query or a prototype. */
const unknownKeys = fc.dictionary(
  fc.oneof(
    fc.constantFrom('$gt', '$set', 'a.b', 'constructor', 'prototype', 'toString', 'id', 'client_id', '_id', 'deleted_at'),
    fc.string({ maxLength: 8 }),
  ),
  hostileValue,
  { maxKeys: 2 },
);

/**
 * An object with the `required` keys of `shape` and each other key present or absent, plus now
 * and then an unknown key. (A required field missing is one of the hostile values' shapes.)
 */
export function objectOf(shape: Record<string, Arbitrary<unknown>>, required: string[] = []): Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(
      fc.record(shape, { requiredKeys: required }),
      fc.oneof({ weight: 6, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: unknownKeys }),
    )
    .map(([known, unknown]) => ({ ...known, ...unknown }));
}

export const shortText = fc.string({ minLength: 1, maxLength: 40 });

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

const dateBetween = (min: string, max: string) =>
  fc.date({ min: new Date(min), max: new Date(max), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
export const asUsDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8)}/${iso.slice(0, 4)}`;
export const anyDate = dateBetween('1900-01-01', '2099-12-31');
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

/** The body as sent: mostly `{wrapper: ...}`, sometimes anything at all. */
export function wrapped(wrapper: string, inner: Arbitrary<unknown>): Arbitrary<unknown> {
  return fc.oneof(
    { weight: 8, arbitrary: inner.map((value) => ({ [wrapper]: value })) },
    { weight: 1, arbitrary: inner },
    { weight: 1, arbitrary: fc.tuple(inner, unknownKeys).map(([value, extra]) => ({ [wrapper]: value, ...extra })) },
    { weight: 1, arbitrary: hostileValue.map((value) => ({ [wrapper]: value })) },
    { weight: 1, arbitrary: hostileValue },
  );
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'];
const OTHER_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/jsonx',
  'application/json-patch+json',
  'text/json',
  '',
];

/** How a body goes over the wire: whole JSON, cut short, not JSON at all, or under another type. */
function encoded(body: Arbitrary<unknown>): Arbitrary<{ body: string; contentType: string | null }> {
  return fc.oneof(
    {
      weight: 12,
      arbitrary: fc
        .tuple(body, fc.constantFrom(...JSON_TYPES))
        .map(([value, contentType]) => ({ body: toJsonText(value), contentType })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(body, fc.double({ min: 0, max: 1, noNaN: true })).map(([value, cut]) => {
        const text = toJsonText(value);
        return { body: text.slice(0, Math.floor(text.length * cut)), contentType: 'application/json' };
      }),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary' }).map((text) => ({ body: text, contentType: 'application/json' })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(body, fc.constantFrom(...OTHER_TYPES))
        .map(([value, contentType]) => ({ body: toJsonText(value), contentType })),
    },
    { weight: 1, arbitrary: body.map((value) => ({ body: toJsonText(value), contentType: null })) },
  );
}

/** Mostly client one's key, sometimes another client's, a wrong one or none. */
export const authorization: Arbitrary<string | null> = fc.oneof(
  { weight: 16, arbitrary: fc.constant(`Bearer ${KEYS.clientOne}`) },
  { weight: 2, arbitrary: fc.constant(`Bearer ${KEYS.clientTwo}`) },
  { weight: 1, arbitrary: printable.map((key) => `Bearer ${key}`) },
  { weight: 1, arbitrary: fc.constantFrom(null, 'Bearer', `Basic ${KEYS.clientOne}`, `bearer ${KEYS.clientOne}`) },
);

export function headersFor(auth: string | null, contentType: string | null): Record<string, string> {
  const headers: Record<string, string> = {};
  if (auth !== null) headers.authorization = auth;
  if (contentType !== null) headers['content-type'] = contentType;
  return headers;
}

export function post(path: string, body: Arbitrary<unknown>, method: 'POST' | 'PATCH' = 'POST'): Arbitrary<FuzzRequest> {
  return fc.tuple(encoded(body), authorization).map(([sent, auth]) => ({
    method,
    path,
    body: sent.body,
    // fetch labels a string body text/plain when no type is given: say so explicitly.
    headers: headersFor(auth, sent.contentType ?? 'text/plain;charset=UTF-8'),
  }));
}

export const createPropertyRequest = (): Arbitrary<FuzzRequest> => post('/api/v2/properties', wrapped('property', property));

export const createApplicationRequest = (propertyIds: number[]): Arbitrary<FuzzRequest> =>
  post('/api/v2/applications', wrapped('application', application(propertyIds)));

/** What may stand where a property id goes in the path, percent-encoded where it must be. */
export function idSegment(knownIds: number[]): Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...knownIds).map(String) },
    { weight: 2, arbitrary: fc.nat().map(String) },
    { weight: 1, arbitrary: fc.integer({ min: -1000, max: 0 }).map(String) },
    { weight: 1, arbitrary: fc.double().map(String) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '0x1',
        '1e3',
        '01',
        '+1',
        '%20%31',
        '1%00',
        '%2e%2e',
        '..',
        '.',
        '%2F1',
        '9'.repeat(17),
        '9'.repeat(120),
      ),
    },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.constantFrom(...OPERATORS).map((op) => encodeURIComponent(JSON.stringify(op))) },
    { weight: 1, arbitrary: fc.integer({ min: 90, max: 20_000 }).map((n) => '7'.repeat(n)) },
  );
}

export const query = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('?id[$gt]=', '?id=1&id=2', '?__proto__[admin]=1', '?client_id=2', `?x=${'y'.repeat(3000)}`),
  },
);

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

/** What a fuzz suite keeps of an answer. */
export interface Answer {
  status: number;
  contentType: string | null;
  nosniff: string | null;
  /** Only some suites look at it. */
  cacheControl?: string | null;
  text: string;
}

export function describeRequest(request: FuzzRequest): string {
  const body = request.body === null ? '' : ` body(${request.body.length}): ${request.body.slice(0, 300)}`;
  return `${request.method} ${request.path.slice(0, 200)} ${JSON.stringify(request.headers)}${body}`;
}

/**
 * What every answer to a fuzzed request must be, whatever the route: no 5xx, no 304 nobody asked
 * for, JSON with the security headers and, for an error, the documented body without a stack
 * trace. Returns the parsed body and the way to fail with the request and answer quoted, for the
 * suite's own checks of a success.
 */
export function checkAnswerShape(request: FuzzRequest, answer: Answer): { body: any; fail: (why: string) => never } {
  const fail = (why: string): never => {
    throw new Error(`${why}\n  request: ${describeRequest(request)}\n  answer: ${answer.status} ${answer.text.slice(0, 500)}`);
  };
  if (answer.status >= 500) fail('a server error');
  if (answer.status === 304) fail('a 304 nobody asked for');
  if (!answer.contentType?.startsWith('application/json')) fail('an answer that is not JSON');
  if (answer.nosniff !== 'nosniff') fail('an answer without the security headers');
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    fail('an answer body that does not parse');
  }
  if (answer.status >= 400) {
    const error = body?.error;
    const wellFormed =
      Object.keys(body ?? {}).join() === 'error' &&
      Object.keys(error ?? {}).join() === 'message,details' &&
      typeof error.message === 'string' &&
      error.message.length > 0 &&
      (error.details === null ||
        (Array.isArray(error.details) &&
          error.details.every(
            (d: any) => Object.keys(d).join() === 'field,message' && typeof d.field === 'string' && typeof d.message === 'string',
          )));
    if (!wellFormed) fail('an error without the documented body');
    if (/\bat .+\.(js|ts):\d+/.test(answer.text)) fail('a stack trace in an answer');
  }
  return { body, fail };
}
