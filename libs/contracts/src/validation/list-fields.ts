/**
 * Field decorators for arrays: of distinct strings, of distinct enumerated words, and of objects
 * each validated by its own class.
 */
import { ValidateNested } from 'class-validator';
import { Check, field, Normalize, Schema, trim } from './field-declaration';
import { NestedListOptions, Presence, StringListOptions } from './field-options';
import { isPlainObject, nullAllowed } from './object-fields';

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
