import { randomUUID } from 'node:crypto';
import { DOMAIN_EVENTS } from '@app/contracts';
import { pngOf } from '../libs/documents/src/documents.testing';
import { AppName, KEYS, ServiceName, Stack } from '../tools/stack';
import { startForm, uploadDocument } from './support/form-documents';
import { Answer, api, Api } from './support/http';
import { PREVIOUS_RELEASE_BUILD_MS, previousRelease } from './support/releases';
import { SmtpInbox } from './support/smtp-inbox';
import { eventually } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * Every collection each service owns, and what reads it back below. A collection that appears
 * without being listed here fails the suite: whoever adds one says how the previous release reads it.
 */
const COLLECTIONS: Record<ServiceName, Record<string, string>> = {
  properties: {
    properties: 'GET of each property',
    property_versions: 'GET of a changed property',
    property_list: 'the properties list',
    properties_ids: 'the next property',
    floor_plans_ids: 'GET of the floor plan (its id)',
    form_presets: 'GET of the preset',
    form_preset_versions: 'GET of each of its versions',
    form_preset_list: 'the presets list',
    form_preset_creations: 'the presets list',
    form_presets_ids: 'GET of the preset (its id)',
    invitations: 'the invitation link opens the form',
    invitation_uses: 'the invitation link opens the form',
    invitations_ids: 'the invitation link opens the form',
    idempotency_keys: 'a create replayed',
    idempotency_outcomes: 'a create replayed',
    event_outbox: 'its relay publishes nothing again',
  },
  applications: {
    applications: 'GET of each application',
    application_versions: 'GET of a changed application',
    application_index: 'the applications lists',
    applications_created: 'the applications lists',
    applications_ids: 'the next application',
    applicants_ids: 'the next co-applicant',
    applicant_forms: "the co-applicant's form page",
    application_form_presets: "the co-applicant's form page",
    form_submissions: "the co-applicant's form page",
    form_completions: "the co-applicant's form page",
    applicant_documents: 'the documents list and a download',
    'documents.files': 'a download (the file, its data key in the metadata)',
    'documents.chunks': 'a download (its bytes)',
    documents_ids: 'the documents list (its id)',
    document_storage: 'the room documents take in the client’s budget (only this build reads it)',
    document_storage_grants: 'nothing: the room each file took, which the previous release does not record',
    document_storage_returns: 'nothing: that a file’s room was given back, which the previous release does not record',
    unsubmitted_document_storage:
      'nothing: the room strangers’ uploads take of the budget, which the previous release does not count',
    unsubmitted_document_storage_grants:
      'nothing: the room each stranger’s file took, which the previous release does not record',
    unsubmitted_document_storage_returns: 'nothing: that it was given back, which the previous release does not record',
    property_fences: 'nothing: the previous release looks a property up again after storing an application instead',
    audit_events: 'the audit events list',
    audit_index: 'the audit events list',
    audit_events_ids: 'the audit events list (their ids)',
    retention_settings: 'nothing: the previous release erases nothing, and asks no setting for it',
    personal_data_erasures: 'nothing: the erased application and its applicant, read as the erasure left them',
    idempotency_keys: 'a create replayed',
    idempotency_outcomes: 'a create replayed',
    event_outbox: 'its relay publishes nothing again',
  },
  webhooks: {
    subscriptions: 'GET of the webhook',
    subscription_slots: 'the webhooks list',
    webhooks_ids: 'GET of the webhook (its id)',
    deliveries: 'the deliveries list',
    delivery_index: 'the deliveries list',
    delivery_attempts: 'the deliveries list (each with its latest attempt)',
    delivery_redeliveries: 'the deliveries list',
  },
  notifications: {
    messages: "the co-applicant's messages",
    messages_queued: "the co-applicant's messages (only this build reads it)",
    messages_erased: 'the applications whose messages were erased (only this build reads it)',
    settings: 'the notification settings',
    address_links: 'the links of the e-mails (only this build reads it)',
    address_marks: 'the addresses confirmed and unsubscribed, the caps (only this build reads it)',
    held_messages: 'the messages held for an address (only this build reads it)',
  },
};

const AUDIT_EVENTS = '/api/v2/audit_events';

/**
 * Fields of the answers that this build adds since the previous release: the previous release
 * answers without them, and is compared with this build's answer without them. Emptied when the
 * pin moves past the release that added them.
 */
const ADDED_SINCE_PREVIOUS_RELEASE = {
  application: ['status', 'rent', 'household_monthly_income', 'income_to_rent', 'personal_data_erased_at'],
  applicant: ['monthly_income', 'income_to_rent', 'withdrawn_at'],
  notification_settings: ['screening_agency'],
  message: ['held_reason', 'held_until'],
};

/** This build's answer as the previous release gives it: without the fields added since. */
function withoutAddedFields(body: any): any {
  if (typeof body !== 'object' || body === null) return body;
  const without = (fields: string[], object: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(object).filter(([field]) => !fields.includes(field)));
  const strip = (application: Record<string, unknown>) => ({
    ...without(ADDED_SINCE_PREVIOUS_RELEASE.application, application),
    applicants: (application.applicants as Array<Record<string, unknown>>).map((applicant) =>
      without(ADDED_SINCE_PREVIOUS_RELEASE.applicant, applicant),
    ),
  });
  if (body.application) return { ...body, application: strip(body.application) };
  if (body.applicant) return { ...body, applicant: without(ADDED_SINCE_PREVIOUS_RELEASE.applicant, body.applicant) };
  if (body.notification_settings) {
    return { notification_settings: without(ADDED_SINCE_PREVIOUS_RELEASE.notification_settings, body.notification_settings) };
  }
  if (Array.isArray(body.applications)) return { ...body, applications: body.applications.map(strip) };
  if (Array.isArray(body.messages)) {
    return { ...body, messages: body.messages.map((message: any) => without(ADDED_SINCE_PREVIOUS_RELEASE.message, message)) };
  }
  return body;
}

/** How long writing everything, or a restart on the previous release and reading it all, may take. */
const STEP_MS = 300000;

/**
 * Stored data both ways: everything this build writes, in every collection the services own, is
 * read as this build reads it by the previous release (test/upgrade/previous-release) started on
 * the same database and broker, as a rollback runs it. Both releases' answers to the same reads
 * are compared whole; a replayed create, the next id, the form's pages, a document's bytes and
 * the deliveries and e-mails already made show the collections no list answers from.
 */
describe('records written by this build, read by the previous release', () => {
  let release: { sha: string; root: string };
  let stack: Stack;
  let client: Api;
  let inbox: SmtpInbox;
  let receiver: WebhookReceiver;
  /** What this build answered to each read, by path. */
  const written = new Map<string, Answer>();
  const document = Buffer.concat([pngOf(40, 30), Buffer.from('a photo id')]);
  const propertyKey = randomUUID();
  const applicationKey = randomUUID();
  let createdProperty: Answer;
  let createdApplication: Answer;
  let ids: Record<string, number> = {};
  let coApplicantFormUrl = '';
  let invitationUrl = '';

  beforeAll(async () => {
    release = previousRelease();
  }, PREVIOUS_RELEASE_BUILD_MS);

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    receiver = await WebhookReceiver.start();
    stack = await Stack.start({
      form: true,
      instances: { properties: 1, applications: 1, webhooks: 1, notifications: 1 },
      env: {
        SMTP_URL: inbox.url,
        EVENT_RELAY_INTERVAL_MS: '100',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        FORM_RATE_LIMIT_PER_MINUTE: '1000000',
        API_KEY_SCOPES: `${KEYS.clientOne}:sensitive_data,${KEYS.clientOne}:personal_data_erasure`,
      },
    });
    client = api(stack.url);
  }, 120000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.down();
    await inbox?.close();
  });

  const created = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const answer = await client.post(path, body, { headers });
    expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 201, body: expect.anything() });
    return answer;
  };
  const changed = async (path: string, body: unknown): Promise<void> => {
    const answer = await client.patch(path, body);
    expect({ path, status: answer.status }).toEqual({ path, status: 200 });
  };

  /** The application created through this build, and replayed through the previous release. */
  const applicationRequest = (propertyId: number) => ({
    application: {
      property_id: propertyId,
      applicant: {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.test',
        dob: '04/12/1990',
        id_number: '123-45-6789',
      },
    },
  });

  /** The reads compared between the releases: every list and resource the writes below made. */
  const reads = () => {
    const { property, home, floorPlan, preset, application, primary, coApplicant, webhook, document: documentId } = ids;
    const applicant = (id: number) => `/api/v2/applications/${application}/applicants/${id}`;
    const erasedApplicant = `/api/v2/applications/${ids.erased}/applicants/${ids.erasedApplicant}`;
    return [
      AUDIT_EVENTS,
      '/api/v2/properties',
      `/api/v2/properties/${property}`,
      `/api/v2/properties/${home}`,
      `/api/v2/properties/${property}/floor_plans`,
      `/api/v2/properties/${property}/floor_plans/${floorPlan}`,
      '/api/v2/form_presets',
      `/api/v2/form_presets/${preset}`,
      `/api/v2/form_presets/${preset}?version=1`,
      '/api/v2/applications',
      '/api/v2/applications?archived=true',
      `/api/v2/applications/${application}`,
      applicant(primary),
      `${applicant(primary)}?include=sensitive_data`,
      applicant(coApplicant),
      `${applicant(coApplicant)}/documents`,
      `${applicant(coApplicant)}/messages`,
      `${applicant(coApplicant)}/documents/${documentId}/content`,
      `/api/v2/applications/${ids.erased}`,
      erasedApplicant,
      `${erasedApplicant}?include=sensitive_data`,
      '/api/v2/webhooks',
      `/api/v2/webhooks/${webhook}`,
      `/api/v2/webhooks/${webhook}/deliveries`,
      '/api/v2/notification_settings',
    ];
  };

  it(
    'writes every collection through this build',
    async () => {
      const webhook = await created('/api/v2/webhooks', { webhook: { url: receiver.url, events: [...DOMAIN_EVENTS] } });
      expect(
        (
          await client.call('PUT', '/api/v2/notification_settings', {
            notification_settings: { sender_name: 'Maple Leasing', reply_to: 'leasing@maple.example' },
          })
        ).status,
      ).toBe(200);

      createdProperty = await created(
        '/api/v2/properties',
        { property: { name: 'Maple Court', kind: 'multi_family' } },
        { 'idempotency-key': propertyKey },
      );
      const property = createdProperty.body.property.id;
      await changed(`/api/v2/properties/${property}`, { property: { city: 'Springfield' } });
      const floorPlan = (
        await created(`/api/v2/properties/${property}/floor_plans`, {
          floor_plan: { name: 'Two bedroom', beds: 2, baths: 1.5, rent: 1850 },
        })
      ).body.floor_plan.id;
      await changed(`/api/v2/properties/${property}/floor_plans/${floorPlan}`, { floor_plan: { rent: 1900 } });
      invitationUrl = (
        await created(`/api/v2/properties/${property}/invitations`, {
          invitation: { email: 'invited@example.test', send_email: true },
        })
      ).body.invitation.url;
      const preset = (
        await created('/api/v2/form_presets', {
          form_preset: {
            name: 'Pets welcome',
            questions: [{ id: 'evicted', label: 'Have you been evicted?', kind: 'yes_no', required: true }],
            sections: [{ kind: 'identity' }, { kind: 'questions' }],
          },
        })
      ).body.form_preset.id;
      await changed(`/api/v2/form_presets/${preset}`, { form_preset: { name: 'Pets and parking welcome' } });
      await created('/api/v2/properties', { property: { name: 'Pine Flats', form_preset_id: preset } });
      const home = (await created('/api/v2/properties', { property: { name: 'Birch House', kind: 'single_family' } })).body
        .property.id;

      createdApplication = await created('/api/v2/applications', applicationRequest(home), { 'idempotency-key': applicationKey });
      const application = createdApplication.body.application;
      await changed(`/api/v2/applications/${application.id}`, {
        application: { assigned_user_id: 42, desired_unit_number: '4B' },
      });
      // Decisions live in the application's document and its version claims, which the previous release reads past.
      await created(`/api/v2/applications/${application.id}/decision`, {
        decision: { status: 'conditionally_approved', conditions: [{ kind: 'deposit', amount: 3700 }], decided_by: 42 },
      });
      await created(`/api/v2/applications/${application.id}/decision`, { decision: { status: 'approved' } });
      const coApplicant = (
        await created(`/api/v2/applications/${application.id}/applicants`, {
          applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.test', send_email: true },
        })
      ).body.applicant;
      coApplicantFormUrl = coApplicant.form_url;
      await changed(`/api/v2/applications/${application.id}/applicants/${coApplicant.id}`, {
        applicant: { phone: '5550102000' },
      });
      const removed = (
        await created(`/api/v2/applications/${application.id}/applicants`, {
          applicant: { first_name: 'Gone', last_name: 'Soon', email: 'gone@example.test' },
        })
      ).body.applicant;
      expect((await client.delete(`/api/v2/applications/${application.id}/applicants/${removed.id}`)).status).toBe(200);
      const archivedApplication = (
        await created('/api/v2/applications', {
          application: { property_id: home, applicant: { first_name: 'Old', last_name: 'File', email: 'old@example.test' } },
        })
      ).body.application;
      await changed(`/api/v2/applications/${archivedApplication.id}`, { application: { archived: true } });
      // An application whose personal data is erased, as the client's retention setting would have it done.
      const settings = { retention_settings: { personal_data_days: 365 } };
      expect((await client.call('PUT', '/api/v2/retention_settings', settings)).status).toBe(200);
      const erased = (await created('/api/v2/applications', applicationRequest(home))).body.application;
      await created(`/api/v2/applications/${erased.id}/decision`, { decision: { status: 'withdrawn' } });
      expect((await client.delete(`/api/v2/applications/${erased.id}/personal_data`)).status).toBe(200);

      // The form: the co-applicant's steps and a document, as a browser posts them.
      const token = await startForm(stack.formUrl, coApplicantFormUrl);
      const uploaded = await uploadDocument(stack.formUrl, token, { name: 'license.png', type: 'image/png', bytes: document });
      expect({ status: uploaded.status, location: uploaded.location }).toEqual({
        status: 303,
        location: `/applicants/${token}/documents`,
      });
      const documents = await client.get(`/api/v2/applications/${application.id}/applicants/${coApplicant.id}/documents`);
      expect(documents.body.documents).toHaveLength(1);
      expect((await client.post(`/api/v2/webhooks/${webhook.body.webhook.id}/test`)).status).toBe(201);

      ids = {
        property,
        home,
        floorPlan,
        preset,
        application: application.id,
        primary: application.applicants[0].id,
        coApplicant: coApplicant.id,
        webhook: webhook.body.webhook.id,
        document: documents.body.documents[0].id,
        erased: erased.id,
        erasedApplicant: erased.applicants[0].id,
      };
      // Everything the services do after the answers: events delivered, e-mails sent.
      await eventually(
        'the invitations sent',
        () => inbox.to('invited@example.test').length === 1 && inbox.to('ada@example.test').length === 1,
        {
          timeoutMs: 30000,
        },
      );
      await eventually(
        'every event delivered',
        async () => {
          const page = await client.get(`/api/v2/webhooks/${ids.webhook}/deliveries?limit=100`);
          return page.body.deliveries.length > 0 && page.body.deliveries.every((d: any) => d.status === 'succeeded');
        },
        { timeoutMs: 30000, intervalMs: 200 },
      );
      for (const path of reads()) {
        const answer = await client.get(path);
        expect({ path, status: answer.status }).toEqual({ path, status: 200 });
        written.set(path, answer);
      }
      // The audit events of those reads are recorded after their answers: the list once it holds them.
      written.set(
        AUDIT_EVENTS,
        await eventually('the audit events of the reads', async () => {
          const answer = await client.get(AUDIT_EVENTS);
          return answer.body.audit_events.length >= 2 && answer;
        }),
      );
    },
    STEP_MS,
  );

  it('stores them in the collections listed, and no others', async () => {
    const found: Record<string, string[]> = {};
    for (const service of Object.keys(COLLECTIONS) as ServiceName[]) {
      const connection = await stack.database(service);
      found[service] = (await connection.db!.listCollections().toArray()).map((c) => c.name).sort();
      await connection.close();
    }
    expect(found).toEqual(
      Object.fromEntries(Object.entries(COLLECTIONS).map(([service, names]) => [service, Object.keys(names).sort()])),
    );
  });

  it(
    'reads every one of them with the previous release as this build read it',
    async () => {
      await stack.stopProcesses();
      const started: Promise<unknown>[] = [];
      for (const app of ['properties', 'applications', 'webhooks', 'notifications'] as AppName[])
        started.push(stack.startApp(app, {}, release.root));
      // The previous release knows no personal_data_erasure scope: an operator who rolls back takes it out.
      started.push(stack.startApp('gateway', { API_KEY_SCOPES: `${KEYS.clientOne}:sensitive_data` }, release.root));
      started.push(stack.startApp('form', { FORM_PORT: new URL(stack.formUrl).port }, release.root));
      await Promise.all(started);

      for (const path of reads()) {
        const before = written.get(path)!;
        const answer = await client.get(path);
        if (path === AUDIT_EVENTS) {
          // The reads audited since (those above) come first; those this build recorded follow, unchanged.
          const recorded = new Set(before.body.audit_events.map((event: { id: number }) => event.id));
          // What was read (read, document_id), what made an erasure (trigger) and what a retention
          // change changed (retention_change) are shown from this build on; the previous release
          // reads the same events and shows the rest of them.
          const shownBefore = before.body.audit_events.map(
            ({
              read: _read,
              document_id: _document,
              trigger: _trigger,
              retention_change: _change,
              ...rest
            }: Record<string, unknown>) => rest,
          );
          expect(answer.body.audit_events.filter((event: { id: number }) => recorded.has(event.id))).toEqual(shownBefore);
          continue;
        }
        expect({ path, status: answer.status, body: answer.body ?? answer.text }).toEqual({
          path,
          status: 200,
          body: withoutAddedFields(before.body) ?? before.text,
        });
      }
      // Idempotency claims: the same create again is answered as it was, nothing made twice.
      const replayed = await client.post(
        '/api/v2/properties',
        { property: { name: 'Maple Court', kind: 'multi_family' } },
        { headers: { 'idempotency-key': propertyKey } },
      );
      expect({ status: replayed.status, body: replayed.body }).toEqual({ status: 201, body: createdProperty.body });
      const replayedApplication = await client.post('/api/v2/applications', applicationRequest(ids.home), {
        headers: { 'idempotency-key': applicationKey },
      });
      // The outcome stored by this build is answered as stored, status and all.
      expect({ status: replayedApplication.status, body: replayedApplication.body }).toEqual({
        status: 201,
        body: createdApplication.body,
      });
      // Id allocation: what the previous release makes next comes after what this build made.
      const next = await client.post('/api/v2/properties', { property: { name: 'After the rollback' } });
      expect(next.body.property.id).toBeGreaterThan(ids.home);
      const nextApplication = await client.post('/api/v2/applications', {
        application: { property_id: ids.home, applicant: { first_name: 'Next', last_name: 'One', email: 'next@example.test' } },
      });
      expect(nextApplication.body.application.id).toBeGreaterThan(ids.application);
      const nextApplicant = await client.post(`/api/v2/applications/${ids.application}/applicants`, {
        applicant: { first_name: 'Next', last_name: 'Applicant', email: 'next-applicant@example.test' },
      });
      expect(nextApplicant.body.applicant.id).toBeGreaterThan(ids.coApplicant);
      // The form's state and invitations: the pages open where this build left them.
      const formPage = await fetch(`${coApplicantFormUrl.replace(stack.applyBaseUrl, stack.formUrl)}/documents`);
      expect(formPage.status).toBe(200);
      expect(await formPage.text()).toContain('license.png');
      expect((await fetch(invitationUrl.replace(stack.applyBaseUrl, stack.formUrl))).status).toBe(200);
      // Nothing sent again: the e-mails this build sent are known as sent (the deliveries list above shows the same for webhooks).
      expect([inbox.to('invited@example.test').length, inbox.to('ada@example.test').length]).toEqual([1, 1]);
    },
    STEP_MS,
  );
});
