import { Channel, ChannelModel, connect } from 'amqplib';
import { Browser, Page } from 'playwright-core';
import { KEYS, Stack } from '../tools/stack';
import { launchBrowser, mainText, submit } from './support/browser';
import { EventTap } from './support/events';
import { fillSections } from './support/form-steps';
import { Api, api, expectErrorBody } from './support/http';
import { scrape, valueOf } from './support/metrics';
import { ReceivedMail, SmtpInbox } from './support/smtp-inbox';
import { eventually } from './support/wait';

/** REMINDER_AFTER_HOURS here: 3.6 s. */
const REMINDER_AFTER_HOURS = '0.001';
const SSN = '123-45-6789';
const DOB = '1990-04-12';
/** A property name and an applicant's name with markup in them: each e-mail must show it as text. */
const MARKUP_PROPERTY = '<b>Maple</b> & "Court"';
const MARKUP_NAME = '<script>alert(1)</script>';

/**
 * The notifications service against the whole stack (gateway, services, the form, two
 * notification instances side by side) and a real SMTP server on 127.0.0.1, whose messages are
 * parsed with mailparser.
 */
describe('notifications', () => {
  let stack: Stack;
  let client: Api;
  let inbox: SmtpInbox;
  let events: EventTap;
  let connection: ChannelModel;
  let channel: Channel;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    stack = await Stack.start({
      form: true,
      instances: { notifications: 2 },
      env: {
        SMTP_URL: inbox.url,
        MAIL_FROM: 'applications@mail.example.test',
        MAIL_RETRY_SCHEDULE: '1,1',
        REMINDER_AFTER_HOURS,
        EVENT_RELAY_INTERVAL_MS: '100',
        FORM_RATE_LIMIT_PER_MINUTE: '1000000',
      },
    });
    client = api(stack.url);
    events = await EventTap.open(stack.namespace);
    connection = await connect(process.env.AMQP_URL!);
    channel = await connection.createChannel();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await connection?.close();
    await events?.close();
    await stack?.stop();
    await inbox?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage();
  });

  afterEach(async () => {
    await page.close();
  });

  // --- the form, driven as an applicant would: every step the form asks is here, in one place ---

  /** Opens an applicant's form link and sends step 1 as it is filled in: the form is started. */
  async function startForm(url: string): Promise<void> {
    await page.goto(url);
    await page.getByLabel('Phone number').fill('5550102000');
    await submit(page, /\/identity$/);
  }

  /** Every step after the first of preset 1 (every property’s default), with an SSN and date of birth: the form is completed. */
  async function completeForm(signature: string): Promise<void> {
    await fillSections(page, signature, {
      identity: async () => {
        await page.getByLabel('Date of birth').fill(DOB);
        await page.getByLabel('Social security number').fill(SSN);
      },
    });
    await submit(page, /\/done$/);
  }

  // --- the API ---

  let emails = 0;
  /** An address no other test writes to. */
  const newAddress = (name: string) => `${name}-${++emails}@example.test`;

  async function createProperty(name: string): Promise<Record<string, any>> {
    const created = await client.post('/api/v2/properties', { property: { name, kind: 'single_family' } });
    expect(created.status).toBe(201);
    return created.body.property;
  }

  async function createApplication(propertyId: number): Promise<Record<string, any>> {
    const created = await client.post('/api/v2/applications', {
      application: {
        property_id: propertyId,
        applicant: { first_name: 'Grace', last_name: 'Hopper', email: newAddress('grace') },
      },
    });
    expect(created.status).toBe(201);
    return created.body.application;
  }

  async function addApplicant(applicationId: number, applicant: Record<string, unknown>): Promise<Record<string, any>> {
    const added = await client.post(`/api/v2/applications/${applicationId}/applicants`, { applicant });
    expect(added.status).toBe(201);
    return added.body.applicant;
  }

  async function messagesOf(applicant: Record<string, any>): Promise<any[]> {
    const answer = await client.get(`/api/v2/applications/${applicant.application_id}/applicants/${applicant.id}/messages`);
    expect(answer.status).toBe(200);
    return answer.body.messages;
  }

  /** Sums a counter over the notification instances. */
  async function counted(name: string, labels: Record<string, string>): Promise<number> {
    let sum = 0;
    for (const running of stack.processes.filter((p) => p.app === 'notifications')) {
      sum += valueOf(await scrape(running.operationsUrl), name, labels);
    }
    return sum;
  }

  const eventsHandled = (event: string) => counted('notification_events_total', { event });

  function mailTo(address: string, subject: RegExp, timeoutMs = 15000): Promise<ReceivedMail> {
    return eventually(
      `a message to ${address} about ${subject}`,
      () => inbox.to(address).find((mail) => subject.test(mail.parsed.subject ?? '')),
      { timeoutMs },
    );
  }

  /**
   * Confirms an address typed on the form as its owner does: the one message it got asks for it,
   * and the link's page takes a click. Returns that message.
   */
  async function confirmAddress(address: string): Promise<ReceivedMail> {
    const asked = await mailTo(address, /^Confirm your e-mail address/);
    const link = /https?:\/\/\S+\/mail\/confirm\/[A-Za-z0-9_-]{43}/.exec(asked.parsed.text ?? '')![0];
    await page.goto(link);
    await submit(page, link);
    expect(await mainText(page)).toContain('will reach you at this address');
    return asked;
  }

  /** Every part of the message, as sent and as parsed, holds none of the applicant's identity data. */
  function expectNoPersonalData(mail: ReceivedMail): void {
    for (const part of [mail.raw, mail.parsed.text ?? '', String(mail.parsed.html)]) {
      for (const secret of [SSN, SSN.replace(/-/g, ''), DOB, '04/12/1990']) expect(part).not.toContain(secret);
    }
    expect(mail.parsed.attachments).toHaveLength(0);
  }

  it('says each of its instances is ready, naming its database and broker, on its own operator port', async () => {
    const instances = stack.running('notifications');
    expect(instances).toHaveLength(2);
    for (const { httpUrl } of instances) {
      const ready = await fetch(`${httpUrl}/health/ready`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { info: unknown }).info).toEqual({ database: { status: 'up' }, broker: { status: 'up' } });
      expect(await (await fetch(`${httpUrl}/metrics`)).text()).toContain('service="notifications"');
    }
  });

  it('sets the client’s sender name and reply-to address, validated, for that client alone', async () => {
    const path = '/api/v2/notification_settings';
    expect((await client.get(path)).body).toEqual({
      notification_settings: { sender_name: null, reply_to: null, screening_agency: null },
    });
    const bad = await client.call('PUT', path, { notification_settings: { reply_to: 'not an address', colour: 'red' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'notification_settings.colour',
      'notification_settings.reply_to',
    ]);
    const put = await client.call('PUT', path, {
      notification_settings: { sender_name: ' Maple <Rentals> ', reply_to: 'leasing@example.test' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      notification_settings: { sender_name: 'Maple <Rentals>', reply_to: 'leasing@example.test', screening_agency: null },
    });
    expect((await client.get(path)).body).toEqual(put.body);
    expect((await client.get(path, { key: KEYS.clientTwo })).body).toEqual({
      notification_settings: { sender_name: null, reply_to: null, screening_agency: null },
    });
    // A field left out keeps its value (unset: null); null unsets one.
    const named = await client.call(
      'PUT',
      path,
      { notification_settings: { sender_name: 'Oak Homes' } },
      { key: KEYS.clientTwo },
    );
    expect(named.body).toEqual({ notification_settings: { sender_name: 'Oak Homes', reply_to: null, screening_agency: null } });
    const unset = await client.call('PUT', path, { notification_settings: { sender_name: null } }, { key: KEYS.clientTwo });
    expect(unset.body).toEqual({ notification_settings: { sender_name: null, reply_to: null, screening_agency: null } });
    // So does null for the screening agency, an object of its own.
    const agency = { name: 'Keystone Screening', address: '1 Report Way, Dover, DE 19901', phone: '3025550100' };
    const withAgency = await client.call(
      'PUT',
      path,
      { notification_settings: { screening_agency: agency } },
      { key: KEYS.clientTwo },
    );
    expect(withAgency.body.notification_settings.screening_agency).toEqual(agency);
    const noAgency = await client.call(
      'PUT',
      path,
      { notification_settings: { screening_agency: null } },
      { key: KEYS.clientTwo },
    );
    expect(noAgency.status).toBe(200);
    expect(noAgency.body.notification_settings.screening_agency).toBeNull();
    expect((await client.get(path, { key: KEYS.clientTwo })).body.notification_settings.screening_agency).toBeNull();
  });

  it('e-mails an invitation to a property’s form only when asked, with its link, when it expires, the sender and the property’s name as text', async () => {
    const property = await createProperty(MARKUP_PROPERTY);
    const quiet = newAddress('quiet');
    const unasked = await client.post(`/api/v2/properties/${property.id}/invitations`, { invitation: { email: quiet } });
    expect(unasked.status).toBe(201);
    const wanted = newAddress('invited');
    const asked = await client.post(`/api/v2/properties/${property.id}/invitations`, {
      invitation: { email: wanted, send_email: true },
    });
    expect(asked.status).toBe(201);
    expect(Object.keys(asked.body.invitation)).toEqual(['id', 'property_id', 'email', 'url', 'expires_at']);

    const mail = await mailTo(wanted, /invited to apply/);
    const { parsed } = mail;
    expect(parsed.subject).toBe(`You are invited to apply for ${MARKUP_PROPERTY}`);
    expect(parsed.from?.value).toEqual([{ name: 'Maple <Rentals>', address: 'applications@mail.example.test' }]);
    expect(parsed.replyTo?.value).toEqual([{ name: '', address: 'leasing@example.test' }]);
    expect(parsed.messageId).toMatch(/^<[0-9a-f]{32}@mail\.example\.test>$/);
    expect(parsed.text).toContain(asked.body.invitation.url);
    expect(parsed.text).toContain(MARKUP_PROPERTY);
    // INVITATION_LIFETIME_HOURS is left at its default, a week; the line names the invitation's expires_at, to the minute.
    const expiry = parsed.text!.match(/^It works for 7 days, until (\d{1,2} [A-Z][a-z]+ \d{4}) at (\d\d:\d\d) UTC\.$/m);
    expect(expiry).not.toBeNull();
    expect(new Date(`${expiry![1]} ${expiry![2]} UTC`).toISOString()).toBe(
      new Date(Math.floor(Date.parse(asked.body.invitation.expires_at) / 60_000) * 60_000).toISOString(),
    );
    const html = String(parsed.html);
    expect(html).toContain(`<p>${expiry![0]}</p>`);
    expect(html).toContain('<title>You are invited to apply for &lt;b&gt;Maple&lt;/b&gt; &amp; &quot;Court&quot;</title>');
    expect(html).toContain('&lt;b&gt;Maple&lt;/b&gt; &amp; &quot;Court&quot;');
    expect(html).not.toContain('<b>Maple</b>');
    expect(html).toContain(`href="${asked.body.invitation.url}"`);
    expect(html).toContain('Maple &lt;Rentals&gt;');
    expect(inbox.to(quiet)).toEqual([]);
  });

  it('invites an added co-applicant or guarantor only with send_email, its own link, and no personal data', async () => {
    const property = await createProperty('Birch Flats');
    const application = await createApplication(property.id);
    const before = await eventsHandled('applicant.created');
    const silent = await addApplicant(application.id, { first_name: 'Quiet', last_name: 'One', email: newAddress('silent') });
    const invited = await addApplicant(application.id, {
      first_name: MARKUP_NAME,
      last_name: 'Lovelace',
      email: newAddress('ada'),
      dob: '04/12/1990',
      id_number: SSN,
      send_email: true,
    });
    expect(invited.form_url).toMatch(new RegExp(`^${stack.formUrl}/applicants/`));

    // Added through the API, it learns whose application it joins, as one listed on a form does.
    const mail = await mailTo(invited.email, /invited to join Grace Hopper’s application for Birch Flats/);
    expect(mail.parsed.subject).toBe('You are invited to join Grace Hopper’s application for Birch Flats');
    expect(mail.parsed.text).toContain('You are invited to join Grace Hopper’s application for Birch Flats. Your own');
    expect(mail.recipients).toEqual([invited.email]);
    expect(mail.parsed.text).toContain(invited.form_url);
    expect(mail.parsed.text).toContain(`Hello ${MARKUP_NAME},`);
    expect(String(mail.parsed.html)).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;,');
    expect(String(mail.parsed.html)).not.toContain('<script>');
    expectNoPersonalData(mail);

    // Every applicant.created of this application dealt with (the two added and the primary one): only one message.
    await eventually(
      'the three applicant.created events handled',
      async () => (await eventsHandled('applicant.created')) >= before + 3,
    );
    expect(inbox.to(silent.email)).toEqual([]);
    expect(await messagesOf(silent)).toEqual([]);
    expect(await messagesOf(invited)).toEqual([
      {
        id: mail.parsed.messageId,
        kind: 'invitation',
        to: invited.email,
        status: 'sent',
        attempts: 1,
        sent_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
        held_reason: null,
        held_until: null,
        created_at: expect.stringMatching(/\+00:00$/),
      },
    ]);
  });

  it('sends nothing twice when an event comes again', async () => {
    const application = await createApplication((await createProperty('Cedar House')).id);
    const invited = await addApplicant(application.id, {
      first_name: 'Once',
      last_name: 'Only',
      email: newAddress('once'),
      send_email: true,
    });
    await mailTo(invited.email, /invited/);
    const event = await eventually('its applicant.created event', () =>
      events.named('applicant.created').find((e) => e.data.applicant_id === invited.id),
    );
    const already = await counted('notification_messages_total', { kind: 'invitation', step: 'already_made' });
    // As the relay would on a second publish: the same event, id and all, on the exchange again.
    channel.publish(`${stack.namespace}events`, event.event, Buffer.from(JSON.stringify(event)), {
      persistent: true,
      messageId: event.id,
    });
    await eventually(
      'the event found its message made',
      async () => (await counted('notification_messages_total', { kind: 'invitation', step: 'already_made' })) > already,
    );
    expect(inbox.to(invited.email)).toHaveLength(1);
    expect((await messagesOf(invited)).map((m) => [m.kind, m.attempts])).toEqual([['invitation', 1]]);
  });

  it('retries a message the mail server refuses, delivering it once; gives one up when the retries are spent', async () => {
    const application = await createApplication((await createProperty('Dogwood Row')).id);
    const busy = newAddress('busy');
    inbox.refuse(busy, 2);
    const retried = await addApplicant(application.id, { first_name: 'Busy', last_name: 'Box', email: busy, send_email: true });
    await mailTo(busy, /invited/);
    expect(inbox.refused.get(busy)).toBe(2);
    const [message] = await eventually('the message marked sent', async () => {
      const listed = await messagesOf(retried);
      return listed[0]?.status === 'sent' && listed;
    });
    expect(message.attempts).toBe(3);
    expect(inbox.to(busy)).toHaveLength(1);

    const gone = newAddress('gone');
    inbox.refuse(gone, Infinity);
    const refused = await addApplicant(application.id, { first_name: 'Gone', last_name: 'Away', email: gone, send_email: true });
    const [failed] = await eventually('the message given up', async () => {
      const listed = await messagesOf(refused);
      return listed[0]?.status === 'failed' && listed;
    });
    expect(failed).toMatchObject({ kind: 'invitation', status: 'failed', attempts: 3, sent_at: null });
    expect(inbox.to(gone)).toEqual([]);
  });

  it('retries a message while the mail server is down, delivering it once when it is up again', async () => {
    const application = await createApplication((await createProperty('Elm Terrace')).id);
    await inbox.down();
    let invited: Record<string, any>;
    try {
      invited = await addApplicant(application.id, {
        first_name: 'Down',
        last_name: 'Time',
        email: newAddress('down'),
        send_email: true,
      });
      const [refused] = await eventually('an attempt made while nothing listens', async () => {
        const listed = await messagesOf(invited);
        return listed[0]?.status === 'retrying' && listed;
      });
      expect(refused).toMatchObject({ kind: 'invitation', attempts: 1, sent_at: null });
    } finally {
      await inbox.up();
    }
    const mail = await mailTo(invited.email, /invited/);
    const [message] = await eventually('the message marked sent', async () => {
      const listed = await messagesOf(invited);
      return listed[0]?.status === 'sent' && listed;
    });
    // A retry is due a second after the last; on a slow machine one more may have found it down.
    expect(message.attempts).toBeGreaterThanOrEqual(2);
    expect(mail.parsed.messageId).toBe(message.id);
    expect(inbox.to(invited.email)).toHaveLength(1);
  });

  it('lists an applicant’s messages to its own client only', async () => {
    const application = await createApplication((await createProperty('Elm Yard')).id);
    const applicant = application.applicants[0];
    const path = `/api/v2/applications/${application.id}/applicants/${applicant.id}/messages`;
    expect((await client.get(path)).body).toEqual({ messages: [] });
    const foreign = await client.get(path, { key: KEYS.clientTwo });
    expect(foreign.status).toBe(404);
    expectErrorBody(foreign, `application ${application.id} cannot be found`);
    const unknown = await client.get(`/api/v2/applications/${application.id}/applicants/999999/messages`);
    expect(unknown.status).toBe(404);
    expectErrorBody(unknown, 'applicant 999999 cannot be found');
  });

  it('in a browser: the invitation’s link opens that person’s form, and completing it sends the confirmation', async () => {
    const application = await createApplication((await createProperty('Fir Lane')).id);
    const invited = await addApplicant(application.id, {
      first_name: 'Katherine',
      last_name: 'Johnson',
      email: newAddress('kj'),
      send_email: true,
    });
    const invitation = await mailTo(invited.email, /invited/);
    const link = /https?:\/\/\S+\/applicants\/\S+/.exec(invitation.parsed.text ?? '')![0];
    expect(link).toBe(invited.form_url);

    await page.goto(link);
    expect(await page.getByLabel('E-mail address').inputValue()).toBe(invited.email);
    await startForm(link);
    await completeForm('Katherine Johnson');
    expect(await mainText(page)).toContain('Your application to Fir Lane is complete.');

    const confirmation = await mailTo(invited.email, /received your application for Fir Lane/);
    expect(confirmation.parsed.text).toContain('Hello Katherine,');
    expect(confirmation.parsed.messageId).not.toBe(invitation.parsed.messageId);
    expectNoPersonalData(confirmation);
    // The suite reminds after 3.6 s, less than a walk through every step may take: a reminder may come between.
    const kinds = (await messagesOf(invited)).map((m) => m.kind);
    expect(kinds.filter((kind) => kind !== 'reminder')).toEqual(['confirmation', 'invitation']);
  });

  it('in a browser: mail follows the address the applicant corrected on the form, and the messages list shows it', async () => {
    const application = await createApplication((await createProperty('Ash Walk')).id);
    const given = await addApplicant(application.id, { first_name: 'Mary', last_name: 'Jackson', email: newAddress('mj-old') });
    const corrected = newAddress('mj-new');
    await page.goto(given.form_url);
    await page.getByLabel('E-mail address').fill(corrected);
    await page.getByLabel('Phone number').fill('5550102000');
    await submit(page, /\/identity$/);
    await completeForm('Mary Jackson');

    // The address typed on the form gets one message, asking to confirm it; the rest wait for that.
    const asked = await mailTo(corrected, /^Confirm your e-mail address for your application for Ash Walk$/);
    expect(inbox.to(corrected)).toHaveLength(1);
    expect(asked.parsed.text).not.toContain(given.form_url);
    await eventually('the confirmation held', async () =>
      (await messagesOf(given)).some((m) => m.kind === 'confirmation' && m.status === 'held'),
    );
    await confirmAddress(corrected);
    await mailTo(corrected, /received your application for Ash Walk/);
    const listed = await eventually('the confirmation listed as sent', async () => {
      const messages = await messagesOf(given);
      return messages.some((m) => m.kind === 'confirmation' && m.status === 'sent') && messages;
    });
    for (const message of listed) expect(message.to).toBe(corrected);
    expect(inbox.to(given.email)).toEqual([]);
  });

  it('in a browser: each adult the applicant names on the form is e-mailed its own link, unasked, once its address is confirmed', async () => {
    const property = await createProperty('Elm Row');
    const adultEmail = newAddress('leonard');
    await page.goto(property.application_url);
    await page.getByLabel('First name').fill('Dorothy');
    await page.getByLabel('Last name').fill('Vaughan');
    await page.getByLabel('E-mail address').fill(newAddress('dorothy'));
    await page.getByLabel('Phone number').fill('5550102000');
    await submit(page, /\/details$/);
    await submit(page, /\/identity$/);
    await fillSections(page, 'Dorothy Vaughan', {
      household: async () => {
        await page.getByRole('button', { name: 'Add adult' }).click();
        await page.waitForLoadState();
        const adult = page.getByRole('group', { name: 'Adult 1' });
        await adult.getByLabel('First name').fill('Leonard');
        await adult.getByLabel('Last name').fill('<b>Vaughan</b>');
        await adult.getByLabel('E-mail address').fill(adultEmail);
      },
    });
    await submit(page, /\/done$/);

    // The done page names who was added; the invitation says who added them.
    expect(await page.locator('ul.added li').allTextContents()).toEqual(['Leonard <b>Vaughan</b>, co-applicant']);
    // An address typed on the form is asked first; the invitation goes once its owner confirms it.
    await confirmAddress(adultEmail);
    const invitation = await mailTo(adultEmail, /Dorothy Vaughan added you to their application for Elm Row/);
    expect(String(invitation.parsed.html)).toContain(
      'Dorothy Vaughan added you to their application for <strong>Elm Row</strong>.',
    );
    const applications = (await client.get(`/api/v2/applications?property_id=${property.id}`)).body.applications;
    const records = await Promise.all(
      applications[0].applicants.map(
        async (a: Record<string, any>) => (await client.get(new URL(a.api_url).pathname)).body.applicant,
      ),
    );
    const coApplicant = records.find((a) => a.email === adultEmail);
    expect(coApplicant.type).toBe('co_applicant');
    expect(invitation.parsed.text).toContain(coApplicant.form_url);
    expect(String(invitation.parsed.html)).not.toContain('<b>Vaughan</b>');
    expectNoPersonalData(invitation);
  });

  it('reminds an applicant whose started form is not completed, after REMINDER_AFTER_HOURS, twice at most', async () => {
    const application = await createApplication((await createProperty('Gum Tree Court')).id);
    const applicant = await addApplicant(application.id, { first_name: 'Slow', last_name: 'Poke', email: newAddress('slow') });
    const startedAt = Date.now();
    await startForm(applicant.form_url);

    const first = await mailTo(applicant.email, /not finished yet/);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(3600 - 500);
    expect(first.parsed.text).toContain(applicant.form_url);
    await eventually('a second reminder', () => inbox.to(applicant.email).length >= 2, { timeoutMs: 15000 });
    // No third waits: the reminder queues empty out once the second is sent.
    const waiting = async (queue: string) => (await channel.checkQueue(`${stack.namespace}${queue}`)).messageCount;
    const waitQueue = `notifications.reminders.wait.${Number(REMINDER_AFTER_HOURS) * 3600 * 1000}ms`;
    await eventually(
      'no reminder waiting',
      async () => (await waiting(waitQueue)) + (await waiting('notifications.reminders')) === 0,
    );
    expect(inbox.to(applicant.email).map((mail) => mail.parsed.subject)).toEqual([
      'Your application for Gum Tree Court is not finished yet',
      'Your application for Gum Tree Court is not finished yet',
    ]);
    expect((await messagesOf(applicant)).map((m) => [m.kind, m.status])).toEqual([
      ['reminder', 'sent'],
      ['reminder', 'sent'],
    ]);
  });
});
