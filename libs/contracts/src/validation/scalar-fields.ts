/**
 * Field decorators for single values: strings, booleans, enumerated words, integers and other
 * numbers, and calendar dates.
 */
import { parseCalendarDate, todayUtc } from '../dates';
import { asIs, Check, field, Normalize, Schema, trim } from './field-declaration';
import { DateOptions, IntegerOptions, NumberOptions, Presence, StringOptions } from './field-options';

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
