import { Channel, ChannelModel, connect } from 'amqplib';
import { MESSAGE_PREVIEW_CASES } from '@app/contracts';
import { addressDigest } from '../apps/notifications/src/addresses/address-book.repository';
import { RentalApplicationsClient } from '../packages/client';
import { KEYS, Stack } from '../tools/stack';
import { EventTap } from './support/events';
import { Api, api, expectErrorBody } from './support/http';
import { scrape, valueOf } from './support/metrics';
import { ReceivedMail, SmtpInbox } from './support/smtp-inbox';
import { eventually } from './support/wait';

const applications = '/api/v2/applications';
const settingsPath = '/api/v2/notification_settings';
const AGENCY = { name: 'Keystone Screening <LLC>', address: 'PO Box 800, Woodlyn, PA 19094', phone: '1-800-230-9376' };

/**
 * A decision is told to everyone on the application, through the notifications service and a
 * real SMTP server on 127.0.0.1: once per decision and addressee, a decline on the screening
 * report with the adverse action notice; and every message can be previewed first.
 */
describe('decisions told by e-mail', () => {
  let stack: Stack;
  let client: Api;
  let inbox: SmtpInbox;
  let events: EventTap;
  let connection: ChannelModel;
  let channel: Channel;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    stack = await Stack.start({
      instances: { notifications: 1 },
      env: { SMTP_URL: inbox.url, MAIL_FROM: 'applications@mail.example.test', EVENT_RELAY_INTERVAL_MS: '100' },
    });
    client = api(stack.url);
    events = await EventTap.open(stack.namespace);
    connection = await connect(process.env.AMQP_URL!);
    channel = await connection.createChannel();
  });

  afterAll(async () => {
    await connection?.close();
    await events?.close();
    await stack?.stop();
    await inbox?.close();
  });

  let emails = 0;
  /** An address no other test writes to. */
  const newAddress = (name: string) => `${name}-${++emails}@decided.example.test`;

  /** An application with a primary applicant, a co-applicant and a guarantor, none invited: their addresses. */
  async function application(): Promise<{ id: number; addresses: string[]; applicants: Array<Record<string, any>> }> {
    const property = (await client.post('/api/v2/properties', { property: { name: 'Decided <Court>', kind: 'single_family' } }))
      .body.property;
    const created = await client.post(applications, {
      application: {
        property_id: property.id,
        applicant: { first_name: 'Grace', last_name: 'Hopper', email: newAddress('grace') },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.application.id as number;
    const added = [];
    for (const [name, type] of [
      ['Ada', 'co_applicant'],
      ['Alan', 'guarantor'],
    ]) {
      const answer = await client.post(`${applications}/${id}/applicants`, {
        applicant: { first_name: name, last_name: 'Doe', email: newAddress(name.toLowerCase()), type },
      });
      expect(answer.status).toBe(201);
      added.push(answer.body.applicant);
    }
    const primary = (await client.get(new URL(created.body.application.applicants[0].api_url).pathname)).body.applicant;
    const applicants = [primary, ...added];
    return { id, addresses: applicants.map((applicant) => applicant.email as string), applicants };
  }

  const decide = (id: number, decision: unknown) => client.post(`${applications}/${id}/decision`, { decision });

  /** The messages each address received, once `count` have come to each. */
  function mailsTo(addresses: string[], count: number): Promise<ReceivedMail[][]> {
    return eventually(
      `${count} message(s) to each of ${addresses.join(', ')}`,
      () => addresses.every((address) => inbox.to(address).length >= count) && addresses.map((address) => inbox.to(address)),
    );
  }

  async function decisionMessagesMade(step: string): Promise<number> {
    const running = stack.processes.find((p) => p.app === 'notifications')!;
    return valueOf(await scrape(running.operationsUrl), 'notification_messages_total', { kind: 'decision', step });
  }

  it('refuses a decline on the screening report while no screening agency is set, and records nothing', async () => {
    const { id } = await application();
    const refused = await decide(id, { status: 'declined', reasons: ['income', 'screening_report'] });
    expect(refused.status).toBe(422);
    expectErrorBody(
      refused,
      /^decision\.reasons include screening_report, whose adverse action notice names the screening agency/,
    );
    expect(refused.body.error.details).toEqual([
      { field: 'decision.reasons', message: expect.stringContaining('PUT /api/v2/notification_settings with screening_agency') },
    ]);
    expect((await client.get(`${applications}/${id}/decisions`)).body.decisions).toEqual([]);
    // A decline on other reasons needs no agency.
    expect((await decide(id, { status: 'declined', reasons: ['income'] })).status).toBe(201);
  });

  it('sets the screening agency, validated, one line each field, for that client alone', async () => {
    const bad = await client.call('PUT', settingsPath, {
      notification_settings: { screening_agency: { name: 'Keystone\nClick here', address: '', colour: 'red' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual([
      'notification_settings.screening_agency.address',
      'notification_settings.screening_agency.colour',
      'notification_settings.screening_agency.phone',
    ]);
    const control = await client.call('PUT', settingsPath, {
      notification_settings: { screening_agency: { ...AGENCY, name: 'Keystone\nClick here' } },
    });
    expect(control.status).toBe(422);
    expect(control.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([
      'notification_settings.screening_agency.name',
    ]);

    const put = await client.call('PUT', settingsPath, {
      notification_settings: { sender_name: 'Maple Rentals', screening_agency: { ...AGENCY, phone: ` ${AGENCY.phone} ` } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      notification_settings: { sender_name: 'Maple Rentals', reply_to: null, screening_agency: AGENCY },
    });
    expect((await client.get(settingsPath, { key: KEYS.clientTwo })).body.notification_settings.screening_agency).toBeNull();
  });

  it('e-mails every applicant and guarantor a decline on the screening report once, with the adverse action notice', async () => {
    const { id, addresses, applicants } = await application();
    const declined = await decide(id, { status: 'declined', reasons: ['rental_history', 'screening_report'] });
    expect(declined.status).toBe(201);
    const received = await mailsTo(addresses, 1);
    for (const [index, [mail]] of received.entries()) {
      expect(mail.recipients).toEqual([addresses[index]]);
      expect(mail.parsed.subject).toBe('Your application for Decided <Court>');
      const text = mail.parsed.text ?? '';
      expect(text).toContain(`Hello ${applicants[index].first_name},`);
      expect(text).toContain('has not been approved.');
      expect(text).toMatch(/Notice of adverse action, [A-Z][a-z]+ \d{1,2}, \d{4}\./);
      expect(text).toContain(
        `consumer report from ${AGENCY.name}, ${AGENCY.address}, phone ${AGENCY.phone}.\n\n` +
          `${AGENCY.name} did not make this decision and cannot tell you why it was made.`,
      );
      expect(text).toContain('free copy of your report');
      expect(text).toContain('within 60 days');
      expect(text).toContain('dispute');
      // The other reasons are the client's own; no withdraw link on a decline.
      expect(text).not.toMatch(/rental history|withdraw/i);
      expect(String(mail.parsed.html)).toContain('Keystone Screening &lt;LLC&gt;');
      expect(String(mail.parsed.html)).not.toContain('<LLC>');
    }
    const messages = await client.get(`${applications}/${id}/applicants/${applicants[2].id}/messages`);
    expect(messages.body.messages.map((message: { kind: string; status: string }) => [message.kind, message.status])).toEqual([
      ['decision', 'sent'],
    ]);

    // The event again, as the relay would on a second publish: found made, nothing sent again.
    const event = await eventually('its application.decided event', () =>
      events.named('application.decided').find((candidate) => candidate.data.application_id === id),
    );
    const already = await decisionMessagesMade('already_made');
    channel.publish(`${stack.namespace}events`, event.event, Buffer.from(JSON.stringify(event)), {
      persistent: true,
      messageId: event.id,
    });
    await eventually(
      'the event found its messages made',
      async () => (await decisionMessagesMade('already_made')) >= already + 3,
    );
    for (const address of addresses) expect(inbox.to(address)).toHaveLength(1);
  });

  it('sends the adverse action notice, which the law requires, to addresses that stopped our e-mails; no other decision', async () => {
    const { id, addresses, applicants } = await application();
    const notifications = await stack.database('notifications');
    try {
      // As an unsubscribe link followed puts them on the suppression list.
      const marks = notifications.collection<{ _id: string; at: Date }>('address_marks');
      for (const address of addresses) await marks.insertOne({ _id: `suppressed:${addressDigest(address)}`, at: new Date() });
    } finally {
      await notifications.close();
    }
    const decisionsTold = () =>
      client
        .get(`${applications}/${id}/applicants/${applicants[2].id}/messages`)
        .then((answer) => answer.body.messages.map((message: { status: string }) => message.status));
    expect((await decide(id, { status: 'declined', reasons: ['income'] })).status).toBe(201);
    await eventually('the decline on income suppressed', async () => (await decisionsTold()).includes('suppressed'));
    expect((await decide(id, { status: 'declined', reasons: ['screening_report'] })).status).toBe(201);
    for (const mails of await mailsTo(addresses, 1)) {
      expect(mails).toHaveLength(1);
      expect(mails[0].parsed.text).toMatch(/Notice of adverse action/);
    }
    await eventually('the notice listed as sent', async () => (await decisionsTold()).join() === 'sent,suppressed');
  });

  it('tells each later decision too: a conditional approval with its conditions, then a withdrawal', async () => {
    const { id, addresses } = await application();
    const conditional = await decide(id, {
      status: 'conditionally_approved',
      conditions: [{ kind: 'deposit', amount: 3700 }, { kind: 'guarantor' }],
      note: 'Please bring the deposit to the office by December 1.',
    });
    expect(conditional.status).toBe(201);
    for (const [mail] of await mailsTo(addresses, 1)) {
      expect(mail.parsed.subject).toBe('Your application for Decided <Court> is approved on conditions');
      expect(mail.parsed.text).toContain('approved on these conditions:\n\n- A deposit of $3,700\n- A guarantor\n\n');
      expect(mail.parsed.text).toContain('\n\nPlease bring the deposit to the office by December 1.');
    }
    expect((await decide(id, { status: 'withdrawn' })).status).toBe(201);
    for (const mails of await mailsTo(addresses, 2)) {
      expect(mails.map((mail) => mail.parsed.subject)).toEqual([
        'Your application for Decided <Court> is approved on conditions',
        'Your application for Decided <Court> is withdrawn',
      ]);
    }
  });

  it('previews every message with the client’s own settings, sending nothing', async () => {
    const put = await client.call('PUT', settingsPath, {
      notification_settings: { sender_name: 'Maple Rentals', screening_agency: AGENCY },
    });
    expect(put.status).toBe(200);
    const sent = inbox.received.length;
    const previews = await client.get('/api/v2/message_previews');
    expect(previews.status).toBe(200);
    const byCase = new Map<string, { kind: string; subject: string; text: string; html: string }>(
      previews.body.previews.map((preview: { case: string }) => [preview.case, preview]),
    );
    expect([...byCase.keys()]).toEqual([...MESSAGE_PREVIEW_CASES]);
    for (const preview of byCase.values()) {
      expect(preview.text).toContain('Maple Rentals');
      expect(preview.html).toMatch(/^<!doctype html>/);
    }
    expect(byCase.get('decision_declined_screening_report')!.text).toContain(`consumer report from ${AGENCY.name}`);
    expect(byCase.get('decision_declined_screening_report')!.html).toContain('Keystone Screening &lt;LLC&gt;');
    // Another client's previews are made with its own settings.
    const other = await client.get('/api/v2/message_previews', { key: KEYS.clientTwo });
    expect(JSON.stringify(other.body)).not.toContain('Maple Rentals');
    expect(JSON.stringify(other.body)).not.toContain('Keystone');
    expect((await client.get('/api/v2/message_previews', { key: null })).status).toBe(401);
    // The typed client reads the same.
    const typed = new RentalApplicationsClient({ baseUrl: stack.url, apiKey: KEYS.clientOne });
    expect(await typed.notificationSettings.previews()).toEqual(previews.body.previews);
    expect(inbox.received.length).toBe(sent);
  });
});
