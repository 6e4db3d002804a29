// The decorators below read and write design-time metadata.
import 'reflect-metadata';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { isEmail, registerDecorator, ValidateIf, ValidateNested, ValidationArguments, ValidationOptions } from 'class-validator';
import { parseCalendarDate, todayUtc } from '../dates';
import { ErrorCode, FieldProblem } from '../errors';

/**
 * One decorator per kind of field, each checking presence, type and range together, so that a
 * field yields exactly one problem with one plain message. Messages name no field: the path is
 * added where errors are flattened (`application.applicant.email`).
 *
 * Each decorator also declares the field, with how its value is normalized before the check
 * (trimmed, digits read as a number, a date rewritten as YYYY-MM-DD) and, for a nested object,
 * its class. Only declared fields are copied from a request; every other key is an unknown
 * field, whatever its name (`constructor` and `toString` included).
 *
 * And each describes the field to OpenAPI (@nestjs/swagger) from the same options that drive
 * the check: type, limits, required, nullable. A field's description, example and default are
 * added with @ApiProperty beside it.
 */

type Normalize = (value: unknown) => unknown;

export interface FieldSpec {
  normalize: Normalize;
  nested?: () => new () => object;
  /** An array whose objects are each built from this class. */
  nestedList?: () => new () => object;
}

/**
 * A check across the fields of one object (a `when` naming an earlier question, ids not
 * repeated), run once every field has been checked on its own. It returns each problem with the
 * path of its field relative to the object. It sees the object as sent, so it must expect any
 * field to be of any type.
 */
export type CrossCheck<T> = (instance: T) => FieldProblem[];

const crossChecks = new Map<ContractClass, CrossCheck<never>>();

export function crossCheckOf(type: ContractClass): CrossCheck<object> | undefined {
  return crossChecks.get(type) as CrossCheck<object> | undefined;
}

/** Declares the class's CrossCheck. */
export function CrossChecked<T>(check: CrossCheck<T>): ClassDecorator {
  return (target) => {
    crossChecks.set(target, check as CrossCheck<never>);
  };
}

/** A contract class, as a property decorator sees it (`target.constructor` is typed `Function`). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type ContractClass = Function;

const declared = new Map<ContractClass, Map<string, FieldSpec>>();

/** The fields a contract class declares, by name, those of the classes it extends included. */
export function declaredFields(type: ContractClass): ReadonlyMap<string, FieldSpec> {
  // A class that extends another contract (an added applicant) declares the parent's fields too.
  const parent = Object.getPrototypeOf(type) as ContractClass | null;
  const inherited = parent && parent !== Function.prototype ? declaredFields(parent) : new Map<string, FieldSpec>();
  const own = declared.get(type);
  return own ? new Map([...inherited, ...own]) : inherited;
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

type Schema = ApiPropertyOptions & Record<string, unknown>;

const IS_REQUIRED = 'is required';
const NOT_NULL = 'must not be null';

/**
 * Declares the field, registers `check` as its single constraint (it returns a message or
 * null), and describes it to OpenAPI as `schema`.
 */
function field(name: string, presence: Presence, check: Check, schema: Schema, spec: Partial<FieldSpec> = {}): PropertyDecorator {
  const problem = (value: unknown): string | null => {
    if (value === undefined) return presence.required ? IS_REQUIRED : null;
    if (value === null) {
      if (presence.required) return IS_REQUIRED;
      return presence.nullable ? null : NOT_NULL;
    }
    return check(value);
  };
  const options: ValidationOptions = presence.code ? { context: { code: presence.code } } : {};
  const describe = ApiProperty({
    ...schema,
    required: presence.required === true,
    ...(presence.nullable ? { nullable: true } : {}),
  } as ApiPropertyOptions);
  return (target: object, propertyName: string | symbol) => {
    describe(target, propertyName);
    const fields = declared.get(target.constructor) ?? new Map<string, FieldSpec>();
    declared.set(target.constructor, fields);
    fields.set(propertyName as string, { normalize: asIs, ...spec });
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => problem(value) === null,
        defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? '',
      },
    });
  };
}

const trim: Normalize = (value) => (typeof value === 'string' ? value.trim() : value);

export interface StringOptions extends Presence {
  min?: number;
  max: number;
  /** Remove surrounding white space before checking and storing. */
  trim?: boolean;
  /** What the whole string must match, and the message when it does not. */
  pattern?: { regex: RegExp; message: string };
}

export function StringField(options: StringOptions): PropertyDecorator {
  const min = options.min ?? 0;
  const check: Check = (value) => {
    if (typeof value !== 'string') return 'must be a string';
    if (value.length < min) return min === 1 ? 'must not be empty' : `must be at least ${min} characters`;
    if (value.length > options.max) return `must be at most ${options.max} characters`;
    if (options.pattern && !options.pattern.regex.test(value)) return options.pattern.message;
    return null;
  };
  const schema = {
    type: 'string',
    ...(min > 0 ? { minLength: min } : {}),
    maxLength: options.max,
    ...(options.pattern ? { pattern: options.pattern.regex.source } : {}),
  } as const;
  return field('stringField', options, check, schema, { normalize: options.trim ? trim : asIs });
}

export interface StringListOptions extends Presence {
  /** Entries, at least and at most. */
  min: number;
  max: number;
  /** Characters of each entry, at most; entries are trimmed and must not be empty. */
  maxLength: number;
}

/** An array of distinct non-empty strings, each trimmed. */
export function StringListField(options: StringListOptions): PropertyDecorator {
  const normalize: Normalize = (value) => (Array.isArray(value) ? value.map(trim) : value);
  const check: Check = (value) => {
    if (!Array.isArray(value)) return 'must be an array of strings';
    if (value.length < options.min) return `must have at least ${options.min} ${options.min === 1 ? 'entry' : 'entries'}`;
    if (value.length > options.max) return `must have at most ${options.max} entries`;
    if (value.some((entry) => typeof entry !== 'string' || entry === '')) return 'must hold non-empty strings only';
    if (value.some((entry: string) => entry.length > options.maxLength))
      return `must hold strings of at most ${options.maxLength} characters`;
    return new Set(value).size === value.length ? null : 'must not list an entry twice';
  };
  const schema = {
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: options.maxLength },
    minItems: options.min,
    maxItems: options.max,
    uniqueItems: true,
  };
  return field('stringListField', options, check, schema as Schema, { normalize });
}

/** A string of at most `max` characters (trimmed, not empty), or true or false. */
export function StringOrBooleanField(options: Presence & { max: number }): PropertyDecorator {
  const check: Check = (value) => {
    if (typeof value === 'boolean') return null;
    if (typeof value !== 'string' || value === '') return 'must be a non-empty string, true or false';
    return value.length <= options.max ? null : `must be at most ${options.max} characters`;
  };
  const schema = { oneOf: [{ type: 'string', minLength: 1, maxLength: options.max }, { type: 'boolean' }] };
  return field('stringOrBooleanField', options, check, schema as Schema, { normalize: trim });
}

/** JSON true or false only: "true", 1 and null are refused. */
export function BooleanField(options: Presence = {}): PropertyDecorator {
  return field('booleanField', options, (value) => (typeof value === 'boolean' ? null : 'must be true or false'), {
    type: 'boolean',
  });
}

export function EnumField(allowed: readonly string[], options: Presence = {}): PropertyDecorator {
  const message = `must be one of ${allowed.join(', ')}`;
  return field('enumField', options, (value) => (typeof value === 'string' && allowed.includes(value) ? null : message), {
    type: 'string',
    enum: [...allowed],
  });
}

const DECIMAL_DIGITS = /^\d{1,16}$/;

export interface IntegerOptions extends Presence {
  min: number;
  /** Defaults to the largest safe integer. */
  max?: number;
}

/** A JSON integer or a string of decimal digits, read as a number. */
export function IntegerField(options: IntegerOptions): PropertyDecorator {
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  const toNumber: Normalize = (value) => (typeof value === 'string' && DECIMAL_DIGITS.test(value) ? Number(value) : value);
  const check: Check = (value) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return 'must be an integer';
    if (value < options.min) return `must be at least ${options.min}`;
    if (value > max) return `must be at most ${max}`;
    return null;
  };
  return field('integerField', options, check, { type: 'integer', minimum: options.min }, { normalize: toNumber });
}

export interface NumberOptions extends Presence {
  min: number;
  max: number;
}

/** A finite JSON number, fractions allowed (1.5 bathrooms); text is refused. */
export function NumberField(options: NumberOptions): PropertyDecorator {
  const check: Check = (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
    if (value < options.min) return `must be at least ${options.min}`;
    if (value > options.max) return `must be at most ${options.max}`;
    return null;
  };
  return field('numberField', options, check, { type: 'number', minimum: options.min, maximum: options.max });
}

export interface DateOptions extends Presence {
  /** The date must be before today (UTC). */
  past?: boolean;
}

/** `MM/DD/YYYY` or `YYYY-MM-DD`, stored and returned as `YYYY-MM-DD`. */
export function DateField(options: DateOptions = {}): PropertyDecorator {
  const toIso: Normalize = (value) => (typeof value === 'string' ? (parseCalendarDate(value.trim()) ?? value) : value);
  const check: Check = (value) => {
    if (typeof value !== 'string' || parseCalendarDate(value) !== value) {
      return 'must be a calendar date written MM/DD/YYYY or YYYY-MM-DD';
    }
    if (options.past && value >= todayUtc()) return 'must be a date in the past';
    return null;
  };
  const schema = { type: 'string', pattern: '^(\\d{2}/\\d{2}/\\d{4}|\\d{4}-\\d{2}-\\d{2})$' } as const;
  return field('dateField', options, check, schema, { normalize: toIso });
}

export function EmailField(options: Presence & { max: number }): PropertyDecorator {
  const check: Check = (value) => {
    if (typeof value !== 'string') return 'must be a string';
    if (value.length > options.max) return `must be at most ${options.max} characters`;
    return isEmail(value) ? null : 'must be a valid e-mail address';
  };
  return field('emailField', options, check, { type: 'string', format: 'email', maxLength: options.max }, { normalize: trim });
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
  const schema = { type: 'string', pattern: '^(\\d{3}-\\d{2}-\\d{4}|\\d{9})$', writeOnly: true } as const;
  return field('ssnField', options, check, schema, { normalize });
}

const PHONE_PUNCTUATION = /[ \-().+]/g;

/** A phone number's digits once spaces, dashes, parentheses, dots and plus signs are taken out, when 10 to 15; else null. */
export function phoneDigits(value: string): string | null {
  const digits = value.replace(PHONE_PUNCTUATION, '');
  return /^\d{10,15}$/.test(digits) ? digits : null;
}

/** Digits once spaces, dashes, parentheses, dots and plus signs are taken out: 10 to 15. */
export function PhoneField(options: Presence = {}): PropertyDecorator {
  const normalize: Normalize = (value) => (typeof value === 'string' ? (phoneDigits(value) ?? value) : value);
  const check: Check = (value) =>
    typeof value === 'string' && /^\d{10,15}$/.test(value) ? null : 'must be a phone number of 10 to 15 digits';
  return field('phoneField', options, check, { type: 'string', pattern: '^[\\d ().+-]+$' }, { normalize });
}

/**
 * An absolute http(s) URL. `normalize`: stored as the WHATWG URL parser writes it (non-ASCII
 * characters percent-encoded, the host in lower case and punycode), so that it can go out as a
 * Location header as it is; `max` then counts the characters written.
 */
export function UrlField(options: Presence & { max: number; normalize?: boolean }): PropertyDecorator {
  const check: Check = (value) => {
    if (typeof value !== 'string') return 'must be a string';
    if (value.length > options.max) return `must be at most ${options.max} characters`;
    return isAbsoluteHttpUrl(value) ? null : 'must be an absolute http or https URL';
  };
  const normalize: Normalize = (value) =>
    options.normalize && typeof value === 'string' && isAbsoluteHttpUrl(value) ? new URL(value).href : value;
  return field('urlField', options, check, { type: 'string', format: 'uri', maxLength: options.max }, { normalize });
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

export interface JsonObjectOptions extends Presence {
  /** Size once serialized as JSON, in UTF-8 bytes. */
  maxBytes: number;
  /** Levels of objects and arrays, the field's own object counting as the first. */
  maxDepth: number;
  /** Items of any one array, keys of any one object. */
  maxEntries: number;
}

/**
 * Any JSON object within the limits, kept exactly as sent. Its keys are the caller's: none may
 * start with "$" or contain ".", so that nothing in it can ever read as a MongoDB operator or path.
 */
export function JsonObjectField(options: JsonObjectOptions): PropertyDecorator {
  const check: Check = (value) => {
    if (!isPlainObject(value)) return 'must be a JSON object';
    // The shape first: serializing a value nested thousands deep would overflow the stack.
    const shape = jsonShapeProblem(value, options);
    if (shape) return shape;
    const size = Buffer.byteLength(JSON.stringify(value), 'utf8');
    return size <= options.maxBytes ? null : `must be at most ${options.maxBytes} bytes as JSON`;
  };
  return field('jsonObjectField', options, check, { type: 'object', additionalProperties: true });
}

/** The first way `root` breaks the depth, width or key rules; walked without recursion. */
function jsonShapeProblem(root: object, { maxDepth, maxEntries }: JsonObjectOptions): string | null {
  const pending: Array<[object, number]> = [[root, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [container, depth] = next;
    if (depth > maxDepth) return `must be nested at most ${maxDepth} levels deep`;
    const entries = Object.entries(container);
    if (entries.length > maxEntries) return `must have at most ${maxEntries} items in any one array or object`;
    for (const [key, value] of entries) {
      if (!Array.isArray(container) && (key.startsWith('$') || key.includes('.'))) {
        return 'must not have keys that start with "$" or contain "."';
      }
      if (typeof value === 'object' && value !== null) pending.push([value, depth + 1]);
    }
  }
  return null;
}

/** A non-empty array of distinct values, each one of `allowed`. */
export function EnumListField(allowed: readonly string[], options: Presence & { max: number }): PropertyDecorator {
  const check: Check = (value) => {
    if (!Array.isArray(value) || value.length === 0) return 'must be a non-empty array';
    if (value.length > options.max) return `must have at most ${options.max} entries`;
    const wrong = value.find((entry) => typeof entry !== 'string' || !allowed.includes(entry));
    if (wrong !== undefined) return `must list only ${allowed.join(', ')}`;
    return new Set(value).size === value.length ? null : 'must not list an entry twice';
  };
  const schema = { type: 'array', items: { type: 'string', enum: [...allowed] }, minItems: 1, maxItems: options.max };
  return field('enumListField', options, check, schema as Schema);
}

export interface NestedListOptions extends Presence {
  max: number;
}

/** An array of at most `max` objects, each validated by its own class. */
export function NestedListField(type: () => new () => object, options: NestedListOptions): PropertyDecorator {
  const check: Check = (value) => {
    if (!Array.isArray(value)) return 'must be an array';
    if (value.length > options.max) return `must have at most ${options.max} entries`;
    return value.every(isPlainObject) ? null : 'must hold objects only';
  };
  const declare = field(
    'nestedListField',
    options,
    check,
    { type: () => type(), isArray: true, maxItems: options.max } as Schema,
    {
      nestedList: type,
    },
  );
  const validateNested = ValidateNested({ each: true });
  return (target: object, key: string | symbol) => {
    declare(target, key);
    validateNested(target, key);
    if (options.nullable) nullAllowed(target, key);
  };
}

/** A nested object validated by its own class. */
export function NestedField(type: () => new () => object, options: Presence = {}): PropertyDecorator {
  const check: Check = (value) => (isPlainObject(value) ? null : 'must be an object');
  // @nestjs/swagger resolves a lazy type by its function's name: it must be called `type`.
  const declare = field('nestedField', options, check, { type: () => type() }, { nested: type });
  const validateNested = ValidateNested();
  return (target: object, key: string | symbol) => {
    declare(target, key);
    validateNested(target, key);
    if (options.nullable) nullAllowed(target, key);
  };
}

/**
 * A nullable nested field that is null has nothing to check: class-validator would otherwise
 * refuse null as "nested property ... must be either object or array", so that `null`, which
 * unsets such a field, could never be sent.
 */
const nullAllowed = ValidateIf((_object: object, value: unknown) => value !== null);
