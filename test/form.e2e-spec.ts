import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { Browser, Page } from 'playwright-core';
import { freePort, KEYS, Stack } from '../tools/stack';
import { launchBrowser, mainText, submit } from './support/browser';
import { fillSections } from './support/form-steps';
import { EventTap } from './support/events';
import { Api, api } from './support/http';
import { eventually } from './support/wait';

/**
 * The online application form in a real browser (Debian's Chromium through playwright-core),
 * against the whole stack: the form app, the gateway and both services over the real broker
 * and database. What the form stores is read back through the API.
 */
describe('the online application form', () => {
  let stack: Stack;
  let client: Api;
  let browser: Browser;
  let page: Page;
  let events: EventTap;

  beforeAll(async () => {
    // Client two's properties use form preset 2.
    stack = await Stack.start({
      form: true,
      env: { FORM_RATE_LIMIT_PER_MINUTE: '1000000', FORM_REQUEST_RATE_LIMIT_PER_MINUTE: '1000000', CLIENT_DEFAULTS: '2:2:1' },
    });
    client = api(stack.url);
    browser = await launchBrowser();
    events = await EventTap.open(stack.namespace);
  });

  afterAll(async () => {
    await events?.close();
    await browser?.close();
    await stack?.stop();
  });

  beforeEach(async () => {
    page = await browser.newPage();
  });

  afterEach(async () => {
    await page.close();
  });

  async function createProperty(property: Record<string, unknown>): Promise<Record<string, any>> {
    const created = await client.post('/api/v2/properties', { property });
    expect(created.status).toBe(201);
    return created.body.property;
  }

  /** The application's one primary applicant's record, through the API. */
  async function primaryApplicant(propertyId: number): Promise<{ application: any; applicant: any }> {
    const list = await client.get(`/api/v2/applications?property_id=${propertyId}`);
    expect(list.body.applications).toHaveLength(1);
    const application = (await client.get(`/api/v2/applications/${list.body.applications[0].id}`)).body.application;
    const applicant = (await client.get(new URL(application.applicants[0].api_url).pathname)).body.applicant;
    return { application, applicant };
  }

  async function fillContact(first: string, last: string, email: string): Promise<void> {
    await page.getByLabel('First name').fill(first);
    await page.getByLabel('Last name').fill(last);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Phone number').fill('(555) 010-1234');
  }

  it('takes a full application for a multi_family property: a floor plan and the desired unit', async () => {
    const property = await createProperty({ name: 'Maple Court', kind: 'multi_family' });
    const added = await client.post(`/api/v2/properties/${property.id}/floor_plans`, {
      floor_plan: { name: 'Two bedroom', beds: 2, baths: 1.5, rent: 1850 },
    });
    expect(added.status).toBe(201);

    await page.goto(property.application_url);
    expect(await page.title()).toContain('Maple Court');
    expect(await mainText(page)).toContain('Step 1 of 11');
    await fillContact('Ada', 'Lovelace', 'ada@example.com');
    await submit(page, /\/applicants\/[\w-]{60}\/details$/);

    const started = await primaryApplicant(property.id);
    expect(started.applicant).toMatchObject({ form_status: 'started', first_name: 'Ada', phone: '5550101234' });
    expect(started.application.status).toBe('draft');
    expect(started.applicant.form_started_at).not.toBeNull();
    expect(started.applicant.form_url).toBe(page.url().replace(/\/details$/, ''));

    const plans = page.getByLabel('Floor plan');
    expect(await plans.locator('option').allInnerTexts()).toEqual([
      'Choose a floor plan',
      'Maple Court',
      'Two bedroom, 2 bed, 1.5 bath, $1850/month',
    ]);
    await plans.selectOption({ label: 'Two bedroom, 2 bed, 1.5 bath, $1850/month' });
    await page.getByLabel('Describe the unit you want').fill('Top floor, facing the park');
    await page.getByLabel('Desired move-in date').fill('2027-03-01');
    await submit(page, /\/identity$/);

    await fillSections(page, 'Ada Lovelace');
    await submit(page, /\/done$/);
    expect(await mainText(page)).toContain('Your application to Maple Court is complete.');

    const { application, applicant } = await primaryApplicant(property.id);
    expect(application).toMatchObject({
      floor_plan_id: added.body.floor_plan.id,
      desired_unit_description: 'Top floor, facing the park',
      desired_move_in: '2027-03-01',
      status: 'submitted',
    });
    const listed = await client.get(`/api/v2/applications?property_id=${property.id}&status=submitted`);
    expect(listed.body.applications.map((item: { id: number }) => item.id)).toEqual([application.id]);
    expect(applicant).toMatchObject({
      form_status: 'completed',
      form_answers: { evicted: 'no', judgements: 'no', bankruptcy: 'no', refused_rent: 'no', smoking: 'no', occupants: '1' },
      residences: [{ address: '1 Old Road, Springfield', from: '2015-01-01', to: null }],
      emergency_contact: { name: 'Mary Somerville', phone: '5550109876' },
    });
    expect(applicant.form_completed_at).not.toBeNull();

    // Integrators hear of both: the form started on step 1, completed on step 3, once each.
    const about = { applicant_id: applicant.id, application_id: application.id, property_id: property.id, reference_id: null };
    const heard = (name: string) => events.named(name).filter((event) => event.data.applicant_id === applicant.id);
    await eventually(
      'the form’s events',
      async () => heard('application_form.started').length > 0 && heard('application_form.completed').length > 0,
    );
    expect(heard('application_form.started').map((event) => event.data)).toEqual([about]);
    expect(heard('application_form.completed').map((event) => event.data)).toEqual([about]);
  });

  it('states the floor plan of a multi_family property that has only one, rather than asking to choose it', async () => {
    // A multi_family property comes with one floor plan, named after it.
    const property = await createProperty({ name: 'Lone Plan Court', kind: 'multi_family' });
    const plans = (await client.get(`/api/v2/properties/${property.id}/floor_plans`)).body.floor_plans;
    expect(plans).toHaveLength(1);
    await page.goto(property.application_url);
    await fillContact('Mary', 'Jackson', 'mary@example.com');
    await submit(page, /\/details$/);

    expect(await page.getByLabel('Floor plan').count()).toBe(0);
    expect(await page.locator('select').count()).toBe(0);
    expect(await mainText(page)).toContain('Floor plan: Lone Plan Court');
    await submit(page, /\/identity$/);

    const { application } = await primaryApplicant(property.id);
    expect(application.floor_plan_id).toBe(plans[0].id);
  });

  it('asks a single_family property for neither a floor plan nor a desired unit', async () => {
    const property = await createProperty({ name: 'Cedar House', kind: 'single_family' });
    await page.goto(property.application_url);
    await fillContact('Grace', 'Hopper', 'grace@example.com');
    await submit(page, /\/details$/);

    expect(await page.getByLabel('Floor plan').count()).toBe(0);
    expect(await page.locator('textarea').count()).toBe(0);
    await page.getByLabel('Desired move-in date').fill('2027-05-15');
    await submit(page, /\/identity$/);
    await fillSections(page, 'Grace Hopper');
    await submit(page, /\/done$/);

    const { application, applicant } = await primaryApplicant(property.id);
    expect(application).toMatchObject({ floor_plan_id: null, desired_unit_description: null, desired_move_in: '2027-05-15' });
    expect(applicant.form_status).toBe('completed');
  });

  it('asks a generic property for a description of the desired property, and insists on it', async () => {
    const property = await createProperty({ name: 'Portfolio Homes', kind: 'generic' });
    await page.goto(property.application_url);
    await fillContact('Alan', 'Turing', 'alan@example.com');
    await submit(page, /\/details$/);

    expect(await page.getByLabel('Floor plan').count()).toBe(0);
    await submit(page, /\/details$/);
    expect(await page.locator('.error-summary').innerText()).toContain('must describe the property you want');
    await page.getByLabel('Describe the property you are looking for').fill('Three bedrooms near the station');
    await submit(page, /\/identity$/);
    await fillSections(page, 'Alan Turing');
    await submit(page, /\/done$/);

    const { application } = await primaryApplicant(property.id);
    expect(application).toMatchObject({ floor_plan_id: null, desired_unit_description: 'Three bedrooms near the station' });
  });

  it('shows a 404 page for an unknown property, says a deleted one takes no applications, and stores nothing', async () => {
    const property = await createProperty({ name: 'Gone Soon' });
    expect((await client.delete(`/api/v2/properties/${property.id}`)).status).toBe(200);

    const deleted = await page.goto(property.application_url);
    expect(deleted!.status()).toBe(410);
    expect(await mainText(page)).toContain('This property no longer takes applications.');
    expect(await mainText(page)).not.toContain('Gone Soon');
    expect(await page.locator('form').count()).toBe(0);
    for (const url of [`${stack.formUrl}/properties/999999/apply`, `${stack.formUrl}/properties/x/apply`]) {
      const response = await page.goto(url);
      expect(response!.status()).toBe(404);
      expect(await mainText(page)).toContain('There is no application form open at this address.');
      expect(await page.locator('form').count()).toBe(0);
    }
    const list = await client.get(`/api/v2/applications?property_id=${property.id}`);
    expect(list.body.applications).toEqual([]);
  });

  it('shows an unavailable property the page of an unknown id, and an invitation_only one its message alone', async () => {
    const unavailable = await createProperty({ name: 'Full House', available: false, street: '1 Hidden Way' });
    const invited = await createProperty({
      name: 'Secret Gardens',
      invitation_only: true,
      invitation_only_message: 'Ask Marguerite at the gate.',
    });
    const unknown = await fetch(`${stack.formUrl}/properties/999998/apply`);
    const expected = { status: unknown.status, html: await unknown.text() };
    expect(expected.status).toBe(404);
    const closed = await fetch(unavailable.application_url);
    expect({ status: closed.status, html: await closed.text() }).toEqual(expected);
    expect(expected.html).not.toMatch(/Full House|Hidden Way/);

    // The published interface shows the owner's message to a visitor without an invitation; no name, no form.
    for (const url of [invited.application_url, `${invited.application_url}?invitation=${'A'.repeat(43)}`]) {
      const response = await fetch(url);
      const html = await response.text();
      expect({ url, status: response.status }).toEqual({ url, status: 403 });
      expect(html).toContain('Ask Marguerite at the gate.');
      expect(html).not.toContain('Secret Gardens');
      expect(html).not.toContain('<form');
    }
    await page.goto(unavailable.application_url);
    expect(await mainText(page)).toContain('There is no application form open at this address.');
    expect(await page.locator('form').count()).toBe(0);
  });

  it('continues an applicant created through the API at its form_url, then sends it to its redirect_url', async () => {
    const landing = await landingServer();
    try {
      const property = await createProperty({ name: 'Birch Flats', kind: 'single_family' });
      // Characters a Location header cannot carry as they are: stored as the URL parser writes them.
      const redirectUrl = `${landing.url}/bienvenue-Zoë?à=ç`;
      const created = await client.post('/api/v2/applications', {
        application: {
          property_id: property.id,
          applicant: { first_name: 'Katherine', last_name: 'Johnson', email: 'kj@example.com', redirect_url: redirectUrl },
        },
      });
      expect(created.status).toBe(201);
      const applicantPath = new URL(created.body.application.applicants[0].api_url).pathname;
      const before = (await client.get(applicantPath)).body.applicant;
      expect(before.form_status).toBe('not_started');
      expect(before.redirect_url).toBe(`${landing.url}/bienvenue-Zo%C3%AB?%C3%A0=%C3%A7`);

      await page.goto(before.form_url);
      expect(await page.getByLabel('First name').inputValue()).toBe('Katherine');
      expect(await page.getByLabel('E-mail address').inputValue()).toBe('kj@example.com');
      await page.getByLabel('Phone number').fill('555 020 3000');
      await submit(page, /\/details$/);
      expect((await client.get(applicantPath)).body.applicant).toMatchObject({ form_status: 'started', phone: '5550203000' });

      await submit(page, /\/identity$/);
      await fillSections(page, 'Katherine Johnson');
      await submit(page, before.redirect_url);
      expect(await page.locator('body').innerText()).toContain('Welcome back');
      expect((await client.get(applicantPath)).body.applicant.form_status).toBe('completed');
    } finally {
      await landing.close();
    }
  });

  it('lists at least two form presets, and shows and stores the questions of the property’s preset', async () => {
    const presets = await client.get('/api/v2/form_presets');
    expect(presets.status).toBe(200);
    expect(presets.body.form_presets.length).toBeGreaterThanOrEqual(2);
    const second = presets.body.form_presets.find((preset: { id: number }) => preset.id === 2);
    expect(second.questions.map((q: { id: string }) => q.id)).toContain('pets');

    const other = api(stack.url);
    const created = await other.post(
      '/api/v2/properties',
      { property: { name: 'Pet Friendly Lofts', kind: 'single_family' } },
      { key: KEYS.clientTwo },
    );
    const property = created.body.property;
    expect(property.form_preset_id).toBe(2);

    await page.goto(property.application_url);
    await fillContact('Mary', 'Jackson', 'mary@example.com');
    await submit(page, /\/details$/);
    await submit(page, /\/identity$/);
    await fillSections(page, 'Mary Jackson', {
      questions: async () => {
        expect(await page.getByText('Have you ever been evicted?').count()).toBe(0);
        await page.getByRole('group', { name: 'Do you have pets?' }).getByLabel('Yes').check();
        await page.getByLabel('Which pets (kind, breed, weight)?').fill('A cat, 4 kg');
        await page.getByRole('group', { name: 'Parking you need (optional)' }).getByLabel('Bicycle storage').check();
      },
    });
    expect(await page.getByText('Pet policy').count()).toBe(1);
    await submit(page, /\/done$/);

    const list = await other.get(`/api/v2/applications?property_id=${property.id}`, { key: KEYS.clientTwo });
    const summary = list.body.applications[0].applicants[0];
    const applicant = (await other.get(new URL(summary.api_url).pathname, { key: KEYS.clientTwo })).body.applicant;
    expect(applicant.form_answers).toEqual({ pets: 'yes', pet_details: 'A cat, 4 kg', parking: 'Bicycle storage' });
  });

  it('takes a full application with two adults in the household, each completing the form at its own form_url as a co-applicant', async () => {
    const property = await createProperty({ name: 'Willow Terrace', kind: 'single_family' });
    await page.goto(property.application_url);
    await fillContact('Dorothy', 'Vaughan', 'dorothy@example.com');
    await submit(page, /\/details$/);
    await submit(page, /\/identity$/);
    await fillSections(page, 'Dorothy Vaughan', {
      // The household step adds each adult with its own "Add" button, without a script.
      household: async () => {
        for (const [index, [first, email]] of [
          ['Leonard', 'leonard@example.com'],
          ['Ann', 'ann@example.com'],
        ].entries()) {
          await page.getByRole('button', { name: index === 0 ? 'Add adult' : 'Add another adult' }).click();
          await page.waitForLoadState();
          const adult = page.getByRole('group', { name: `Adult ${index + 1}` });
          await adult.getByLabel('First name').fill(first);
          await adult.getByLabel('Last name').fill('Vaughan');
          await adult.getByLabel('E-mail address').fill(email);
        }
      },
    });
    await submit(page, /\/done$/);

    const { application } = await primaryApplicant(property.id);
    expect(application.applicants.map((a: { name: string; type: string }) => [a.name, a.type])).toEqual([
      ['Dorothy Vaughan', 'primary'],
      ['Leonard Vaughan', 'co_applicant'],
      ['Ann Vaughan', 'co_applicant'],
    ]);
    const records = await Promise.all(
      application.applicants.map(
        async (a: { api_url: string }) => (await client.get(new URL(a.api_url).pathname)).body.applicant,
      ),
    );
    expect(new Set(records.map((r) => r.form_url)).size).toBe(3);
    expect(records.map((r) => r.form_status)).toEqual(['completed', 'not_started', 'not_started']);

    for (const [index, coApplicant] of records.slice(1).entries()) {
      await page.goto(coApplicant.form_url);
      expect(await page.getByLabel('E-mail address').inputValue()).toBe(coApplicant.email);
      await page.getByLabel('Phone number').fill(`555010200${index}`);
      // A co-applicant describes no home and lists no household: from step 1 to its own sections.
      await submit(page, /\/identity$/);
      await fillSections(page, coApplicant.name, { household: async () => fail('a co-applicant is asked for no household') });
      await submit(page, /\/done$/);
      expect(await mainText(page)).toContain(`Your application to ${property.name} is complete.`);
      expect(await mainText(page)).not.toMatch(new RegExp(`${coApplicant.email}|${coApplicant.first_name}`));
    }
    const after = await Promise.all(records.map(async (r) => (await client.get(new URL(r.api_url).pathname)).body.applicant));
    expect(after.map((r) => r.form_status)).toEqual(['completed', 'completed', 'completed']);
  });

  it('carries an invitation to a property that is not invitation_only: the address filled in, used once', async () => {
    const property = await createProperty({ name: 'Open Gardens', kind: 'single_family' });
    const created = await client.post(`/api/v2/properties/${property.id}/invitations`, {
      invitation: { email: 'katherine@example.com' },
    });
    expect(created.status).toBe(201);
    const { url } = created.body.invitation;
    const token = new URL(url).searchParams.get('invitation')!;

    await page.goto(url);
    expect(await page.getByLabel('E-mail address').inputValue()).toBe('katherine@example.com');
    expect(await page.locator('input[name="invitation"]').inputValue()).toBe(token);
    await fillContact('Katherine', 'Johnson', 'katherine@example.com');
    await submit(page, /\/details$/);
    const { applicant } = await primaryApplicant(property.id);
    expect(applicant.email).toBe('katherine@example.com');

    // Used by that application: the same link now opens the form as the property's own address does.
    const again = await page.goto(url);
    expect(again!.status()).toBe(200);
    expect(await page.getByLabel('E-mail address').inputValue()).toBe('');
    expect(await page.locator('input[name="invitation"]').count()).toBe(0);
    const db = await stack.database('properties');
    try {
      const [invitation] = await db.collection('invitations').find({ id: created.body.invitation.id }).toArray();
      expect(await db.collection('invitation_uses').countDocuments({ _id: invitation._id })).toBe(1);
    } finally {
      await db.close();
    }
  });

  describe('an invitation_only property', () => {
    let property: Record<string, any>;

    beforeAll(async () => {
      property = await createProperty({
        name: 'Private Gardens',
        kind: 'single_family',
        invitation_only: true,
        invitation_only_message: 'Ask the concierge for an invitation.',
      });
    });

    async function invite(email: string, propertyId = property.id): Promise<Record<string, any>> {
      const created = await client.post(`/api/v2/properties/${propertyId}/invitations`, { invitation: { email } });
      expect(created.status).toBe(201);
      return created.body.invitation;
    }

    async function applications(): Promise<unknown[]> {
      return (await client.get(`/api/v2/applications?property_id=${property.id}`)).body.applications;
    }

    it('shows its message, but not its name, and no form, to someone without an invitation', async () => {
      const response = await page.goto(property.application_url);
      expect(response!.status()).toBe(403);
      expect(await mainText(page)).toContain('Ask the concierge for an invitation.');
      expect(await mainText(page)).not.toContain('Private Gardens');
      expect(await page.locator('form').count()).toBe(0);
    });

    it('opens the form with an invitation, once: its link is refused after it was used', async () => {
      const invitation = await invite('hedy@example.com');
      expect(Object.keys(invitation)).toEqual(['id', 'property_id', 'email', 'url', 'expires_at']);
      expect(invitation.url).toMatch(new RegExp(`^${property.application_url}\\?invitation=[\\w-]{43}$`));
      expect(Date.parse(invitation.expires_at)).toBeGreaterThan(Date.now() + 24 * 3600 * 1000);

      await page.goto(invitation.url);
      expect(await page.getByLabel('E-mail address').inputValue()).toBe('hedy@example.com');
      await fillContact('Hedy', 'Lamarr', 'hedy@example.com');
      await submit(page, /\/details$/);
      expect(await applications()).toHaveLength(1);

      const again = await page.goto(invitation.url);
      expect(again!.status()).toBe(403);
      expect(await page.locator('form').count()).toBe(0);
      expect(await applications()).toHaveLength(1);
    });

    it('keeps an invitation usable when the application could not be started', async () => {
      const invitation = await invite('grace@example.com');
      const before = (await applications()).length;
      await page.goto(invitation.url);
      await fillContact('Grace', 'Hopper', 'grace@example.com');
      await stack.stopApp('applications');
      try {
        await submit(page);
        expect(await mainText(page)).toContain('The application form is busy right now.');
      } finally {
        await stack.startApp('applications');
      }
      expect(await applications()).toHaveLength(before);

      const again = await page.goto(invitation.url);
      expect(again!.status()).toBe(200);
      await fillContact('Grace', 'Hopper', 'grace@example.com');
      await submit(page, /\/details$/);
      expect(await applications()).toHaveLength(before + 1);
    });

    it('refuses a tampered token and another property’s invitation, storing nothing', async () => {
      const before = (await applications()).length;
      const elsewhere = await createProperty({ name: 'Other Gardens', invitation_only: true });
      const foreign = await invite('eve@example.com', elsewhere.id);
      const token = new URL(foreign.url).searchParams.get('invitation')!;
      const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      for (const link of [
        `${property.application_url}?invitation=${token}`,
        `${property.application_url}?invitation=${tampered}`,
      ]) {
        const response = await page.goto(link);
        expect(response!.status()).toBe(403);
        expect(await mainText(page)).toContain('Ask the concierge for an invitation.');
        expect(await page.locator('form').count()).toBe(0);
      }
      expect(await applications()).toHaveLength(before);
    });

    it('keeps only a digest of each invitation token', async () => {
      const invitation = await invite('ida@example.com');
      const token = new URL(invitation.url).searchParams.get('invitation')!;
      const db = await stack.database('properties');
      try {
        const stored = await db.collection('invitations').find({}).toArray();
        expect(stored.length).toBeGreaterThan(0);
        expect(JSON.stringify(stored)).not.toContain(token);
      } finally {
        await db.close();
      }
    });
  });

  describe('refuses hostile input with a clear page and stores nothing', () => {
    /** A page of the form fetched as a script would, with the CSRF token it carries. */
    async function formPage(url: string): Promise<{ status: number; html: string; csrf: string }> {
      const response = await fetch(url);
      const html = await response.text();
      return { status: response.status, html, csrf: /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '' };
    }

    function post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
      return fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields).toString(),
      });
    }

    const contact = { first_name: 'Mallory', last_name: 'Hacker', email: 'mallory@example.com' };

    async function applicationsTo(propertyId: number): Promise<unknown[]> {
      return (await client.get(`/api/v2/applications?property_id=${propertyId}`)).body.applications;
    }

    it('renders a property named <script>alert(1)</script> as text', async () => {
      const name = '<script>alert(1)</script>';
      const property = await createProperty({ name, kind: 'multi_family' });
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(property.application_url);
      expect(await page.locator('.property').innerText()).toBe(name);
      expect(await page.locator('main script').count()).toBe(0);
      const html = await (await fetch(property.application_url)).text();
      expect(html).not.toContain(name);
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      await fillContact('<b>Bold</b>', '"quoted', 'x@example.com');
      await submit(page, /\/details$/);
      // The floor plan's name is the property's, stated as text, not markup, since it is the only one.
      expect(await mainText(page)).toContain(`Floor plan: ${name}`);
      expect(await page.locator('main script').count()).toBe(0);
      expect(dialogs).toEqual([]);
    });

    it('refuses a forged or missing CSRF token, and one made for another page', async () => {
      const property = await createProperty({ name: 'Token Court' });
      const other = await createProperty({ name: 'Other Court' });
      const { csrf: otherToken } = await formPage(other.application_url);
      const { csrf } = await formPage(property.application_url);
      const [issued, nonce] = csrf.split('.');
      for (const token of [undefined, '', 'forged', `${issued}.${nonce}.${'A'.repeat(43)}`, otherToken]) {
        const fields: Record<string, string> = token === undefined ? contact : { ...contact, csrf_token: token };
        const answer = await post(property.application_url, fields);
        expect(answer.status).toBe(403);
        expect(await answer.text()).toContain('This page has expired');
      }
      expect(await applicationsTo(property.id)).toEqual([]);
    });

    it('takes each page once: a replayed submission changes nothing, and is answered as the first was', async () => {
      const property = await createProperty({ name: 'Replay Court' });
      const { csrf } = await formPage(property.application_url);
      const first = await post(property.application_url, { ...contact, csrf_token: csrf });
      expect(first.status).toBe(303);
      // Sent again (the first answer lost, the page sent once more): the same applicant's link, no second application.
      const replayed = await post(property.application_url, { ...contact, first_name: 'Changed', csrf_token: csrf });
      expect(replayed.status).toBe(303);
      expect(replayed.headers.get('location')).toBe(first.headers.get('location'));
      const applications = await applicationsTo(property.id);
      expect(applications).toHaveLength(1);
      expect((applications[0] as any).applicants[0].name).toBe('Mallory Hacker');
    });

    it('refuses a submission with the honeypot filled in', async () => {
      const property = await createProperty({ name: 'Honey Court' });
      const { csrf } = await formPage(property.application_url);
      const answer = await post(property.application_url, { ...contact, csrf_token: csrf, website: 'http://spam.example' });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain('This form could not be sent.');
      expect(await applicationsTo(property.id)).toEqual([]);
    });

    it('refuses a submission to a deleted property, and to an invitation_only one without an invitation', async () => {
      const deleted = await createProperty({ name: 'Deleted Court' });
      const closed = await createProperty({ name: 'Closed Court', invitation_only: true });
      const { csrf } = await formPage(deleted.application_url);
      expect((await client.delete(`/api/v2/properties/${deleted.id}`)).status).toBe(200);
      const gone = await post(deleted.application_url, { ...contact, csrf_token: csrf });
      expect(gone.status).toBe(410);
      expect(await gone.text()).toContain('This property no longer takes applications.');

      const { status, csrf: none } = await formPage(closed.application_url);
      expect([status, none]).toEqual([403, '']);
      // A page of its own, with a CSRF token good for its address: the refusal is the property's, not the token's.
      const reopened = await client.patch(`/api/v2/properties/${closed.id}`, { property: { invitation_only: false } });
      expect(reopened.status).toBe(200);
      const { csrf: open } = await formPage(closed.application_url);
      const reclosed = await client.patch(`/api/v2/properties/${closed.id}`, { property: { invitation_only: true } });
      expect(reclosed.status).toBe(200);
      const token = `${'A'.repeat(43)}`;
      const refused = await post(closed.application_url, { ...contact, invitation: token, csrf_token: open });
      expect(refused.status).toBe(403);
      const html = await refused.text();
      expect(html).toContain('This property accepts applications by invitation only.');
      expect(html).not.toContain('Closed Court');
      expect(await applicationsTo(closed.id)).toEqual([]);
    });

    it('shows each problem beside its field and in a summary, and never writes the SSN back', async () => {
      const property = await createProperty({ name: 'Careful Court', kind: 'single_family' });
      await page.goto(property.application_url);
      await page.getByLabel('E-mail address').fill('not an address');
      await submit(page, property.application_url);
      const summary = page.locator('.error-summary');
      // Named by the labels on the page, in its order.
      expect(await summary.getByRole('link').allInnerTexts()).toEqual([
        'First name: is required',
        'Last name: is required',
        'E-mail address: must be a valid e-mail address',
      ]);
      expect(await page.locator('#field-email-error').innerText()).toContain('must be a valid e-mail address');
      expect(await page.getByLabel('E-mail address').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('E-mail address').inputValue()).toBe('not an address');
      expect(await applicationsTo(property.id)).toEqual([]);

      await fillContact('Rosalind', 'Franklin', 'rosalind@example.com');
      await submit(page, /\/details$/);
      await submit(page, /\/identity$/);
      await page.getByLabel('Social security number').fill('219-09-9999');
      await page.getByLabel('Date of birth').fill('2999-01-01');
      const response = page.waitForResponse((r) => r.request().method() === 'POST');
      await submit(page, /\/identity$/);
      const html = await (await response).text();
      expect(html).not.toContain('219-09-9999');
      expect(html).not.toContain('219099999');
      expect(await page.getByLabel('Social security number').inputValue()).toBe('');
      expect(await page.getByLabel('Date of birth').inputValue()).toBe('2999-01-01');
      expect(await page.locator('#field-dob-error').innerText()).toContain('must be a date in the past');
      const { applicant } = await primaryApplicant(property.id);
      expect(applicant.form_status).toBe('started');
    });

    it('limits the submissions one address makes per minute', async () => {
      const property = await createProperty({ name: 'Busy Court' });
      // A second form process of the stack's, with a limit of its own.
      const port = await freePort();
      const limited = await stack.startApp('form', { FORM_PORT: String(port), FORM_RATE_LIMIT_PER_MINUTE: '2' });
      try {
        const url = `http://127.0.0.1:${port}/properties/${property.id}/apply`;
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) {
          const { csrf } = await formPage(url);
          const answer = await post(url, { ...contact, csrf_token: csrf });
          statuses.push(answer.status);
          if (answer.status === 429) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        }
        expect(statuses).toEqual([303, 303, 429]);
        expect(await applicationsTo(property.id)).toHaveLength(2);
      } finally {
        await stack.signal(limited, 'SIGTERM');
      }
    });
  });
});

/** The landlord's own page a redirect_url points to. */
async function landingServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Thanks</title><p>Welcome back</p>');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/thanks`,
    close: async () => {
      server.close();
      await once(server, 'close');
    },
  };
}
