import { ApiProperty } from '@nestjs/swagger';

/**
 * Error codes are stable: they are raised where the problem arises, cross the broker inside
 * `{code, message, details}`, and the gateway alone decides which HTTP status each one gets.
 */
export const ErrorCode = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  PROPERTY_ID_INVALID: 'PROPERTY_ID_INVALID',
  PROPERTY_NOT_FOUND: 'PROPERTY_NOT_FOUND',
  /**
   * The property was deleted: only the form says so (its links then say the property no longer
   * takes applications); the API answers it as PROPERTY_NOT_FOUND's 404, as the contract says.
   */
  PROPERTY_DELETED: 'PROPERTY_DELETED',
  /** Any other resource (application, applicant, floor plan, ...) that is unknown, deleted or another client's. */
  NOT_FOUND: 'NOT_FOUND',
  /** An If-Match that no longer names the resource's current representation. */
  PRECONDITION_FAILED: 'PRECONDITION_FAILED',
  /** The Idempotency-Key was used before, for a request with another body. */
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  /** The first request with this Idempotency-Key has not finished yet. */
  IDEMPOTENCY_IN_PROGRESS: 'IDEMPOTENCY_IN_PROGRESS',
  /** The resource cannot be changed as asked in its present state (a preset in use, a shipped one). */
  CONFLICT: 'CONFLICT',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** One problem with the input, as `details` of a 422 lists them. */
export class FieldProblem {
  @ApiProperty({ description: 'Path of the field in the request body.', example: 'application.applicant.email' })
  field: string;

  @ApiProperty({ description: 'What is wrong with it.', example: 'must be a valid e-mail address' })
  message: string;
}

/** What a service answers instead of a result when it cannot do the work. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  details: FieldProblem[] | null;
}

export const PROPERTY_ID_INVALID_MESSAGE = 'property_id is invalid or cannot be found';

export function propertyNotFoundMessage(id: string | number): string {
  return `property ${id} cannot be found`;
}

/** Thrown by services and the RPC helper; never an HTTP exception below the gateway. */
export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: FieldProblem[] | null = null,
  ) {
    super(message);
    this.name = 'ServiceError';
  }

  toPayload(): ErrorPayload {
    return { code: this.code, message: this.message, details: this.details };
  }

  static propertyIdInvalid(): ServiceError {
    return new ServiceError(ErrorCode.PROPERTY_ID_INVALID, PROPERTY_ID_INVALID_MESSAGE);
  }

  static propertyNotFound(id: string | number): ServiceError {
    return new ServiceError(ErrorCode.PROPERTY_NOT_FOUND, propertyNotFoundMessage(id));
  }

  /** `application 7 cannot be found`: unknown, deleted and other clients' resources alike. */
  static notFound(resource: string, id: string | number): ServiceError {
    return new ServiceError(ErrorCode.NOT_FOUND, `${resource} ${id} cannot be found`);
  }

  static preconditionFailed(): ServiceError {
    return new ServiceError(
      ErrorCode.PRECONDITION_FAILED,
      'the resource has changed since it was read (If-Match does not match its ETag); read it again',
    );
  }

  static idempotencyKeyReused(): ServiceError {
    return new ServiceError(ErrorCode.IDEMPOTENCY_KEY_REUSED, 'this Idempotency-Key was already used for a different request');
  }

  /** Whatever the body: nothing tells a request like the other key's from any other. */
  static idempotencyKeyOfAnotherKey(): ServiceError {
    return new ServiceError(
      ErrorCode.IDEMPOTENCY_KEY_REUSED,
      'this Idempotency-Key was already used by another API key of this client; choose another',
    );
  }

  static idempotencyInProgress(): ServiceError {
    return new ServiceError(
      ErrorCode.IDEMPOTENCY_IN_PROGRESS,
      'a request with this Idempotency-Key is still in progress; retry later',
    );
  }

  static conflict(message: string): ServiceError {
    return new ServiceError(ErrorCode.CONFLICT, message);
  }

  static unavailable(message: string): ServiceError {
    return new ServiceError(ErrorCode.SERVICE_UNAVAILABLE, message);
  }
}

const KNOWN_CODES = new Set<string>(Object.values(ErrorCode));

export function isErrorPayload(value: unknown): value is ErrorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.code === 'string' && KNOWN_CODES.has(candidate.code) && typeof candidate.message === 'string';
}
