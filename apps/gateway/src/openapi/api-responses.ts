import { applyDecorators, Type } from '@nestjs/common';
import { ApiDefaultResponse, ApiResponse } from '@nestjs/swagger';
import { ErrorResponse, PROPERTY_ID_INVALID_MESSAGE } from '@app/contracts';
import { SERVICE_UNAVAILABLE_MESSAGE } from '@app/messaging';
import { RETRY_AFTER_SECONDS } from '../http/error-status';

export const REQUEST_ID = {
  'X-Request-Id': {
    description: 'The request’s id: the one sent in X-Request-Id when it was 1 to 128 of A-Z a-z 0-9 . _ : -, else a new one.',
    schema: { type: 'string' },
  },
};

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', example: RETRY_AFTER_SECONDS } },
};

export const errorBody = (summary: string, message: string, details: unknown = null) => ({
  summary,
  value: { error: { message, details } },
});

/** The error statuses of the API, each with when it happens and an example body. */
const ERRORS = {
  400: {
    description: 'The body is not well-formed JSON.',
    examples: { malformed: errorBody('Malformed JSON', 'the request cannot be read') },
  },
  401: {
    description: 'No API key, or an unknown one.',
    examples: {
      unauthorized: errorBody('No or unknown API key', 'a valid API key is required: Authorization: Bearer <api key>'),
    },
  },
  403: {
    description: 'The API key lacks the scope the request needs.',
    examples: { forbidden: errorBody('Scope missing', 'this API key does not have the scope this request needs') },
  },
  404: {
    description: 'The id is not a positive integer, names no property, a deleted one, or another client’s.',
    examples: { notFound: errorBody('No such property', 'property 7 cannot be found') },
  },
  409: {
    description: 'The first request with this Idempotency-Key is still being worked on; retry a moment later.',
    examples: { inProgress: errorBody('Key in use', 'a request with this Idempotency-Key is still in progress; retry later') },
  },
  412: {
    description: 'If-Match no longer names the current representation: someone changed it since it was read. Read it again.',
    examples: {
      changed: errorBody(
        'Changed since read',
        'the resource has changed since it was read (If-Match does not match its ETag); read it again',
      ),
    },
  },
  413: {
    description: 'The body is over 64 KiB.',
    examples: { tooLarge: errorBody('Body over the limit', 'the request cannot be read') },
  },
  415: {
    description: 'The Content-Type of a POST is not application/json.',
    examples: { unsupported: errorBody('Not JSON', 'Content-Type must be application/json') },
  },
  422: {
    description:
      'Invalid input: the message names the first problem and details lists every one, unknown fields included. ' +
      'Also an Idempotency-Key that is malformed, or that was used before for a different request.',
    examples: {
      invalid: errorBody('Invalid fields', 'property.name must not be empty', [
        { field: 'property.name', message: 'must not be empty' },
        { field: 'property.colour', message: 'is not a known field' },
      ]),
    },
  },
  429: {
    description: 'The API key has spent its rate limit; retry after Retry-After seconds.',
    examples: { limited: errorBody('Too many requests', 'rate limit exceeded: retry after 1 seconds') },
    headers: RETRY_AFTER,
  },
  503: {
    description: 'A service, the broker or a database did not answer in time. Retry after Retry-After seconds.',
    examples: { unavailable: errorBody('No answer in time', SERVICE_UNAVAILABLE_MESSAGE) },
    headers: RETRY_AFTER,
  },
} as const;

export type ErrorStatus = keyof typeof ERRORS;

/** The documented error responses of an operation, all with the API's error body. */
export function ApiErrorResponses(
  statuses: ErrorStatus[],
  overrides: Partial<Record<ErrorStatus, { description: string; examples: Record<string, ReturnType<typeof errorBody>> }>> = {},
): MethodDecorator & ClassDecorator {
  const responses = statuses.map((status) => {
    const { description, examples, ...rest } = { ...ERRORS[status], ...overrides[status] };
    const headers = { ...REQUEST_ID, ...('headers' in rest ? rest.headers : {}) };
    return ApiResponse({ status, description, type: ErrorResponse, examples, headers });
  });
  return applyDecorators(
    ...responses,
    ApiDefaultResponse({
      description: 'Any other failure, such as an unexpected error (500): the same error body, never internals.',
      type: ErrorResponse,
      examples: { internal: errorBody('Unexpected failure', 'internal error') },
      headers: REQUEST_ID,
    }),
  );
}

/** The success response of an operation. */
export function ApiSuccess(status: 200 | 201, type: Type<unknown>, description: string): MethodDecorator & ClassDecorator {
  return ApiResponse({ status, type, description, headers: REQUEST_ID });
}

/** The two 422 bodies of POST /api/v2/applications. */
export const APPLICATION_422 = {
  description:
    'Invalid input: the message names the first problem and details lists every one, unknown fields ' +
    'included. A property_id that is missing, not a positive integer, unknown, deleted or another ' +
    `client’s gives exactly "${PROPERTY_ID_INVALID_MESSAGE}" with details null.`,
  examples: {
    invalid: errorBody('Invalid fields', 'application.applicant.email must be a valid e-mail address', [
      { field: 'application.applicant.email', message: 'must be a valid e-mail address' },
    ]),
    propertyId: errorBody('Bad property_id', PROPERTY_ID_INVALID_MESSAGE),
  },
};
