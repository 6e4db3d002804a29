import { Webhook } from 'standardwebhooks';
import type { WebhookEvent } from './types';

/** Headers as Node's IncomingMessage, a fetch Request or a plain object hold them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * The event a webhook delivery carries, once its Standard Webhooks signature is checked against
 * the webhook's secret (`whsec_...`): on the raw body as received, before any JSON parsing.
 * Throws (standardwebhooks' WebhookVerificationError) when the signature does not match, a
 * header is missing, or the timestamp is more than 5 minutes away from now.
 * An event may arrive more than once: drop duplicates by its `id`.
 */
export function verifyWebhook(body: string | Buffer, headers: WebhookHeaders, secret: string): WebhookEvent {
  return new Webhook(secret).verify(body, plainHeaders(headers)) as WebhookEvent;
}

function plainHeaders(headers: WebhookHeaders): Record<string, string> {
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return plain;
}
