import type { components, operations } from './generated/api';

type Schemas = components['schemas'];

/** An operation of the API, by its operationId in the OpenAPI document. */
export type OperationId = keyof operations;

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON body of an operation's successful answer (200 or 201). */
export type SuccessBody<Op extends OperationId> = operations[Op]['responses'] extends infer Responses
  ? 200 extends keyof Responses
    ? Json<Responses[200]>
    : 201 extends keyof Responses
      ? Json<Responses[201]>
      : never
  : never;

/** The JSON body an operation takes. */
export type RequestBody<Op extends OperationId> = operations[Op] extends { requestBody?: infer Body } ? Json<Body> : never;

/** The query parameters of an operation. */
export type Query<Op extends OperationId> = NonNullable<operations[Op]['parameters']['query']>;

/** A list's filters: its query parameters but the cursor, which the iterator walks itself. */
export type ListFilters<Op extends OperationId> = Omit<Query<Op>, 'cursor'>;

export type Property = Schemas['PropertyRepresentation'];
export type PropertyInput = Schemas['PropertyInput'];
export type PropertyChanges = Schemas['PropertyChanges'];
export type FloorPlan = Schemas['FloorPlanRepresentation'];
export type FloorPlanInput = Schemas['FloorPlanInput'];
export type FloorPlanChanges = Schemas['FloorPlanChanges'];
export type Invitation = Schemas['InvitationRepresentation'];
export type InvitationInput = Schemas['InvitationInput'];
export type Application = Schemas['ApplicationRepresentation'];
export type ApplicationInput = Schemas['ApplicationInput'];
export type ApplicationChanges = Schemas['ApplicationChanges'];
export type Applicant = Schemas['ApplicantRepresentation'];
export type ApplicantInput = Schemas['AddedApplicantInput'];
export type ApplicantChanges = Schemas['ApplicantChanges'];
export type ApplicantMessage = Schemas['MessageRepresentation'];
export type AuditEvent = Schemas['AuditEventRepresentation'];
export type FormPreset = Schemas['FormPreset'];
export type FormPresetInput = Schemas['FormPresetInput'];
export type FormPresetChanges = Schemas['FormPresetChanges'];
export type Webhook = Schemas['WebhookRepresentation'];
export type CreatedWebhook = Schemas['CreatedWebhookRepresentation'];
export type WebhookInput = Schemas['WebhookInput'];
export type Delivery = Schemas['DeliveryRepresentation'];
export type NotificationSettings = Schemas['NotificationSettingsRepresentation'];
export type NotificationSettingsInput = Schemas['NotificationSettingsInput'];
export type MessagePreview = Schemas['MessagePreview'];
export type Suppression = Schemas['SuppressionRepresentation'];
export type RetentionSettings = Schemas['RetentionSettingsRepresentation'];
export type RetentionSettingsInput = Schemas['RetentionSettingsInput'];
export type ErrorBody = Schemas['ErrorResponse'];
export type FieldProblem = Schemas['FieldProblem'];

/** The body of any webhook delivery: narrow it by `test_mode`, then by `event`. */
export type WebhookEvent = Schemas['WebhookEvent'];
/** The name of a domain event. */
export type WebhookEventName = WebhookEvent['event'];
/** The body of a (non-test) delivery of one event, its `data` holding the ids that event has. */
export type WebhookEventOf<Name extends WebhookEventName> = Extract<WebhookEvent, { event: Name; test_mode: false }>;
