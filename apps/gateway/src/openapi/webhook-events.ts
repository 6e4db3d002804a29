import { OpenAPIObject } from '@nestjs/swagger';
import { DECISION_STATUSES, DOMAIN_EVENTS, DomainEventName, EVENT_DATA_FIELDS, EventData, MAX_APPLICANTS } from '@app/contracts';

type Json = Record<string, unknown>;

const ID = { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };

/** Each field an event's data may hold, as the document describes it. */
const DATA_FIELDS: Record<keyof EventData, Json> = {
  property_id: { ...ID, description: 'The property the event is about, or whose application or applicant it is.', example: 3 },
  floor_plan_id: { ...ID, description: 'The floor plan.', example: 4 },
  form_preset_id: { ...ID, description: 'The form preset; for form_preset.updated, read its new version.', example: 101 },
  application_id: { ...ID, description: 'The application.', example: 7 },
  applicant_id: { ...ID, description: 'The applicant.', example: 12 },
  reference_id: {
    type: 'string',
    nullable: true,
    maxLength: 255,
    description: 'The applicant’s reference_id, as the integrator gave it; null when it has none.',
    example: 'crm-7',
  },
  changed_fields: {
    type: 'array',
    items: { type: 'string', maxLength: 64 },
    uniqueItems: true,
    maxItems: 100,
    description: 'The fields of the application its PATCH changed, as named in the PATCH.',
    example: ['assigned_user_id'],
  },
  document_id: { ...ID, description: 'The document uploaded (GET .../documents).', example: 5 },
  status: {
    type: 'string',
    enum: [...DECISION_STATUSES],
    description: 'The status of the decision recorded (GET .../decision for the rest of it).',
    example: 'approved',
  },
  applicant_ids: {
    type: 'array',
    items: ID,
    maxItems: MAX_APPLICANTS,
    description: 'The applicants and guarantors of the application when it was decided: those the decision is e-mailed to.',
    example: [12, 13],
  },
};

const EVENT_ID = {
  type: 'string',
  maxLength: 64,
  description: 'The event’s id, sent as webhook-id too, the same on every attempt: drop duplicates by it.',
  example: 'evt_1f0c4b0e4a3b4e8f9d3c2b1a0f9e8d7c',
};
const CREATED_AT = { type: 'string', description: 'When the event happened.', example: '2026-11-22T14:03:09+00:00' };
const ENVELOPE_FIELDS = ['id', 'event', 'test_mode', 'created_at', 'data'];

export const WEBHOOK_EVENT_SCHEMA = 'WebhookEvent';
export const WEBHOOK_TEST_EVENT_SCHEMA = 'WebhookTestEvent';

/** `application_form.completed` → `ApplicationFormCompletedEvent`. */
export function webhookEventSchemaName(event: DomainEventName): string {
  const words = event.split(/[._]/).map((word) => word[0].toUpperCase() + word.slice(1));
  return `${words.join('')}Event`;
}

function eventSchema(event: DomainEventName): Json {
  const fields = EVENT_DATA_FIELDS[event];
  return {
    type: 'object',
    description: `The body of a delivery of ${event}.`,
    properties: {
      id: EVENT_ID,
      event: { type: 'string', enum: [event], example: event },
      test_mode: { type: 'boolean', enum: [false], example: false },
      created_at: CREATED_AT,
      data: {
        type: 'object',
        description: 'The ids the event is about.',
        properties: Object.fromEntries(fields.map((field) => [field, DATA_FIELDS[field]])),
        required: [...fields],
        additionalProperties: false,
        example: Object.fromEntries(fields.map((field) => [field, DATA_FIELDS[field].example])),
      },
    },
    required: ENVELOPE_FIELDS,
    additionalProperties: false,
  };
}

const TEST_EVENT = {
  type: 'object',
  description:
    'The body of a test delivery (POST /api/v2/webhooks/{id}/test): of the first event the webhook names, about nothing.',
  properties: {
    id: EVENT_ID,
    event: { type: 'string', enum: [...DOMAIN_EVENTS], example: 'application_form.completed' },
    test_mode: { type: 'boolean', enum: [true], example: true },
    created_at: CREATED_AT,
    data: { type: 'object', description: 'Empty.', properties: {}, additionalProperties: false, example: {} },
  },
  required: ENVELOPE_FIELDS,
  additionalProperties: false,
};

/** The Standard Webhooks headers of every delivery. */
const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The event’s id, the same on every attempt.', schema: { type: 'string', maxLength: 64 } },
  {
    name: 'webhook-timestamp',
    description: 'When the attempt was signed, in seconds since 1970.',
    schema: { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  },
  {
    name: 'webhook-signature',
    description: 'v1, then the base64 HMAC-SHA256 of id.timestamp.body under the secret’s bytes (after whsec_).',
    schema: { type: 'string', maxLength: 1024 },
  },
].map((header) => ({ ...header, in: 'header' as const, required: true }));

/**
 * The bodies webhooks deliver, one schema per event (its data as EVENT_DATA_FIELDS says) and one
 * for test events, under WebhookEvent, and the delivery itself as a callback of POST
 * /api/v2/webhooks: so that clients generated from the document type the events they receive.
 */
export function describeWebhookEvents(document: OpenAPIObject): OpenAPIObject {
  const schemas = ((document.components ??= {}).schemas ??= {}) as Record<string, Json>;
  for (const event of DOMAIN_EVENTS) schemas[webhookEventSchemaName(event)] = eventSchema(event);
  schemas[WEBHOOK_TEST_EVENT_SCHEMA] = TEST_EVENT;
  schemas[WEBHOOK_EVENT_SCHEMA] = {
    description: 'Any delivery’s body: check test_mode, then event, for the data it holds.',
    oneOf: [...DOMAIN_EVENTS.map(webhookEventSchemaName), WEBHOOK_TEST_EVENT_SCHEMA].map((name) => ({
      $ref: `#/components/schemas/${name}`,
    })),
  };
  const create = document.paths['/api/v2/webhooks']?.post;
  if (!create) throw new Error('POST /api/v2/webhooks is not in the document');
  create.callbacks = {
    delivery: {
      '{$request.body#/webhook/url}': {
        post: {
          operationId: 'deliverWebhookEvent',
          summary: 'A delivery of an event',
          description:
            'Each event the webhook names is POSTed to its url, signed as Standard Webhooks do; verify the signature ' +
            'on the raw body. A 2xx answer within 10 s is a success; anything else is retried with backoff.',
          tags: ['webhooks'],
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${WEBHOOK_EVENT_SCHEMA}` } } },
          },
          responses: {
            '2XX': { description: 'Received: the delivery is done.' },
            '4XX': { description: 'Refused: the delivery is retried, as after any other failure.' },
            default: { description: 'Anything else, or no answer within 10 s: the delivery is retried.' },
          },
        },
      },
    },
  };
  return document;
}
