import { ErrorCode, FieldProblem, ServiceError } from './errors';
import { collectPageQuery, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './paging';
import { ClientScoped, CreateMessage, isPositiveId, parseIdSegment, requireClientId } from './messages';

/** WEBHOOKS.GET, DELETE, TEST, ROTATE_SECRET: one subscription of the client. */
export interface WebhookRefMessage extends ClientScoped {
  id: number;
}

export type CreateWebhookMessage = CreateMessage;

/** WEBHOOKS.REDELIVER: one delivery (named by its event id) of one subscription. */
export interface RedeliverMessage extends WebhookRefMessage {
  delivery_id: string;
}

/** The message naming a webhook from a request path: an id that is not a positive integer names none. */
export function webhookRefFromPath(clientId: number, segment: string): WebhookRefMessage {
  const id = parseIdSegment(segment);
  if (id === null) throw ServiceError.notFound('webhook', segment);
  return { client_id: clientId, id };
}

/** The client and webhook a WebhookRefMessage names, checked as the service receives it. */
export function readWebhookRef(message: WebhookRefMessage): { clientId: number; id: number } {
  const clientId = requireClientId(message?.client_id);
  if (!isPositiveId(message.id)) throw ServiceError.notFound('webhook', String(message.id));
  return { clientId, id: message.id };
}

/**
 * The most WEBHOOK_MAX_SUBSCRIPTIONS may be, and so the most webhooks a client's list shows, newest
 * first (a client given more by a version before the limit was exact keeps them, unlisted past it).
 */
export const MAX_WEBHOOK_SUBSCRIPTIONS = 1000;

/** Attempts a delivery's representation lists at most: the latest, numbered as among all of them. */
export const MAX_LISTED_ATTEMPTS = 25;

/**
 * Where a delivery stands in its subscription's list, newest first: its position there; or, in a
 * cursor handed out before deliveries had positions, its creation time (ms) and id.
 */
export type DeliveryPosition = { position: number } | { created_at: number; id: string };

/** WEBHOOKS.DELIVERIES: a page of one subscription's deliveries, newest first. */
export interface DeliveryPageMessage extends WebhookRefMessage {
  limit: number;
  /** The last delivery of the previous page; absent on the first page. */
  after?: DeliveryPosition;
}

const DELIVERY_QUERY_PARAMETERS = new Set(['limit', 'cursor']);
const DELIVERY_CURSOR = /^d2:(-?\d{1,15})$/;
const OLDER_DELIVERY_CURSOR = /^d1:(\d{1,15}):([A-Za-z0-9_-]{1,64})$/;

/** The opaque cursor of the page after the delivery at `position`. */
export function encodeDeliveryCursor({ position }: { position: number }): string {
  return Buffer.from(`d2:${position}`).toString('base64url');
}

function decodeDeliveryCursor(cursor: string): DeliveryPosition | null {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString();
  const match = DELIVERY_CURSOR.exec(text);
  if (match) return { position: Number(match[1]) };
  const older = OLDER_DELIVERY_CURSOR.exec(text);
  return older ? { created_at: Number(older[1]), id: older[2] } : null;
}

/**
 * The message for `GET /webhooks/:id/deliveries?limit=&cursor=`: paged as the API's other lists
 * (limit 1..100, default 25; a bad one, a cursor this API did not hand out or an unknown
 * parameter is a 422 naming each).
 */
export function deliveryPageFromQuery(clientId: number, segment: string, query: Record<string, unknown>): DeliveryPageMessage {
  const ref = webhookRefFromPath(clientId, segment);
  const problems: FieldProblem[] = [];
  const page = collectPageQuery({ limit: query.limit }, problems);
  const after = query.cursor === undefined ? undefined : decodeDeliveryCursor(String(query.cursor));
  if (after === null) problems.push({ field: 'cursor', message: 'is not a cursor this API handed out' });
  for (const name of Object.keys(query)) {
    if (!DELIVERY_QUERY_PARAMETERS.has(name)) problems.push({ field: name, message: 'is not a known query parameter' });
  }
  if (problems.length > 0 || !page) {
    throw new ServiceError(ErrorCode.VALIDATION_FAILED, `${problems[0].field} ${problems[0].message}`, problems);
  }
  return { ...ref, limit: page.limit, ...(after ? { after } : {}) };
}

/** The page a DeliveryPageMessage asks for, checked as the service receives it. */
export function readDeliveryPage(message: DeliveryPageMessage): { limit: number; after?: DeliveryPosition } {
  const limit =
    Number.isSafeInteger(message.limit) && message.limit >= 1 && message.limit <= MAX_PAGE_SIZE
      ? message.limit
      : DEFAULT_PAGE_SIZE;
  const after = message.after as Partial<{ position: unknown; created_at: unknown; id: unknown }> | undefined;
  if (after && Number.isSafeInteger(after.position)) return { limit, after: { position: after.position as number } };
  if (after && Number.isSafeInteger(after.created_at) && typeof after.id === 'string') {
    return { limit, after: { created_at: after.created_at as number, id: after.id } };
  }
  return { limit };
}
