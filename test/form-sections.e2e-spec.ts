import { KEYS, Stack } from '../tools/stack';
import { Api, api } from './support/http';
import { ANSWERS, EMERGENCY, EMPLOYMENT, HOUSEHOLD, IDENTITY, RESIDENCES, yearsAgo } from './support/preset-one-answers';

/** A key of client one that API_KEY_SCOPES grants the sensitive_data scope. */
const READER_KEY = 'sections-reader-key-0001';

/**
 * The form's sections over HTTP, against the whole stack: each step is posted as a browser
 * posts it (its CSRF token read from the page), saved on the applicant, and read back through
 * the API, with and without the sensitive_data scope.
 */
describe('the online application form’s sections', () => {
  let stack: Stack;
  let client: Api;

  beforeAll(async () => {
    stack = await Stack.start({
      form: true,
      env: {
        FORM_RATE_LIMIT_PER_MINUTE: '1000000',
        API_KEYS: `${KEYS.clientOne}:1,${KEYS.clientTwo}:2,${READER_KEY}:1`,
        API_KEY_SCOPES: `${READER_KEY}:sensitive_data`,
      },
    });
    client = api(stack.url);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function page(url: string): Promise<{ status: number; html: string; csrf: string; url: string }> {
    const response = await fetch(url, { redirect: 'manual' });
    const html = await response.text();
    return { status: response.status, html, csrf: /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '', url };
  }

  /** Posts `fields` to the form page at `url` with the token the page holds; the answer. */
  async function send(url: string, fields: Record<string, string>): Promise<{ status: number; location: string; html: string }> {
    const { csrf } = await page(url);
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, csrf_token: csrf }).toString(),
    });
    return { status: response.status, location: response.headers.get('location') ?? '', html: await response.text() };
  }

  const origin = (url: string) => new URL(url).origin;
  /** Starts an application at a new property of client one; the primary's form_url. */
  async function start(name: string, fields: Record<string, string> = {}): Promise<{ formUrl: string; propertyId: number }> {
    const property = (
      await client.post('/api/v2/properties', {
        property: { name, kind: 'single_family', street: '1 Main St', city: 'Springfield', ...fields },
      })
    ).body.property;
    const started = await send(property.application_url, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    expect(started.status).toBe(303);
    const formUrl = `${origin(property.application_url)}${started.location.replace(/\/details$/, '')}`;
    return { formUrl, propertyId: property.id };
  }

  async function primaryOf(propertyId: number, key?: string): Promise<any> {
    const list = await client.get(`/api/v2/applications?property_id=${propertyId}`);
    const application = (await client.get(`/api/v2/applications/${list.body.applications[0].id}`)).body.application;
    const path = new URL(application.applicants[0].api_url).pathname;
    return (await client.get(key ? `${path}?include=sensitive_data` : path, key ? { key } : {})).body.applicant;
  }

  /** Sends each step in order and expects each to go on to the next. */
  async function fill(formUrl: string, steps: Array<[string, Record<string, string>, string]>): Promise<void> {
    for (const [step, fields, next] of steps) {
      const answer = await send(`${formUrl}/${step}`, fields);
      expect({ step, status: answer.status, location: answer.location }).toEqual({
        step,
        status: 303,
        location: expect.stringMatching(next),
      });
    }
  }

  it('saves every section as its step is sent, resumes at the first step not saved, and refuses changes once completed', async () => {
    const { formUrl, propertyId } = await start('Sections Court', {
      manager_name: 'Elm Lettings',
      manager_email: 'rent@elm.example',
    });
    const resumed = async () => (await fetch(formUrl, { redirect: 'manual' })).headers.get('location');
    expect(await resumed()).toMatch(/\/details$/);

    await fill(formUrl, [
      ['details', { desired_move_in: '2027-03-01' }, '/identity$'],
      ['identity', IDENTITY, '/residence_history$'],
    ]);
    expect(await resumed()).toMatch(/\/residence_history$/);
    // Too short a history: the 3 years of preset 1 are not covered.
    const short = await send(`${formUrl}/residence_history`, {
      'residences.0.address': '12 Elm Street, Springfield',
      'residences.0.from': yearsAgo(1),
    });
    expect(short.status).toBe(422);
    expect(short.html).toContain('must cover the last 3 years');
    // A year left out between two addresses, where preset 1 allows a month.
    const gap = await send(`${formUrl}/residence_history`, {
      'residences.0.address': '12 Elm Street, Springfield',
      'residences.0.from': yearsAgo(2),
      'residences.1.address': '3 Oak Road, Springfield',
      'residences.1.from': yearsAgo(6),
      'residences.1.to': yearsAgo(3),
    });
    expect(gap.status).toBe(422);
    expect(gap.html).toContain('more than the 31 days the history may leave out');
    // The review and the signature wait for the steps not yet saved.
    expect((await fetch(`${formUrl}/finish`, { redirect: 'manual' })).headers.get('location')).toMatch(/\/residence_history$/);

    await fill(formUrl, [
      ['residence_history', RESIDENCES, '/employment$'],
      ['employment', EMPLOYMENT, '/household$'],
      ['household', HOUSEHOLD, '/emergency_contact$'],
      ['emergency_contact', EMERGENCY, '/documents$'],
    ]);
    // Preset 1 offers documents without requiring them: the page counts as saved, and leads on.
    expect(await resumed()).toMatch(/\/questions$/);
    expect((await page(`${formUrl}/documents`)).html).toMatch(/<a class="button" href="[^"]*\/questions">Continue<\/a>/);
    await fill(formUrl, [['questions', ANSWERS, '/review$']]);
    expect(await resumed()).toMatch(/\/review$/);
    const review = await page(`${formUrl}/review`);
    expect(review.html).toContain('Analytical Engines Ltd');
    expect(review.html).not.toContain('123-45-6789');
    expect(review.html).not.toContain('D1234567');

    const plain = await primaryOf(propertyId);
    expect(plain).toMatchObject({
      identity: { middle_name: 'Byron', drivers_license_state: 'NY' },
      residences: [
        { address: '12 Elm Street, Springfield, IL 62701', from: yearsAgo(2), monthly_rent: 1450 },
        {
          address: '3 Oak Road, Springfield, IL 62702',
          to: yearsAgo(2),
          landlord_phone: '5550102222',
          reason_for_leaving: 'Needed more room',
        },
      ],
      employment: [{ employer: 'Analytical Engines Ltd', position: 'Engineer', start_date: '2020-02-01', monthly_income: 5200 }],
      other_income: [{ source: 'Child support', monthly_amount: 400 }],
      household: {
        adults: [{ first_name: 'Charles', last_name: 'Babbage', email: 'charles@example.com' }],
        minors: [{ name: 'Annabella', age: 7 }],
        pets: [{ kind: 'Dog', description: 'Beagle, 10 kg' }],
        vehicles: [{ make_model: 'Toyota Corolla', plate: 'ABC 1234' }],
        guarantors: [{ first_name: 'Anne', last_name: 'Milbanke', email: 'anne@example.com' }],
      },
      emergency_contact: { name: 'Mary Somerville', relationship: 'Aunt', phone: '5550109876' },
      form_answers: {
        evicted: 'yes',
        eviction_details: 'A dispute in 2015, settled',
        occupants: '3',
        savings: '12000.00',
        heard_from: 'A friend',
      },
    });
    const text = JSON.stringify(plain);
    for (const secret of ['123456789', 'D1234567', '1990-04-12']) expect(text).not.toContain(secret);
    const sensitive = await primaryOf(propertyId, READER_KEY);
    expect(sensitive.sensitive_data).toEqual({ dob: '1990-04-12', drivers_license_number: 'D1234567', id_number: '123456789' });

    // A step's page still open in another tab when the form is signed.
    const stale = await page(`${formUrl}/employment`);
    const signed = await send(`${formUrl}/finish`, { consent: 'yes', signature: 'Ada Lovelace' });
    expect(signed.location).toMatch(/\/done$/);
    // The confirmation says who will be in touch and how to reach them meanwhile.
    const done = await page(`${formUrl}/done`);
    expect(done.html).toContain('Elm Lettings will contact you');
    expect(done.html).toContain('Questions meanwhile: <a href="mailto:rent@elm.example">rent@elm.example</a>.');
    // It names the people the household listed, who were just added, and what each was added as.
    expect(done.html).toContain('The people you listed were added to your application.');
    expect(done.html).toContain('<li>Charles Babbage, co-applicant</li>');
    expect(done.html).toContain('<li>Anne Milbanke, guarantor</li>');

    // Completed: no step can be changed, and the form_url shows the confirmation.
    const late = await fetch(`${formUrl}/employment`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...EMPLOYMENT, csrf_token: stale.csrf }).toString(),
    });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain('can no longer be changed');
    expect(await resumed()).toMatch(/\/done$/);

    // The adult became a co-applicant and the guarantor a guarantor, each with a form link; the child did not.
    const application = (await client.get(`/api/v2/applications?property_id=${propertyId}`)).body.applications[0];
    expect(application.applicants.map((applicant: any) => [applicant.type, applicant.name])).toEqual([
      ['primary', 'Ada Lovelace'],
      ['co_applicant', 'Charles Babbage'],
      ['guarantor', 'Anne Milbanke'],
    ]);
    const guarantor = (await client.get(new URL(application.applicants[2].api_url).pathname)).body.applicant;
    expect(guarantor.form_url).toMatch(/\/applicants\/[\w-]{60}$/);
    // Each one's form says who added them, and to what; their own done page names nobody else.
    const coApplicant = (await client.get(new URL(application.applicants[1].api_url).pathname)).body.applicant;
    expect((await page(coApplicant.form_url)).html).toContain(
      '<strong>Ada Lovelace</strong> added you to their application to Sections Court as a co-applicant.',
    );
    expect((await page(guarantor.form_url)).html).toContain(
      '<strong>Ada Lovelace</strong> added you to their application to Sections Court as a guarantor.',
    );
  });

  it('asks a guarantor added through the API only for identity, residence, income and its documents, then consent', async () => {
    const property = (await client.post('/api/v2/properties', { property: { name: 'Guarantor House' } })).body.property;
    const created = await client.post('/api/v2/applications', {
      application: {
        property_id: property.id,
        applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      },
    });
    const added = await client.post(`/api/v2/applications/${created.body.application.id}/applicants`, {
      applicant: { first_name: 'Anne', last_name: 'Milbanke', email: 'anne@example.com', type: 'guarantor' },
    });
    expect(added.status).toBe(201);
    expect(added.body.applicant.type).toBe('guarantor');
    const primary = await client.post(`/api/v2/applications/${created.body.application.id}/applicants`, {
      applicant: { first_name: 'Second', last_name: 'Primary', email: 'p@example.com', type: 'primary' },
    });
    expect(primary.status).toBe(422);
    expect(primary.body.error.details).toEqual([{ field: 'applicant.type', message: 'must be one of co_applicant, guarantor' }]);
    const formUrl = added.body.applicant.form_url;
    // Added through the API, not by the primary applicant's form: the page says so.
    expect((await page(formUrl)).html).toContain(
      "The property manager added you to <strong>Ada Lovelace</strong>'s application to Guarantor House as a guarantor.",
    );

    const contact = await send(formUrl, { first_name: 'Anne', last_name: 'Milbanke', email: 'anne@example.com' });
    expect(contact.location).toMatch(/\/identity$/);
    expect(
      await page(contact.location.startsWith('http') ? contact.location : `${origin(formUrl)}${contact.location}`),
    ).toMatchObject({
      html: expect.stringContaining('Step 2 of 7'),
    });
    await fill(formUrl, [
      ['identity', IDENTITY, '/residence_history$'],
      ['residence_history', RESIDENCES, '/employment$'],
      ['employment', EMPLOYMENT, '/documents$'],
    ]);
    for (const step of ['details', 'household', 'questions']) {
      const asked = await fetch(`${formUrl}/${step}`, { redirect: 'manual' });
      expect({ step, status: asked.status }).toEqual({ step, status: step === 'details' ? 303 : 404 });
    }
    const signed = await send(`${formUrl}/finish`, { consent: 'yes', signature: 'Anne Milbanke' });
    expect(signed.location).toMatch(/\/done$/);
    expect((await page(`${formUrl}/done`)).html).not.toContain('The people you listed');
    const record = (await client.get(new URL(added.body.applicant.api_url).pathname)).body.applicant;
    expect(record).toMatchObject({ type: 'guarantor', form_status: 'completed', household: null, emergency_contact: null });
    expect(record.employment).toHaveLength(1);
  });

  it('adds and removes repeated entries without saving, and shows hostile input as text', async () => {
    const { formUrl } = await start('Entries Court');
    await fill(formUrl, [
      ['details', {}, '/identity$'],
      ['identity', IDENTITY, '/residence_history$'],
    ]);
    const hostile = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
    const added = await send(`${formUrl}/residence_history`, {
      'residences.0.address': hostile,
      'residences.rows': '1',
      add: 'residences',
    });
    expect(added.status).toBe(200);
    expect(added.html).toContain('Address 2');
    expect(added.html).not.toContain('<img src=x');
    expect(added.html).not.toContain('<script>alert(2)');
    expect(added.html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
    const removed = await send(`${formUrl}/residence_history`, {
      'residences.0.address': 'first',
      'residences.1.address': 'second',
      'residences.rows': '2',
      remove: 'residences.0',
    });
    expect(removed.html).not.toContain('Address 2');
    expect(removed.html).toContain('>second</textarea>');
    expect(removed.html).not.toContain('>first</textarea>');
    expect(await fetch(formUrl, { redirect: 'manual' }).then((r) => r.headers.get('location'))).toMatch(/\/residence_history$/);
  });

  it('names the property’s manager with a contact on every page, and as who receives the SSN', async () => {
    const { formUrl, propertyId } = await start('Manager Court', {
      manager_name: 'Birch & <b>Sons</b> Management',
      manager_email: 'leasing@birch.example',
      manager_phone: '+1 (217) 555-0134',
    });
    await fill(formUrl, [['details', {}, '/identity$']]);
    const identity = await page(`${formUrl}/identity`);
    const contact =
      '<p class="property-manager">Managed by Birch &amp; &lt;b&gt;Sons&lt;/b&gt; Management' +
      ' · <a href="mailto:leasing@birch.example">leasing@birch.example</a>' +
      ' · <a class="phone" href="tel:+12175550134">(217) 555-0134</a></p>';
    expect(identity.html).toContain(contact);
    expect(identity.html).toContain(
      'Only Birch &amp; &lt;b&gt;Sons&lt;/b&gt; Management, which manages Manager Court, 1 Main St',
    );
    expect((await page(`${formUrl}/residence_history`)).html).toContain(contact);

    // Cleared through the API, the contact goes from the pages and the notice names the property alone.
    const cleared = await client.patch(`/api/v2/properties/${propertyId}`, {
      property: { manager_name: null, manager_email: null, manager_phone: null },
    });
    expect(cleared.status).toBe(200);
    const plain = await page(`${formUrl}/identity`);
    expect(plain.html).not.toContain('property-manager');
    expect(plain.html).toContain('Only Manager Court, 1 Main St');
  });

  it('shows the property’s address and who receives the SSN beside a masked SSN field', async () => {
    const { formUrl } = await start('Notice Court');
    await fill(formUrl, [['details', {}, '/identity$']]);
    const identity = await page(`${formUrl}/identity`);
    expect(identity.html).toMatch(/<input id="field-id_number" name="id_number" type="password" value="" autocomplete="off"/);
    expect(identity.html).toContain('Who sees your social security number');
    expect(identity.html).toContain('Notice Court, 1 Main St, Springfield');
    // Every page names the property and where it is, not only its name.
    expect(identity.html).toContain('<p class="property-address">1 Main St, Springfield</p>');
  });
});
