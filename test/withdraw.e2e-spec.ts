import { Stack } from '../tools/stack';
import { EventTap } from './support/events';
import { csrfOf, startForm } from './support/form-documents';
import { api, Api } from './support/http';
import { SmtpInbox } from './support/smtp-inbox';
import { eventually } from './support/wait';

const applications = '/api/v2/applications';

/**
 * An applicant withdraws its application on the form's withdraw page, as a browser posts it:
 * confirmed on a page, under a CSRF token; the integrator sees `withdrawn` and gets the event.
 */
describe('withdrawing an application on the form', () => {
  let stack: Stack;
  let client: Api;
  let tap: EventTap;
  let inbox: SmtpInbox;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    stack = await Stack.start({
      form: true,
      instances: { notifications: 1 },
      env: {
        FORM_RATE_LIMIT_PER_MINUTE: '1000000',
        EVENT_RELAY_INTERVAL_MS: '100',
        SMTP_URL: inbox.url,
        MAIL_FROM: 'applications@mail.example.test',
      },
    });
    client = api(stack.url);
    tap = await EventTap.open(stack.namespace);
  });

  afterAll(async () => {
    await tap?.close();
    await stack?.stop();
    await inbox?.close();
  });

  /** A new application through the API, its primary applicant's form started; the token and the application. */
  async function application(): Promise<{ token: string; id: number; propertyId: number }> {
    const property = (
      await client.post('/api/v2/properties', { property: { name: 'Withdrawal <Court>', kind: 'single_family' } })
    ).body.property;
    const created = (
      await client.post(applications, {
        application: {
          property_id: property.id,
          applicant: { first_name: 'Grace', last_name: 'Hopper', email: 'g@example.com' },
        },
      })
    ).body.application;
    const primary = (await client.get(new URL(created.applicants[0].api_url).pathname)).body.applicant;
    return { token: await startForm(stack.formUrl, primary.form_url), id: created.id, propertyId: property.id };
  }

  const post = (url: string, fields: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });

  it('asks to confirm, withdraws once confirmed, and the integrator sees withdrawn and gets application.decided', async () => {
    const { token, id, propertyId } = await application();
    const url = `${stack.formUrl}/applicants/${token}/withdraw`;
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Do you want to withdraw your application to Withdrawal &lt;Court&gt;?');
    expect(html).toContain('<button type="submit">Withdraw my application</button>');
    expect(html).not.toContain('Withdrawal <Court>');
    // Nothing is withdrawn by opening the page.
    expect((await client.get(`${applications}/${id}`)).body.application.status).toBe('draft');

    const csrf = csrfOf(html);
    const confirmed = await post(url, { csrf_token: csrf, website: '' });
    expect({ status: confirmed.status, location: confirmed.headers.get('location') }).toEqual({
      status: 303,
      location: `/applicants/${token}/withdraw`,
    });
    const after = await (await fetch(url)).text();
    expect(after).toContain('Your application to Withdrawal &lt;Court&gt; is withdrawn.');
    expect(after).not.toContain('<form');

    expect((await client.get(`${applications}/${id}`)).body.application.status).toBe('withdrawn');
    const decisions = (await client.get(`${applications}/${id}/decisions`)).body.decisions;
    expect(decisions).toEqual([
      {
        status: 'withdrawn',
        conditions: [],
        reasons: [],
        note: 'Withdrawn on the online form by Grace Hopper.',
        decided_by: null,
        key_id: null,
        decided_at: expect.any(String),
      },
    ]);
    const heard = () => tap.named('application.decided').filter((event) => event.data.application_id === id);
    await eventually('the withdrawal’s event', () => heard().length === 1);
    expect(heard()[0].data).toMatchObject({ application_id: id, property_id: propertyId, status: 'withdrawn' });
    expect(heard()[0].data.applicant_ids).toHaveLength(1);

    // The page sent again, or a fresh one, withdraws nothing more.
    await post(url, { csrf_token: csrf, website: '' });
    const fresh = await post(url, { csrf_token: csrfOf(html), website: '' });
    expect(fresh.status).toBe(303);
    expect((await client.get(`${applications}/${id}/decisions`)).body.decisions).toHaveLength(1);
  });

  it('lets a co-applicant withdraw only itself, from the link in its e-mail: the application goes on, the integrator sees withdrawn_at and applicant.withdrawn', async () => {
    const { token, id, propertyId } = await application();
    const address = `mailed.${Date.now()}@example.com`;
    const added = await client.post(`${applications}/${id}/applicants`, {
      applicant: { first_name: 'Ada', last_name: 'Lovelace', email: address, send_email: true },
    });
    expect(added.status).toBe(201);
    const applicantPath = new URL(added.body.applicant.api_url).pathname;
    const formUrl = (await client.get(applicantPath)).body.applicant.form_url;
    const [mail] = await eventually('the invitation', () => inbox.to(address).length > 0 && inbox.to(address));
    const url = `${formUrl}/withdraw`;
    const offer = 'No longer want to be part of this application? You can withdraw from it (the application goes on without you)';
    expect(mail.parsed.text).toContain(`${offer}:\n\n${url}`);
    expect(mail.parsed.html).toContain(`href="${url}"`);
    expect(mail.parsed.text).not.toContain('withdraw the application');

    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Do you want to withdraw from Grace Hopper’s application to Withdrawal &lt;Court&gt;?');
    expect(html).toContain('only the applicant who made it can withdraw it as a whole');
    expect(html).toContain('<button type="submit">Withdraw from this application</button>');
    expect(html).not.toContain('withdraw your application');
    const confirmed = await post(url, { csrf_token: csrfOf(html), website: '' });
    expect(confirmed.status).toBe(303);
    const after = await (await fetch(url)).text();
    expect(after).toContain('You have withdrawn from Grace Hopper’s application to Withdrawal &lt;Court&gt;.');
    expect(after).not.toContain('<form');

    // The application goes on: no decision, and its primary applicant can still withdraw it.
    expect((await client.get(`${applications}/${id}`)).body.application.status).toBe('draft');
    expect((await client.get(`${applications}/${id}/decisions`)).body.decisions).toEqual([]);
    const withdrawn = (await client.get(applicantPath)).body.applicant;
    expect(withdrawn.withdrawn_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    const heard = () => tap.named('applicant.withdrawn').filter((event) => event.data.application_id === id);
    await eventually('the co-applicant’s withdrawal event', () => heard().length === 1);
    expect(heard()[0].data).toEqual({
      applicant_id: added.body.applicant.id,
      application_id: id,
      property_id: propertyId,
      reference_id: null,
    });
    expect(tap.named('application.decided').filter((event) => event.data.application_id === id)).toEqual([]);
    const offered = await (await fetch(`${stack.formUrl}/applicants/${token}/withdraw`)).text();
    expect(offered).toContain('<button type="submit">Withdraw my application</button>');

    // Sent again, it withdraws nothing more; its form's steps lead to the page that says it withdrew.
    await post(url, { csrf_token: csrfOf(html), website: '' });
    expect((await client.get(applicantPath)).body.applicant.withdrawn_at).toBe(withdrawn.withdrawn_at);
    const step = await fetch(`${formUrl}/details`, { redirect: 'manual' });
    expect(step.headers.get('location')).toMatch(/\/withdraw$/);

    // A guarantor likewise: its page names it as one, and it leaves; the application still goes on.
    const guarantor = await client.post(`${applications}/${id}/applicants`, {
      applicant: { first_name: 'Charles', last_name: 'Babbage', email: 'c@example.com', type: 'guarantor' },
    });
    const guarantorPath = new URL(guarantor.body.applicant.api_url).pathname;
    const guarantorUrl = `${(await client.get(guarantorPath)).body.applicant.form_url}/withdraw`;
    const asked = await (await fetch(guarantorUrl)).text();
    expect(asked).toContain('You would no longer be a guarantor on it.');
    expect((await post(guarantorUrl, { csrf_token: csrfOf(asked), website: '' })).status).toBe(303);
    expect((await client.get(guarantorPath)).body.applicant.withdrawn_at).not.toBeNull();
    expect((await client.get(`${applications}/${id}`)).body.application.status).toBe('draft');

    // The primary applicant withdraws the application: those who left are not among the people told.
    const primaryId = (await client.get(`${applications}/${id}`)).body.application.applicants[0].id;
    const primaryPage = await (await fetch(`${stack.formUrl}/applicants/${token}/withdraw`)).text();
    expect(
      (await post(`${stack.formUrl}/applicants/${token}/withdraw`, { csrf_token: csrfOf(primaryPage), website: '' })).status,
    ).toBe(303);
    const decided = () => tap.named('application.decided').filter((event) => event.data.application_id === id);
    await eventually('the application’s withdrawal event', () => decided().length === 1);
    expect(decided()[0].data.applicant_ids).toEqual([primaryId]);
  });

  it('refuses a withdrawal without the page’s CSRF token, or with another page’s, and withdraws nothing', async () => {
    const { token, id } = await application();
    const url = `${stack.formUrl}/applicants/${token}/withdraw`;
    expect((await post(url, { website: '' })).status).toBe(403);
    const otherPage = await (await fetch(`${stack.formUrl}/applicants/${token}/details`)).text();
    expect((await post(url, { csrf_token: csrfOf(otherPage), website: '' })).status).toBe(403);
    expect((await client.get(`${applications}/${id}`)).body.application.status).toBe('draft');
    expect((await client.get(`${applications}/${id}/decisions`)).body.decisions).toEqual([]);
  });

  it('answers a link that names nobody with the form’s not-found page', async () => {
    const answer = await fetch(`${stack.formUrl}/applicants/${'A'.repeat(60)}/withdraw`);
    expect(answer.status).toBe(404);
  });
});
