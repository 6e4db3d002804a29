/**
 * What each field decorator is given: whether the field must be there and may be null (every
 * kind), and the limits of its kind. They are kept in one file with what they extend:
 * tools/contract-shapes.ts, which compares them between releases, reads what an interface
 * extends only within the interface's own file.
 */
import { ErrorCode } from '../errors';

export interface Presence {
  /** The field must be present and not null. */
  required?: boolean;
  /** An optional field may be sent as null (meaning "not set"). */
  nullable?: boolean;
  /** Error code raised instead of VALIDATION_FAILED when this field is wrong. */
  code?: ErrorCode;
}

export interface StringOptions extends Presence {
  min?: number;
  max: number;
  /** Remove surrounding white space before checking and storing. */
  trim?: boolean;
  /** What the whole string must match, and the message when it does not. */
  pattern?: { regex: RegExp; message: string };
}

export interface StringListOptions extends Presence {
  /** Entries, at least and at most. */
  min: number;
  max: number;
  /** Characters of each entry, at most; entries are trimmed and must not be empty. */
  maxLength: number;
}

export interface IntegerOptions extends Presence {
  min: number;
  /** Defaults to the largest safe integer. */
  max?: number;
}

export interface NumberOptions extends Presence {
  min: number;
  max: number;
}

export interface DateOptions extends Presence {
  /** The date must be before today (UTC). */
  past?: boolean;
}

export interface JsonObjectOptions extends Presence {
  /** Size once serialized as JSON, in UTF-8 bytes. */
  maxBytes: number;
  /** Levels of objects and arrays, the field's own object counting as the first. */
  maxDepth: number;
  /** Items of any one array, keys of any one object. */
  maxEntries: number;
}

export interface NestedListOptions extends Presence {
  max: number;
}
