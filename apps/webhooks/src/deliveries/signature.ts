import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 24 random bytes in base64, as Standard Webhooks libraries expect. */
export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt: the HMAC-SHA256, keyed with the secret's bytes,
 * of `<webhook-id>.<webhook-timestamp>.<body>`, base64, as `v1,<signature>`.
 */
export function signatureHeaders(secret: string, id: string, body: string, at: Date): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
