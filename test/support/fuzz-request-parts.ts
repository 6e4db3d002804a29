/**
 * How a generated request goes over the wire: its body encoded (whole JSON, cut short, not JSON,
 * under another type), its Authorization header, and what may stand in its path and query.
 */
import fc, { Arbitrary } from 'fast-check';
import { KEYS } from '../../tools/stack';
import { OPERATORS, printable, toJsonText } from './fuzz-values';

/** One generated HTTP request, as the fuzz suite sends it. */
export interface FuzzRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Sent as given; null sends no body. */
  body: string | null;
  headers: Record<string, string>;
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
