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
 * One serialized log line with its sensitive fields redacted. Applied to the final line, after
 * every serializer and binding, so nothing added on the way escapes it.
 */
export function redactLogLine(line: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    // Not JSON, so it was not written by pino; nothing to find by field name.
    return line;
  }
  return `${JSON.stringify(redactDeep(parsed))}\n`;
}
