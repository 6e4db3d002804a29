import { createHash, randomBytes } from 'node:crypto';
import mongoose, { Connection } from 'mongoose';
import { formTokenDigest } from '@app/crypto';
import { ClaimStorage } from '@app/persistence';
import { AddressBook } from '../apps/notifications/src/addresses/address-book.repository';
import { KEYS, Stack } from '../tools/stack';
import { csrfOf } from './support/form-documents';
import { Api, api } from './support/http';
import { scrape, valueOf } from './support/metrics';
import { ANSWERS, EMERGENCY, EMPLOYMENT, IDENTITY, RESIDENCES } from './support/preset-one-answers';
import { ReceivedMail, SmtpInbox } from './support/smtp-inbox';
import { eventually } from './support/wait';

/** REMINDER_AFTER_HOURS here: about a second, so that a started form's two reminders come due at once. */
const REMINDER_AFTER_HOURS = '0.0003';
const DAILY_LIMIT = 3;
/** MAIL_HOLD_HOURS here: 36 s, long enough for a test to confirm an address, short enough to see a hold end. */
const HOLD_HOURS = 0.01;
/** FORM_INVITATIONS_PER_PROPERTY_A_DAY here. */
const PROPERTY_INVITATIONS = 12;
const CONFIRM_LINK = /https?:\/\/\S+\/mail\/confirm\/[A-Za-z0-9_-]{43}/;

/**
 * What the public form cannot make our mail do, against the whole stack (two notification
 * instances side by side) and a real SMTP server: reach an address typed on it with more than one
 * message before its owner confirms it, reach an address that asked for no more, reach any
 * address more than the day's limit, or invite more people from one address than the caps allow.
 */
describe('mail the public form cannot abuse', () => {
  let stack: Stack;
  let client: Api;
  let inbox: SmtpInbox;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    stack = await Stack.start({
      form: true,
      instances: { notifications: 2 },
      env: {
        SMTP_URL: inbox.url,
        MAIL_RETRY_SCHEDULE: '1,1',
        REMINDER_AFTER_HOURS,
        MAIL_DAILY_LIMIT_PER_ADDRESS: String(DAILY_LIMIT),
        MAIL_HOLD_HOURS: String(HOLD_HOURS),
        FORM_INVITATIONS_PER_PROPERTY_A_DAY: String(PROPERTY_INVITATIONS),
        EVENT_RELAY_INTERVAL_MS: '100',
        FORM_RATE_LIMIT_PER_MINUTE: '1000000',
      },
    });
    client = api(stack.url);
  });

  afterAll(async () => {
    await stack?.stop();
    await inbox?.close();
  });

  const newAddress = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.test`;

  function mailTo(address: string, subject: RegExp): Promise<ReceivedMail> {
    return eventually(`a message to ${address} about ${subject}`, () =>
      inbox.to(address).find((mail) => subject.test(mail.parsed.subject ?? '')),
    );
  }

  async function createProperty(name: string): Promise<Record<string, any>> {
    const created = await client.post('/api/v2/properties', { property: { name, kind: 'single_family' } });
    expect(created.status).toBe(201);
    return created.body.property;
  }

  /** An applicant's messages; `applicant` as the API shows it, alone or in its application. */
  async function messagesOf(applicant: Record<string, any>, key: string = KEYS.clientOne): Promise<any[]> {
    const path = `${new URL(applicant.api_url).pathname}/messages`;
    const answer = await client.get(path, { key });
    expect(answer.status).toBe(200);
    return answer.body.messages;
  }

  /** The applicants of the property's applications, as the API shows them. */
  async function applicantsAt(propertyId: number): Promise<Array<Record<string, any>>> {
    const list = (await client.get(`/api/v2/applications?property_id=${propertyId}`)).body.applications;
    return list.flatMap((application: Record<string, any>) => application.applicants);
  }

  /** Posts `fields` to the form page at `url` with its CSRF token, as a browser does; the answer. */
  async function post(url: string, fields: Record<string, string>): Promise<Response> {
    const page = await fetch(url);
    return fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, csrf_token: csrfOf(await page.text()) }),
    });
  }

  /** Step 1 at the property's own form, with `email` typed in: the primary applicant's form link. */
  async function startAt(property: Record<string, any>, email: string): Promise<string> {
    const started = await post(property.application_url, { first_name: 'Eve', last_name: 'Sender', email, phone: '5550102000' });
    expect(started.status).toBe(303);
    return `${new URL(property.application_url).origin}${started.headers.get('location')!.replace(/\/details$/, '')}`;
  }

  async function addApplicant(key: string, email: string, propertyName: string): Promise<Record<string, any>> {
    const property = (
      await client.post('/api/v2/properties', { property: { name: propertyName, kind: 'single_family' } }, { key })
    ).body.property;
    const application = (
      await client.post(
        '/api/v2/applications',
        {
          application: {
            property_id: property.id,
            applicant: { first_name: 'Pat', last_name: 'Primary', email: newAddress('p') },
          },
        },
        { key },
      )
    ).body.application;
    const added = await client.post(
      `/api/v2/applications/${application.id}/applicants`,
      { applicant: { first_name: 'Ida', last_name: 'Invited', email, send_email: true } },
      { key },
    );
    expect(added.status).toBe(201);
    return added.body.applicant;
  }

  async function counted(step: string): Promise<number> {
    let sum = 0;
    for (const running of stack.running('notifications')) {
      sum += valueOf(await scrape(running.operationsUrl), 'notification_messages_total', { step });
    }
    return sum;
  }

  it('sends an address typed at a property’s form one message, which asks its owner to confirm it; the rest wait for that', async () => {
    const property = await createProperty('Quiet Court');
    const stranger = newAddress('stranger');
    const formUrl = await startAt(property, stranger);
    const [primary] = await applicantsAt(property.id);

    const asked = await mailTo(stranger, /^Confirm your e-mail address for your application for Quiet Court$/);
    // Both reminders come due and are held, never sent.
    await eventually('both reminders held', async () => {
      const messages = await messagesOf(primary);
      return messages.filter((m) => m.kind === 'reminder' && m.status === 'held').length === 2;
    });
    expect(inbox.to(stranger)).toEqual([asked]);
    // The integrator sees why they wait, and until when.
    for (const held of (await messagesOf(primary)).filter((m) => m.status === 'held')) {
      expect(held.held_reason).toBe('address_unconfirmed');
      expect(Date.parse(held.held_until) - Date.parse(held.created_at)).toBe(HOLD_HOURS * 3600 * 1000);
    }
    expect(asked.parsed.text).not.toContain(formUrl);
    expect(asked.parsed.text).not.toContain('withdraw');
    // Nothing the visitor typed reaches the address before its owner confirms it, not even a name.
    expect(asked.parsed.text).toMatch(/^Hello,\n/);
    expect(`${asked.parsed.subject}${asked.parsed.text}${String(asked.parsed.html)}`).not.toMatch(/Eve|Sender/);
    const link = CONFIRM_LINK.exec(asked.parsed.text ?? '')![0];
    expect(String(asked.parsed.html)).toContain(`href="${link}"`);

    // Opening the link (as a mail scanner does) confirms nothing; a post without the page's token neither.
    const opened = await fetch(link);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('Confirm my address');
    const forged = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf_token=forged',
    });
    expect(forged.status).toBe(403);
    expect((await messagesOf(primary)).filter((m) => m.status === 'held')).toHaveLength(2);

    const confirmed = await post(link, {});
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('will reach you at this address');
    await eventually(
      'both reminders sent',
      () => inbox.to(stranger).filter((m) => /not finished yet/.test(m.parsed.subject ?? '')).length === 2,
    );
    const messages = await messagesOf(primary);
    expect(messages.map((m) => [m.kind, m.status]).sort()).toEqual([
      ['address_confirmation', 'sent'],
      ['reminder', 'sent'],
      ['reminder', 'sent'],
    ]);
    // The address is asked once: confirming again changes nothing, and a link no e-mail carried is unknown.
    expect((await post(link, {})).status).toBe(200);
    // Its page says so already, before any button.
    expect((await fetch(link.replace(/[A-Za-z0-9_-]{43}$/, 'A'.repeat(43)))).status).toBe(404);
  });

  it('stops every later message to an address whose List-Unsubscribe was posted to in one click, whichever client sends it', async () => {
    const address = newAddress('unsubscriber');
    const invited = await addApplicant(KEYS.clientOne, address, 'Birch Yard');
    const invitation = await mailTo(address, /invited to join/);
    // The header as sent, folded or not.
    const unsubscribe = /^List-Unsubscribe:\s*<(https?:\/\/\S+\/mail\/unsubscribe\/[A-Za-z0-9_-]{43})>\r?$/m.exec(
      invitation.raw,
    )![1];
    expect(invitation.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(invitation.parsed.text).toContain(`To get no more e-mail from us at this address: ${unsubscribe}`);
    expect((await messagesOf(invited)).map((m) => m.status)).toEqual(['sent']);

    // What a reader's one click sends (RFC 8058): no cookie, no page, no token but the link's.
    const clicked = await fetch(unsubscribe, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(clicked.status).toBe(200);
    expect(await clicked.text()).toContain('No more e-mail of ours will be sent to this address.');

    const again = await addApplicant(KEYS.clientTwo, address, 'Other Landlord Flats');
    await eventually('the next message suppressed', async () =>
      (await messagesOf(again, KEYS.clientTwo)).some((m) => m.kind === 'invitation' && m.status === 'suppressed'),
    );
    expect(inbox.to(address)).toEqual([invitation]);
    expect((await fetch(unsubscribe.replace(/[A-Za-z0-9_-]{43}$/, 'B'.repeat(43)), { method: 'POST' })).status).toBe(404);
  });

  it('names the address an unsubscribe link stops, masked, and lets the link do nothing past its 90 days', async () => {
    const address = newAddress('forwarded');
    await addApplicant(KEYS.clientOne, address, 'Aspen Row');
    const link = /^List-Unsubscribe:\s*<(\S+)>\r?$/m.exec((await mailTo(address, /invited to join/)).raw)![1];
    const page = await fetch(link);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('will be sent to f***@example.test again. If that is not your address');
    expect(text).not.toContain(address);

    // The link's e-mail made 91 days ago.
    const database = await stack.database('notifications');
    const made = { _id: formTokenDigest(link.slice(-43)) as never };
    await database.collection('address_links').updateOne(made, { $set: { created_at: new Date(Date.now() - 91 * 86_400_000) } });
    await database.close();
    const expired = await fetch(link);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain(
      'This link worked for 90 days after its e-mail was sent and has expired, so it did nothing.',
    );
    const clicked = await fetch(link, { method: 'POST', body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }) });
    expect(clicked.status).toBe(410);
    expect(await clicked.text()).toContain('use the link in the latest e-mail you received from us, or reply to that e-mail');
    const suppression = await client.get(`/api/v2/suppressions/${encodeURIComponent(address)}`);
    expect(suppression.body.suppression.suppressed).toBe(false);
  });

  it('lets an integrator see an unsubscribed address and lift it for its own mail, audited, until it unsubscribes again', async () => {
    const address = newAddress('lifted');
    const path = `/api/v2/suppressions/${encodeURIComponent(address)}`;
    const unsubscribeFrom = async (mail: ReceivedMail) => {
      const link = /^List-Unsubscribe:\s*<(\S+)>\r?$/m.exec(mail.raw)![1];
      const clicked = await fetch(link, { method: 'POST', body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }) });
      expect(clicked.status).toBe(200);
    };
    const invitationStatus = async (key: string) => {
      const invited = await addApplicant(key, address, 'Larch Court');
      const settled = await eventually('the invitation settled', async () => {
        const invitation = (await messagesOf(invited, key)).find((m) => m.kind === 'invitation');
        return invitation && ['sent', 'suppressed'].includes(invitation.status) ? invitation : undefined;
      });
      return settled.status;
    };

    expect((await client.get(path)).body.suppression).toEqual({
      email: address,
      suppressed: false,
      unsubscribed_at: null,
      lifted_at: null,
    });
    expect((await client.delete(path)).status).toBe(404);
    expect(await invitationStatus(KEYS.clientOne)).toBe('sent');
    await unsubscribeFrom(await mailTo(address, /invited to join/));
    expect(await invitationStatus(KEYS.clientOne)).toBe('suppressed');
    const seen = (await client.get(path)).body.suppression;
    expect(seen).toMatchObject({ email: address, suppressed: true, lifted_at: null });
    expect(Date.parse(seen.unsubscribed_at)).toBeGreaterThan(Date.now() - 120_000);

    const requestId = `lift-${randomBytes(4).toString('hex')}`;
    const lifted = await client.delete(path, { headers: { 'x-request-id': requestId } });
    expect(lifted.status).toBe(200);
    expect(lifted.body.suppression).toMatchObject({ email: address, suppressed: false, unsubscribed_at: seen.unsubscribed_at });
    const audited = (await client.get('/api/v2/audit_events')).body.audit_events;
    expect(audited.find((event: Record<string, unknown>) => event.request_id === requestId)).toMatchObject({
      action: 'suppression.lifted',
      key_id: createHash('sha256').update(KEYS.clientOne).digest('hex').slice(0, 16),
      application_id: null,
    });

    // Lifted for client one's mail alone: the next of its messages goes, another client's stays suppressed.
    expect(await invitationStatus(KEYS.clientOne)).toBe('sent');
    expect(inbox.to(address)).toHaveLength(2);
    expect(await invitationStatus(KEYS.clientTwo)).toBe('suppressed');
    expect((await client.get(path, { key: KEYS.clientTwo })).body.suppression.suppressed).toBe(true);

    // Unsubscribing again suppresses it again for every client.
    await unsubscribeFrom(inbox.to(address)[1]);
    expect((await client.get(path)).body.suppression.suppressed).toBe(true);
    expect(await invitationStatus(KEYS.clientOne)).toBe('suppressed');
    expect((await client.get('/api/v2/suppressions/not-an-address')).status).toBe(422);
  });

  it(`hands an address at most MAIL_DAILY_LIMIT_PER_ADDRESS (${DAILY_LIMIT}) messages a day, from every client together; the rest wait`, async () => {
    const address = newAddress('popular');
    const before = await counted('over_daily_limit');
    const invited: Array<{ key: string; applicant: Record<string, any> }> = [];
    for (const [i, key] of [KEYS.clientOne, KEYS.clientTwo, KEYS.clientOne, KEYS.clientTwo].entries()) {
      invited.push({ key, applicant: await addApplicant(key, address, `Limit House ${i}`) });
    }
    await eventually('the day’s messages sent, one held back', async () => {
      const statuses = await Promise.all(
        invited.map(async ({ key, applicant }) => (await messagesOf(applicant, key))[0]?.status),
      );
      return (
        statuses.filter((status) => status === 'sent').length === DAILY_LIMIT && (await counted('over_daily_limit')) > before
      );
    });
    expect(inbox.to(address)).toHaveLength(DAILY_LIMIT);
    const waiting = await Promise.all(invited.map(async ({ key, applicant }) => (await messagesOf(applicant, key))[0]));
    expect(waiting.filter((m) => m.status !== 'sent')).toEqual([expect.objectContaining({ status: 'pending', attempts: 0 })]);
  });

  /**
   * Fills in a whole form at each `property` from its `sender` address, naming six people on each;
   * resolves with the addresses named and, once each has one, their invitations.
   */
  async function nameSixOnEachForm(forms: Array<{ property: Record<string, any>; sender: string }>) {
    const named: string[] = [];
    for (const [form, { property, sender }] of forms.entries()) {
      const formUrl = await startAt(property, sender);
      const household: Record<string, string> = {};
      for (const [group, count] of [
        ['adults', 3],
        ['guarantors', 3],
      ] as const) {
        for (let i = 0; i < count; i++) {
          const email = newAddress(`named-${form}-${group}-${i}`);
          named.push(email);
          Object.assign(household, {
            [`${group}.${i}.first_name`]: 'Named',
            [`${group}.${i}.last_name`]: `Person ${i}`,
            [`${group}.${i}.email`]: email,
          });
        }
      }
      const steps: Array<[string, Record<string, string>]> = [
        ['details', { desired_move_in: '2027-03-01' }],
        ['identity', IDENTITY],
        ['residence_history', RESIDENCES],
        ['employment', EMPLOYMENT],
        ['household', household],
        ['emergency_contact', EMERGENCY],
        ['questions', ANSWERS],
        ['finish', { consent: 'yes', signature: 'Eve Sender' }],
      ];
      for (const [step, fields] of steps) {
        const sent = await post(`${formUrl}/${step}`, fields);
        expect({ step, status: sent.status }).toEqual({ step, status: 303 });
      }
    }
    const properties = [...new Set(forms.map(({ property }) => property))];
    const invitations = async () => {
      const applicants = (await Promise.all(properties.map((property) => applicantsAt(property.id)))).flat();
      const lists = await Promise.all(applicants.filter((a) => a.type !== 'primary').map((a) => messagesOf(a)));
      return lists.flat().filter((m) => m.kind === 'invitation');
    };
    const made = await eventually(`an invitation made for each of the ${named.length} people named`, async () => {
      const found = await invitations();
      return found.length === named.length && found;
    });
    return { named, made };
  }

  /** Expects twelve of the invitations held (or their hold over) and their addresses asked to confirm, six suppressed. */
  async function expectTwelveOfEighteen({ named, made }: { named: string[]; made: any[] }): Promise<void> {
    expect(made.filter((m) => m.held_reason === 'address_unconfirmed')).toHaveLength(12);
    expect(made.filter((m) => m.status === 'suppressed')).toHaveLength(6);
    // Each of the twelve is asked to confirm its address; the six past the cap get nothing.
    await eventually(
      'twelve addresses asked to confirm',
      () => named.filter((address) => inbox.to(address).length > 0).length === 12,
    );
    for (const address of named) {
      for (const mail of inbox.to(address)) expect(mail.parsed.subject).toMatch(/^Confirm your e-mail address/);
    }
  }

  it('invites at most 12 people a day named on forms filled in from one address, and asks each of them to confirm first', async () => {
    const sender = newAddress('inviter');
    const forms: Array<{ property: Record<string, any>; sender: string }> = [];
    for (let form = 0; form < 3; form++) forms.push({ property: await createProperty(`Crowded Row ${form}`), sender });
    await expectTwelveOfEighteen(await nameSixOnEachForm(forms));
  });

  it(`invites at most FORM_INVITATIONS_PER_PROPERTY_A_DAY (${PROPERTY_INVITATIONS}) people named at one property, a new sender address on each form or not`, async () => {
    const property = await createProperty('Busy Terrace');
    const forms = [0, 1, 2].map((form) => ({ property, sender: newAddress(`fresh-sender-${form}`) }));
    await expectTwelveOfEighteen(await nameSixOnEachForm(forms));
  });

  it('asks again when its owner applies after a stranger typed the address, then sends what was held', async () => {
    const owner = newAddress('owner');
    const strangers = await createProperty('First Typed Lane');
    await startAt(strangers, owner);
    const first = await mailTo(owner, /^Confirm your e-mail address for your application for First Typed Lane$/);

    // The owner applies to the same client later: its messages are held, and it is asked afresh.
    const own = await createProperty('Own Choice Lane');
    await startAt(own, owner);
    const [primary] = await applicantsAt(own.id);
    const second = await mailTo(owner, /^Confirm your e-mail address for your application for Own Choice Lane$/);
    const link = CONFIRM_LINK.exec(second.parsed.text ?? '')![0];
    expect(link).not.toBe(CONFIRM_LINK.exec(first.parsed.text ?? '')![0]);
    await eventually('a reminder held, saying why', async () =>
      (await messagesOf(primary)).some(
        (m) => m.kind === 'reminder' && m.status === 'held' && m.held_reason === 'address_unconfirmed',
      ),
    );

    expect((await post(link, {})).status).toBe(200);
    await mailTo(owner, /not finished yet/);
    expect((await messagesOf(primary)).filter((m) => m.status === 'held')).toEqual([]);
  });

  it(
    'gives up a message still held when its hold is over, and says why',
    async () => {
      const property = await createProperty('Never Confirmed Close');
      await startAt(property, newAddress('unconfirmed'));
      const [primary] = await applicantsAt(property.id);
      const ended = await eventually(
        'both held reminders given up',
        async () => {
          const reminders = (await messagesOf(primary)).filter((m) => m.kind === 'reminder');
          return reminders.length === 2 && reminders.every((m) => m.status === 'failed') && reminders;
        },
        { timeoutMs: HOLD_HOURS * 3600 * 1000 + 30_000 },
      );
      for (const reminder of ended) {
        expect(reminder).toMatchObject({ held_reason: 'address_unconfirmed', attempts: 0, sent_at: null });
        expect(Date.parse(reminder.held_until)).toBeLessThanOrEqual(Date.now());
      }
    },
    HOLD_HOURS * 3600 * 1000 + 60_000,
  );

  it('counts every spelling of one mailbox as one: at most 3 address confirmations an hour reach it', async () => {
    const mailbox = newAddress('victim');
    const [local, domain] = mailbox.split('@');
    const spellings = [
      mailbox,
      `${local}+a@${domain}`,
      `${local.toUpperCase()}+b@${domain}`,
      `${local}+c@${domain.toUpperCase()}`,
      `${local}+d@${domain}`,
    ];
    const primaries: Array<Record<string, any>> = [];
    for (const [i, spelling] of spellings.entries()) {
      const property = await createProperty(`Spelling Street ${i}`);
      await startAt(property, spelling);
      primaries.push((await applicantsAt(property.id))[0]);
    }
    const asked = await eventually('an address confirmation made for each application', async () => {
      const found = (await Promise.all(primaries.map((primary) => messagesOf(primary))))
        .flat()
        .filter((m) => m.kind === 'address_confirmation');
      return found.length === spellings.length && found.every((m) => m.status !== 'pending') && found;
    });
    expect(asked.map((m) => m.status).sort()).toEqual(['sent', 'sent', 'sent', 'suppressed', 'suppressed']);
    expect(new Set(spellings.flatMap((spelling) => inbox.to(spelling)))).toHaveProperty('size', 3);
  });
});

describe('the address book on the real database', () => {
  let connection: Connection;
  let dbName: string;

  beforeAll(async () => {
    dbName = `t${randomBytes(4).toString('hex')}_address_book`;
    connection = await mongoose.createConnection(process.env.MONGODB_URI!, { dbName }).asPromise();
  });

  afterAll(async () => {
    await connection?.dropDatabase();
    await connection?.close();
  });

  async function book(): Promise<AddressBook> {
    const made = new AddressBook(connection, new ClaimStorage(connection));
    await made.onModuleInit();
    return made;
  }

  it('gives a cap’s places to as many messages as it has, the same message its own place again, across instances at once', async () => {
    const [one, two] = await Promise.all([book(), book()]);
    const keys = Array.from({ length: 10 }, (_, i) => `message-${i}`);
    const taken = await Promise.all(keys.map((key, i) => (i % 2 ? one : two).takePlace('invited:77', 6, key)));
    expect(taken.filter(Boolean)).toHaveLength(6);
    const holders = keys.filter((_, i) => taken[i]);
    // A message asking again (a redelivered event) keeps its place; one that had none still has none.
    for (const key of holders) expect(await one.takePlace('invited:77', 6, key)).toBe(true);
    expect(
      await two.takePlace(
        'invited:77',
        6,
        keys.find((_, i) => !taken[i])!,
      ),
    ).toBe(false);
  });

  it('removes the places of past days only', async () => {
    const instance = await book();
    const now = new Date();
    expect(await instance.takePlace('sent:a:old', 1, 'k1', new Date(now.getTime() - 1000))).toBe(true);
    expect(await instance.takePlace('sent:a:new', 1, 'k2', new Date(now.getTime() + 3600_000))).toBe(true);
    expect(await instance.purgeExpired(now)).toBe(1);
    expect(await instance.takePlace('sent:a:old', 1, 'k3')).toBe(true);
    expect(await instance.takePlace('sent:a:new', 1, 'k3')).toBe(false);
  });
});
