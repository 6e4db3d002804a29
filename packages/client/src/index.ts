export { RentalApplicationsClient } from './client';
export type { Conditional, Idempotent } from './client';
export { ConnectionError } from './transport';
export type { ClientOptions, RetryEvent } from './transport';
export * from './errors';
export { verifyWebhook } from './webhooks';
export type { WebhookHeaders } from './webhooks';
export type * from './types';
export type { components, operations, paths } from './generated/api';
