import { isEmail } from 'class-validator';
import { parseCalendarDate, todayUtc } from '../dates';
import { ErrorCode } from '../errors';

/**
 * One decorator per kind of field, each checking presence, type and range together, so that a
 * field yields exactly one problem with one plain message. Messages name no field: the path is
 * added where errors are flattened (`application.applicant.email`).
 *
 * Each decorator also declares the field, with how its value is normalized before the check
 * (trimmed, digits read as a number, a date rewritten as YYYY-MM-DD) and, for a nested object,
 * its class. Only declared fields are copied from a request; every other key is an unknown
 * field, whatever its name (`constructor` and `toString` included).
 */

type Normalize = (value: unknown) => unknown;

export interface FieldSpec {
  /** The kind of field: the decorator that declared it. */
  kind: string;
  normalize: Normalize;
  /** The field's one problem with a normalized value (absent included), or null. */
  problem: (value: unknown) => string | null;
  /** Error code raised instead of VALIDATION_FAILED when this field is wrong. */
  code?: ErrorCode;
  nested?: () => new () => object;
}

const declared = new Map<Function, Map<string, FieldSpec>>();

/** The fields a contract class declares, by name. */
export function declaredFields(type: Function): ReadonlyMap<string, FieldSpec> {
  return declared.get(type) ?? new Map();
}

const asIs: Normalize = (value) => value;

interface Presence {
  /** The field must be present and not null. */
  required?: boolean;
  /** An optional field may be sent as null (meaning "not set"). */
  nullable?: boolean;
  /** Error code raised instead of VALIDATION_FAILED when this field is wrong. */
  code?: ErrorCode;
}

type Check = (value: unknown) => string | null;

const IS_REQUIRED = 'is required';
const NOT_NULL = 'must not be null';

/**
 * Declares the field with `check` as its single constraint; `check` returns a message or null.
 */
function field(
  kind: string,
  presence: Presence,
  check: Check,
  spec: Partial<Pick<FieldSpec, 'normalize' | 'nested'>> = {},
): PropertyDecorator {
  const problem = (value: unknown): string | null => {
    if (value === undefined) return presence.required ? IS_REQUIRED : null;
    if (value === null) {
      if (presence.required) return IS_REQUIRED;
      return presence.nullable ? null : NOT_NULL;
    }
    return check(value);
  };
  return (target: object, propertyName: string | symbol) => {
    const fields = declared.get(target.constructor) ?? new Map<string, FieldSpec>();
    declared.set(target.constructor, fields);
    fields.set(propertyName as string, { kind, normalize: asIs, problem, code: presence.code, ...spec });
  };
}

const trim: Normalize = (value) => (typeof value === 'string' ? value.trim() : value);

export interface StringOptions extends Presence {
  min?: number;
  max: number;
  /** Remove surrounding white space before checking and storing. */
  trim?: boolean;
}

export function StringField(options: StringOptions): PropertyDecorator {
  const min = options.min ?? 0;
  const check: Check = (value) => {
    if (typeof value !== 'string') return 'must be a string';
    if (value.length < min) return min === 1 ? 'must not be empty' : `must be at least ${min} characters`;
    if (value.length > options.max) return `must be at most ${options.max} characters`;
    return null;
  };
  return field('stringField', options, check, { normalize: options.trim ? trim : asIs });
}

/** JSON true or false only: "true", 1 and null are refused. */
export function BooleanField(options: Presence = {}): PropertyDecorator {
  return field('booleanField', options, (value) =>
    typeof value === 'boolean' ? null : 'must be true or false',
  );
}

export function EnumField(allowed: readonly string[], options: Presence = {}): PropertyDecorator {
  const message = `must be one of ${allowed.join(', ')}`;
  return field('enumField', options, (value) =>
    typeof value === 'string' && allowed.includes(value) ? null : message,
  );
}

const DECIMAL_DIGITS = /^\d{1,16}$/;

export interface IntegerOptions extends Presence {
  min: number;
}

/** A JSON integer or a string of decimal digits, read as a number. */
export function IntegerField(options: IntegerOptions): PropertyDecorator {
  const toNumber: Normalize = (value) =>
    typeof value === 'string' && DECIMAL_DIGITS.test(value) ? Number(value) : value;
  const check: Check = (value) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return 'must be an integer';
    if (value < options.min) return `must be at least ${options.min}`;
    return null;
  };
  return field('integerField', options, check, { normalize: toNumber });
}

export interface DateOptions extends Presence {
  /** The date must be before today (UTC). */
  past?: boolean;
}

/** `MM/DD/YYYY` or `YYYY-MM-DD`, stored and returned as `YYYY-MM-DD`. */
export function DateField(options: DateOptions = {}): PropertyDecorator {
  const toIso: Normalize = (value) =>
    typeof value === 'string' ? (parseCalendarDate(value.trim()) ?? value) : value;
  const check: Check = (value) => {
    if (typeof value !== 'string' || parseCalendarDate(value) !== value) {
      return 'must be a calendar date written MM/DD/YYYY or YYYY-MM-DD';
    }
    if (options.past && value >= todayUtc()) return 'must be a date in the past';
    return null;
  };
  return field('dateField', options, check, { normalize: toIso });
}

export function EmailField(options: Presence & { max: number }): PropertyDecorator {
  const check: Check = (value) => {
    if (typeof value !== 'string') return 'must be a string';
    if (value.length > options.max) return `must be at most ${options.max} characters`;
    return isEmail(value) ? null : 'must be a valid e-mail address';
  };
  return field('emailField', options, check, { normalize: trim });
}

const SSN = /^(?:(\d{3})-(\d{2})-(\d{4})|(\d{3})(\d{2})(\d{4}))$/;

/** A US social security number: nine digits, dashes allowed; stored as the nine digits. */
export function SsnField(options: Presence = {}): PropertyDecorator {
  const normalize: Normalize = (value) => {
    if (typeof value !== 'string') return value;
    const match = SSN.exec(value.trim());
    return match ? match.slice(1).filter(Boolean).join('') : value;
  };
  const check: Check = (value) =>
    typeof value === 'string' && /^\d{9}$/.test(value)
      ? null
      : 'must be a US social security number: 9 digits, dashes allowed (123-45-6789)';
  return field('ssnField', options, check, { normalize });
}

const PHONE_PUNCTUATION = /[ \-().+]/g;

/** Digits once spaces, dashes, parentheses, dots and plus signs are taken out: 10 to 15. */
export function PhoneField(options: Presence = {}): PropertyDecorator {
  const normalize: Normalize = (value) => {
    if (typeof value !== 'string') return value;
    const digits = value.replace(PHONE_PUNCTUATION, '');
    return /^\d{10,15}$/.test(digits) ? digits : value;
  };
  const check: Check = (value) =>
    typeof value === 'string' && /^\d{10,15}$/.test(value)
      ? null
      : 'must be a phone number of 10 to 15 digits';
  return field('phoneField', options, check, { normalize });
}

export function UrlField(options: Presence & { max: number }): PropertyDecorator {
  const check: Check = (value) => {
    if (typeof value !== 'string') return 'must be a string';
    if (value.length > options.max) return `must be at most ${options.max} characters`;
    return isAbsoluteHttpUrl(value) ? null : 'must be an absolute http or https URL';
  };
  return field('urlField', options, check);
}

function isAbsoluteHttpUrl(text: string): boolean {
  // `new URL` would also read `https:example.com` as absolute; the scheme must be spelled out.
  if (/\s/.test(text) || !/^https?:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Any JSON object up to `maxBytes` once serialized; kept exactly as sent, never walked. */
export function JsonObjectField(options: Presence & { maxBytes: number }): PropertyDecorator {
  const check: Check = (value) => {
    if (!isPlainObject(value)) return 'must be a JSON object';
    const size = Buffer.byteLength(JSON.stringify(value), 'utf8');
    return size <= options.maxBytes ? null : `must be at most ${options.maxBytes} bytes as JSON`;
  };
  return field('jsonObjectField', options, check);
}

/** A nested object validated by its own class. */
export function NestedField(type: () => new () => object, options: Presence = {}): PropertyDecorator {
  const check: Check = (value) => (isPlainObject(value) ? null : 'must be an object');
  return field('nestedField', options, check, { nested: type });
}
