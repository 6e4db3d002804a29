import { ErrorCode } from '@app/contracts';

/** The one place where an error code becomes an HTTP status. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  [ErrorCode.VALIDATION_FAILED]: 422,
  [ErrorCode.PROPERTY_ID_INVALID]: 422,
  [ErrorCode.PROPERTY_NOT_FOUND]: 404,
  // Deleted and unknown are one to API clients: nothing says that a property existed.
  [ErrorCode.PROPERTY_DELETED]: 404,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.PRECONDITION_FAILED]: 412,
  [ErrorCode.IDEMPOTENCY_KEY_REUSED]: 422,
  [ErrorCode.IDEMPOTENCY_IN_PROGRESS]: 409,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.SERVICE_UNAVAILABLE]: 503,
  [ErrorCode.INTERNAL]: 500,
};

/** Seconds a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 5;
