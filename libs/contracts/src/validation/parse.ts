import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { ErrorCode, FieldProblem, ServiceError } from '../errors';
import { isPlainObject } from './fields';

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
  const instance = plainToInstance(type, body);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
  });
  if (errors.length === 0) return instance;

  const problems = flatten(errors, '');
  // A field that carries its own code (property_id) answers with that code and message alone.
  const coded = problems.find((p) => p.code !== undefined);
  if (coded?.code === ErrorCode.PROPERTY_ID_INVALID) throw ServiceError.propertyIdInvalid();

  const details = problems.map(({ field, message }) => ({ field, message }));
  const first = details[0];
  throw new ServiceError(ErrorCode.VALIDATION_FAILED, `${first.field} ${first.message}`, details);
}

function flatten(errors: ValidationError[], parent: string): Problem[] {
  const problems: Problem[] = [];
  const unknown: Problem[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
      if (constraint === 'whitelistValidation') {
        unknown.push({ field: path, message: UNKNOWN_FIELD });
      } else {
        const code = (error.contexts?.[constraint] as { code?: ErrorCode } | undefined)?.code;
        problems.push({ field: path, message, code });
      }
    }
    problems.push(...flatten(error.children ?? [], path));
  }
  // Problems with known fields come first: they are what a caller most likely got wrong.
  return [...problems, ...unknown];
}
