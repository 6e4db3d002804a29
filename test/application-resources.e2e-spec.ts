import { createHash, randomUUID } from 'node:crypto';
import { ApplicantSealer, FieldCipher, FormLinkTokens } from '@app/crypto';
import { api, Api, expectErrorBody } from './support/http';
import { KEYS, Stack } from '../tools/stack';

const APPLY_BASE_URL = 'https://apply.example.test/forms';
const APPLICANT_FIELDS = [
  'id',
  'application_id',
  'type',
  'first_name',
  'last_name',
  'name',
  'email',
  'phone',
  'reference_id',
  'redirect_url',
  'custom_data',
  'form_url',
  'form_status',
  'form_started_at',
  'form_completed_at',
  'withdrawn_at',
  'form_answers',
  'identity',
  'residences',
  'employment',
  'other_income',
  'household',
  'emergency_contact',
  'consent',
  'created_at',
  'updated_at',
  'api_url',
];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const FORM_URL = new RegExp(`^${APPLY_BASE_URL.replace(/\./g, '\\.')}/applicants/([A-Za-z0-9_-]{60})$`);
const other = { key: KEYS.clientTwo };

/** The path of an api_url, for asking the gateway under test (the public base is another host). */
function pathOf(url: string): string {
  return new URL(url).pathname;
}

describe('reading applications and applicants, and adding co-applicants', () => {
  let stack: Stack;
  let client: Api;
  let propertyId: number;

  const primary = {
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace@example.com',
    dob: '12/09/1986',
    id_number: '078-05-1120',
    phone: '(555) 010-4242',
    custom_data: { source: 'crm', tags: ['a', { b: 1 }] },
    reference_id: 'crm-1',
    redirect_url: 'https://landlord.example/thanks',
  };
  const apply = async (applicant: Record<string, unknown> = primary) => {
    const answer = await client.post('/api/v2/applications', { application: { property_id: propertyId, applicant } });
    expect(answer.status).toBe(201);
    return answer.body.application;
  };

  beforeAll(async () => {
    stack = await Stack.start({ env: { APPLY_BASE_URL } });
    client = api(stack.url);
    propertyId = (await client.post('/api/v2/properties', { property: { name: 'Reading Room' } })).body.property.id;
  });

  afterAll(() => stack?.stop());

  describe('GET /api/v2/applications/:id', () => {
    it('answers with the application as created, with an ETag, and 304 while it is unchanged', async () => {
      const created = await apply();
      const answer = await client.get(`/api/v2/applications/${created.id}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ application: created });
      expect(Object.keys(answer.body.application)).toEqual(Object.keys(created));

      const etag = answer.headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await client.get(`/api/v2/applications/${created.id}`, { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      const stale = await client.get(`/api/v2/applications/${created.id}`, { headers: { 'if-none-match': '"stale"' } });
      expect(stale.status).toBe(200);
    });

    it('answers 404 for an unknown id, an id that is not one, and another client’s application alike', async () => {
      const created = await apply();
      for (const [path, id, key] of [
        [`/api/v2/applications/987654`, '987654', undefined],
        [`/api/v2/applications/abc`, 'abc', undefined],
        [`/api/v2/applications/0`, '0', undefined],
        [`/api/v2/applications/${created.id}`, String(created.id), KEYS.clientTwo],
      ] as const) {
        const answer = await client.get(path, { key });
        expect([path, answer.status]).toEqual([path, 404]);
        expect(answer.body).toEqual({ error: { message: `application ${id} cannot be found`, details: null } });
      }
    });
  });

  describe('GET /api/v2/applications/:aid/applicants/:id', () => {
    it('answers at the api_url with the applicant’s record, never its date of birth or SSN', async () => {
      const before = Date.now();
      const created = await apply();
      const [summary] = created.applicants;
      const answer = await client.get(pathOf(summary.api_url));

      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body)).toEqual(['applicant']);
      const applicant = answer.body.applicant;
      expect(Object.keys(applicant)).toEqual(APPLICANT_FIELDS);
      expect(applicant).toEqual({
        id: summary.id,
        application_id: created.id,
        type: 'primary',
        first_name: 'Grace',
        last_name: 'Hopper',
        name: 'Grace Hopper',
        email: 'grace@example.com',
        phone: '5550104242',
        reference_id: 'crm-1',
        redirect_url: 'https://landlord.example/thanks',
        custom_data: { source: 'crm', tags: ['a', { b: 1 }] },
        form_url: expect.stringMatching(FORM_URL),
        form_status: 'not_started',
        form_started_at: null,
        form_completed_at: null,
        withdrawn_at: null,
        form_answers: null,
        identity: null,
        residences: null,
        employment: null,
        other_income: null,
        household: null,
        emergency_contact: null,
        consent: null,
        created_at: created.created_at,
        updated_at: created.created_at,
        api_url: summary.api_url,
      });
      expect(applicant.created_at).toMatch(TIMESTAMP);
      expect(Date.parse(applicant.created_at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      for (const secret of ['078051120', '078-05-1120', '1986-12-09', '12/09/1986', '"dob"', '"id_number"']) {
        expect(answer.text).not.toContain(secret);
      }
      expect(answer.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const unchanged = await client.get(pathOf(summary.api_url), { headers: { 'if-none-match': answer.headers.get('etag')! } });
      expect(unchanged.status).toBe(304);
    });

    it('gives each applicant its own unguessable form_url, the same on every read, stored only sealed and as a digest', async () => {
      const [one, two] = [await apply(), await apply()];
      const read = async (application: any) => (await client.get(pathOf(application.applicants[0].api_url))).body.applicant;
      const first = await read(one);
      expect((await read(one)).form_url).toBe(first.form_url);
      const second = await read(two);
      expect(second.form_url).not.toBe(first.form_url);

      const token = FORM_URL.exec(first.form_url)![1];
      // Made by the applications service for this application, a moment ago.
      expect(FormLinkTokens.fromKeyRing(stack.formLinkKeys).read(token)).toEqual({
        applicationId: one.id,
        issuedAt: expect.any(Date),
      });
      const db = await stack.database('applications');
      try {
        const stored = await db.collection('applications').findOne({ id: one.id });
        const applicant = stored!.applicants[0];
        expect(JSON.stringify(stored)).not.toContain(token);
        expect(applicant.form_token_digest).toBe(createHash('sha256').update(token).digest('base64url'));
        // Sealed for this client's applicant, as its id_number and dob are.
        const owner = `client:${stored!.client_id} applicant:${applicant.id}`;
        expect(new FieldCipher(stack.fieldEncryptionKeys).open(applicant.form_token, 'applicant.form_token', owner)).toBe(token);
      } finally {
        await db.close();
      }
    });

    it('gives form_url null to an applicant stored before form links existed', async () => {
      const created = await apply();
      const db = await stack.database('applications');
      try {
        await db.collection('applications').updateOne(
          { id: created.id },
          {
            $unset: {
              'applicants.0.form_token': '',
              'applicants.0.form_token_digest': '',
              'applicants.0.form_status': '',
              'applicants.0.form_started_at': '',
              'applicants.0.form_completed_at': '',
              'applicants.0.created_at': '',
              'applicants.0.updated_at': '',
            },
          },
        );
      } finally {
        await db.close();
      }
      const answer = await client.get(pathOf(created.applicants[0].api_url));
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body.applicant)).toEqual(APPLICANT_FIELDS);
      expect(answer.body.applicant).toMatchObject({
        form_url: null,
        form_status: 'not_started',
        form_started_at: null,
        form_completed_at: null,
        created_at: created.created_at,
        updated_at: created.created_at,
      });
    });

    it('answers 404 for another client’s applicant, an unknown one, and one of another application', async () => {
      const [one, two] = [await apply(), await apply()];
      const applicantOfTwo = two.applicants[0].id;
      for (const [path, message, key] of [
        [pathOf(one.applicants[0].api_url), `application ${one.id} cannot be found`, KEYS.clientTwo],
        [`/api/v2/applications/${one.id}/applicants/987654`, 'applicant 987654 cannot be found', undefined],
        [`/api/v2/applications/${one.id}/applicants/${applicantOfTwo}`, `applicant ${applicantOfTwo} cannot be found`, undefined],
        [`/api/v2/applications/${one.id}/applicants/x1`, 'applicant x1 cannot be found', undefined],
        [`/api/v2/applications/987654/applicants/${applicantOfTwo}`, 'application 987654 cannot be found', undefined],
      ] as const) {
        const answer = await client.get(path, { key });
        expect([path, answer.status]).toEqual([path, 404]);
        expect(answer.body).toEqual({ error: { message, details: null } });
      }
    });
  });

  describe('POST /api/v2/applications/:aid/applicants', () => {
    const coApplicant = {
      first_name: ' Alan ',
      last_name: 'Turing',
      email: 'alan@example.com',
      dob: '1982-06-23',
      id_number: '219-09-9999',
      phone: '555.010.9999',
    };

    it('adds a co-applicant, which the application then lists', async () => {
      const created = await apply();
      const answer = await client.post(`/api/v2/applications/${created.id}/applicants`, { applicant: coApplicant });

      expect(answer.status).toBe(201);
      const added = answer.body.applicant;
      expect(Object.keys(answer.body)).toEqual(['applicant']);
      expect(Object.keys(added)).toEqual(APPLICANT_FIELDS);
      expect(added).toMatchObject({
        application_id: created.id,
        type: 'co_applicant',
        first_name: 'Alan',
        name: 'Alan Turing',
        phone: '5550109999',
        custom_data: null,
        reference_id: null,
        redirect_url: null,
        form_status: 'not_started',
        api_url: `${stack.publicBaseUrl}/api/v2/applications/${created.id}/applicants/${added.id}`,
      });
      expect(added.form_url).toMatch(FORM_URL);
      expect(added.id).toBeGreaterThan(created.applicants[0].id);
      for (const secret of ['219099999', '219-09-9999', '1982-06-23']) expect(answer.text).not.toContain(secret);

      expect((await client.get(pathOf(added.api_url))).body).toEqual({ applicant: added });
      const application = (await client.get(`/api/v2/applications/${created.id}`)).body.application;
      expect(application.applicants).toEqual([
        created.applicants[0],
        {
          id: added.id,
          type: 'co_applicant',
          name: 'Alan Turing',
          api_url: added.api_url,
          // No income stated yet: none to relate to the rent (see docs/integrators/api.md, "Income to rent").
          monthly_income: null,
          income_to_rent: null,
        },
      ]);
      expect(application.updated_at).toBe(added.created_at);

      const db = await stack.database('applications');
      try {
        const stored = await db.collection('applications').findOne({ id: created.id });
        const sealer = new ApplicantSealer(new FieldCipher(stack.fieldEncryptionKeys));
        const owner = { clientId: stored!.client_id, applicantId: stored!.applicants[1].id };
        expect(sealer.openField('id_number', stored!.applicants[1].id_number, owner)).toBe('219099999');
        expect(sealer.openField('dob', stored!.applicants[1].dob, owner)).toBe('1982-06-23');
      } finally {
        await db.close();
      }
    });

    it('validates the co-applicant under the primary applicant’s rules, naming each field', async () => {
      const created = await apply();
      const answer = await client.post(`/api/v2/applications/${created.id}/applicants`, {
        applicant: { first_name: '', last_name: 'X', email: 'nope', id_number: '12345', colour: 'red' },
      });
      expect(answer.status).toBe(422);
      expectErrorBody(answer);
      expect(answer.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'applicant.colour',
        'applicant.email',
        'applicant.first_name',
        'applicant.id_number',
      ]);
      const missing = await client.post(`/api/v2/applications/${created.id}/applicants`, {});
      expect(missing.status).toBe(422);
      expect(missing.body.error.details).toEqual([{ field: 'applicant', message: expect.any(String) }]);
      expect((await client.get(`/api/v2/applications/${created.id}`)).body.application.applicants).toHaveLength(1);
    });

    it('answers 404 for another client’s application or an unknown one, and adds nothing', async () => {
      const created = await apply();
      const foreign = await client.post(`/api/v2/applications/${created.id}/applicants`, { applicant: coApplicant }, other);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: { message: `application ${created.id} cannot be found`, details: null } });
      const unknown = await client.post('/api/v2/applications/987654/applicants', { applicant: coApplicant });
      expect(unknown.body).toEqual({ error: { message: 'application 987654 cannot be found', details: null } });
      expect((await client.get(`/api/v2/applications/${created.id}`)).body.application.applicants).toHaveLength(1);
    });

    it('refuses an applicant beyond the 20 an application may have', async () => {
      const created = await apply();
      const path = `/api/v2/applications/${created.id}/applicants`;
      for (let i = 0; i < 19; i++) {
        const answer = await client.post(path, { applicant: { ...coApplicant, first_name: `Co${i}` } });
        expect(answer.status).toBe(201);
      }
      const refused = await client.post(path, { applicant: coApplicant });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({
        error: {
          message: 'applicant cannot be added: an application has at most 20 applicants',
          details: [{ field: 'applicant', message: 'cannot be added: an application has at most 20 applicants' }],
        },
      });
      expect((await client.get(`/api/v2/applications/${created.id}`)).body.application.applicants).toHaveLength(20);
    });

    it('adds once per Idempotency-Key, answering a repeat with the first answer', async () => {
      const created = await apply();
      const headers = { 'idempotency-key': randomUUID() };
      const path = `/api/v2/applications/${created.id}/applicants`;
      const first = await client.post(path, { applicant: coApplicant }, { headers });
      const repeat = await client.post(path, { applicant: coApplicant }, { headers });
      expect([first.status, repeat.status]).toEqual([201, 201]);
      expect(repeat.body).toEqual(first.body);
      const changed = await client.post(path, { applicant: { ...coApplicant, last_name: 'Other' } }, { headers });
      expect(changed.status).toBe(422);
      expect((await client.get(`/api/v2/applications/${created.id}`)).body.application.applicants).toHaveLength(2);
    });
  });

  describe('GET /api/v2/applications', () => {
    const someone = { first_name: 'List', last_name: 'Ed', email: 'list@example.com' };
    const applyTo = async (property: number, key?: string) =>
      (await client.post('/api/v2/applications', { application: { property_id: property, applicant: someone } }, { key })).body
        .application;

    /** Every page of a list, following next_cursor. */
    const walk = async (query: string, key?: string) => {
      const items: any[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const answer = await client.get(`/api/v2/applications?${query}${cursor ? `&cursor=${cursor}` : ''}`, { key });
        expect(answer.status).toBe(200);
        expect(Object.keys(answer.body)).toEqual(['applications', 'next_cursor']);
        items.push(...answer.body.applications);
        cursor = answer.body.next_cursor;
        pages++;
      } while (cursor !== null && pages < 100);
      return { items, pages };
    };

    it('lists a property’s applications newest first, and all of the client’s a page at a time', async () => {
      const property = async (name: string, key?: string) =>
        (await client.post('/api/v2/properties', { property: { name } }, { key })).body.property.id;
      const [a, b, foreign] = [await property('List A'), await property('List B'), await property('Theirs', KEYS.clientTwo)];
      const mine: any[] = [];
      for (let i = 0; i < 7; i++) mine.push(await applyTo(i % 3 === 0 ? b : a));
      const theirs = [await applyTo(foreign, KEYS.clientTwo), await applyTo(foreign, KEYS.clientTwo)];
      const coApplicant = await client.post(`/api/v2/applications/${mine[1].id}/applicants`, {
        applicant: { first_name: 'Co', last_name: 'Listed', email: 'co@example.com' },
      });
      expect(coApplicant.status).toBe(201);

      const ofA = await client.get(`/api/v2/applications?property_id=${a}`);
      expect(ofA.status).toBe(200);
      const expectedA = mine.filter((m) => m.property_id === a).reverse();
      expect(ofA.body.applications.map((m: { id: number }) => m.id)).toEqual(expectedA.map((m) => m.id));
      expect(ofA.body.next_cursor).toBeNull();
      // Each item is the application as a GET of it answers, the co-applicant included.
      for (const item of ofA.body.applications) {
        expect(item).toEqual((await client.get(`/api/v2/applications/${item.id}`)).body.application);
      }
      expect(ofA.body.applications.find((m: { id: number }) => m.id === mine[1].id).applicants).toHaveLength(2);

      const ofB = await walk(`property_id=${b}&limit=2`);
      expect(ofB.items.map((m) => m.id)).toEqual(
        mine
          .filter((m) => m.property_id === b)
          .reverse()
          .map((m) => m.id),
      );
      expect(ofB.pages).toBe(2);

      const all = await walk('limit=3');
      const ids = all.items.map((m) => m.id);
      expect(ids).toEqual([...ids].sort((x, y) => y - x));
      expect(new Set(ids).size).toBe(ids.length);
      for (const m of mine) expect(ids).toContain(m.id);
      expect(all.items.every((m) => m.client_id === 1)).toBe(true);
      const db = await stack.database('applications');
      try {
        expect(ids).toHaveLength(await db.collection('applications').countDocuments({ client_id: 1 }));
      } finally {
        await db.close();
      }
      expect((await client.get('/api/v2/applications?limit=3')).body.applications).toEqual(all.items.slice(0, 3));

      const ofTwo = await walk('', KEYS.clientTwo);
      expect(ofTwo.items.map((m) => m.id)).toEqual(theirs.map((m) => m.id).reverse());
      expect((await client.get(`/api/v2/applications?property_id=${foreign}`)).body).toEqual({
        applications: [],
        next_cursor: null,
      });
      expect((await client.get(`/api/v2/applications?property_id=${a}`, other)).body).toEqual({
        applications: [],
        next_cursor: null,
      });
    });

    it('refuses a bad limit, cursor or property_id, or an unknown parameter, naming it', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=ten', 'limit'],
        ['limit=1&limit=2', 'limit'],
        ['cursor=not-a-cursor', 'cursor'],
        [`cursor=${Buffer.from('v1:0').toString('base64url')}`, 'cursor'],
        ['property_id=abc', 'property_id'],
        ['property_id=0', 'property_id'],
        ['property_id=-3', 'property_id'],
        ['propertyId=3', 'propertyId'],
      ]) {
        const answer = await client.get(`/api/v2/applications?${query}`);
        expect([query, answer.status]).toEqual([query, 422]);
        expectErrorBody(answer);
        expect([query, answer.body.error.details.map((d: { field: string }) => d.field)]).toEqual([query, [field]]);
      }
    });
  });
});

describe('co-applicants added at once through two instances of the applications service', () => {
  let stack: Stack;
  let client: Api;

  beforeAll(async () => {
    stack = await Stack.start({
      instances: { applications: 2 },
      env: { RPC_TIMEOUT_MS: '30000', PROPERTY_LOOKUP_TIMEOUT_MS: '25000', APPLY_BASE_URL },
    });
    client = api(stack.url);
  });

  afterAll(() => stack?.stop());

  it('loses none of 19 concurrent additions to each of two applications', async () => {
    // 19 co-applicants: an application has at most 20 applicants.
    const PER_APPLICATION = 19;
    const propertyId = (await client.post('/api/v2/properties', { property: { name: 'Crowded' } })).body.property.id;
    const applicant = { first_name: 'Primary', last_name: 'One', email: 'p@example.com' };
    const applications = await Promise.all(
      [1, 2].map(
        async () =>
          (await client.post('/api/v2/applications', { application: { property_id: propertyId, applicant } })).body.application,
      ),
    );

    const answers = await Promise.all(
      Array.from({ length: PER_APPLICATION * 2 }, (_, i) =>
        client.post(`/api/v2/applications/${applications[i % 2].id}/applicants`, {
          applicant: { first_name: `Co${i}`, last_name: 'Applicant', email: `co${i}@example.com`, id_number: '123456789' },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(PER_APPLICATION * 2).fill(201));
    // Both instances did some of the work.
    const handled = stack
      .running('applications')
      .map((p) => p.logs.filter((r) => /applicants\.add/.test(JSON.stringify(r))).length);
    expect(handled.every((count) => count > 0)).toBe(true);

    for (const [index, application] of applications.entries()) {
      const added = answers.filter((_, i) => i % 2 === index).map((a) => a.body.applicant);
      expect(added.every((a) => a.application_id === application.id)).toBe(true);
      const listed = (await client.get(`/api/v2/applications/${application.id}`)).body.application.applicants;
      expect(listed).toHaveLength(PER_APPLICATION + 1);
      expect(listed[0]).toEqual(application.applicants[0]);
      expect(
        listed
          .slice(1)
          .map((a: { id: number }) => a.id)
          .sort((a: number, b: number) => a - b),
      ).toEqual(added.map((a) => a.id).sort((a, b) => a - b));
      expect(new Set(listed.map((a: { name: string }) => a.name)).size).toBe(PER_APPLICATION + 1);
    }
  });
});
