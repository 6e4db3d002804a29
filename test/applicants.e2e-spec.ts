import { api, Api, expectErrorBody } from './support/http';
import { EventTap } from './support/events';
import { eventually } from './support/wait';
import { KEYS, Stack } from '../tools/stack';

/** A key of client one that API_KEY_SCOPES grants the sensitive_data scope; client one's usual key has none. */
const READER_KEY = 'test-key-client-one-reader';
const reader = { key: READER_KEY };
const other = { key: KEYS.clientTwo };

const DOB = '1984-06-30';
const SSN = '219-09-9999';

/** The path of an api_url, for asking the gateway under test (the public base is another host). */
const pathOf = (url: string) => new URL(url).pathname;

describe('correcting and removing applicants, and reading their sensitive data', () => {
  let stack: Stack;
  let client: Api;
  let tap: EventTap;
  let propertyId: number;

  /** A new application with its primary applicant, and `coApplicants` co-applicants; their api_url paths. */
  const household = async (coApplicants = 1) => {
    const created = await client.post('/api/v2/applications', {
      application: {
        property_id: propertyId,
        applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', dob: DOB, id_number: SSN },
      },
    });
    expect(created.status).toBe(201);
    const application = created.body.application;
    const added: Array<Record<string, any>> = [];
    for (let i = 0; i < coApplicants; i++) {
      const answer = await client.post(`/api/v2/applications/${application.id}/applicants`, {
        applicant: { first_name: 'Alan', last_name: `Turing ${i}`, email: `alan${i}@example.com`, dob: '1990-01-0' + (i + 1) },
      });
      expect(answer.status).toBe(201);
      added.push(answer.body.applicant);
    }
    return { application, primary: pathOf(application.applicants[0].api_url), coApplicants: added };
  };

  beforeAll(async () => {
    stack = await Stack.start({
      form: true,
      instances: { applications: 2 },
      env: {
        API_KEYS: `${KEYS.clientOne}:1,${KEYS.clientTwo}:2,${READER_KEY}:1`,
        API_KEY_SCOPES: `${READER_KEY}:sensitive_data`,
      },
    });
    client = api(stack.url);
    tap = await EventTap.open(stack.namespace);
    propertyId = (await client.post('/api/v2/properties', { property: { name: 'Ledger House' } })).body.property.id;
  });

  afterAll(async () => {
    await tap?.close();
    await stack?.stop();
  });

  describe('PATCH /api/v2/applications/:aid/applicants/:id', () => {
    it('corrects contact details, reference_id and custom_data, answering with the whole new representation', async () => {
      const { application, coApplicants } = await household();
      const path = pathOf(coApplicants[0].api_url);
      const before = await client.get(path);

      const answer = await client.patch(path, {
        applicant: {
          first_name: '  Alan M. ',
          email: 'turing@example.com',
          phone: '+1 (555) 010-7777',
          reference_id: 'crm-9',
          custom_data: { stage: 'review' },
        },
      });

      expect(answer.status).toBe(200);
      expect(answer.body.applicant).toEqual({
        ...before.body.applicant,
        first_name: 'Alan M.',
        name: 'Alan M. Turing 0',
        email: 'turing@example.com',
        phone: '15550107777',
        reference_id: 'crm-9',
        custom_data: { stage: 'review' },
        updated_at: answer.body.applicant.updated_at,
      });
      const read = await client.get(path);
      expect(read.body).toEqual(answer.body);
      expect(read.headers.get('etag')).not.toBe(before.headers.get('etag'));
      const summary = (await client.get(`/api/v2/applications/${application.id}`)).body.application.applicants[1];
      expect(summary.name).toBe('Alan M. Turing 0');

      const cleared = await client.patch(path, { applicant: { phone: null, custom_data: null } });
      expect(cleared.status).toBe(200);
      expect([cleared.body.applicant.phone, cleared.body.applicant.custom_data]).toEqual([null, null]);

      const event = await eventually('applicant.updated', () =>
        tap.named('applicant.updated').find((e) => e.data.applicant_id === coApplicants[0].id && e.data.reference_id === 'crm-9'),
      );
      expect(event.data).toEqual({
        applicant_id: coApplicants[0].id,
        application_id: application.id,
        property_id: propertyId,
        reference_id: 'crm-9',
      });
    });

    it('refuses type, dob, id_number and unknown fields, and invalid values, naming each (422)', async () => {
      const { primary } = await household(0);
      const answer = await client.patch(primary, {
        applicant: { type: 'co_applicant', dob: DOB, id_number: SSN, email: 'nope', pets: 1 },
      });
      expect(answer.status).toBe(422);
      expectErrorBody(answer);
      expect(answer.body.error.details).toEqual(
        expect.arrayContaining([
          { field: 'applicant.email', message: 'must be a valid e-mail address' },
          { field: 'applicant.type', message: 'is not a known field' },
          { field: 'applicant.dob', message: 'is not a known field' },
          { field: 'applicant.id_number', message: 'is not a known field' },
          { field: 'applicant.pets', message: 'is not a known field' },
        ]),
      );
      expect((await client.patch(primary, {})).status).toBe(422);
      expect((await client.get(primary)).body.applicant.type).toBe('primary');
    });

    it('answers 412 to an If-Match that is no longer current, and changes nothing', async () => {
      const { primary } = await household(0);
      const tag = (await client.get(primary)).headers.get('etag')!;
      expect((await client.patch(primary, { applicant: { last_name: 'Byron' } }, { headers: { 'if-match': tag } })).status).toBe(
        200,
      );

      const stale = await client.patch(primary, { applicant: { last_name: 'King' } }, { headers: { 'if-match': tag } });
      expect(stale.status).toBe(412);
      expectErrorBody(stale, /If-Match/);
      expect((await client.get(primary)).body.applicant.last_name).toBe('Byron');
    });

    it('keeps every one of many changes made at once through two instances', async () => {
      const { application, primary } = await household(0);
      const changes = [
        { first_name: 'Augusta' },
        { last_name: 'King' },
        { email: 'augusta@example.com' },
        { phone: '5550101111' },
        { reference_id: 'crm-ada' },
        { custom_data: { checked: true } },
      ];
      const adds = Array.from({ length: 4 }, (_, i) => ({ first_name: 'Co', last_name: `${i}`, email: `co${i}@example.com` }));
      const answers = await Promise.all([
        ...changes.map((applicant) => client.patch(primary, { applicant })),
        ...adds.map((applicant) => client.post(`/api/v2/applications/${application.id}/applicants`, { applicant })),
      ]);
      expect(answers.map((a) => a.status)).toEqual([...changes.map(() => 200), ...adds.map(() => 201)]);

      const applicant = (await client.get(primary)).body.applicant;
      expect(applicant).toMatchObject(Object.assign({}, ...changes));
      const listed = (await client.get(`/api/v2/applications/${application.id}`)).body.application.applicants;
      expect(listed).toHaveLength(5);
      const handled = stack.processes
        .filter((p) => p.app === 'applications')
        .map((p) => p.logs.filter((line) => line.pattern === 'applications.applicants.update').length);
      expect(handled.every((count) => count > 0)).toBe(true);
    });

    it('is 404 for another client’s applicant, an unknown one, and one of another application', async () => {
      const first = await household(0);
      const second = await household(0);
      const body = { applicant: { first_name: 'X' } };
      expect((await client.patch(first.primary, body, other)).status).toBe(404);
      const unknown = await client.patch(`/api/v2/applications/${first.application.id}/applicants/999999`, body);
      expect(unknown.status).toBe(404);
      expectErrorBody(unknown, 'applicant 999999 cannot be found');
      const mixed = `/api/v2/applications/${first.application.id}/applicants/${second.application.applicants[0].id}`;
      expect((await client.patch(mixed, body)).status).toBe(404);
    });
  });

  describe('DELETE /api/v2/applications/:aid/applicants/:id', () => {
    it('removes a co-applicant: gone from the application, its GET and its form link', async () => {
      const { application, coApplicants } = await household(2);
      const path = pathOf(coApplicants[0].api_url);
      const current = await client.get(path);
      expect((await fetch(coApplicants[0].form_url)).status).toBe(200);

      const answer = await client.delete(path, { headers: { 'if-match': current.headers.get('etag')! } });

      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(current.body);
      const gone = await client.get(path);
      expect(gone.status).toBe(404);
      expectErrorBody(gone, `applicant ${coApplicants[0].id} cannot be found`);
      const listed = (await client.get(`/api/v2/applications/${application.id}`)).body.application.applicants;
      expect(listed.map((a: { id: number }) => a.id)).toEqual([application.applicants[0].id, coApplicants[1].id]);
      expect((await fetch(coApplicants[0].form_url)).status).toBe(404);
      expect((await fetch(coApplicants[1].form_url)).status).toBe(200);
      expect((await client.delete(path)).status).toBe(404);

      const event = await eventually('applicant.removed', () =>
        tap.named('applicant.removed').find((e) => e.data.applicant_id === coApplicants[0].id),
      );
      expect(event.data).toEqual({
        applicant_id: coApplicants[0].id,
        application_id: application.id,
        property_id: propertyId,
        reference_id: null,
      });
    });

    it('never removes the primary applicant (422, saying why)', async () => {
      const { application, primary } = await household(0);
      const answer = await client.delete(primary);
      expect(answer.status).toBe(422);
      expectErrorBody(answer, `applicant ${application.applicants[0].id} cannot be removed: it is the primary applicant`);
      expect((await client.get(primary)).status).toBe(200);
    });

    it('answers 412 to an If-Match that is no longer current, and removes nothing', async () => {
      const { coApplicants } = await household(1);
      const path = pathOf(coApplicants[0].api_url);
      const tag = (await client.get(path)).headers.get('etag')!;
      await client.patch(path, { applicant: { reference_id: 'moved-on' } });
      expect((await client.delete(path, { headers: { 'if-match': tag } })).status).toBe(412);
      expect((await client.get(path)).status).toBe(200);
    });
  });

  describe('sensitive data', () => {
    it('is 403 for a key without the sensitive_data scope, saying which scope is missing', async () => {
      const { primary } = await household(0);
      const answer = await client.get(`${primary}?include=sensitive_data`);
      expect(answer.status).toBe(403);
      expectErrorBody(answer, /sensitive_data scope/);
      expect(answer.text).not.toContain('219099999');
    });

    it('is answered only when asked, to a key with the scope, with Cache-Control: no-store', async () => {
      const { primary, coApplicants } = await household(1);
      const plain = await client.get(primary, reader);
      expect(plain.status).toBe(200);
      expect(plain.body.applicant).not.toHaveProperty('sensitive_data');
      expect(plain.headers.get('cache-control')).not.toBe('no-store');

      const answer = await client.get(`${primary}?include=sensitive_data`, reader);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.body.applicant).toEqual({
        ...plain.body.applicant,
        sensitive_data: { dob: DOB, drivers_license_number: null, id_number: '219099999' },
      });
      const co = await client.get(`${pathOf(coApplicants[0].api_url)}?include=sensitive_data`, reader);
      expect(co.body.applicant.sensitive_data).toEqual({ dob: '1990-01-01', drivers_license_number: null, id_number: null });
    });

    it('refuses an unknown include or query parameter (422)', async () => {
      const { primary } = await household(0);
      for (const query of ['include=dob', 'include=sensitive_data&x=1', 'fields=all']) {
        const answer = await client.get(`${primary}?${query}`, reader);
        expect(answer.status).toBe(422);
        expectErrorBody(answer);
      }
    });

    it('records each read, listed to its client by applicant and a page at a time', async () => {
      const { application, primary } = await household(0);
      const applicantId = application.applicants[0].id;
      const requestIds = ['audit-read-1', 'audit-read-2', 'audit-read-3'];
      for (const id of requestIds) {
        const answer = await client.get(`${primary}?include=sensitive_data`, { ...reader, headers: { 'x-request-id': id } });
        expect(answer.status).toBe(200);
      }
      await client.get(`${primary}?include=sensitive_data`); // refused (no scope): not a read

      const listed = await client.get(`/api/v2/audit_events?applicant_id=${applicantId}`);
      expect(listed.status).toBe(200);
      expect(listed.body.next_cursor).toBeNull();
      expect(listed.body.audit_events.map((e: { request_id: string }) => e.request_id)).toEqual([...requestIds].reverse());
      const [newest] = listed.body.audit_events;
      expect(Object.keys(newest)).toEqual([
        'id',
        'action',
        'client_id',
        'key_id',
        'application_id',
        'applicant_id',
        'read',
        'document_id',
        'request_id',
        'trigger',
        'retention_change',
        'created_at',
      ]);
      expect(newest).toMatchObject({
        action: 'sensitive_data.read',
        trigger: null,
        retention_change: null,
        read: 'applicant',
        document_id: null,
        client_id: 1,
        application_id: application.id,
        applicant_id: applicantId,
      });
      expect(newest.key_id).toMatch(/^[0-9a-f]{16}$/);
      expect(listed.text).not.toContain(READER_KEY);

      const first = await client.get(`/api/v2/audit_events?applicant_id=${applicantId}&limit=2`);
      expect(first.body.audit_events).toHaveLength(2);
      const rest = await client.get(`/api/v2/audit_events?applicant_id=${applicantId}&limit=2&cursor=${first.body.next_cursor}`);
      expect(rest.body.audit_events.map((e: { request_id: string }) => e.request_id)).toEqual(['audit-read-1']);

      const all = await client.get('/api/v2/audit_events?limit=100');
      expect(all.body.audit_events.map((e: { request_id: string }) => e.request_id)).toEqual(expect.arrayContaining(requestIds));
      expect((await client.get('/api/v2/audit_events', other)).body.audit_events).toEqual([]);
      expect((await client.get(`/api/v2/audit_events?applicant_id=${applicantId}`, other)).body.audit_events).toEqual([]);
      for (const query of ['applicant_id=x', 'limit=0', 'cursor=nope', 'action=read']) {
        const bad = await client.get(`/api/v2/audit_events?${query}`);
        expect(bad.status).toBe(422);
        expectErrorBody(bad);
      }
    });

    it('is never written to a log line', async () => {
      const { primary } = await household(0);
      const answer = await client.get(`${primary}?include=sensitive_data`, reader);
      expect(answer.body.applicant.sensitive_data).toEqual({ dob: DOB, drivers_license_number: null, id_number: '219099999' });
      const output = stack.started.flatMap((p) => p.output).join('');
      expect(output).not.toContain('219099999');
      expect(output).not.toContain('219-09-9999');
      expect(output).not.toContain(DOB);
      expect(output).not.toContain(READER_KEY);
    });
  });
});
