import { randomBytes } from 'node:crypto';
import { FormLinkTokens } from '@app/crypto';
import { freePort, Stack } from '../tools/stack';
import { Api, api } from './support/http';
import { scrape, Sample } from './support/metrics';
import { eventually } from './support/wait';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The sum of every sample named `name` whose pattern label starts with `prefix`. */
function total(samples: Sample[], name: string, prefix = ''): number {
  return samples
    .filter((sample) => sample.name === name && (sample.labels.pattern ?? '').startsWith(prefix))
    .reduce((sum, sample) => sum + sample.value, 0);
}

/**
 * Applicants' form links as the form reads them, against the whole stack: a link whose token
 * was not made by the applications service costs no message to any service (and so no database
 * read), an old one says it expired, every request is limited per address before any service is
 * asked, and the access logs name the route, never the token.
 */
describe('applicants’ form links', () => {
  let stack: Stack;
  let client: Api;
  let tokens: FormLinkTokens;
  let applicationId: number;
  let formUrl: string;

  beforeAll(async () => {
    stack = await Stack.start({ form: true, env: { FORM_REQUEST_RATE_LIMIT_PER_MINUTE: '1000000' } });
    client = api(stack.url);
    tokens = FormLinkTokens.fromKeyRing(stack.formLinkKeys);
    const property = (await client.post('/api/v2/properties', { property: { name: 'Linked Lane', kind: 'single_family' } })).body
      .property;
    const created = await client.post('/api/v2/applications', {
      application: { property_id: property.id, applicant: { first_name: 'Lina', last_name: 'Link', email: 'lina@example.com' } },
    });
    expect(created.status).toBe(201);
    applicationId = created.body.application.id;
    formUrl = (await client.get(new URL(created.body.application.applicants[0].api_url).pathname)).body.applicant.form_url;
  });

  afterAll(() => stack?.stop());

  /** The form's messages handled by the applications service so far. */
  async function handled(): Promise<number> {
    return total(await scrape(stack.process('applications').operationsUrl), 'messages_handled_total', 'application_forms.');
  }

  /** What the form and the applications service have done so far: messages sent and handled. */
  async function backendWork(): Promise<{ sent: number; handled: number }> {
    const form = await scrape(stack.process('form').operationsUrl);
    return { sent: total(form, 'rpc_duration_seconds_count'), handled: await handled() };
  }

  it('opens a real link with its lookups, and refuses forged, altered and old-format ones without asking any service', async () => {
    const before = await backendWork();
    const real = await fetch(formUrl);
    expect(real.status).toBe(200);
    expect(await real.text()).toContain('value="Lina"');
    const afterReal = await backendWork();
    // The counters move for a real link: their staying put below means something.
    expect(afterReal.sent).toBeGreaterThan(before.sent);
    // Its lookup, and on an API-made applicant's first visit the preset version its form keeps.
    expect(afterReal.handled).toBe(before.handled + 2);

    const token = new URL(formUrl).pathname.split('/').pop()!;
    const altered = Buffer.from(token, 'base64url');
    altered[40] ^= 1;
    const forged = Buffer.from(token, 'base64url');
    randomBytes(16).copy(forged, 29);
    const named = Buffer.alloc(33);
    named[0] = 1;
    named.writeUIntBE(applicationId, 1, 6);
    for (const candidate of [
      altered.toString('base64url'),
      forged.toString('base64url'),
      // The shapes of before: 32 random bytes, and a format byte naming the application.
      randomBytes(32).toString('base64url'),
      named.toString('base64url'),
    ]) {
      for (const step of ['', '/details', '/finish', '/done']) {
        const answer = await fetch(`${stack.formUrl}/applicants/${candidate}${step}`);
        expect([candidate, step, answer.status]).toEqual([candidate, step, 404]);
        expect(await answer.text()).toContain('There is no application form at this address.');
      }
    }
    expect(await backendWork()).toEqual(afterReal);
  });

  it('says that a link issued longer ago than FORM_LINK_LIFETIME_DAYS (30) has expired, without asking any service', async () => {
    const issued = new Date(Date.now() - 31 * DAY_MS);
    const before = await backendWork();
    const answer = await fetch(`${stack.formUrl}/applicants/${tokens.issue(applicationId, issued)}`);
    expect(answer.status).toBe(410);
    const expiredOn = new Date(issued.getTime() + 30 * DAY_MS).toISOString().slice(0, 10);
    expect(await answer.text()).toContain(`This application link stopped working on ${expiredOn}.`);
    expect(await backendWork()).toEqual(before);

    // A day younger than the lifetime: looked up (and unknown, as no applicant holds it).
    const young = await fetch(`${stack.formUrl}/applicants/${tokens.issue(applicationId, new Date(Date.now() - 29 * DAY_MS))}`);
    expect(young.status).toBe(404);
    expect((await backendWork()).handled).toBe(before.handled + 1);
  });

  it('logs the route pattern of a form link, never its token, in the form’s and the gateway’s access logs', async () => {
    const token = new URL(formUrl).pathname.split('/').pop()!;
    const requestId = `links-${randomBytes(4).toString('hex')}`;
    await fetch(`${formUrl}/details?iframe=true`, { headers: { 'x-request-id': requestId } });
    const line = await eventually('the form to log the request', () =>
      stack.process('form').logs.find((record) => record.request_id === requestId && record.msg === 'request completed'),
    );
    expect(line).toMatchObject({ method: 'GET', route: '/applicants/:token/details', status_code: 303 });
    expect(line).not.toHaveProperty('path');
    for (const app of ['form', 'gateway', 'applications', 'properties'] as const) {
      expect([app, stack.process(app).output.join('').includes(token)]).toEqual([app, false]);
    }
  });

  it('says that a deleted property no longer takes applications, at its application_url and its applicants’ form_url', async () => {
    const property = (await client.post('/api/v2/properties', { property: { name: 'Razed Row', kind: 'single_family' } })).body
      .property;
    const created = await client.post('/api/v2/applications', {
      application: { property_id: property.id, applicant: { first_name: 'Ray', last_name: 'Zed', email: 'ray@example.com' } },
    });
    const link = (await client.get(new URL(created.body.application.applicants[0].api_url).pathname)).body.applicant.form_url;
    expect((await fetch(link)).status).toBe(200);
    expect((await client.delete(`/api/v2/properties/${property.id}`)).status).toBe(200);

    for (const url of [property.application_url, link, `${link}/finish`]) {
      const answer = await fetch(url);
      const page = await answer.text();
      expect([url, answer.status]).toEqual([url, 410]);
      expect(page).toContain('This property no longer takes applications.');
      expect(page).not.toMatch(/Razed Row|Ray|ray@example\.com/);
    }
    // An id that never named a property is still no page at all; the API answers both alike.
    expect((await fetch(`${stack.formUrl}/properties/987654/apply`)).status).toBe(404);
    expect((await client.get(`/api/v2/properties/${property.id}`)).status).toBe(404);
  });

  it('limits every request of one address, GETs included, before any service is asked', async () => {
    const port = await freePort();
    const limited = await stack.startApp('form', { FORM_PORT: String(port), FORM_REQUEST_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const url = `http://127.0.0.1:${port}${new URL(formUrl).pathname}`;
      const before = await handled();
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await fetch(url));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
      expect(Number(answers[3].headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await answers[3].text()).toContain('Too many pages were asked for from your network.');
      // Three pages looked their applicant up; the two refused did not.
      expect(await handled()).toBe(before + 3);
      // Its stylesheet, icon and scripts are no pages: served whatever the count.
      for (const asset of ['form.css', 'favicon.svg', 'reveal.js', 'documents.js', 'history.js']) {
        expect([asset, (await fetch(`http://127.0.0.1:${port}/${asset}`)).status]).toEqual([asset, 200]);
      }
    } finally {
      await stack.signal(limited, 'SIGTERM');
    }
  });

  it('refuses a POST its prelude refuses (CSRF, honeypot) before asking any service, and saves a page with three calls', async () => {
    // An applicant of its own: saving its contact details starts its form, which the other cases keep unstarted.
    const property = (await client.post('/api/v2/properties', { property: { name: 'Prelude Place', kind: 'single_family' } }))
      .body.property;
    const created = await client.post('/api/v2/applications', {
      application: { property_id: property.id, applicant: { first_name: 'Lina', last_name: 'Lane', email: 'lane@example.com' } },
    });
    const ownUrl = (await client.get(new URL(created.body.application.applicants[0].api_url).pathname)).body.applicant.form_url;
    const page = await (await fetch(ownUrl)).text();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)![1];
    const contact = { first_name: 'Lina', last_name: 'Lane', email: 'lane@example.com' };
    const post = (fields: Record<string, string>) =>
      fetch(ownUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    const before = await backendWork();
    expect((await post({ ...contact, csrf_token: 'forged' })).status).toBe(403);
    expect((await post({ ...contact, csrf_token: csrf, website: 'http://spam.example' })).status).toBe(400);
    expect(await backendWork()).toEqual(before);

    // The same page taken: the applicant with its property and preset, then the save itself.
    expect((await post({ ...contact, csrf_token: csrf })).status).toBe(303);
    const saved = await backendWork();
    expect(saved.sent).toBe(before.sent + 3);
    expect(saved.handled).toBe(before.handled + 2);
  });
});
