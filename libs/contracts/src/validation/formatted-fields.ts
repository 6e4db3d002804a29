/**
 * Field decorators for text written in a set form: e-mail addresses, US social security numbers,
 * phone numbers and http(s) URLs, each stored in one spelling.
 */
import { isEmail } from 'class-validator';
import { Check, field, Normalize, trim } from './field-declaration';
import { Presence } from './field-options';

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
