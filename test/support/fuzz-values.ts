/**
 * The values fuzzed fields take: hostile values of every JSON type and shape, plausible ones
 * mixed in so that some requests pass validation, objects of such fields with unknown keys now
 * and then, and bodies wrapped as the API wants them, or not.
 */
import fc, { Arbitrary } from 'fast-check';

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

export const OPERATORS: object[] = [
  { $gt: '' },
  { $ne: null },
  { $where: 'sleep(1000) || true' },
  { $regex: '.*' },
  { $in: [1, 2, 3] },
  { $exists: true },
  { $expr: { $eq: [1, 1] } },
  { 'a.b': 1 },
];

export const printable = fc.string({
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

export const dateBetween = (min: string, max: string) =>
  fc.date({ min: new Date(min), max: new Date(max), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
export const asUsDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8)}/${iso.slice(0, 4)}`;
export const anyDate = dateBetween('1900-01-01', '2099-12-31');

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
