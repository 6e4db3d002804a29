import { ClientOptions, RequestOptions, Transport } from './transport';
import type {
  Applicant,
  ApplicantChanges,
  ApplicantInput,
  ApplicantMessage,
  Application,
  ApplicationChanges,
  ApplicationInput,
  AuditEvent,
  CreatedWebhook,
  Delivery,
  FloorPlan,
  FloorPlanChanges,
  FloorPlanInput,
  FormPreset,
  FormPresetChanges,
  FormPresetInput,
  Invitation,
  InvitationInput,
  ListFilters,
  MessagePreview,
  NotificationSettings,
  NotificationSettingsInput,
  OperationId,
  Property,
  PropertyChanges,
  PropertyInput,
  RetentionSettings,
  RetentionSettingsInput,
  SuccessBody,
  Suppression,
  Webhook,
  WebhookInput,
} from './types';

/** A change or removal made only if the resource is still as read: 412 (PreconditionFailedError) otherwise. */
export interface Conditional {
  /** An ETag, or a representation a read of this client returned (its ETag is sent). */
  ifMatch?: string | object;
}

/** A create made safe to retry: one Idempotency-Key for all its tries, a new one unless given. */
export interface Idempotent {
  /** Give one to retry the create yourself later (after a restart, say); the client makes one otherwise. */
  idempotencyKey?: string;
}

type Id = number;

/**
 * The Rental applications API, typed from its OpenAPI document. Every list is an async iterator
 * that walks the pages itself; every create sends one Idempotency-Key across its retries.
 *
 * ```ts
 * const client = new RentalApplicationsClient({ baseUrl: 'https://api.example.com', apiKey });
 * for await (const application of client.applications.list({ property_id: 7 })) console.log(application.id);
 * ```
 */
export class RentalApplicationsClient {
  readonly properties: Properties;
  readonly floorPlans: FloorPlans;
  readonly invitations: Invitations;
  readonly applications: Applications;
  readonly applicants: Applicants;
  readonly auditEvents: AuditEvents;
  readonly formPresets: FormPresets;
  readonly webhooks: Webhooks;
  readonly notificationSettings: NotificationSettingsResource;
  readonly retentionSettings: RetentionSettingsResource;
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    const api = new Api((this.transport = new Transport(options)));
    this.properties = new Properties(api);
    this.floorPlans = new FloorPlans(api);
    this.invitations = new Invitations(api);
    this.applications = new Applications(api);
    this.applicants = new Applicants(api);
    this.auditEvents = new AuditEvents(api);
    this.formPresets = new FormPresets(api);
    this.webhooks = new Webhooks(api);
    this.notificationSettings = new NotificationSettingsResource(api);
    this.retentionSettings = new RetentionSettingsResource(api);
  }

  /** The ETag of a representation this client read (a `get`), to send as If-Match. */
  etagOf(resource: object): string | undefined {
    return this.transport.etagOf(resource);
  }
}

/** The requests of one operation each, typed by its operationId. */
class Api {
  constructor(private readonly transport: Transport) {}

  send<Op extends OperationId>(_operation: Op, method: string, path: string, options?: RequestOptions): Promise<SuccessBody<Op>> {
    return this.transport.request<SuccessBody<Op>>(method, path, options);
  }

  create<Op extends OperationId>(operation: Op, path: string, body: unknown, options: Idempotent = {}): Promise<SuccessBody<Op>> {
    return this.send(operation, 'POST', path, { body, idempotencyKey: options.idempotencyKey ?? true });
  }

  change<Op extends OperationId>(operation: Op, method: 'PATCH' | 'DELETE', path: string, body: unknown, options: Conditional) {
    return this.send(operation, method, path, { body, ifMatch: this.ifMatch(options.ifMatch) });
  }

  /** Every item of a paged list, page after page as next_cursor leads. */
  async *paged<Op extends OperationId, Item>(
    operation: Op,
    path: string,
    filters: object,
    items: (page: SuccessBody<Op>) => Item[],
  ): AsyncGenerator<Item, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.send(operation, 'GET', path, { query: { ...filters, cursor } });
      yield* items(page);
      cursor = (page as { next_cursor?: string | null }).next_cursor ?? undefined;
    } while (cursor);
  }

  /** A list the API answers whole, iterated as the paged ones are. */
  async *whole<Op extends OperationId, Item>(operation: Op, path: string, items: (page: SuccessBody<Op>) => Item[]) {
    yield* items(await this.send(operation, 'GET', path));
  }

  private ifMatch(tag: string | object | undefined): string | undefined {
    if (tag === undefined || typeof tag === 'string') return tag;
    const etag = this.transport.etagOf(tag);
    if (etag === undefined)
      throw new TypeError('ifMatch: this object was not returned by a read of this client, so it has no ETag');
    return etag;
  }
}

class Properties {
  constructor(private readonly api: Api) {}

  async create(property: PropertyInput, options?: Idempotent): Promise<Property> {
    return (await this.api.create('createProperty', '/api/v2/properties', { property }, options)).property;
  }

  async get(id: Id): Promise<Property> {
    return (await this.api.send('getProperty', 'GET', `/api/v2/properties/${id}`)).property;
  }

  list(filters: ListFilters<'listProperties'> = {}): AsyncIterable<Property> {
    return this.api.paged('listProperties', '/api/v2/properties', filters, (page) => page.properties);
  }

  async update(id: Id, changes: PropertyChanges, options: Conditional = {}): Promise<Property> {
    return (await this.api.change('updateProperty', 'PATCH', `/api/v2/properties/${id}`, { property: changes }, options))
      .property;
  }

  async delete(id: Id, options: Conditional = {}): Promise<Property> {
    return (await this.api.change('deleteProperty', 'DELETE', `/api/v2/properties/${id}`, undefined, options)).property;
  }
}

class FloorPlans {
  constructor(private readonly api: Api) {}

  list(propertyId: Id): AsyncIterable<FloorPlan> {
    return this.api.whole('listFloorPlans', `/api/v2/properties/${propertyId}/floor_plans`, (page) => page.floor_plans);
  }

  async create(propertyId: Id, floorPlan: FloorPlanInput, options?: Idempotent): Promise<FloorPlan> {
    const path = `/api/v2/properties/${propertyId}/floor_plans`;
    return (await this.api.create('createFloorPlan', path, { floor_plan: floorPlan }, options)).floor_plan;
  }

  async get(propertyId: Id, id: Id): Promise<FloorPlan> {
    return (await this.api.send('getFloorPlan', 'GET', `/api/v2/properties/${propertyId}/floor_plans/${id}`)).floor_plan;
  }

  async update(propertyId: Id, id: Id, changes: FloorPlanChanges, options: Conditional = {}): Promise<FloorPlan> {
    const path = `/api/v2/properties/${propertyId}/floor_plans/${id}`;
    return (await this.api.change('updateFloorPlan', 'PATCH', path, { floor_plan: changes }, options)).floor_plan;
  }

  async delete(propertyId: Id, id: Id, options: Conditional = {}): Promise<FloorPlan> {
    const path = `/api/v2/properties/${propertyId}/floor_plans/${id}`;
    return (await this.api.change('deleteFloorPlan', 'DELETE', path, undefined, options)).floor_plan;
  }
}

class Invitations {
  constructor(private readonly api: Api) {}

  /** Invites to apply to an invitation-only property. Sent once: the API takes no Idempotency-Key here. */
  async create(propertyId: Id, invitation: InvitationInput): Promise<Invitation> {
    const path = `/api/v2/properties/${propertyId}/invitations`;
    return (await this.api.send('createInvitation', 'POST', path, { body: { invitation } })).invitation;
  }
}

class Applications {
  constructor(private readonly api: Api) {}

  async create(application: ApplicationInput, options?: Idempotent): Promise<Application> {
    return (await this.api.create('createApplication', '/api/v2/applications', { application }, options)).application;
  }

  async get(id: Id): Promise<Application> {
    return (await this.api.send('getApplication', 'GET', `/api/v2/applications/${id}`)).application;
  }

  list(filters: ListFilters<'listApplications'> = {}): AsyncIterable<Application> {
    return this.api.paged('listApplications', '/api/v2/applications', filters, (page) => page.applications);
  }

  async update(id: Id, changes: ApplicationChanges, options: Conditional = {}): Promise<Application> {
    const path = `/api/v2/applications/${id}`;
    return (await this.api.change('updateApplication', 'PATCH', path, { application: changes }, options)).application;
  }

  /**
   * Erases the personal data of the application's applicants at once and for good, as an applicant
   * may ask; the application keeps its decisions and dates. Asked again, answers the same.
   */
  async erasePersonalData(id: Id): Promise<Application> {
    return (await this.api.send('erasePersonalData', 'DELETE', `/api/v2/applications/${id}/personal_data`)).application;
  }
}

class Applicants {
  constructor(private readonly api: Api) {}

  async add(applicationId: Id, applicant: ApplicantInput, options?: Idempotent): Promise<Applicant> {
    const path = `/api/v2/applications/${applicationId}/applicants`;
    return (await this.api.create('addApplicant', path, { applicant }, options)).applicant;
  }

  async get(applicationId: Id, id: Id): Promise<Applicant> {
    return (await this.api.send('getApplicant', 'GET', `/api/v2/applications/${applicationId}/applicants/${id}`)).applicant;
  }

  async update(applicationId: Id, id: Id, changes: ApplicantChanges, options: Conditional = {}): Promise<Applicant> {
    const path = `/api/v2/applications/${applicationId}/applicants/${id}`;
    return (await this.api.change('updateApplicant', 'PATCH', path, { applicant: changes }, options)).applicant;
  }

  async remove(applicationId: Id, id: Id, options: Conditional = {}): Promise<Applicant> {
    const path = `/api/v2/applications/${applicationId}/applicants/${id}`;
    return (await this.api.change('removeApplicant', 'DELETE', path, undefined, options)).applicant;
  }

  /** The e-mails sent to an applicant, the latest 100. */
  messages(applicationId: Id, id: Id): AsyncIterable<ApplicantMessage> {
    const path = `/api/v2/applications/${applicationId}/applicants/${id}/messages`;
    return this.api.whole('listApplicantMessages', path, (page) => page.messages);
  }
}

class AuditEvents {
  constructor(private readonly api: Api) {}

  list(filters: ListFilters<'listAuditEvents'> = {}): AsyncIterable<AuditEvent> {
    return this.api.paged('listAuditEvents', '/api/v2/audit_events', filters, (page) => page.audit_events);
  }
}

class FormPresets {
  constructor(private readonly api: Api) {}

  list(filters: ListFilters<'listFormPresets'> = {}): AsyncIterable<FormPreset> {
    return this.api.paged('listFormPresets', '/api/v2/form_presets', filters, (page) => page.form_presets);
  }

  async create(formPreset: FormPresetInput, options?: Idempotent): Promise<FormPreset> {
    return (await this.api.create('createFormPreset', '/api/v2/form_presets', { form_preset: formPreset }, options)).form_preset;
  }

  async get(id: Id, version?: number): Promise<FormPreset> {
    return (await this.api.send('getFormPreset', 'GET', `/api/v2/form_presets/${id}`, { query: { version } })).form_preset;
  }

  async update(id: Id, changes: FormPresetChanges, options: Conditional = {}): Promise<FormPreset> {
    const path = `/api/v2/form_presets/${id}`;
    return (await this.api.change('updateFormPreset', 'PATCH', path, { form_preset: changes }, options)).form_preset;
  }

  async delete(id: Id, options: Conditional = {}): Promise<void> {
    await this.api.change('deleteFormPreset', 'DELETE', `/api/v2/form_presets/${id}`, undefined, options);
  }
}

class Webhooks {
  constructor(private readonly api: Api) {}

  /** Subscribes `url` to `events`; the answer holds the signing secret, shown this once. */
  async create(webhook: WebhookInput, options?: Idempotent): Promise<CreatedWebhook> {
    return (await this.api.create('createWebhook', '/api/v2/webhooks', { webhook }, options)).webhook;
  }

  list(): AsyncIterable<Webhook> {
    return this.api.whole('listWebhooks', '/api/v2/webhooks', (page) => page.webhooks);
  }

  async get(id: Id): Promise<Webhook> {
    return (await this.api.send('getWebhook', 'GET', `/api/v2/webhooks/${id}`)).webhook;
  }

  async delete(id: Id): Promise<Webhook> {
    return (await this.api.send('deleteWebhook', 'DELETE', `/api/v2/webhooks/${id}`)).webhook;
  }

  /** A new signing secret, shown this once; the old one signs nothing more. */
  async rotateSecret(id: Id): Promise<CreatedWebhook> {
    return (await this.api.send('rotateWebhookSecret', 'POST', `/api/v2/webhooks/${id}/rotate_secret`)).webhook;
  }

  /** Delivers a test event (test_mode true) of the first kind the webhook names. */
  async test(id: Id): Promise<Delivery> {
    return (await this.api.send('testWebhook', 'POST', `/api/v2/webhooks/${id}/test`)).delivery;
  }

  deliveries(id: Id, filters: ListFilters<'listWebhookDeliveries'> = {}): AsyncIterable<Delivery> {
    return this.api.paged('listWebhookDeliveries', `/api/v2/webhooks/${id}/deliveries`, filters, (page) => page.deliveries);
  }

  async redeliver(id: Id, deliveryId: string): Promise<Delivery> {
    const path = `/api/v2/webhooks/${id}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`;
    return (await this.api.send('redeliverWebhook', 'POST', path)).delivery;
  }
}

class NotificationSettingsResource {
  constructor(private readonly api: Api) {}

  async get(): Promise<NotificationSettings> {
    return (await this.api.send('getNotificationSettings', 'GET', '/api/v2/notification_settings')).notification_settings;
  }

  async put(settings: NotificationSettingsInput): Promise<NotificationSettings> {
    const body = { notification_settings: settings };
    return (await this.api.send('putNotificationSettings', 'PUT', '/api/v2/notification_settings', { body }))
      .notification_settings;
  }

  /** Every message the applicants may receive, as these settings make it; nothing is sent. */
  async previews(): Promise<MessagePreview[]> {
    return (await this.api.send('listMessagePreviews', 'GET', '/api/v2/message_previews')).previews;
  }

  /** Whether the address unsubscribed and gets none of the caller's mail, and since when. */
  async suppression(email: string): Promise<Suppression> {
    return (await this.api.send('getSuppression', 'GET', `/api/v2/suppressions/${encodeURIComponent(email)}`)).suppression;
  }

  /** Lifts the address's suppression for the caller's mail alone, when its owner asked (audited); 404 if none. */
  async liftSuppression(email: string): Promise<Suppression> {
    return (await this.api.send('liftSuppression', 'DELETE', `/api/v2/suppressions/${encodeURIComponent(email)}`)).suppression;
  }
}

class RetentionSettingsResource {
  constructor(private readonly api: Api) {}

  async get(): Promise<RetentionSettings> {
    return (await this.api.send('getRetentionSettings', 'GET', '/api/v2/retention_settings')).retention_settings;
  }

  /**
   * How long decided applications keep their applicants' personal data; null sets the default. A
   * shortening waits (pending_change) unless confirm_shortening is true. Needs the
   * personal_data_erasure scope.
   */
  async put(settings: RetentionSettingsInput): Promise<RetentionSettings> {
    const body = { retention_settings: settings };
    return (await this.api.send('putRetentionSettings', 'PUT', '/api/v2/retention_settings', { body })).retention_settings;
  }
}
