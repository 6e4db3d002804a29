import { ErrorCode, FieldProblem, ServiceError } from '../errors';
import { declaredFields, isPlainObject } from './fields';

const UNKNOWN_FIELD = 'is not a known field';

interface Problem extends FieldProblem {
  code?: ErrorCode;
}

/**
 * Validates a request body against its contract class and returns it normalized (trimmed
 * strings, integers from digit strings, `YYYY-MM-DD` dates, bare SSN and phone digits).
 * Normalized output validates to itself, so the gateway and the service can both run it.
 * Throws a ServiceError naming the first problem, with every problem in `details`.
 */
export function parseRequest<T extends object>(type: new () => T, body: unknown): T {
  if (!isPlainObject(body)) {
    const problem = { field: 'body', message: 'must be a JSON object' };
    throw new ServiceError(ErrorCode.VALIDATION_FAILED, 'the request body must be a JSON object', [problem]);
  }
  const unknown: Problem[] = [];
  const instance = materialize(type, body, '', unknown);
  // Problems with known fields come first: they are what a caller most likely got wrong.
  const problems = check(instance, type, '', []);
  problems.push(...unknown);
  if (problems.length === 0) return instance;

  // A field that carries its own code (property_id) answers with that code and message alone.
  if (problems.some((p) => p.code === ErrorCode.PROPERTY_ID_INVALID)) throw ServiceError.propertyIdInvalid();

  const details = problems.map(({ field, message }) => ({ field, message }));
  const first = details[0];
  throw new ServiceError(ErrorCode.VALIDATION_FAILED, `${first.field} ${first.message}`, details);
}

/**
 * Builds an instance of `type` from the declared fields of `plain`, each normalized, nested
 * objects built from their own class; every other key is recorded in `unknown` and dropped.
 */
function materialize<T extends object>(type: new () => T, plain: Record<string, unknown>, path: string, unknown: Problem[]): T {
  const fields = declaredFields(type);
  const instance = new type() as Record<string, unknown>;
  for (const [key, value] of Object.entries(plain)) {
    const fieldPath = path ? `${path}.${key}` : key;
    const spec = fields.get(key);
    if (!spec) {
      unknown.push({ field: fieldPath, message: UNKNOWN_FIELD });
    } else if (spec.nested && isPlainObject(value)) {
      instance[key] = materialize(spec.nested(), value, fieldPath, unknown);
    } else {
      instance[key] = spec.normalize(value);
    }
  }
  return instance as T;
}

/**
 * Checks each field `type` declares, in the order it declares them, and the fields of a nested
 * object after the object itself (a nested object that is wrong is one problem, not more).
 * The checks are run here directly: class-validator's validateSync ran the same ones with much
 * costlier machinery around them, on both sides of the broker.
 */
function check(instance: object, type: Function, path: string, problems: Problem[]): Problem[] {
  for (const [key, spec] of declaredFields(type)) {
    const field = path ? `${path}.${key}` : key;
    const value = (instance as Record<string, unknown>)[key];
    const message = spec.problem(value);
    if (message !== null) problems.push({ field, message, code: spec.code });
    else if (spec.nested && isPlainObject(value)) check(value, spec.nested(), field, problems);
  }
  return problems;
}
