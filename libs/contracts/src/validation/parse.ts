import { validateSync, ValidationError } from 'class-validator';
import { ErrorCode, FieldProblem, ServiceError } from '../errors';
import { crossCheckOf, declaredFields, isPlainObject } from './fields';

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
  const crossChecked: CrossCheckedObject[] = [];
  const instance = materialize(type, body, '', unknown, crossChecked);
  const errors = validateSync(instance, {
    stopAtFirstError: true,
    validationError: { target: false, value: false },
  });
  const fieldProblems = flatten(errors, '');
  // A field wrong on its own is named once, for that: what it means across fields is moot.
  const wrong = new Set(fieldProblems.map(({ field }) => field));
  const across: Problem[] = crossChecked
    .flatMap(({ object, path, check }) =>
      check(object).map(({ field, message }) => ({ field: path ? `${path}.${field}` : field, message })),
    )
    .filter(({ field }) => !wrong.has(field));
  if (fieldProblems.length === 0 && unknown.length === 0 && across.length === 0) return instance;

  // Problems with known fields come first: they are what a caller most likely got wrong.
  const problems = [...fieldProblems, ...across, ...unknown];
  // A field that carries its own code (property_id) answers with that code and message alone.
  if (problems.some((p) => p.code === ErrorCode.PROPERTY_ID_INVALID)) throw ServiceError.propertyIdInvalid();

  const details = problems.map(({ field, message }) => ({ field, message }));
  const first = details[0];
  throw new ServiceError(ErrorCode.VALIDATION_FAILED, `${first.field} ${first.message}`, details);
}

/**
 * Builds an instance of `type` from the declared fields of `plain`, each normalized, nested
 * objects built from their own class; every other key is recorded in `unknown` and dropped.
 *
 * Not class-transformer's plainToInstance: it copies undeclared keys onto the instance, except
 * `constructor`, `__proto__` and any key naming an inherited method (`{"toString": 1}`), which it
 * drops without a word, so a body carrying them would pass as if they had never been sent. Here
 * no key a caller chose is ever written onto an object (none can shadow a method or reach a
 * prototype), and each of those is refused as an unknown field like any other.
 */
function materialize<T extends object>(
  type: new () => T,
  plain: Record<string, unknown>,
  path: string,
  unknown: Problem[],
  crossChecked: CrossCheckedObject[],
): T {
  const fields = declaredFields(type);
  const instance = new type() as Record<string, unknown>;
  for (const [key, value] of Object.entries(plain)) {
    const fieldPath = path ? `${path}.${key}` : key;
    const spec = fields.get(key);
    if (!spec) {
      unknown.push({ field: fieldPath, message: UNKNOWN_FIELD });
    } else if (spec.nested && isPlainObject(value)) {
      instance[key] = materialize(spec.nested(), value, fieldPath, unknown, crossChecked);
    } else if (spec.nestedList && Array.isArray(value)) {
      const itemType = spec.nestedList();
      instance[key] = value.map((item: unknown, index) =>
        isPlainObject(item) ? materialize(itemType, item, `${fieldPath}.${index}`, unknown, crossChecked) : item,
      );
    } else {
      instance[key] = spec.normalize(value);
    }
  }
  const check = crossCheckOf(type);
  if (check) crossChecked.push({ object: instance, path, check });
  return instance as T;
}

/** An object built from a class with a CrossCheck, to be checked once its fields are. */
interface CrossCheckedObject {
  object: object;
  path: string;
  check: (object: object) => FieldProblem[];
}

function flatten(errors: ValidationError[], parent: string): Problem[] {
  const problems: Problem[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
      const code = (error.contexts?.[constraint] as { code?: ErrorCode } | undefined)?.code;
      problems.push({ field: path, message, code });
    }
    problems.push(...flatten(error.children ?? [], path));
  }
  return problems;
}
