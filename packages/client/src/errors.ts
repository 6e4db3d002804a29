import type { ErrorBody, FieldProblem } from './types';

/**
 * An answer of the API that is not a success, with what its error body says: `message`, and
 * `details` (for a 422, every problem found; null otherwise). Each status the API documents has
 * its own class, so that `catch` can tell them apart with `instanceof`.
 */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';

  constructor(
    readonly status: number,
    message: string,
    readonly details: FieldProblem[] | null,
    /** The X-Request-Id the gateway logged the request under: quote it when asking about it. */
    readonly requestId: string | null,
  ) {
    super(message);
  }

  /** The error of `status`, from the API's error body (or a stand-in when it has none). */
  static from(status: number, body: unknown, requestId: string | null): ApiError {
    const error = isErrorBody(body) ? body.error : { message: `HTTP ${status}`, details: null };
    const Class = ERRORS_BY_STATUS[status] ?? ApiError;
    return new Class(status, error.message, error.details, requestId);
  }
}

/** 400: the body is not well-formed JSON. */
export class BadRequestError extends ApiError {
  override readonly name = 'BadRequestError';
}
/** 401: no API key, or an unknown one. */
export class AuthenticationError extends ApiError {
  override readonly name = 'AuthenticationError';
}
/** 403: the API key lacks the scope the request needs. */
export class PermissionError extends ApiError {
  override readonly name = 'PermissionError';
}
/** 404: no such resource (or another client's). */
export class NotFoundError extends ApiError {
  override readonly name = 'NotFoundError';
}
/** 409: a conflict, such as a limit reached or a preset still in use. */
export class ConflictError extends ApiError {
  override readonly name = 'ConflictError';
}
/** 412: If-Match no longer names the current representation; read it again before changing it. */
export class PreconditionFailedError extends ApiError {
  override readonly name = 'PreconditionFailedError';
}
/** 422: invalid input; `details` lists every problem found. */
export class ValidationError extends ApiError {
  override readonly name = 'ValidationError';
}
/** 429: the API key is over its rate limit, still after the retries the client made. */
export class RateLimitError extends ApiError {
  override readonly name = 'RateLimitError';
}
/** 503: a part of the service did not answer in time, still after the retries the client made. */
export class ServiceUnavailableError extends ApiError {
  override readonly name = 'ServiceUnavailableError';
}

const ERRORS_BY_STATUS: Record<number, typeof ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  412: PreconditionFailedError,
  422: ValidationError,
  429: RateLimitError,
  503: ServiceUnavailableError,
};

function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as ErrorBody | null)?.error;
  return typeof error === 'object' && error !== null && typeof error.message === 'string';
}
