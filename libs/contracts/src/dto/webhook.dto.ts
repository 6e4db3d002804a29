import { ApiProperty } from '@nestjs/swagger';
import { DOMAIN_EVENTS } from '../events';
import { EnumListField, NestedField, UrlField } from '../validation/fields';
import { MAX_LISTED_ATTEMPTS, MAX_WEBHOOK_SUBSCRIPTIONS } from '../webhook-messages';

/** `webhook` inside POST /api/v2/webhooks. */
export class WebhookInput {
  @UrlField({ required: true, max: 2000 })
  @ApiProperty({
    description: 'Where deliveries are POSTed: https, and not a private address.',
    example: 'https://example.com/hooks',
  })
  url: string;

  @EnumListField(DOMAIN_EVENTS, { required: true, max: DOMAIN_EVENTS.length })
  @ApiProperty({ description: 'The events delivered to it.', example: ['application_form.completed'] })
  events: string[];
}

export class CreateWebhookRequest {
  @NestedField(() => WebhookInput, { required: true })
  webhook: WebhookInput;
}

export class WebhookRepresentation {
  @ApiProperty({ example: 1 })
  id: number;

  @ApiProperty({ example: 'https://example.com/hooks' })
  url: string;

  @ApiProperty({
    type: [String],
    enum: DOMAIN_EVENTS,
    maxItems: DOMAIN_EVENTS.length,
    example: ['application_form.completed'],
  })
  events: string[];

  @ApiProperty({ example: '2026-11-22T14:03:09+00:00' })
  created_at: string;
}

/** As created, or with a new secret: the answers that show the signing secret. */
export class CreatedWebhookRepresentation extends WebhookRepresentation {
  @ApiProperty({
    description:
      'The Standard Webhooks signing secret; shown on create (and a replay of it with the same Idempotency-Key) and on rotation only, never again.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

export class CreatedWebhookResponse {
  @ApiProperty({ type: CreatedWebhookRepresentation })
  webhook: CreatedWebhookRepresentation;
}

export class WebhookResponse {
  @ApiProperty({ type: WebhookRepresentation })
  webhook: WebhookRepresentation;
}

export class WebhookListResponse {
  @ApiProperty({
    type: [WebhookRepresentation],
    maxItems: MAX_WEBHOOK_SUBSCRIPTIONS,
    description: `The live webhooks, newest first; never more than WEBHOOK_MAX_SUBSCRIPTIONS allows, ${MAX_WEBHOOK_SUBSCRIPTIONS} at most.`,
  })
  webhooks: WebhookRepresentation[];
}

export const DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export class DeliveryAttemptRepresentation {
  @ApiProperty({ description: 'Counts from 1 for each delivery.', example: 1 })
  number: number;

  @ApiProperty({ example: '2026-11-22T14:03:09+00:00' })
  attempted_at: string;

  @ApiProperty({ description: 'A 2xx answer within 10 s.', example: false })
  success: boolean;

  @ApiProperty({ type: Number, nullable: true, description: 'The receiver’s status code; null when none came.', example: 503 })
  response_status: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why it failed without a status, or was refused.', example: null })
  error: string | null;

  @ApiProperty({ example: 120 })
  duration_ms: number;
}

export class DeliveryRepresentation {
  @ApiProperty({
    description: 'The event id: the webhook-id header of every attempt.',
    example: 'evt_1f0c4b0e4a3b4e8f9d3c2b1a0f9e8d7c',
  })
  id: string;

  @ApiProperty({ example: 'application_form.completed' })
  event: string;

  @ApiProperty({ example: false })
  test_mode: boolean;

  @ApiProperty({ enum: DELIVERY_STATUSES, example: 'succeeded' })
  status: DeliveryStatus;

  @ApiProperty({ type: String, nullable: true, description: 'When the next automatic attempt is due, if one is.', example: null })
  next_attempt_at: string | null;

  @ApiProperty({ example: '2026-11-22T14:03:09+00:00' })
  created_at: string;

  @ApiProperty({
    type: [DeliveryAttemptRepresentation],
    maxItems: MAX_LISTED_ATTEMPTS,
    description: `The latest ${MAX_LISTED_ATTEMPTS} attempts at most, oldest first.`,
  })
  attempts: DeliveryAttemptRepresentation[];
}

export class DeliveryResponse {
  @ApiProperty({ type: DeliveryRepresentation })
  delivery: DeliveryRepresentation;
}

export class DeliveryListResponse {
  @ApiProperty({ type: [DeliveryRepresentation], description: 'At most `limit` deliveries, newest first.' })
  deliveries: DeliveryRepresentation[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `cursor` for the next page; null on the last page.',
    example: 'ZDE6MTc5NTQyMjE4OTAwMDpldnRfMWYwYw',
  })
  next_cursor: string | null;
}
