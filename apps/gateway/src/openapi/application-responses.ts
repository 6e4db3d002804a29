import { applyDecorators, Type } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { MAX_APPLICANTS, MAX_PAGE_SIZE, ServiceError } from '@app/contracts';
import { REQUEST_ID } from './api-responses';

const errorBody = (summary: string, message: string, details: unknown = null) => ({
  summary,
  value: { error: { message, details } },
});

export const APPLICATION_404 = {
  description: 'The application id is not a positive integer, names no application, or another client’s.',
  examples: { notFound: errorBody('No such application', 'application 7 cannot be found') },
};

export const APPLICANT_404 = {
  description:
    'The application id or the applicant id is not a positive integer, names nothing, is another client’s, or the ' +
    'applicant is not one of the application’s.',
  examples: {
    application: errorBody('No such application', 'application 7 cannot be found'),
    applicant: errorBody('No such applicant', 'applicant 12 cannot be found'),
  },
};

export const APPLICANT_422 = {
  description:
    'Invalid input, under the rules of the primary applicant: the message names the first problem and details ' +
    `lists every one, unknown fields included. Also an application that has its ${MAX_APPLICANTS} applicants already, and an ` +
    'Idempotency-Key that is malformed or was used before for a different request.',
  examples: {
    invalid: errorBody('Invalid fields', 'applicant.email must be a valid e-mail address', [
      { field: 'applicant.email', message: 'must be a valid e-mail address' },
    ]),
    full: errorBody('Applicants full', `applicant cannot be added: an application has at most ${MAX_APPLICANTS} applicants`, [
      { field: 'applicant', message: `cannot be added: an application has at most ${MAX_APPLICANTS} applicants` },
    ]),
  },
};

/** The 403 of `what` (erasing personal data, changing the retention settings) with a key not granted the scope. */
export const personalDataErasure403 = (what: string) => ({
  description: 'A key that API_KEY_SCOPES does not grant the personal_data_erasure scope.',
  examples: {
    scope: errorBody(
      'Scope missing',
      `${what} needs the personal_data_erasure scope, which this API key does not have (API_KEY_SCOPES)`,
    ),
  },
});

/** The 409s of adding an applicant: its Idempotency-Key in use, or the application's personal data erased. */
export const APPLICANT_ADD_409 = {
  description:
    'The first request with this Idempotency-Key is still being worked on; retry a moment later. Or the ' +
    'application’s personal data was erased (DELETE /api/v2/applications/{id}/personal_data, or its retention ' +
    'period passed): an applicant added would bring it back.',
  examples: {
    inProgress: errorBody('Key in use', ServiceError.idempotencyInProgress().message),
    erased: errorBody('Personal data erased', 'the personal data of application 7 was erased; no applicant can be added to it'),
  },
};

export const APPLICATION_UPDATE_422 = {
  description:
    'Invalid input: the message names the first problem and details lists every one, unknown fields included; ' +
    'also a floor_plan_id that is not one of the floor plans of the application’s property.',
  examples: {
    invalid: errorBody('Invalid fields', 'application.desired_lease_length must be at most 120', [
      { field: 'application.desired_lease_length', message: 'must be at most 120' },
      { field: 'application.property_id', message: 'is not a known field' },
    ]),
    floorPlan: errorBody('Another property’s floor plan', 'application.floor_plan_id must be a floor plan of property 1', [
      { field: 'application.floor_plan_id', message: 'must be a floor plan of property 1' },
    ]),
  },
};

export const LIST_422 = {
  description: `A limit that is not an integer from 1 to ${MAX_PAGE_SIZE}, a cursor this API did not hand out, a property_id or assigned_user_id that is not a positive integer, an archived, form_status or status that is not one of its values, an updated_since that is not a timestamp, an income_to_rent_min that is not a number from 0 to 1000, or an unknown query parameter; details names each.`,
  examples: {
    limit: errorBody('Bad limit', `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`, [
      { field: 'limit', message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` },
    ]),
  },
};

const ETAG = {
  ETag: {
    description: 'The representation’s entity tag: send it in If-None-Match to be answered 304 while it is unchanged.',
    schema: { type: 'string' },
  },
};

/** A GET of one resource: 200 with its ETag, 304 when If-None-Match names the current tag. */
export function ApiTaggedResource(type: Type<unknown>, description: string): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'Entity tags from earlier reads; when one is current the answer is 304 with no body.',
    }),
    ApiResponse({ status: 200, type, description, headers: { ...REQUEST_ID, ...ETAG } }),
    ApiResponse({ status: 304, description: 'Not modified: If-None-Match names the current entity tag.', headers: ETAG }),
  );
}
