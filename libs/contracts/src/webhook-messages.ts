import { ServiceError } from './errors';
import { ClientScoped, CreateMessage, isPositiveId, parseIdSegment, requireClientId } from './messages';

/** WEBHOOKS.GET, DELETE, DELIVERIES, TEST, ROTATE_SECRET: one subscription of the client. */
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
