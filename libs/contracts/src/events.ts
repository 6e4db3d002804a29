import { randomUUID } from 'node:crypto';

/** Every domain event a change publishes; the routing key of its message on the events exchange. */
export const DOMAIN_EVENTS = [
  'property.created',
  'property.updated',
  'property.deleted',
  'floor_plan.created',
  'floor_plan.updated',
  'floor_plan.deleted',
  'application.created',
  'application.updated',
  'application.archived',
  'application.restored',
  'applicant.created',
  'application_form.started',
  'application_form.completed',
  'applicant.updated',
  'applicant.removed',
  'applicant.withdrawn',
  'applicant.document_added',
  'form_preset.created',
  'form_preset.updated',
  'form_preset.deleted',
  'application.decided',
  'application.assessed',
  'application.personal_data_erased',
] as const;

export type DomainEventName = (typeof DOMAIN_EVENTS)[number];

/** The ids an event is about: those that apply to it, and no others. */
export interface EventData {
  property_id?: number;
  floor_plan_id?: number;
  form_preset_id?: number;
  application_id?: number;
  applicant_id?: number;
  reference_id?: string | null;
  /** application.updated: the fields of the application the change set, as named in its PATCH. */
  changed_fields?: string[];
  /** applicant.document_added: the document's id (GET .../documents). */
  document_id?: number;
  /** application.decided: the decision's status (approved, conditionally_approved, declined, withdrawn). */
  status?: string;
  /**
   * application.decided: the applicants and guarantors of the application when it was decided,
   * the people the decision is e-mailed to; not those who withdrew from it before. A release before this one publishes the event without it.
   * application.personal_data_erased: the applicants whose personal data was erased.
   */
  applicant_ids?: number[];
}

/** What an event about an applicant holds: its ids, and the integrator's reference for it. */
const APPLICANT_EVENT_FIELDS = ['applicant_id', 'application_id', 'property_id', 'reference_id'] as const;
const APPLICATION_EVENT_FIELDS = ['application_id', 'property_id'] as const;

/**
 * The fields of EventData each event holds, every one of them always (a webhook's test event
 * holds none): what the API document and the typed client tell integrators to expect.
 */
export const EVENT_DATA_FIELDS = {
  'property.created': ['property_id'],
  'property.updated': ['property_id'],
  'property.deleted': ['property_id'],
  'floor_plan.created': ['property_id', 'floor_plan_id'],
  'floor_plan.updated': ['property_id', 'floor_plan_id'],
  'floor_plan.deleted': ['property_id', 'floor_plan_id'],
  'application.created': APPLICATION_EVENT_FIELDS,
  'application.updated': [...APPLICATION_EVENT_FIELDS, 'changed_fields'],
  'application.archived': APPLICATION_EVENT_FIELDS,
  'application.restored': APPLICATION_EVENT_FIELDS,
  'applicant.created': APPLICANT_EVENT_FIELDS,
  'application_form.started': APPLICANT_EVENT_FIELDS,
  'application_form.completed': APPLICANT_EVENT_FIELDS,
  'applicant.updated': APPLICANT_EVENT_FIELDS,
  'applicant.removed': APPLICANT_EVENT_FIELDS,
  'applicant.withdrawn': APPLICANT_EVENT_FIELDS,
  'applicant.document_added': ['applicant_id', 'application_id', 'property_id', 'document_id'],
  'form_preset.created': ['form_preset_id'],
  'form_preset.updated': ['form_preset_id'],
  'form_preset.deleted': ['form_preset_id'],
  'application.decided': [...APPLICATION_EVENT_FIELDS, 'status', 'applicant_ids'],
  // Named before anything publishes it, so that every consumer knows it by the release that does.
  'application.assessed': APPLICATION_EVENT_FIELDS,
  'application.personal_data_erased': [...APPLICATION_EVENT_FIELDS, 'applicant_ids'],
} as const satisfies Record<DomainEventName, readonly (keyof EventData)[]>;

/** The data of an `event`, as EVENT_DATA_FIELDS says: what its producer must give. */
export type EventDataOf<E extends DomainEventName> = Required<Pick<EventData, (typeof EVENT_DATA_FIELDS)[E][number]>>;

/**
 * A domain event as published on the exchange (the webhook body is the same without
 * `client_id`). `id` names the event on every publish of it, so consumers drop duplicates by it.
 */
export interface DomainEvent {
  id: string;
  event: DomainEventName;
  client_id: number;
  test_mode: boolean;
  /** ISO 8601, seconds precision, numeric offset. */
  created_at: string;
  data: EventData;
}

/** Base name of the durable topic exchange the events are published on (NAMESPACE prefixed). */
export const EVENTS_EXCHANGE = 'events';

export function newEventId(): string {
  return `evt_${randomUUID().replace(/-/g, '')}`;
}

/** True for a body of the shape of a DomainEvent: what a consumer can work; anything else is unreadable. */
export function isDomainEvent(body: unknown): body is DomainEvent {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const event = body as Record<string, unknown>;
  return (
    typeof event.id === 'string' &&
    (DOMAIN_EVENTS as readonly unknown[]).includes(event.event) &&
    Number.isSafeInteger(event.client_id) &&
    typeof event.test_mode === 'boolean' &&
    typeof event.created_at === 'string' &&
    typeof event.data === 'object' &&
    event.data !== null &&
    !Array.isArray(event.data)
  );
}
