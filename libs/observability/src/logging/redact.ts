/**
 * Names of fields whose values never reach a log line, at any depth: the applicant's personal
 * data, and credentials. A key matches whatever its case and separators (`Authorization`,
 * `idNumber`, `x-api-key`).
 */
export const SENSITIVE_FIELDS = [
  'id_number',
  'dob',
  'first_name',
  'last_name',
  'email',
  'phone',
  'custom_data',
  // The form's sections: where an applicant lived and works, who lives with it, its answers.
  'drivers_license_number',
  'middle_name',
  'section',
  'form_answers',
  'answers',
  // An applicant read with include=sensitive_data carries dob and id_number under it.
  'sensitive_data',
  'authorization',
  'api_key',
  'api_keys',
  'x_api_key',
] as const;

export const REDACTED = '[Redacted]';

const normalize = (key: string): string => key.toLowerCase().replace(/[-_]/g, '');
const SENSITIVE = new Set<string>(SENSITIVE_FIELDS.map(normalize));

export function isSensitiveField(key: string): boolean {
  return SENSITIVE.has(normalize(key));
}

/**
 * A copy of `value` for logging, in which every sensitive field of every object and array, at any
 * depth, holds REDACTED instead of its value. Objects become plain copies of their own enumerable
 * fields (a DTO instance included), except those that say how they serialize (`toJSON`: dates,
 * buffers), which are kept as they are; a cycle is cut rather than followed.
 */
export function redactDeep<T>(value: T): T {
  return copy(value, new WeakSet()) as T;
}

function copy(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[Circular]';
  if (Array.isArray(value)) {
    seen.add(value);
    const items = value.map((item) => copy(item, seen));
    seen.delete(value);
    return items;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  seen.add(value);
  const result: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    result[key] = isSensitiveField(key) ? REDACTED : copy(field, seen);
  }
  seen.delete(value);
  return result;
}

/**
 * The objects our log lines carry, under which a sensitive field is redacted by pino's `redact`:
 * the line itself, headers and bodies, and a message's request. Not `req` and `res`: their
 * serializers keep no headers (loggerParams), and a path under them would redact the request
 * pino-http binds to a child logger for every request, whether or not a line is written. pino compiles each path
 * into a plain property access, which costs about nothing per line; a wildcard path (`*.dob`) is
 * walked on every line instead and cost 35 us a line for one level, so there is none. A field
 * logged anywhere else is not redacted by path: log other objects under one of these, or as an
 * error, whose serialized form is redacted at any depth (redactedError).
 */
const CONTAINERS = [
  '',
  'headers',
  'body',
  'body.application',
  'body.application.applicant',
  'body.applicant',
  'request',
  'request.application',
  'request.application.applicant',
  'data',
  'data.request.application.applicant',
  'applicant',
  'application.applicant',
  'config',
] as const;

/** The spellings a field is met in: `id_number`, `idNumber`, `id-number`, `ID_NUMBER`, `Id-Number`, `IdNumber`. */
export function spellings(field: string): string[] {
  const parts = field.split('_');
  const capitalized = parts.map((part) => part[0].toUpperCase() + part.slice(1));
  const camel = parts[0] + capitalized.slice(1).join('');
  return [...new Set([field, camel, parts.join('-'), field.toUpperCase(), capitalized.join('-'), capitalized.join('')])];
}

/** A key as a step of a pino redact path: `.name`, or `["x-api-key"]` when it is no identifier. */
const step = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `["${key}"]`);

/** pino `redact` paths: every spelling of every sensitive field under every container. */
export const REDACT_PATHS: readonly string[] = CONTAINERS.flatMap((container) =>
  SENSITIVE_FIELDS.flatMap((field) => spellings(field).map((key) => `${container}${step(key)}`.replace(/^\./, ''))),
);

/**
 * An error as pino serializes it (its message, stack, type and every own field), with every
 * sensitive field at any depth redacted. Errors are rare and may carry what a driver or library
 * put in them (a duplicate key's value, a configuration), so they get the deep walk.
 */
export function redactedError(serialize: (error: Error) => Record<string, unknown>) {
  return (error: Error): Record<string, unknown> => redactDeep(serialize(error));
}
