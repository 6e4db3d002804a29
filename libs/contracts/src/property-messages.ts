import { ErrorCode, FieldProblem, ServiceError } from './errors';
import { ClientScoped, CreateMessage, isPositiveId, parseIdSegment, PropertyRefMessage, requireClientId } from './messages';
import { MAX_PAGE_SIZE, PageRequest, parsePageQuery } from './paging';

/** PROPERTIES.LIST: a page of the client's properties, newest first, optionally by availability. */
export interface ListPropertiesMessage extends ClientScoped, PageRequest {
  available?: boolean;
}

/** A change of a property or a floor plan; `if_match` is the caller's If-Match header, if any. */
export interface ConditionalMessage {
  if_match?: string;
}

export interface UpdatePropertyMessage extends PropertyRefMessage, ConditionalMessage {
  request: unknown;
}

export type DeletePropertyMessage = PropertyRefMessage & ConditionalMessage;

/** Names the property of a floor plan request (FLOOR_PLANS.LIST, FLOOR_PLANS.CREATE). */
export interface FloorPlansMessage extends ClientScoped {
  property_id: number;
}

export interface CreateFloorPlanMessage extends CreateMessage, FloorPlansMessage {}

/** INVITATIONS.CREATE: `request` is a CreateInvitationRequest. */
export interface CreateInvitationMessage extends FloorPlansMessage {
  request: unknown;
}

export interface FloorPlanRefMessage extends FloorPlansMessage, ConditionalMessage {
  id: number;
}

export interface UpdateFloorPlanMessage extends FloorPlanRefMessage {
  request: unknown;
}

/**
 * The `available` query parameter: `true` or `false`, or absent for every property. Anything
 * else is a 422, as a bad `limit` is.
 */
export function parseAvailableQuery(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  const details = [{ field: 'available', message: 'must be true or false' }];
  throw new ServiceError(ErrorCode.VALIDATION_FAILED, 'available must be true or false', details);
}

const LIST_QUERY_PARAMETERS = new Set(['available', 'limit', 'cursor']);

/**
 * The list message for a query string: `available`, `limit` and `cursor`. Any other parameter is
 * refused, as unknown body fields are (and as the applications list does): a misspelt filter must
 * not pass for an unfiltered list. Every problem is named in `details`.
 */
export function listPropertiesFromQuery(clientId: number, query: Record<string, unknown>): ListPropertiesMessage {
  const problems: FieldProblem[] = [];
  const collect = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ServiceError) || !error.details) throw error;
      problems.push(...error.details);
      return undefined;
    }
  };
  const page = collect(() => parsePageQuery(query));
  const available = collect(() => parseAvailableQuery(query.available));
  for (const name of Object.keys(query)) {
    if (!LIST_QUERY_PARAMETERS.has(name)) problems.push({ field: name, message: 'is not a known query parameter' });
  }
  if (problems.length > 0 || !page) {
    throw new ServiceError(ErrorCode.VALIDATION_FAILED, `${problems[0].field} ${problems[0].message}`, problems);
  }
  return { client_id: clientId, ...page, ...(available === undefined ? {} : { available }) };
}

/** The list message as the service receives it, checked: it may come from more than the gateway. */
export function readListProperties(message: ListPropertiesMessage): {
  clientId: number;
  available?: boolean;
  page: PageRequest;
} {
  const clientId = requireClientId(message?.client_id);
  const { limit, before, available } = message;
  const fine =
    Number.isSafeInteger(limit) &&
    limit >= 1 &&
    limit <= MAX_PAGE_SIZE &&
    (before === undefined || isPositiveId(before)) &&
    (available === undefined || typeof available === 'boolean');
  if (!fine) throw new ServiceError(ErrorCode.INTERNAL, 'list message with an invalid limit, cursor or filter');
  const page = before === undefined ? { limit } : { limit, before };
  return available === undefined ? { clientId, page } : { clientId, available, page };
}

/** The floor plan a request path names; an id that is not a positive integer names none (404). */
export function floorPlanRefFromPath(clientId: number, propertySegment: string, segment: string): FloorPlanRefMessage {
  const propertyId = parseIdSegment(propertySegment);
  if (propertyId === null) throw ServiceError.propertyNotFound(propertySegment);
  const id = parseIdSegment(segment);
  if (id === null) throw ServiceError.notFound('floor plan', segment);
  return { client_id: clientId, property_id: propertyId, id };
}

/** The client and property of a floor plan message, checked as the service receives it. */
export function readFloorPlansRef(message: FloorPlansMessage): { clientId: number; propertyId: number } {
  const clientId = requireClientId(message?.client_id);
  if (!isPositiveId(message.property_id)) throw ServiceError.propertyNotFound(String(message.property_id));
  return { clientId, propertyId: message.property_id };
}

export function readFloorPlanRef(message: FloorPlanRefMessage): { clientId: number; propertyId: number; id: number } {
  const { clientId, propertyId } = readFloorPlansRef(message);
  if (!isPositiveId(message.id)) throw ServiceError.notFound('floor plan', String(message.id));
  return { clientId, propertyId, id: message.id };
}

/** An If-Match header as it travels: a string, or absent. */
export function readIfMatch(message: ConditionalMessage): string | undefined {
  return typeof message?.if_match === 'string' ? message.if_match : undefined;
}
