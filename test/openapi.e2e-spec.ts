import { randomUUID } from 'node:crypto';
import { BodyFingerprints } from '@app/persistence';
import { addressDigest } from '../apps/notifications/src/addresses/address-book.repository';
import { startForm, uploadDocument } from './support/form-documents';
import { Answer, api, Api } from './support/http';
import { PublishedApi } from './support/openapi';
import { KEYS, Stack } from '../tools/stack';

/** A key allowed one request a second, with no burst to speak of. */
const THROTTLED_KEY = 'test-key-throttled';
/** A key of client one granted the sensitive_data scope. */
const READER_KEY = 'test-key-sensitive-reader';

const MAPPED_ROUTE = /^Mapped \{(\S+), (\w+)\} route$/;

/**
 * The document GET /api/openapi.json publishes, checked against the specification and against
 * real answers of the running stack, so that the document cannot drift from the API: every
 * documented response is provoked and must match, and every answer must be documented.
 */
/** The routes of the gateway's operations listener (HTTP_PORT), which the API document leaves out. */
const OPERATIONS_ROUTES = ['GET /health/live', 'GET /health/ready', 'GET /metrics'];

describe('the published OpenAPI document', () => {
  let stack: Stack;
  let client: Api;
  let published: PublishedApi;

  /** Sends the request and checks its answer against the document. */
  const documented = async (method: string, path: string, request: Promise<Answer>): Promise<Answer> => {
    const answer = await request;
    expect(published.problems(method, path, answer)).toEqual([]);
    return answer;
  };

  beforeAll(async () => {
    stack = await Stack.start({
      instances: { webhooks: 1, notifications: 1 },
      // The form, for a document to download.
      form: true,
      env: {
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        // Client one redelivers one delivery until refused; the 429 is the throttled key's.
        WEBHOOK_SENDS_PER_MINUTE: '1000',
        RPC_TIMEOUT_MS: '1500',
        PROPERTY_LOOKUP_TIMEOUT_MS: '700',
        API_KEYS: `${KEYS.clientOne}:1,${KEYS.clientTwo}:2,${THROTTLED_KEY}:3:1:1,${READER_KEY}:1`,
        API_KEY_SCOPES: `${READER_KEY}:sensitive_data,${KEYS.clientOne}:personal_data_erasure`,
      },
    });
    client = api(stack.url);
    const answer = await client.get('/api/openapi.json', { key: null });
    expect(answer.status).toBe(200);
    published = new PublishedApi(answer.body);
  });

  afterAll(() => stack?.stop());

  it('is OpenAPI 3.0, valid by the specification’s own JSON schema', () => {
    expect(published.document.openapi).toMatch(/^3\.0\.\d$/);
    expect(published.specificationProblems()).toEqual([]);
  });

  it('points GET / at the documentation, without an API key, with the API’s security headers', async () => {
    const index = await documented('GET', '/', client.get('/', { key: null }));
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^application\/json/);
    expect(index.body).toEqual({ name: published.document.info.title, docs: '/api/docs', openapi: '/api/openapi.json' });
    expect(index.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(index.headers.get('x-powered-by')).toBeNull();

    const docs = await client.get(index.body.docs, { key: null });
    expect([docs.status, docs.text]).toEqual([200, expect.stringContaining('swagger-ui')]);
    const document = await client.get(index.body.openapi, { key: null });
    expect([document.status, document.body]).toEqual([200, published.document]);
  });

  it('suggests no Idempotency-Key, so that trying a create twice does not replay the first', () => {
    const withKey = published.operations().flatMap((operation) => {
      const [method, path] = operation.split(' ');
      const parameters: any[] = published.operation(method, path).parameters ?? [];
      const header = parameters.find((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key');
      return header ? [{ operation, header }] : [];
    });
    expect(withKey.map(({ operation }) => operation)).toEqual(
      expect.arrayContaining(['POST /api/v2/applications', 'POST /api/v2/properties']),
    );
    for (const { operation, header } of withKey) {
      expect([operation, header.required, 'example' in header, 'examples' in header]).toEqual([operation, false, false, false]);
      expect([operation, 'example' in header.schema, 'default' in header.schema]).toEqual([operation, false, false]);
      expect([operation, header.description]).toEqual([
        operation,
        expect.stringMatching(/fresh value \(a new UUID, say\) for each request/),
      ]);
    }
  });

  it('types every id in a path as an integer, and answers a path whose id is not one 404 as documented', async () => {
    const pathIds = published.operations().flatMap((operation) => {
      const [method, path] = operation.split(' ');
      const parameters: any[] = published.operation(method, path).parameters ?? [];
      return parameters.filter((parameter) => parameter.in === 'path').map((parameter) => [operation, parameter]);
    });
    expect(pathIds.length).toBeGreaterThan(30);
    for (const [operation, { name, schema }] of pathIds) {
      // A delivery's id is its event's id, a string; a suppression is named by its e-mail address.
      const type = name === 'delivery_id' || name === 'email' ? 'string' : 'integer';
      expect([operation, name, schema.type]).toEqual([operation, name, type]);
    }
    for (const [path, id] of [
      ['/api/v2/applications/{id}', 'abc'],
      ['/api/v2/properties/{id}', '1.5'],
    ]) {
      const answer = await documented('GET', path, client.get(path.replace('{id}', id)));
      expect([path, answer.status, answer.body.error.message]).toEqual([
        path,
        404,
        expect.stringContaining(`${id} cannot be found`),
      ]);
    }
  });

  it('describes every route the gateway serves, and nothing else', () => {
    const served = stack
      .process('gateway')
      .logs.map((record) => MAPPED_ROUTE.exec(record.msg ?? ''))
      .filter((match): match is RegExpExecArray => match !== null)
      .map(([, path, method]) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`)
      // The operators' listener, on its own port, logs its routes in the same process.
      .filter((operation) => !OPERATIONS_ROUTES.includes(operation));

    expect(served.length).toBeGreaterThan(0);
    expect(published.operations().sort()).toEqual(served.sort());
  });

  it('secures every /api/v2 operation with the bearer API key scheme, and no other', () => {
    expect(published.document.components.securitySchemes).toEqual({
      api_key: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    for (const operation of published.operations()) {
      const [method, path] = operation.split(' ');
      const { security, responses } = published.operation(method, path);
      if (path.startsWith('/api/v2/')) {
        expect([operation, security]).toEqual([operation, [{ api_key: [] }]]);
        expect(Object.keys(responses)).toContain('401');
      } else {
        // Said outright, as linters ask: no key.
        expect([operation, security]).toEqual([operation, []]);
      }
    }
  });

  it('gives every field of every schema an example, and every example matches its schema', () => {
    const schemas = published.document.components.schemas as Record<string, any>;
    for (const [name, schema] of Object.entries(schemas)) {
      for (const [field, property] of Object.entries(schema.properties ?? {}) as [string, any][]) {
        const nested = property.$ref ?? property.allOf ?? property.items?.$ref ?? property.additionalProperties?.$ref;
        if (!nested) expect([name, field, 'example' in property]).toEqual([name, field, true]);
      }
    }
    for (const operation of published.operations()) {
      const [method, path] = operation.split(' ');
      for (const [status, response] of Object.entries(published.operation(method, path).responses) as [string, any][]) {
        for (const media of Object.values(response.content ?? {}) as any[]) {
          for (const [example, { value }] of Object.entries(media.examples ?? {}) as [string, any][]) {
            expect([operation, status, example, published.validates(media.schema, value)]).toEqual([
              operation,
              status,
              example,
              [],
            ]);
          }
        }
      }
    }
  });

  it('states the defaults the API applies to a property created with a name only', async () => {
    // In prose: a declared default makes openapi-typescript type the field as required.
    const input = published.document.components.schemas.PropertyInput.properties as Record<string, any>;
    expect(Object.values(input).filter((property) => 'default' in property)).toEqual([]);
    const defaults = Object.entries(input).flatMap(([field, property]) => {
      const stated = /Default: (.+)\.$/.exec(property.description ?? '');
      return stated ? [[field, { default: JSON.parse(stated[1]) }] as const] : [];
    });
    expect(defaults.map(([field]) => field).sort()).toEqual(['available', 'invitation_only', 'invitation_only_message', 'kind']);

    const created = await documented(
      'POST',
      '/api/v2/properties',
      client.post('/api/v2/properties', { property: { name: 'Defaults' } }),
    );
    for (const [field, property] of defaults) expect([field, created.body.property[field]]).toEqual([field, property.default]);
  });

  it('accepts the request its examples make up, and answers as documented', async () => {
    const property = await documented(
      'POST',
      '/api/v2/properties',
      client.post('/api/v2/properties', published.example('CreatePropertyRequest')),
    );
    expect(property.status).toBe(201);

    const example = published.example('CreateApplicationRequest');
    example.application.property_id = property.body.property.id;
    const application = await documented('POST', '/api/v2/applications', client.post('/api/v2/applications', example));
    expect(application.status).toBe(201);

    const coApplicant = await documented(
      'POST',
      '/api/v2/applications/{application_id}/applicants',
      client.post(`/api/v2/applications/${application.body.application.id}/applicants`, published.example('AddApplicantRequest')),
    );
    expect(coApplicant.status).toBe(201);
  });

  it('serves the interactive page at /api/docs, built on this document', async () => {
    const page = await client.get('/api/docs', { key: null });
    expect(page.status).toBe(200);
    // The one HTML page may load its own assets; the API's answers may load nothing.
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await client.get('/api/v2/properties/1')).headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('swagger-ui');
    const init = await client.get('/api/docs/swagger-ui-init.js', { key: null });
    expect(init.text).toContain(JSON.stringify(published.document.info.title));
    for (const asset of page.text.matchAll(/(?:href|src)="\.\/docs\/([\w.-]+\.(?:css|js))"/g)) {
      expect([asset[1], (await client.get(`/api/docs/${asset[1]}`, { key: null })).status]).toEqual([asset[1], 200]);
    }
  });

  it('answers the listing, change and floor plan responses it documents, each as documented', async () => {
    const properties = '/api/v2/properties';
    const property = '/api/v2/properties/{id}';
    const plans = '/api/v2/properties/{pid}/floor_plans';
    const plan = '/api/v2/properties/{pid}/floor_plans/{id}';
    const live = (await client.post(properties, { property: { name: 'Changing' } })).body.property;
    const house = (await client.post(properties, { property: { name: 'House', kind: 'single_family' } })).body.property;
    const livePath = `${properties}/${live.id}`;
    const plansPath = `${livePath}/floor_plans`;
    const planPath = `${plansPath}/${live.floor_plans[0].id}`;
    const planTag = (await client.get(planPath)).headers.get('etag')!;
    const stale = { headers: { 'if-match': '"stale"' } };
    const tooBig = JSON.stringify({ property: { name: 'x'.repeat(65 * 1024) } });
    const notJson = { raw: '{"a":1}', headers: { 'content-type': 'text/plain' } };
    const spare = await documented('POST', plans, client.post(plansPath, { floor_plan: { name: 'Spare', baths: 1.5 } }));
    expect(spare.status).toBe(201);
    const tag = (await client.get(livePath)).headers.get('etag')!;

    for (const [method, path, request] of [
      ['GET', properties, () => client.get(`${properties}?limit=1`)],
      ['GET', properties, () => client.get(`${properties}?available=maybe`)],
      ['GET', properties, () => client.get(properties, { key: null })],
      ['GET', property, () => client.get(livePath, { headers: { 'if-none-match': tag } })],
      ['PATCH', property, () => client.patch(livePath, { property: { city: 'Documented' } })],
      ['PATCH', property, () => client.patch(livePath, undefined, { raw: '{"property":' })],
      ['PATCH', property, () => client.patch(livePath, { property: {} }, { key: null })],
      ['PATCH', property, () => client.patch(`${properties}/999999`, { property: {} })],
      ['PATCH', property, () => client.patch(livePath, { property: {} }, stale)],
      ['PATCH', property, () => client.patch(livePath, undefined, { raw: tooBig })],
      ['PATCH', property, () => client.patch(livePath, undefined, notJson)],
      ['PATCH', property, () => client.patch(livePath, { property: { name: '', colour: 'red' } })],
      ['DELETE', property, () => client.delete(livePath, stale)],
      ['GET', plans, () => client.get(plansPath)],
      ['GET', plans, () => client.get(plansPath, { key: null })],
      ['GET', plans, () => client.get(`${properties}/999999/floor_plans`)],
      ['POST', plans, () => client.post(plansPath, undefined, { raw: '{' })],
      ['POST', plans, () => client.post(plansPath, { floor_plan: { name: 'x' } }, { key: null })],
      ['POST', plans, () => client.post(`${properties}/999999/floor_plans`, { floor_plan: { name: 'x' } })],
      ['POST', plans, () => client.post(plansPath, undefined, { raw: tooBig })],
      ['POST', plans, () => client.post(plansPath, undefined, notJson)],
      ['POST', plans, () => client.post(`${properties}/${house.id}/floor_plans`, { floor_plan: { name: 'Annex' } })],
      ['GET', plan, () => client.get(planPath)],
      ['GET', plan, () => client.get(planPath, { headers: { 'if-none-match': planTag } })],
      ['GET', plan, () => client.get(planPath, { key: null })],
      ['GET', plan, () => client.get(`${plansPath}/999999`)],
      ['PATCH', plan, () => client.patch(planPath, { floor_plan: { rent: 1200 } }, { headers: { 'if-match': planTag } })],
      ['PATCH', plan, () => client.patch(planPath, undefined, { raw: '[' })],
      ['PATCH', plan, () => client.patch(planPath, { floor_plan: {} }, { key: null })],
      ['PATCH', plan, () => client.patch(`${plansPath}/999999`, { floor_plan: {} })],
      ['PATCH', plan, () => client.patch(planPath, { floor_plan: {} }, stale)],
      ['PATCH', plan, () => client.patch(planPath, undefined, { raw: tooBig })],
      ['PATCH', plan, () => client.patch(planPath, undefined, notJson)],
      ['PATCH', plan, () => client.patch(planPath, { floor_plan: { beds: -1 } })],
      ['DELETE', plan, () => client.delete(planPath, stale)],
      ['DELETE', plan, () => client.delete(planPath, { key: null })],
      ['DELETE', plan, () => client.delete(`${plansPath}/999999`)],
      ['DELETE', plan, () => client.delete(`${plansPath}/${spare.body.floor_plan.id}`)],
      ['DELETE', plan, () => client.delete(planPath)],
    ] as const) {
      await documented(method, path, request());
    }

    // 409: a floor plan whose Idempotency-Key another request with the same body is still working on.
    const key = randomUUID();
    const db = await stack.database('properties');
    try {
      await db.collection('idempotency_keys').insertOne({
        _id: `1:${key}` as never,
        token: randomUUID(),
        fingerprint: new BodyFingerprints(stack.fingerprintKeys).of({ property_id: live.id, floor_plan: { name: 'Busy' } }),
        state: 'pending',
        message_id: 'another request',
        outcome: null,
        claimed_at: new Date(),
        expires_at: new Date(Date.now() + 60 * 60 * 1000),
      });
    } finally {
      await db.close();
    }
    const busy = client.post(plansPath, { floor_plan: { name: 'Busy' } }, { headers: { 'idempotency-key': key } });
    expect((await documented('POST', plans, busy)).status).toBe(409);
  });

  it('answers the applicant change, sensitive data and audit responses it documents, each as documented', async () => {
    const applicantPath = '/api/v2/applications/{application_id}/applicants/{id}';
    const auditEvents = '/api/v2/audit_events';
    const live = (await client.post('/api/v2/properties', { property: { name: 'Audited' } })).body.property;
    const applicant = {
      first_name: 'Sen',
      last_name: 'Sitive',
      email: 'sen@example.com',
      dob: '1980-02-03',
      id_number: '123456789',
    };
    const made = (await client.post('/api/v2/applications', { application: { property_id: live.id, applicant } })).body
      .application;
    const primary = new URL(made.applicants[0].api_url).pathname;
    const co = (await client.post(`/api/v2/applications/${made.id}/applicants`, { applicant })).body.applicant;
    const coPath = new URL(co.api_url).pathname;
    const unknown = `/api/v2/applications/${made.id}/applicants/999999`;
    const stale = { headers: { 'if-match': '"stale"' } };
    const reader = { key: READER_KEY };
    const tooBig = JSON.stringify({ applicant: { first_name: 'x'.repeat(65 * 1024) } });
    const notJson = { raw: '{"a":1}', headers: { 'content-type': 'text/plain' } };
    const token = await startForm(stack.formUrl, (await client.get(primary)).body.applicant.form_url);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108020000009077536e0000000049454e44ae426082', 'hex');
    expect((await uploadDocument(stack.formUrl, token, { name: 'id.png', type: 'image/png', bytes: png })).status).toBe(303);
    const documentsPath = `${applicantPath}/documents`;
    const contentPath = `${documentsPath}/{document_id}/content`;
    const summaryPath = '/api/v2/applications/{id}/summary.pdf';
    const documentId = (await client.get(`${primary}/documents`, reader)).body.documents[0].id;

    for (const [method, path, request] of [
      ['GET', documentsPath, () => client.get(`${primary}/documents`, reader)],
      ['GET', documentsPath, () => client.get(`${primary}/documents`)],
      ['GET', documentsPath, () => client.get(`${primary}/documents`, { key: null })],
      ['GET', documentsPath, () => client.get(`${unknown}/documents`, reader)],
      ['GET', contentPath, () => client.get(`${primary}/documents/${documentId}/content`, reader)],
      ['GET', contentPath, () => client.get(`${primary}/documents/${documentId}/content`)],
      ['GET', contentPath, () => client.get(`${primary}/documents/${documentId}/content`, { key: null })],
      ['GET', contentPath, () => client.get(`${primary}/documents/999999/content`, reader)],
      ['GET', summaryPath, () => client.get(`/api/v2/applications/${made.id}/summary.pdf`, reader)],
      ['GET', summaryPath, () => client.get(`/api/v2/applications/${made.id}/summary.pdf`)],
      ['GET', summaryPath, () => client.get(`/api/v2/applications/${made.id}/summary.pdf`, { key: null })],
      ['GET', summaryPath, () => client.get('/api/v2/applications/999999/summary.pdf', reader)],
      ['GET', applicantPath, () => client.get(`${primary}?include=sensitive_data`, reader)],
      ['GET', applicantPath, () => client.get(`${primary}?include=sensitive_data`)],
      ['GET', applicantPath, () => client.get(`${primary}?include=everything`)],
      ['PATCH', applicantPath, () => client.patch(primary, { applicant: { reference_id: 'crm-1' } })],
      ['PATCH', applicantPath, () => client.patch(primary, undefined, { raw: '{"applicant":' })],
      ['PATCH', applicantPath, () => client.patch(primary, { applicant: {} }, { key: null })],
      ['PATCH', applicantPath, () => client.patch(unknown, { applicant: {} })],
      ['PATCH', applicantPath, () => client.patch(primary, { applicant: {} }, stale)],
      ['PATCH', applicantPath, () => client.patch(primary, undefined, { raw: tooBig })],
      ['PATCH', applicantPath, () => client.patch(primary, undefined, notJson)],
      ['PATCH', applicantPath, () => client.patch(primary, { applicant: { type: 'primary', email: 'no' } })],
      ['DELETE', applicantPath, () => client.delete(coPath, stale)],
      ['DELETE', applicantPath, () => client.delete(coPath, { key: null })],
      ['DELETE', applicantPath, () => client.delete(primary)],
      ['DELETE', applicantPath, () => client.delete(coPath)],
      ['DELETE', applicantPath, () => client.delete(coPath)],
      ['GET', auditEvents, () => client.get(`${auditEvents}?applicant_id=${made.applicants[0].id}&limit=1`)],
      ['GET', auditEvents, () => client.get(auditEvents, { key: null })],
      ['GET', auditEvents, () => client.get(`${auditEvents}?applicant_id=0`)],
    ] as const) {
      await documented(method, path, request());
    }
  });

  it('answers every response it documents, each as documented', async () => {
    const properties = '/api/v2/properties';
    const property = '/api/v2/properties/{id}';
    const floorPlans = '/api/v2/properties/{pid}/floor_plans';
    const floorPlan = '/api/v2/properties/{pid}/floor_plans/{id}';
    const applications = '/api/v2/applications';
    const webhooks = '/api/v2/webhooks';
    const webhook = '/api/v2/webhooks/{id}';
    const webhookDeliveries = '/api/v2/webhooks/{id}/deliveries';
    const webhookTest = '/api/v2/webhooks/{id}/test';
    const redeliver = '/api/v2/webhooks/{id}/deliveries/{delivery_id}/redeliver';
    const rotateSecret = '/api/v2/webhooks/{id}/rotate_secret';
    const settings = '/api/v2/notification_settings';
    const previews = '/api/v2/message_previews';
    const messages = '/api/v2/applications/{application_id}/applicants/{id}/messages';
    const suppression = '/api/v2/suppressions/{email}';
    const stopped = `/api/v2/suppressions/${encodeURIComponent('stopped@example.test')}`;
    const live = (await documented('POST', properties, client.post(properties, { property: { name: 'Conforming' } }))).body
      .property;
    const applicant = { first_name: 'Con', last_name: 'Form', email: 'con@example.com' };
    const tooBig = JSON.stringify({ property: { name: 'x'.repeat(65 * 1024) } });
    const application = '/api/v2/applications/{id}';
    const applicantPath = '/api/v2/applications/{application_id}/applicants/{id}';
    const coApplicants = '/api/v2/applications/{application_id}/applicants';
    const made = (await client.post(applications, { application: { property_id: live.id, applicant } })).body.application;
    const madeTag = (await client.get(`${applications}/${made.id}`)).headers.get('etag')!;
    const madeApplicant = new URL(made.applicants[0].api_url).pathname;
    const madeApplicantTag = (await client.get(madeApplicant)).headers.get('etag')!;
    const madeCoApplicants = `${applications}/${made.id}/applicants`;
    const notJson = { raw: '{"a":1}', headers: { 'content-type': 'text/plain' } };
    const invitations = '/api/v2/properties/{pid}/invitations';
    const invitationsOf = (id: number | string) => `${properties}/${id}/invitations`;
    const invitation = { invitation: { email: 'invited@example.com' } };
    const invited = (await client.post(properties, { property: { name: 'Invitation only', invitation_only: true } })).body
      .property;
    const formPresets = '/api/v2/form_presets';
    const decision = '/api/v2/applications/{id}/decision';
    const decisions = '/api/v2/applications/{id}/decisions';
    const decisionOf = (id: number | string) => `${applications}/${id}/decision`;
    const archivedApplication = (await client.post(applications, { application: { property_id: live.id, applicant } })).body
      .application;
    await client.patch(`${applications}/${archivedApplication.id}`, { application: { archived: true } });
    const personalData = '/api/v2/applications/{id}/personal_data';
    const erasable = (await client.post(applications, { application: { property_id: live.id, applicant } })).body.application;
    const retention = '/api/v2/retention_settings';

    for (const [method, path, request] of [
      ['GET', '/', () => client.get('/', { key: null })],
      ['POST', properties, () => client.post(properties, undefined, { raw: '{"property":' })],
      ['POST', properties, () => client.post(properties, { property: { name: 'x' } }, { key: null })],
      ['POST', properties, () => client.post(properties, undefined, { raw: tooBig })],
      ['POST', properties, () => client.post(properties, undefined, notJson)],
      ['POST', properties, () => client.post(properties, { property: { name: '', colour: 'red' } })],
      ['GET', property, () => client.get(`${properties}/${live.id}`)],
      ['GET', property, () => client.get(`${properties}/${live.id}`, { key: null })],
      ['GET', property, () => client.get(`${properties}/999999`)],
      ['GET', property, () => client.get(`${properties}/not-an-id`)],
      ['DELETE', property, () => client.delete(`${properties}/${live.id}`, { key: null })],
      ['DELETE', property, () => client.delete(`${properties}/${live.id}`)],
      ['DELETE', property, () => client.delete(`${properties}/${live.id}`)],
      ['POST', applications, () => client.post(applications, { application: { property_id: live.id + 1, applicant } })],
      ['POST', applications, () => client.post(applications, undefined, { raw: '[' })],
      ['POST', applications, () => client.post(applications, { application: {} }, { key: null })],
      ['POST', applications, () => client.post(applications, undefined, { raw: tooBig })],
      ['POST', applications, () => client.post(applications, undefined, notJson)],
      ['POST', applications, () => client.post(applications, { application: { property_id: live.id, applicant } })],
      [
        'POST',
        applications,
        () => client.post(applications, { application: { property_id: 1, applicant: { ...applicant, email: 'no' } } }),
      ],
      ['GET', applications, () => client.get(applications)],
      ['GET', applications, () => client.get(`${applications}?property_id=${live.id}&limit=1`)],
      ['GET', applications, () => client.get(applications, { key: null })],
      ['GET', applications, () => client.get(`${applications}?limit=0`)],
      ['GET', application, () => client.get(`${applications}/${made.id}`)],
      ['GET', application, () => client.get(`${applications}/${made.id}`, { headers: { 'if-none-match': madeTag } })],
      ['GET', application, () => client.get(`${applications}/${made.id}`, { key: null })],
      ['GET', application, () => client.get(`${applications}/${made.id}`, { key: KEYS.clientTwo })],
      ['GET', applications, () => client.get(`${applications}?archived=all&form_status=not_started&assigned_user_id=1`)],
      ['GET', applications, () => client.get(`${applications}?updated_since=yesterday`)],
      ['PATCH', application, () => client.patch(`${applications}/${made.id}`, { application: { referral: 'Documented' } })],
      ['PATCH', application, () => client.patch(`${applications}/${made.id}`, undefined, { raw: '{"application":' })],
      ['PATCH', application, () => client.patch(`${applications}/${made.id}`, { application: {} }, { key: null })],
      ['PATCH', application, () => client.patch(`${applications}/999999`, { application: {} })],
      [
        'PATCH',
        application,
        () => client.patch(`${applications}/${made.id}`, { application: {} }, { headers: { 'if-match': madeTag } }),
      ],
      ['PATCH', application, () => client.patch(`${applications}/${made.id}`, undefined, { raw: tooBig })],
      ['PATCH', application, () => client.patch(`${applications}/${made.id}`, undefined, notJson)],
      ['PATCH', application, () => client.patch(`${applications}/${made.id}`, { application: { archived: 1, pets: 2 } })],
      ['PATCH', application, () => client.patch(`${applications}/${made.id}`, { application: { floor_plan_id: 999999 } })],
      // Nothing decided yet: the 404 that says so.
      ['GET', decision, () => client.get(decisionOf(made.id))],
      ['POST', decision, () => client.post(decisionOf(made.id), { decision: { status: 'approved' } })],
      ['POST', decision, () => client.post(decisionOf(made.id), undefined, { raw: '{"decision":' })],
      ['POST', decision, () => client.post(decisionOf(made.id), { decision: { status: 'approved' } }, { key: null })],
      ['POST', decision, () => client.post(decisionOf(999999), { decision: { status: 'approved' } })],
      [
        'POST',
        decision,
        () => client.post(decisionOf(made.id), { decision: { status: 'approved' } }, { headers: { 'if-match': madeTag } }),
      ],
      ['POST', decision, () => client.post(decisionOf(archivedApplication.id), { decision: { status: 'approved' } })],
      ['POST', decision, () => client.post(decisionOf(made.id), undefined, { raw: tooBig })],
      ['POST', decision, () => client.post(decisionOf(made.id), undefined, notJson)],
      ['POST', decision, () => client.post(decisionOf(made.id), { decision: { status: 'maybe' } })],
      ['GET', decision, () => client.get(decisionOf(made.id))],
      ['GET', decision, () => client.get(decisionOf(made.id), { key: null })],
      ['GET', decisions, () => client.get(`${applications}/${made.id}/decisions`)],
      ['GET', decisions, () => client.get(`${applications}/${made.id}/decisions`, { key: null })],
      ['GET', decisions, () => client.get(`${applications}/999999/decisions`)],
      ['DELETE', personalData, () => client.delete(`${applications}/${erasable.id}/personal_data`)],
      ['DELETE', personalData, () => client.delete(`${applications}/${erasable.id}/personal_data`, { key: null })],
      ['DELETE', personalData, () => client.delete(`${applications}/999999/personal_data`)],
      ['DELETE', personalData, () => client.delete(`${applications}/${erasable.id}/personal_data`, { key: READER_KEY })],
      ['GET', retention, () => client.get(retention)],
      ['GET', retention, () => client.get(retention, { key: null })],
      ['PUT', retention, () => client.call('PUT', retention, { retention_settings: { personal_data_days: 365 } })],
      ['PUT', retention, () => client.call('PUT', retention, { retention_settings: {} }, { key: null })],
      ['PUT', retention, () => client.call('PUT', retention, undefined, { raw: '{' })],
      ['PUT', retention, () => client.call('PUT', retention, undefined, { raw: tooBig })],
      ['PUT', retention, () => client.call('PUT', retention, undefined, notJson)],
      ['PUT', retention, () => client.call('PUT', retention, { retention_settings: { personal_data_days: 0 } })],
      ['PUT', retention, () => client.call('PUT', retention, { retention_settings: {} }, { key: READER_KEY })],
      ['GET', applicantPath, () => client.get(madeApplicant)],
      ['GET', applicantPath, () => client.get(madeApplicant, { headers: { 'if-none-match': madeApplicantTag } })],
      ['GET', applicantPath, () => client.get(madeApplicant, { key: null })],
      ['GET', applicantPath, () => client.get(`${applications}/${made.id}/applicants/999999`)],
      ['POST', coApplicants, () => client.post(madeCoApplicants, { applicant })],
      ['POST', coApplicants, () => client.post(madeCoApplicants, undefined, { raw: '{' })],
      ['POST', coApplicants, () => client.post(madeCoApplicants, { applicant }, { key: null })],
      ['POST', coApplicants, () => client.post(`${applications}/999999/applicants`, { applicant })],
      ['POST', coApplicants, () => client.post(madeCoApplicants, undefined, { raw: tooBig })],
      ['POST', coApplicants, () => client.post(madeCoApplicants, undefined, notJson)],
      ['POST', coApplicants, () => client.post(madeCoApplicants, { applicant: { ...applicant, email: 'no' } })],
      ['POST', invitations, () => client.post(invitationsOf(invited.id), invitation)],
      ['POST', invitations, () => client.post(invitationsOf(invited.id), undefined, { raw: '{' })],
      ['POST', invitations, () => client.post(invitationsOf(invited.id), invitation, { key: null })],
      ['POST', invitations, () => client.post(invitationsOf(999999), invitation)],
      ['POST', invitations, () => client.post(invitationsOf(invited.id), undefined, { raw: tooBig })],
      ['POST', invitations, () => client.post(invitationsOf(invited.id), undefined, notJson)],
      ['POST', invitations, () => client.post(invitationsOf(invited.id), { invitation: { email: 'no' } })],
      ['GET', formPresets, () => client.get(formPresets)],
      ['GET', formPresets, () => client.get(formPresets, { key: null })],
      ['GET', formPresets, () => client.get(`${formPresets}?cursor=nonsense`)],
    ] as const) {
      await documented(method, path, request());
    }

    const formPreset = '/api/v2/form_presets/{id}';
    const presetBody = { form_preset: { name: 'Documented', questions: [{ id: 'pets', label: 'Pets?', kind: 'yes_no' }] } };
    const madePreset = (await documented('POST', formPresets, client.post(formPresets, presetBody))).body.form_preset;
    const presetPath = `${formPresets}/${madePreset.id}`;
    const presetTag = (await client.get(presetPath)).headers.get('etag')!;
    const stale = { headers: { 'if-match': '"stale"' } };
    for (const [method, path, request] of [
      ['POST', formPresets, () => client.post(formPresets, undefined, { raw: '{' })],
      ['POST', formPresets, () => client.post(formPresets, presetBody, { key: null })],
      ['POST', formPresets, () => client.post(formPresets, undefined, { raw: tooBig })],
      ['POST', formPresets, () => client.post(formPresets, undefined, notJson)],
      ['POST', formPresets, () => client.post(formPresets, { form_preset: { name: '', sections: [{ kind: 'pets' }] } })],
      ['GET', formPreset, () => client.get(presetPath)],
      ['GET', formPreset, () => client.get(presetPath, { headers: { 'if-none-match': presetTag } })],
      ['GET', formPreset, () => client.get(presetPath, { key: null })],
      ['GET', formPreset, () => client.get(`${formPresets}/999999`)],
      ['GET', formPreset, () => client.get(`${presetPath}?version=first`)],
      ['PATCH', formPreset, () => client.patch(presetPath, { form_preset: { name: 'Documented again' } })],
      ['PATCH', formPreset, () => client.patch(presetPath, undefined, { raw: '{"form_preset":' })],
      ['PATCH', formPreset, () => client.patch(presetPath, { form_preset: {} }, { key: null })],
      ['PATCH', formPreset, () => client.patch(`${formPresets}/999999`, { form_preset: {} })],
      ['PATCH', formPreset, () => client.patch(`${formPresets}/1`, { form_preset: { name: 'Mine' } })],
      ['PATCH', formPreset, () => client.patch(presetPath, { form_preset: {} }, stale)],
      ['PATCH', formPreset, () => client.patch(presetPath, undefined, { raw: tooBig })],
      ['PATCH', formPreset, () => client.patch(presetPath, undefined, notJson)],
      ['PATCH', formPreset, () => client.patch(presetPath, { form_preset: { questions: [{ id: 'x', kind: 'text' }] } })],
      ['DELETE', formPreset, () => client.delete(presetPath, { key: null })],
      ['DELETE', formPreset, () => client.delete(`${formPresets}/999999`)],
      ['DELETE', formPreset, () => client.delete(`${formPresets}/2`)],
      ['DELETE', formPreset, () => client.delete(presetPath, stale)],
      ['DELETE', formPreset, () => client.delete(presetPath)],
    ] as const) {
      await documented(method, path, request());
    }

    const subscription = { url: 'http://127.0.0.1:9/hooks', events: ['property.created'] };
    const hook = (await documented('POST', webhooks, client.post(webhooks, { webhook: subscription }))).body.webhook;
    const test = (await documented('POST', webhookTest, client.post(`${webhooks}/${hook.id}/test`, {}))).body.delivery;
    const unknownHook = `${webhooks}/999999`;
    // An address that unsubscribed, as its link's click leaves it: the lift below answers 200, then 404.
    const notificationsDb = await stack.database('notifications');
    await notificationsDb
      .collection('address_marks')
      .insertOne({ _id: `suppressed:${addressDigest('stopped@example.test')}` as never, at: new Date() });
    await notificationsDb.close();
    for (const [method, path, request] of [
      ['POST', webhooks, () => client.post(webhooks, undefined, { raw: '{' })],
      ['POST', webhooks, () => client.post(webhooks, { webhook: subscription }, { key: null })],
      ['POST', webhooks, () => client.post(webhooks, undefined, { raw: tooBig })],
      ['POST', webhooks, () => client.post(webhooks, undefined, notJson)],
      ['POST', webhooks, () => client.post(webhooks, { webhook: { url: 'x', events: [] } })],
      ['GET', webhooks, () => client.get(webhooks)],
      ['GET', webhooks, () => client.get(webhooks, { key: null })],
      ['GET', webhook, () => client.get(`${webhooks}/${hook.id}`)],
      ['GET', webhook, () => client.get(`${webhooks}/${hook.id}`, { key: null })],
      ['GET', webhook, () => client.get(unknownHook)],
      ['GET', webhookDeliveries, () => client.get(`${webhooks}/${hook.id}/deliveries`)],
      ['GET', webhookDeliveries, () => client.get(`${webhooks}/${hook.id}/deliveries`, { key: null })],
      ['GET', webhookDeliveries, () => client.get(`${unknownHook}/deliveries`)],
      ['GET', webhookDeliveries, () => client.get(`${webhooks}/${hook.id}/deliveries?limit=0`)],
      ['POST', webhookTest, () => client.post(`${webhooks}/${hook.id}/test`, {}, { key: null })],
      ['POST', webhookTest, () => client.post(`${unknownHook}/test`, {})],
      ['POST', redeliver, () => client.post(`${webhooks}/${hook.id}/deliveries/${test.id}/redeliver`, {})],
      ['POST', redeliver, () => client.post(`${webhooks}/${hook.id}/deliveries/${test.id}/redeliver`, {}, { key: null })],
      ['POST', redeliver, () => client.post(`${webhooks}/${hook.id}/deliveries/evt_none/redeliver`, {})],
      // 409: redelivered as often as a delivery may be.
      [
        'POST',
        redeliver,
        async () => {
          let answer = await client.post(`${webhooks}/${hook.id}/deliveries/${test.id}/redeliver`);
          for (let tries = 0; answer.status === 200 && tries < 10; tries++) {
            answer = await client.post(`${webhooks}/${hook.id}/deliveries/${test.id}/redeliver`);
          }
          return answer;
        },
      ],
      ['POST', rotateSecret, () => client.post(`${webhooks}/${hook.id}/rotate_secret`)],
      ['POST', rotateSecret, () => client.post(`${webhooks}/${hook.id}/rotate_secret`, undefined, { key: null })],
      ['POST', rotateSecret, () => client.post(`${unknownHook}/rotate_secret`)],
      ['DELETE', webhook, () => client.delete(`${webhooks}/${hook.id}`, { key: null })],
      ['DELETE', webhook, () => client.delete(`${webhooks}/${hook.id}`)],
      ['DELETE', webhook, () => client.delete(`${webhooks}/${hook.id}`)],
      ['GET', settings, () => client.get(settings)],
      ['GET', settings, () => client.get(settings, { key: null })],
      ['PUT', settings, () => client.call('PUT', settings, { notification_settings: { sender_name: 'Conforming Homes' } })],
      ['PUT', settings, () => client.call('PUT', settings, { notification_settings: {} }, { key: null })],
      ['PUT', settings, () => client.call('PUT', settings, undefined, { raw: '{' })],
      ['PUT', settings, () => client.call('PUT', settings, undefined, { raw: tooBig })],
      ['PUT', settings, () => client.call('PUT', settings, undefined, notJson)],
      ['PUT', settings, () => client.call('PUT', settings, { notification_settings: { reply_to: 'nobody' } })],
      ['GET', messages, () => client.get(`${madeApplicant}/messages`)],
      ['GET', messages, () => client.get(`${madeApplicant}/messages`, { key: null })],
      ['GET', previews, () => client.get(previews)],
      ['GET', previews, () => client.get(previews, { key: null })],
      ['GET', messages, () => client.get(`${applications}/${made.id}/applicants/999999/messages`)],
      ['GET', suppression, () => client.get(stopped)],
      ['GET', suppression, () => client.get(stopped, { key: null })],
      ['GET', suppression, () => client.get('/api/v2/suppressions/not-an-address')],
      ['DELETE', suppression, () => client.delete(stopped)],
      ['DELETE', suppression, () => client.delete(stopped)],
      ['DELETE', suppression, () => client.delete(stopped, { key: null })],
      ['DELETE', suppression, () => client.delete('/api/v2/suppressions/not-an-address')],
    ] as const) {
      await documented(method, path, request());
    }

    // 409: a request whose Idempotency-Key another request with the same body is still working on.
    const busy = async (service: 'properties' | 'applications' | 'webhooks', key: string, body: unknown) => {
      const db = await stack.database(service);
      try {
        await db.collection('idempotency_keys').insertOne({
          _id: `1:${key}` as never,
          token: randomUUID(),
          fingerprint: new BodyFingerprints(stack.fingerprintKeys).of(body),
          state: 'pending',
          message_id: 'another request',
          outcome: null,
          claimed_at: new Date(),
          expires_at: new Date(Date.now() + 60 * 60 * 1000),
        });
      } finally {
        await db.close();
      }
    };
    const propertyKey = randomUUID();
    await busy('properties', propertyKey, { name: 'Busy' });
    const inProgress = client.post(properties, { property: { name: 'Busy' } }, { headers: { 'idempotency-key': propertyKey } });
    expect((await documented('POST', properties, inProgress)).status).toBe(409);
    const applicationKey = randomUUID();
    await busy('applications', applicationKey, { property_id: live.id, applicant });
    const applying = client.post(
      applications,
      { application: { property_id: live.id, applicant } },
      { headers: { 'idempotency-key': applicationKey } },
    );
    expect((await documented('POST', applications, applying)).status).toBe(409);
    const coApplicantKey = randomUUID();
    await busy('applications', coApplicantKey, { application_id: made.id, applicant });
    const adding = client.post(madeCoApplicants, { applicant }, { headers: { 'idempotency-key': coApplicantKey } });
    expect((await documented('POST', coApplicants, adding)).status).toBe(409);
    const presetKey = randomUUID();
    await busy('properties', presetKey, { name: 'Busy preset' });
    const presetting = client.post(
      formPresets,
      { form_preset: { name: 'Busy preset' } },
      { headers: { 'idempotency-key': presetKey } },
    );
    expect((await documented('POST', formPresets, presetting)).status).toBe(409);
    const webhookKey = randomUUID();
    await busy('webhooks', webhookKey, subscription);
    const subscribing = client.post(webhooks, { webhook: subscription }, { headers: { 'idempotency-key': webhookKey } });
    expect((await documented('POST', webhooks, subscribing)).status).toBe(409);

    // 429: the throttled key's second request within the second.
    const throttled = { key: THROTTLED_KEY };
    for (const [method, path, request] of [
      ['POST', properties, () => client.post(properties, { property: { name: 'Throttled' } }, throttled)],
      ['GET', property, () => client.get(`${properties}/1`, throttled)],
      ['DELETE', property, () => client.delete(`${properties}/1`, throttled)],
      ['GET', properties, () => client.get(properties, throttled)],
      ['PATCH', property, () => client.patch(`${properties}/1`, { property: {} }, throttled)],
      ['GET', floorPlans, () => client.get(`${properties}/1/floor_plans`, throttled)],
      ['POST', floorPlans, () => client.post(`${properties}/1/floor_plans`, { floor_plan: { name: 'x' } }, throttled)],
      ['GET', floorPlan, () => client.get(`${properties}/1/floor_plans/1`, throttled)],
      ['PATCH', floorPlan, () => client.patch(`${properties}/1/floor_plans/1`, { floor_plan: {} }, throttled)],
      ['DELETE', floorPlan, () => client.delete(`${properties}/1/floor_plans/1`, throttled)],
      ['POST', applications, () => client.post(applications, { application: { property_id: 1, applicant } }, throttled)],
      ['GET', applications, () => client.get(applications, throttled)],
      ['GET', application, () => client.get(`${applications}/1`, throttled)],
      ['PATCH', application, () => client.patch(`${applications}/1`, { application: {} }, throttled)],
      ['POST', decision, () => client.post(decisionOf(1), { decision: { status: 'approved' } }, throttled)],
      ['GET', decision, () => client.get(decisionOf(1), throttled)],
      ['GET', decisions, () => client.get(`${applications}/1/decisions`, throttled)],
      ['DELETE', personalData, () => client.delete(`${applications}/1/personal_data`, throttled)],
      ['GET', retention, () => client.get(retention, throttled)],
      ['PUT', retention, () => client.call('PUT', retention, { retention_settings: {} }, throttled)],
      ['GET', applicantPath, () => client.get(`${applications}/1/applicants/1`, throttled)],
      ['POST', coApplicants, () => client.post(`${applications}/1/applicants`, { applicant }, throttled)],
      ['PATCH', applicantPath, () => client.patch(`${applications}/1/applicants/1`, { applicant: {} }, throttled)],
      ['DELETE', applicantPath, () => client.delete(`${applications}/1/applicants/1`, throttled)],
      ['GET', '/api/v2/audit_events', () => client.get('/api/v2/audit_events', throttled)],
      ['GET', `${applicantPath}/documents`, () => client.get(`${applications}/1/applicants/1/documents`, throttled)],
      [
        'GET',
        `${applicantPath}/documents/{document_id}/content`,
        () => client.get(`${applications}/1/applicants/1/documents/1/content`, throttled),
      ],
      ['GET', `${application}/summary.pdf`, () => client.get(`${applications}/1/summary.pdf`, throttled)],
      ['POST', invitations, () => client.post(invitationsOf(1), invitation, throttled)],
      ['GET', formPresets, () => client.get(formPresets, throttled)],
      ['POST', formPresets, () => client.post(formPresets, { form_preset: { name: 'Throttled' } }, throttled)],
      ['GET', formPreset, () => client.get(`${formPresets}/1`, throttled)],
      ['PATCH', formPreset, () => client.patch(`${formPresets}/1`, { form_preset: {} }, throttled)],
      ['DELETE', formPreset, () => client.delete(`${formPresets}/1`, throttled)],
      ['POST', webhooks, () => client.post(webhooks, { webhook: subscription }, throttled)],
      ['GET', webhooks, () => client.get(webhooks, throttled)],
      ['GET', webhook, () => client.get(`${webhooks}/1`, throttled)],
      ['DELETE', webhook, () => client.delete(`${webhooks}/1`, throttled)],
      ['GET', webhookDeliveries, () => client.get(`${webhooks}/1/deliveries`, throttled)],
      ['POST', webhookTest, () => client.post(`${webhooks}/1/test`, {}, throttled)],
      ['POST', redeliver, () => client.post(`${webhooks}/1/deliveries/evt_x/redeliver`, {}, throttled)],
      ['POST', rotateSecret, () => client.post(`${webhooks}/1/rotate_secret`, undefined, throttled)],
      ['GET', settings, () => client.get(settings, throttled)],
      ['PUT', settings, () => client.call('PUT', settings, { notification_settings: {} }, throttled)],
      ['GET', messages, () => client.get(`${applications}/1/applicants/1/messages`, throttled)],
      ['GET', previews, () => client.get(previews, throttled)],
      ['GET', suppression, () => client.get(stopped, throttled)],
      ['DELETE', suppression, () => client.delete(stopped, throttled)],
    ] as const) {
      let answer = await documented(method, path, request());
      for (let tries = 0; answer.status !== 429 && tries < 5; tries++) answer = await documented(method, path, request());
      expect(answer.status).toBe(429);
    }

    // What a caller gets while the services are down: each waits out RPC_TIMEOUT_MS, hence the test's longer timeout.
    await stack.stopApp('properties');
    await stack.stopApp('applications');
    await stack.stopApp('webhooks');
    await stack.stopApp('notifications');
    for (const [method, path, request] of [
      ['GET', settings, () => client.get(settings)],
      ['PUT', settings, () => client.call('PUT', settings, { notification_settings: {} })],
      ['GET', messages, () => client.get(`${madeApplicant}/messages`)],
      ['GET', previews, () => client.get(previews)],
      ['GET', suppression, () => client.get(stopped)],
      ['DELETE', suppression, () => client.delete(stopped)],
      ['POST', webhooks, () => client.post(webhooks, { webhook: subscription })],
      ['GET', webhooks, () => client.get(webhooks)],
      ['GET', webhook, () => client.get(`${webhooks}/1`)],
      ['DELETE', webhook, () => client.delete(`${webhooks}/1`)],
      ['GET', webhookDeliveries, () => client.get(`${webhooks}/1/deliveries`)],
      ['POST', webhookTest, () => client.post(`${webhooks}/1/test`, {})],
      ['POST', redeliver, () => client.post(`${webhooks}/1/deliveries/evt_x/redeliver`, {})],
      ['POST', rotateSecret, () => client.post(`${webhooks}/1/rotate_secret`)],
      ['POST', properties, () => client.post(properties, { property: { name: 'Nobody home' } })],
      ['GET', property, () => client.get(`${properties}/1`)],
      ['DELETE', property, () => client.delete(`${properties}/1`)],
      ['GET', properties, () => client.get(properties)],
      ['PATCH', property, () => client.patch(`${properties}/1`, { property: {} })],
      ['GET', floorPlans, () => client.get(`${properties}/1/floor_plans`)],
      ['POST', floorPlans, () => client.post(`${properties}/1/floor_plans`, { floor_plan: { name: 'x' } })],
      ['GET', floorPlan, () => client.get(`${properties}/1/floor_plans/1`)],
      ['PATCH', floorPlan, () => client.patch(`${properties}/1/floor_plans/1`, { floor_plan: {} })],
      ['DELETE', floorPlan, () => client.delete(`${properties}/1/floor_plans/1`)],
      ['POST', applications, () => client.post(applications, { application: { property_id: 1, applicant } })],
      ['GET', applications, () => client.get(applications)],
      ['GET', application, () => client.get(`${applications}/${made.id}`)],
      ['GET', applicantPath, () => client.get(madeApplicant)],
      ['PATCH', application, () => client.patch(`${applications}/${made.id}`, { application: {} })],
      ['POST', decision, () => client.post(decisionOf(made.id), { decision: { status: 'approved' } })],
      ['GET', decision, () => client.get(decisionOf(made.id))],
      ['GET', decisions, () => client.get(`${applications}/${made.id}/decisions`)],
      ['DELETE', personalData, () => client.delete(`${applications}/${made.id}/personal_data`)],
      ['GET', retention, () => client.get(retention)],
      ['PUT', retention, () => client.call('PUT', retention, { retention_settings: {} })],
      ['POST', coApplicants, () => client.post(madeCoApplicants, { applicant })],
      ['PATCH', applicantPath, () => client.patch(madeApplicant, { applicant: {} })],
      ['DELETE', applicantPath, () => client.delete(madeApplicant)],
      ['GET', '/api/v2/audit_events', () => client.get('/api/v2/audit_events')],
      ['GET', `${applicantPath}/documents`, () => client.get(`${madeApplicant}/documents`, { key: READER_KEY })],
      [
        'GET',
        `${applicantPath}/documents/{document_id}/content`,
        () => client.get(`${madeApplicant}/documents/1/content`, { key: READER_KEY }),
      ],
      ['GET', `${application}/summary.pdf`, () => client.get(`${applications}/${made.id}/summary.pdf`, { key: READER_KEY })],
      ['POST', invitations, () => client.post(invitationsOf(1), invitation)],
      ['GET', formPresets, () => client.get(formPresets)],
      ['POST', formPresets, () => client.post(formPresets, { form_preset: { name: 'Nobody home' } })],
      ['GET', formPreset, () => client.get(`${formPresets}/1`)],
      ['PATCH', formPreset, () => client.patch(`${formPresets}/101`, { form_preset: {} })],
      ['DELETE', formPreset, () => client.delete(`${formPresets}/101`)],
    ] as const) {
      expect((await documented(method, path, request())).status).toBe(503);
    }

    // An unexpected failure (500) cannot be provoked from outside; it answers with `default`.
    expect(published.unseen().filter((response) => !response.endsWith(' default'))).toEqual([]);
  }, 120_000);
});
