import {
  ApplicationListFilters,
  LIST_FILTER_PARAMETERS,
  listFiltersOf,
  parseListFilters,
  validListFilters,
} from './application-list-filters';
import { ErrorCode, FieldProblem, ServiceError } from './errors';
import { ClientScoped, CreateMessage, isPositiveId, parseIdSegment, requireClientId, SealedApplicantFields } from './messages';
import { collectPageQuery, MAX_PAGE_SIZE, PageRequest } from './paging';
import { ConditionalMessage } from './property-messages';

/** An application named by a request path. */
export interface ApplicationRefMessage extends ClientScoped {
  id: number;
}

/** An applicant named by a request path: `/applications/:application_id/applicants/:id`. */
export interface ApplicantRefMessage extends ClientScoped {
  application_id: number;
  id: number;
}

/**
 * A co-applicant to add. As in CreateApplicationMessage, `request` is `{applicant}` without its
 * `id_number` and `dob`, which travel sealed in `sealed_applicant`.
 */
export interface AddApplicantMessage extends CreateMessage {
  application_id: number;
  sealed_applicant: SealedApplicantFields;
}

/** APPLICATIONS.UPDATE: `request` is an UpdateApplicationRequest; `if_match` the caller's If-Match. */
export interface UpdateApplicationMessage extends ApplicationRefMessage, ConditionalMessage {
  request: unknown;
}

/** A page of the client's applications, newest first, optionally of one property only, filtered. */
export interface ListApplicationsMessage extends ClientScoped, PageRequest, ApplicationListFilters {
  property_id?: number;
}

const LIST_QUERY_PARAMETERS = new Set(['property_id', 'limit', 'cursor', ...LIST_FILTER_PARAMETERS]);

/** An id in a path that is not a positive integer names nothing: 404 without asking the service. */
export function applicationRefFromPath(clientId: number, segment: string): ApplicationRefMessage {
  const id = parseIdSegment(segment);
  if (id === null) throw ServiceError.notFound('application', segment);
  return { client_id: clientId, id };
}

export function applicantRefFromPath(clientId: number, applicationSegment: string, segment: string): ApplicantRefMessage {
  const { id: applicationId } = applicationRefFromPath(clientId, applicationSegment);
  const id = parseIdSegment(segment);
  if (id === null) throw ServiceError.notFound('applicant', segment);
  return { client_id: clientId, application_id: applicationId, id };
}

/**
 * The list message for a query string: `property_id` a positive integer, `limit` and `cursor` as
 * parsePageQuery reads them. Any other parameter is refused, as unknown body fields are: a
 * misspelt filter must not pass for an unfiltered list.
 */
export function listApplicationsFromQuery(clientId: number, query: Record<string, unknown>): ListApplicationsMessage {
  const problems: FieldProblem[] = [];
  for (const name of Object.keys(query)) {
    if (!LIST_QUERY_PARAMETERS.has(name)) problems.push({ field: name, message: 'is not a known query parameter' });
  }
  let propertyId: number | null = null;
  if (query.property_id !== undefined) {
    propertyId = typeof query.property_id === 'string' ? parseIdSegment(query.property_id) : null;
    if (propertyId === null) problems.push({ field: 'property_id', message: 'must be a positive integer' });
  }
  const filters = parseListFilters(query, problems);
  const page = collectPageQuery(query, problems);
  if (problems.length > 0 || !page) {
    throw new ServiceError(ErrorCode.VALIDATION_FAILED, `${problems[0].field} ${problems[0].message}`, problems);
  }
  return { client_id: clientId, ...page, ...(propertyId === null ? {} : { property_id: propertyId }), ...filters };
}

/** A list message as the service receives it, checked again: a queue has more writers than the gateway. */
export function readListApplications(message: ListApplicationsMessage): {
  clientId: number;
  propertyId?: number;
  limit: number;
  before?: number;
  filters: ApplicationListFilters;
} {
  const clientId = requireClientId(message?.client_id);
  const { limit, before, property_id: propertyId } = message;
  const filters = listFiltersOf(message);
  const valid =
    Number.isInteger(limit) &&
    limit >= 1 &&
    limit <= MAX_PAGE_SIZE &&
    (before === undefined || isPositiveId(before)) &&
    (propertyId === undefined || isPositiveId(propertyId)) &&
    validListFilters(filters);
  if (!valid) throw new ServiceError(ErrorCode.VALIDATION_FAILED, 'malformed list message');
  return {
    clientId,
    limit,
    filters,
    ...(before === undefined ? {} : { before }),
    ...(propertyId === undefined ? {} : { propertyId }),
  };
}

/** The ids of an ApplicantRefMessage or ApplicationRefMessage, checked as the service receives them. */
export function readApplicationRef(message: ApplicationRefMessage): { clientId: number; id: number } {
  const clientId = requireClientId(message?.client_id);
  if (!isPositiveId(message.id)) throw ServiceError.notFound('application', String(message.id));
  return { clientId, id: message.id };
}

export function readApplicantRef(message: ApplicantRefMessage): { clientId: number; applicationId: number; id: number } {
  const clientId = requireClientId(message?.client_id);
  if (!isPositiveId(message.application_id)) throw ServiceError.notFound('application', String(message.application_id));
  if (!isPositiveId(message.id)) throw ServiceError.notFound('applicant', String(message.id));
  return { clientId, applicationId: message.application_id, id: message.id };
}

/**
 * APPLICATIONS.RECORD_DECISION: `request` is a RecordDecisionRequest; `key_id` names the API key
 * that recorded it (the first 16 hex digits of its SHA-256, never the key); `if_match` the
 * caller's If-Match, against the application's ETag.
 */
export interface RecordDecisionMessage extends ApplicationRefMessage, ConditionalMessage {
  request: unknown;
  key_id: string;
  idempotency_key?: string;
}

/** The key id of a RecordDecisionMessage, checked as the service receives it. */
export function readDeciderKeyId(message: RecordDecisionMessage): string {
  const keyId = message?.key_id;
  if (typeof keyId !== 'string' || !/^[0-9a-f]{16}$/.test(keyId)) {
    throw new ServiceError(ErrorCode.INTERNAL, 'malformed decision message: key_id');
  }
  return keyId;
}
