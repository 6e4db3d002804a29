import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mongoose from 'mongoose';
import { queueName, QUEUES } from '@app/contracts';
import { formTokenDigest } from '@app/crypto';
import { ClaimStorage } from '@app/persistence';
import { DocumentStorageRepository, STORAGE_UNIT_BYTES } from '../apps/applications/src/store/document-storage.repository';
import { RentalApplicationsClient } from '../packages/client';
import { freePort, KEYS, Stack } from '../tools/stack';
import { FERRETDB_SCRIPT } from './support/global-setup';
import { csrfOf, sendStep, startForm, uploadDocument } from './support/form-documents';
import { Api, api, expectErrorBody } from './support/http';
import { ANSWERS, EMERGENCY, EMPLOYMENT, IDENTITY, RESIDENCES, yearsAgo } from './support/preset-one-answers';
import { OtlpReceiver } from './support/otlp-receiver';
import { SmtpInbox } from './support/smtp-inbox';
import { eventually } from './support/wait';

const run = promisify(execFile);
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Client one's key with the sensitive_data scope, to read what is left, and not the
 * personal_data_erasure scope, which client one's usual key has.
 */
const READER_KEY = 'test-key-erasure-reader';
const reader = { key: READER_KEY };
const keyIdOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16);
const pathOf = (url: string) => new URL(url).pathname;
const NOTHING_LEFT = { applicants: 0, forms: 0, documents: 0, files: 0, chunks: 0 };
/** The applications service's ABANDONED_FORM_DAYS, left at its default. */
const ABANDONED_FORM_DAYS = 30;

/** The environment that runs an app on a clock `offsetMs` ahead of the others'. */
const clockAhead = (offsetMs: number) => ({
  NODE_OPTIONS: `--require ${join(__dirname, 'support', 'skewed-clock.js')}`,
  CLOCK_OFFSET_MS: String(offsetMs),
});

/** An application filled in on the form, and what of it is stored where an erasure must reach it. */
interface Filled {
  id: number;
  primary: string;
  token: string;
  documentId: number;
  /** Text the applicant typed, stored as typed: addresses, employer, a source of income. */
  typed: string[];
  /** The bytes uploaded, kept only encrypted: never stored as uploaded. */
  uploaded: string;
}

/**
 * Erasure of applicants' personal data, against the whole stack on a FerretDB of this suite's
 * own, whose SQLite files the suite reads: at an applicant's request (DELETE .../personal_data),
 * by the retention sweep, run by two instances at once on a clock set past the client's
 * retention, and by the same sweep for a form abandoned on the public form. What an application
 * keeps is read through the API; that the rest is gone is read in the database, and then in its
 * files, where a deleted row would otherwise linger.
 */
describe('erasing applicants’ personal data', () => {
  let dir: string;
  let uri: string;
  let stack: Stack;
  let client: Api;
  let database: mongoose.Connection;
  let propertyId: number;
  let inbox: SmtpInbox;
  let receiver: OtlpReceiver;
  /** What each application stores of its applicants' personal data, as the bytes of the files would hold it. */
  const stored = new Map<number, string[]>();
  /** The GridFS files of each application's documents. */
  const files = new Map<number, mongoose.mongo.ObjectId[]>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ferretdb-erasure-'));
    uri = (await run(FERRETDB_SCRIPT, ['start', dir, String(await freePort())])).stdout.trim().split('\n').pop()!;
    inbox = await SmtpInbox.start();
    receiver = await OtlpReceiver.start();
    stack = await Stack.start({
      form: true,
      instances: { notifications: 1 },
      env: {
        MONGODB_URI: uri,
        SMTP_URL: inbox.url,
        MAIL_FROM: 'applications@mail.example.test',
        // A refused message stays to be retried while the suite erases it.
        MAIL_RETRY_SCHEDULE: '60',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        FORM_RATE_LIMIT_PER_MINUTE: '1000000',
        FORM_REQUEST_RATE_LIMIT_PER_MINUTE: '1000000',
        API_KEYS: `${KEYS.clientOne}:1,${KEYS.clientTwo}:2,${READER_KEY}:1`,
        API_KEY_SCOPES: `${READER_KEY}:sensitive_data,${KEYS.clientOne}:personal_data_erasure,${KEYS.clientTwo}:personal_data_erasure`,
      },
    });
    client = api(stack.url);
    database = await mongoose.createConnection(uri, { dbName: queueName(stack.namespace, QUEUES.APPLICATIONS) }).asPromise();
    // Preset 1 asks the identity, the addresses, employment and income, and takes documents.
    const property = await client.post('/api/v2/properties', {
      property: { name: 'Erasure Court', kind: 'single_family', form_preset_id: 1 },
    });
    expect(property.status).toBe(201);
    propertyId = property.body.property.id;
  });

  afterAll(async () => {
    await database?.close();
    await stack?.stop();
    await inbox?.close();
    await receiver?.close();
    if (dir) {
      await run(FERRETDB_SCRIPT, ['stop', dir]);
      await rm(dir, { recursive: true, force: true });
    }
  });

  /**
   * An application whose primary applicant gave its SSN and date of birth through the API and
   * again on the form, with its driver's license, two addresses, its employer and other income
   * and a document; and a guarantor added (and corrected) through the API with its own SSN.
   */
  async function filled(clientKey: string = KEYS.clientOne, property = propertyId): Promise<Filled> {
    const mark = randomBytes(5).toString('hex');
    const created = await client.post(
      '/api/v2/applications',
      {
        application: {
          property_id: property,
          applicant: {
            first_name: 'Erin',
            last_name: 'Sure',
            email: 'erin@example.com',
            id_number: '219-09-9999',
            dob: '1981-07-23',
          },
        },
      },
      { key: clientKey },
    );
    expect(created.status).toBe(201);
    const { id } = created.body.application;
    const guarantor = await client.post(
      `/api/v2/applications/${id}/applicants`,
      {
        applicant: {
          type: 'guarantor',
          first_name: 'Gary',
          last_name: 'Antor',
          email: 'gary@example.com',
          id_number: '457-55-5462',
        },
      },
      { key: clientKey },
    );
    expect(guarantor.status).toBe(201);
    const corrected = await client.patch(
      pathOf(guarantor.body.applicant.api_url),
      { applicant: { phone: '5550107777' } },
      { key: clientKey },
    );
    expect(corrected.status).toBe(200);

    const primary = pathOf(created.body.application.applicants[0].api_url);
    const formUrl = (await client.get(primary, { key: clientKey })).body.applicant.form_url;
    const token = await startForm(stack.formUrl, formUrl, { first_name: 'Erin', last_name: 'Sure', email: 'erin@example.com' });
    const typed = [
      `${mark} Forgotten Lane, Springfield`,
      `${mark} Older Road, Shelbyville`,
      `${mark} Widgets Inc`,
      `${mark} royalties`,
    ];
    for (const [step, fields] of [
      ['details', { desired_move_in: '2027-03-01' }],
      [
        'identity',
        { dob: '1981-07-23', id_number: '078-05-1120', drivers_license_state: 'NY', drivers_license_number: `D${mark}` },
      ],
      [
        'residence_history',
        {
          'residences.0.address': typed[0],
          'residences.0.from': yearsAgo(2),
          'residences.1.address': typed[1],
          'residences.1.from': yearsAgo(6),
          'residences.1.to': yearsAgo(2),
        },
      ],
      [
        'employment',
        {
          'employment.0.employer': typed[2],
          'employment.0.start_date': '2020-02-01',
          'employment.0.monthly_income': '6100',
          'other_income.0.source': typed[3],
          'other_income.0.monthly_amount': '400',
        },
      ],
    ] as const) {
      expect([step, (await sendStep(stack.formUrl, token, step, fields)).status]).toEqual([step, 303]);
    }
    const uploaded = `pay-stub-${mark}`;
    const pdf = Buffer.from(`%PDF-1.4\n% ${uploaded}\n${' '.repeat(2000)}\n%%EOF\n`);
    const upload = await uploadDocument(stack.formUrl, token, {
      kind: 'proof_of_income',
      name: `${mark}.pdf`,
      type: 'application/pdf',
      bytes: pdf,
    });
    expect(upload.status).toBe(303);
    const documents = await client.get(`${primary}/documents`, clientKey === KEYS.clientOne ? reader : { key: clientKey });
    const documentId = documents.body.documents?.[0]?.id;
    stored.set(id, [...typed, ...(await storedCopies(id))]);
    return { id, primary, token, documentId, typed, uploaded };
  }

  /**
   * Every copy of the application's applicants the database keeps: in its document, in the claims
   * of its versions (those that added or corrected one), and their form records (and completions).
   */
  async function storedApplicants(id: number) {
    const application = await database.collection('applications').findOne({ _id: String(id) as never });
    const claims = await database
      .collection('application_versions')
      .find({ _id: { $in: Array.from({ length: 10 }, (_, v) => `${id}:${v + 1}`) } as never })
      .toArray();
    const applicants = [
      ...application!.applicants,
      ...claims.flatMap((claim) => [claim.applicant, claim.updated_applicant].filter(Boolean)),
    ];
    const digests = application!.applicants.map((applicant: { form_token_digest: string }) => applicant.form_token_digest);
    const forms = [];
    for (const collection of ['applicant_forms', 'form_completions']) {
      forms.push(
        ...(await database
          .collection(collection)
          .find({ _id: { $in: digests } })
          .toArray()),
      );
    }
    return { applicants, forms, documentKeys: applicants.map((applicant) => `${id}/${applicant.id}/1`) };
  }

  /**
   * What the database holds of the application's personal data that is not typed text: each
   * sealed value (SSN, date of birth, driver's license number, a file's data key, a document's
   * file name) as its ciphertext and tag, and each document's encrypted bytes, as FerretDB writes
   * them into its files (binary data as base64). Each is unique to this application.
   */
  async function storedCopies(id: number): Promise<string[]> {
    const found: string[] = [];
    const sealed = (value: unknown) => {
      if (value && typeof value === 'object' && 'ciphertext' in value && 'tag' in value) {
        const { ciphertext, tag } = value as { ciphertext: string; tag: string };
        found.push(ciphertext, tag);
      }
    };
    const { applicants, forms, documentKeys } = await storedApplicants(id);
    for (const applicant of applicants) for (const field of ['dob', 'id_number']) sealed(applicant[field]);
    for (const form of forms) for (const field of ['dob', 'id_number', 'drivers_license_number']) sealed(form[field]);
    const records = await database
      .collection('applicant_documents')
      .find({ _id: { $in: documentKeys } as never })
      .toArray();
    files.set(id, []);
    for (const record of records) {
      sealed(record.file_name);
      const fileId = new mongoose.mongo.ObjectId(record.file_id);
      files.get(id)!.push(fileId);
      const file = await database.collection('documents.files').findOne({ _id: fileId });
      sealed(file!.metadata.key);
      for (const chunk of await database.collection('documents.chunks').find({ files_id: fileId }).toArray()) {
        found.push(Buffer.from(chunk.data.buffer).toString('base64').slice(0, 64));
      }
    }
    // Nothing personal left unread: the SSNs (API, form, guarantor), dates of birth, the license, a document.
    expect(found.length).toBeGreaterThanOrEqual(2 * 6 + 3);
    return found;
  }

  /** Which of `texts` the database's files (SQLite's, with their write-ahead logs) hold. */
  async function inFiles(texts: string[]): Promise<string[]> {
    const names = (await readdir(dir)).filter((name) => name.includes('.sqlite'));
    const bytes = await Promise.all(names.map((name) => readFile(join(dir, name))));
    return texts.filter((text) => bytes.some((content) => content.includes(text)));
  }

  let requested: Filled;
  let expired: Filled;
  let undecided: Filled;
  let otherClients: Filled;

  it('erases and changes the retention only for a key granted the personal_data_erasure scope', async () => {
    const created = await client.post('/api/v2/applications', {
      application: { property_id: propertyId, applicant: { first_name: 'Kept', last_name: 'Safe', email: 'kept@example.com' } },
    });
    const { id } = created.body.application;
    const erase = await client.delete(`/api/v2/applications/${id}/personal_data`, reader);
    expect(erase.status).toBe(403);
    expectErrorBody(
      erase,
      'erasing personal data needs the personal_data_erasure scope, which this API key does not have (API_KEY_SCOPES)',
    );
    // Refused before the body is read: an invalid one is a 403 too.
    for (const body of [{ retention_settings: { personal_data_days: 1, confirm_shortening: true } }, { retention_settings: 7 }]) {
      const put = await client.call('PUT', '/api/v2/retention_settings', body, reader);
      expect(put.status).toBe(403);
      expectErrorBody(
        put,
        'changing the retention settings needs the personal_data_erasure scope, which this API key does not have (API_KEY_SCOPES)',
      );
    }
    // Reading them needs no scope; nothing was changed or erased.
    expect((await client.get('/api/v2/retention_settings', reader)).body).toEqual({
      retention_settings: { personal_data_days: 730, pending_change: null },
    });
    expect((await client.get(`/api/v2/applications/${id}`)).body.application.personal_data_erased_at).toBeNull();
    const events = (await client.get('/api/v2/audit_events?limit=100')).body.audit_events;
    expect(events.filter((event: { action: string }) => event.action !== 'sensitive_data.read')).toEqual([]);
  });

  it('erases at an applicant’s request, keeping the decisions and dates, and says so', async () => {
    requested = await filled();
    const decided = await client.post(`/api/v2/applications/${requested.id}/decision`, {
      decision: { status: 'declined', reasons: ['income'], note: 'Income below three times the rent.' },
    });
    expect(decided.status).toBe(201);
    const before = (await client.get(`/api/v2/applications/${requested.id}`)).body.application;
    expect(before).toMatchObject({ personal_data_erased_at: null, household_monthly_income: 6500 });
    const decisions = (await client.get(`/api/v2/applications/${requested.id}/decisions`)).body;
    // The test reads the files as they are: while FerretDB runs, what it stored is there to find.
    expect(await inFiles(stored.get(requested.id)!)).toEqual(stored.get(requested.id));
    const storage = new DocumentStorageRepository(new ClaimStorage(database));
    const used = await storage.used(1);

    const erased = await client.delete(`/api/v2/applications/${requested.id}/personal_data`);
    expect(erased.status).toBe(200);
    const application = erased.body.application;
    expect(application.personal_data_erased_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(application).toEqual({
      ...before,
      personal_data_erased_at: application.personal_data_erased_at,
      updated_at: application.updated_at,
      household_monthly_income: null,
      income_to_rent: null,
      applicants: before.applicants.map((applicant: object) => ({ ...applicant, monthly_income: null, income_to_rent: null })),
    });
    expect((await client.get(`/api/v2/applications/${requested.id}/decisions`)).body).toEqual(decisions);

    const applicant = (await client.get(`${requested.primary}?include=sensitive_data`, reader)).body.applicant;
    expect(applicant).toMatchObject({
      first_name: 'Erin',
      email: 'erin@example.com',
      form_status: 'started',
      identity: null,
      residences: null,
      employment: null,
      other_income: null,
      sensitive_data: { dob: null, id_number: null, drivers_license_number: null },
    });
    expect(JSON.stringify(applicant)).not.toContain(requested.typed[0].slice(0, 10));
    expect((await client.get(`${requested.primary}/documents`, reader)).body).toEqual({ documents: [] });
    const download = await client.get(`${requested.primary}/documents/${requested.documentId}/content`, reader);
    expect(download.status).toBe(404);
    expectErrorBody(download, `document ${requested.documentId} cannot be found`);

    // One audit event per applicant, naming the key that asked.
    const events = async () =>
      (await client.get('/api/v2/audit_events?limit=100')).body.audit_events.filter(
        (event: { action: string; application_id: number }) =>
          event.action === 'personal_data.erased' && event.application_id === requested.id,
      );
    const audited = await events();
    expect(audited.map((event: { applicant_id: number }) => event.applicant_id).sort()).toEqual(
      before.applicants.map((summary: { id: number }) => summary.id).sort(),
    );
    for (const event of audited) {
      expect(event).toMatchObject({
        key_id: keyIdOf(KEYS.clientOne),
        read: null,
        document_id: null,
        trigger: 'api_request',
        retention_change: null,
      });
      expect(event.created_at).toBe(application.personal_data_erased_at);
    }

    // Asked again (by the typed client): the same answer, and nothing more recorded.
    const typed = new RentalApplicationsClient({ baseUrl: stack.url, apiKey: KEYS.clientOne });
    const again = await typed.applications.erasePersonalData(requested.id);
    expect(again.personal_data_erased_at).toBe(application.personal_data_erased_at);
    expect(await events()).toEqual(audited);

    // Nothing can bring it back: the form takes no more answers, no applicant can be added.
    const step = await sendStep(stack.formUrl, requested.token, 'identity', { dob: '1981-07-23', id_number: '078-05-1120' });
    expect(step.status).toBe(422);
    expect(await step.text()).toContain('the personal data of this application was erased');
    const added = await client.post(`/api/v2/applications/${requested.id}/applicants`, {
      applicant: { first_name: 'Late', last_name: 'Comer', email: 'late@example.com', id_number: '123-45-6789' },
    });
    expect(added.status).toBe(409);
    expectErrorBody(added, `the personal data of application ${requested.id} was erased; no applicant can be added to it`);

    // In the database: no copy of a sealed value, no document record, file or chunk; the room
    // the document took in the client's storage budget is free again.
    expect(await storedCopiesLeft(requested.id)).toEqual(NOTHING_LEFT);
    expect(await storage.used(1)).toBe(used - STORAGE_UNIT_BYTES);
  });

  /** The room client one's documents take in its storage budget, as their records say: what the budget should count. */
  async function roomOfDocuments(clientId: number): Promise<number> {
    const records = await database.collection('applicant_documents').find({ client_id: clientId }).toArray();
    const units = records.map((record) => Math.max(1, Math.ceil(record.size / STORAGE_UNIT_BYTES)));
    return units.reduce((sum, each) => sum + each, 0) * STORAGE_UNIT_BYTES;
  }

  it('gives each document’s room back once, however many erasures of it run at once', async () => {
    // A second instance, so that the erasures meet in the database as well as in one process.
    await stack.startApp('applications');
    const storage = new DocumentStorageRepository(new ClaimStorage(database));
    const applications = [await filled(), await filled()];
    expect(await storage.used(1)).toBe(await roomOfDocuments(1));

    // Several at once each (a retry after a 503, a second replica), and both applications at once.
    const answers = await Promise.all(
      applications.flatMap(({ id }) => [0, 1, 2].map(() => client.delete(`/api/v2/applications/${id}/personal_data`))),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const { id } of applications) expect(await storedCopiesLeft(id)).toEqual(NOTHING_LEFT);
    expect(await storage.used(1)).toBe(await roomOfDocuments(1));
  });

  it('gives a document’s room back once when an erasure stopped half-way is done again', async () => {
    const storage = new DocumentStorageRepository(new ClaimStorage(database));
    const stopped = await filled();
    // What an erasure that stopped after giving back the document's room leaves: its record, naming the file.
    const [record] = await database.collection('applicant_documents').find({ application_id: stopped.id }).toArray();
    await storage.giveBack(1, record.file_id, record.size);
    const given = await storage.used(1);

    const retried = await client.delete(`/api/v2/applications/${stopped.id}/personal_data`);
    expect(retried.status).toBe(200);
    expect(await storedCopiesLeft(stopped.id)).toEqual(NOTHING_LEFT);
    expect(await storage.used(1)).toBe(given);
    expect(await storage.used(1)).toBe(await roomOfDocuments(1));
  });

  /** What the database still holds of the application's personal data, by where it is kept. */
  async function storedCopiesLeft(id: number) {
    const { applicants, forms, documentKeys } = await storedApplicants(id);
    const personal = ['dob', 'id_number', 'drivers_license_number', 'sections', 'form_answers'];
    return {
      applicants: applicants.filter((applicant) => personal.some((field) => applicant[field])).length,
      forms: forms.filter((form) => personal.some((field) => field in form)).length,
      documents: await database.collection('applicant_documents').countDocuments({ _id: { $in: documentKeys } as never }),
      files: await database.collection('documents.files').countDocuments({ _id: { $in: files.get(id)! } }),
      chunks: await database.collection('documents.chunks').countDocuments({ files_id: { $in: files.get(id)! } }),
    };
  }

  it('erases decided applications once the client’s retention has passed, once however many instances sweep', async () => {
    expired = await filled();
    undecided = await filled();
    const otherProperty = await client.post(
      '/api/v2/properties',
      { property: { name: 'Other Court', kind: 'single_family', form_preset_id: 1 } },
      { key: KEYS.clientTwo },
    );
    otherClients = await filled(KEYS.clientTwo, otherProperty.body.property.id);
    for (const [key, id] of [
      [KEYS.clientOne, expired.id],
      [KEYS.clientTwo, otherClients.id],
    ] as const) {
      expect(
        (await client.post(`/api/v2/applications/${id}/decision`, { decision: { status: 'approved' } }, { key })).status,
      ).toBe(201);
    }

    const settings = '/api/v2/retention_settings';
    expect((await client.get(settings)).body).toEqual({ retention_settings: { personal_data_days: 730, pending_change: null } });
    // A shortening waits a week, and the audit log names the key and the request that asked for it.
    const askedAt = Date.now();
    const put = await client.call(
      'PUT',
      settings,
      { retention_settings: { personal_data_days: 1 } },
      { headers: { 'x-request-id': 'shorten-retention-1' } },
    );
    expect(put.status).toBe(200);
    const pending = put.body.retention_settings.pending_change;
    expect(put.body).toEqual({
      retention_settings: {
        personal_data_days: 730,
        pending_change: { personal_data_days: 1, effective_at: pending.effective_at },
      },
    });
    expect(Date.parse(pending.effective_at) - askedAt).toBeGreaterThan(7 * DAY_MS - 60_000);
    expect(Date.parse(pending.effective_at) - askedAt).toBeLessThan(7 * DAY_MS + 60_000);
    const retentionEvents = async () =>
      (await client.get('/api/v2/audit_events?limit=100')).body.audit_events.filter(
        (event: { action: string }) => event.action === 'retention_settings.changed',
      );
    expect(await retentionEvents()).toEqual([
      expect.objectContaining({
        client_id: 1,
        key_id: keyIdOf(KEYS.clientOne),
        request_id: 'shorten-retention-1',
        application_id: null,
        applicant_id: null,
        trigger: null,
        retention_change: { personal_data_days_before: 730, personal_data_days_after: 1, effective_at: pending.effective_at },
      }),
    ]);
    // Confirmed, it applies at once.
    const confirmed = await client.call('PUT', settings, {
      retention_settings: { personal_data_days: 1, confirm_shortening: true },
    });
    expect([confirmed.status, confirmed.body]).toEqual([
      200,
      { retention_settings: { personal_data_days: 1, pending_change: null } },
    ]);
    const [latest] = await retentionEvents();
    expect(latest.retention_change).toEqual({
      personal_data_days_before: 730,
      personal_data_days_after: 1,
      effective_at: latest.created_at,
    });
    const typed = new RentalApplicationsClient({ baseUrl: stack.url, apiKey: KEYS.clientOne });
    expect(await typed.retentionSettings.get()).toEqual({ personal_data_days: 1, pending_change: null });
    expect((await client.get(settings, { key: KEYS.clientTwo })).body).toEqual({
      retention_settings: { personal_data_days: 730, pending_change: null },
    });
    const refused = await client.call('PUT', settings, { retention_settings: { personal_data_days: 0 } });
    expect(refused.status).toBe(422);
    expectErrorBody(refused, 'retention_settings.personal_data_days must be at least 1');

    // Two days on, by the clocks of two more instances, which sweep as they start.
    await Promise.all([0, 1].map(() => stack.startApp('applications', clockAhead(2 * DAY_MS))));
    // An erasure's audit events are its last step: once they are listed, it is done.
    const audited = await eventually(
      'the decided application erased and its audit events recorded',
      async () => {
        const events = (await client.get('/api/v2/audit_events?limit=100')).body.audit_events.filter(
          (event: { action: string; application_id: number }) =>
            event.action === 'personal_data.erased' && event.application_id === expired.id,
        );
        return events.length >= 2 && events;
      },
      { timeoutMs: 20000, intervalMs: 200 },
    );
    const application = (await client.get(`/api/v2/applications/${expired.id}`)).body.application;
    expect(application).toMatchObject({ status: 'approved', household_monthly_income: null });
    expect(application.personal_data_erased_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect((await client.get(`${expired.primary}/documents`, reader)).body).toEqual({ documents: [] });
    // Not decided, or another client's, whose retention is the default: kept.
    expect((await client.get(`/api/v2/applications/${undecided.id}`)).body.application.personal_data_erased_at).toBeNull();
    const others = (await client.get(`/api/v2/applications/${otherClients.id}`, { key: KEYS.clientTwo })).body.application;
    expect(others.personal_data_erased_at).toBeNull();

    // One event per applicant, whichever of the two instances recorded them.
    expect(audited).toHaveLength(application.applicants.length);
    for (const event of audited) expect(event).toMatchObject({ key_id: null, request_id: null, trigger: 'retention_period' });
    expect(await storedCopiesLeft(expired.id)).toEqual(NOTHING_LEFT);
    // The same sweep first erased again the erasure asked for before, more than ten minutes ago by its clock.
    const asked = await database.collection('personal_data_erasures').findOne({ _id: String(requested.id) as never });
    expect(asked!.settled_at).toBeInstanceOf(Date);
  });

  /** An application a visitor started on the property's public form, and the token of its form link. */
  interface Visited {
    id: number;
    token: string;
    /** An address typed on the form, stored as typed. */
    typed: string;
  }

  /**
   * Step 1 on the property's public form, as a browser sends it, then the residence history (an
   * address typed in) and a document; `finish` also sends every other step and signs, completing it.
   */
  async function visited({ finish = false } = {}): Promise<Visited> {
    const apply = `${stack.formUrl}/properties/${propertyId}/apply`;
    const page = await fetch(apply);
    const started = await fetch(apply, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf_token: csrfOf(await page.text()),
        first_name: 'Vic',
        last_name: 'Itor',
        email: 'vic@example.com',
        phone: '5550104444',
      }),
    });
    expect(started.status).toBe(303);
    const token = /^\/applicants\/([^/]+)\//.exec(started.headers.get('location')!)![1];
    const typed = `${randomBytes(5).toString('hex')} Passing Street, Ogdenville`;
    const steps: Array<[string, Record<string, string>]> = [
      ['details', { desired_move_in: '2027-03-01' }],
      ['identity', IDENTITY],
      ['residence_history', { ...RESIDENCES, 'residences.0.address': typed }],
    ];
    if (finish) {
      steps.push(
        ['employment', EMPLOYMENT],
        ['household', { 'minors.0.name': 'Annabella', 'minors.0.age': '7' }],
        ['emergency_contact', EMERGENCY],
        ['questions', ANSWERS],
      );
    }
    for (const [step, fields] of steps) {
      expect([step, (await sendStep(stack.formUrl, token, step, fields)).status]).toEqual([step, 303]);
    }
    await upload(token);
    if (finish) {
      const signed = await sendStep(stack.formUrl, token, 'finish', { consent: 'yes', signature: 'Vic Itor' });
      expect(signed.status).toBe(303);
    }
    const form = await database.collection('applicant_forms').findOne({ _id: formTokenDigest(token) as never });
    return { id: form!.application_id, token, typed };
  }

  async function upload(token: string): Promise<void> {
    const pdf = Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\n${' '.repeat(2000)}\n%%EOF\n`);
    const sent = await uploadDocument(stack.formUrl, token, {
      kind: 'proof_of_income',
      name: 'stub.pdf',
      type: 'application/pdf',
      bytes: pdf,
    });
    expect(sent.status).toBe(303);
  }

  /**
   * Sets every time the application was changed at back `days`: its own, its applicants', their
   * form records' and its documents' uploads, as if nobody had touched it since. Moved back rather
   * than a sweeper's clock set ahead: a step or an upload made afterwards is then as recent as it
   * is, where a clock set ahead would make it as old as the rest.
   */
  async function untouchedFor(id: number, days: number): Promise<void> {
    const then = new Date(Date.now() - days * DAY_MS);
    const applications = database.collection('applications');
    const application = (await applications.findOne({ _id: String(id) as never }))!;
    const applicants = application.applicants.map((applicant: object) => ({ ...applicant, created_at: then, updated_at: then }));
    await applications.updateOne({ _id: String(id) as never }, { $set: { created_at: then, updated_at: then, applicants } });
    const digests = applicants.map((applicant: { form_token_digest: string }) => applicant.form_token_digest);
    await database.collection('applicant_forms').updateMany({ _id: { $in: digests } }, { $set: { updated_at: then } });
    await database.collection('applicant_documents').updateMany({ application_id: id }, { $set: { uploaded_at: then } });
  }

  let abandoned: Visited;

  it(`erases a form started on the public form and left unfinished ${ABANDONED_FORM_DAYS} days without a change, and no other`, async () => {
    abandoned = await visited();
    const completed = await visited({ finish: true });
    const stepped = await visited();
    const uploaded = await visited();
    for (const id of [abandoned.id, completed.id, stepped.id, uploaded.id, undecided.id]) {
      await untouchedFor(id, ABANDONED_FORM_DAYS + 1);
    }
    // Changed on the form since: a step saved, a document uploaded.
    expect((await sendStep(stack.formUrl, stepped.token, 'employment', EMPLOYMENT)).status).toBe(303);
    await upload(uploaded.token);
    const records = await database.collection('applicant_documents').find({ application_id: abandoned.id }).toArray();
    files.set(
      abandoned.id,
      records.map((record) => new mongoose.mongo.ObjectId(record.file_id)),
    );
    expect(files.get(abandoned.id)).toHaveLength(1);
    const storage = new DocumentStorageRepository(new ClaimStorage(database));
    const used = await storage.used(1);

    // One more instance sweeps as it starts; it says what it erased once the sweep is over.
    const sweeper = await stack.startApp('applications');
    await eventually(
      'the sweep over, having erased the abandoned form',
      () => sweeper.logs.some((record) => record.msg?.includes('forms abandoned on the public form')),
      { timeoutMs: 20000, intervalMs: 200 },
    );
    const erased = (await client.get(`/api/v2/applications/${abandoned.id}`)).body.application;
    expect(erased).toMatchObject({ status: 'draft', household_monthly_income: null });
    expect(erased.personal_data_erased_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    const primary = pathOf(erased.applicants[0].api_url);
    expect((await client.get(`${primary}/documents`, reader)).body).toEqual({ documents: [] });
    expect(await storedCopiesLeft(abandoned.id)).toEqual(NOTHING_LEFT);
    expect(await storage.used(1)).toBe(used - STORAGE_UNIT_BYTES);
    const events = (await client.get(`/api/v2/audit_events?applicant_id=${erased.applicants[0].id}`)).body.audit_events;
    expect(events.filter((event: { action: string }) => event.action === 'personal_data.erased')).toEqual([
      expect.objectContaining({ application_id: abandoned.id, key_id: null, request_id: null, trigger: 'abandoned_form' }),
    ]);

    // Completed on the form, changed on it since, or created by an integrator (who can send its link again): kept.
    for (const id of [completed.id, stepped.id, uploaded.id, undecided.id]) {
      const kept = (await client.get(`/api/v2/applications/${id}`)).body.application;
      expect([id, kept.personal_data_erased_at]).toEqual([id, null]);
      const documents = (await client.get(`${pathOf(kept.applicants[0].api_url)}/documents`, reader)).body.documents;
      expect([id, documents.length]).toEqual([id, id === uploaded.id ? 2 : 1]);
    }
  });

  it('leaves nothing of an erased applicant in the notifications database, the logs or the exported spans', async () => {
    const mark = randomBytes(4).toString('hex');
    const person = {
      first_name: `Noor${mark}`,
      last_name: `Vashti${mark}`,
      email: `noor.${mark}@example.com`,
      phone: `555${String(parseInt(mark, 16) % 1e7).padStart(7, '0')}`,
    };
    const created = await client.post('/api/v2/applications', { application: { property_id: propertyId, applicant: person } });
    expect(created.status).toBe(201);
    const { id } = created.body.application;
    // A co-applicant mailed once, and one whose mail server refuses it: its message is still to be sent, with its content.
    const mailed = { first_name: `Ida${mark}`, last_name: `Mailed${mark}`, email: `ida.${mark}@example.com`, send_email: true };
    const refused = { first_name: `Rex${mark}`, last_name: `Refused${mark}`, email: `rex.${mark}@example.com`, send_email: true };
    inbox.refuse(refused.email, Infinity);
    const added: Array<{ api_url: string }> = [];
    for (const applicant of [mailed, refused]) {
      const answer = await client.post(`/api/v2/applications/${id}/applicants`, { applicant });
      expect(answer.status).toBe(201);
      added.push(answer.body.applicant);
    }
    const listed = (applicant: { api_url: string }) =>
      client
        .get(`${pathOf(applicant.api_url)}/messages`)
        .then((answer) => answer.body.messages as Array<Record<string, unknown>>);
    await eventually('one message sent and one retried', async () => {
      const [sent, retried] = await Promise.all(added.map(listed));
      return sent[0]?.status === 'sent' && retried[0]?.status === 'retrying';
    });
    const personal = [person, mailed, refused].flatMap((p) => [p.first_name, p.last_name, p.email]).concat(person.phone);
    const notifications = await mongoose
      .createConnection(uri, { dbName: queueName(stack.namespace, QUEUES.NOTIFICATIONS) })
      .asPromise();
    const heldThere = async () => {
      const found = new Set<string>();
      for (const { name } of await notifications.db!.listCollections().toArray()) {
        const text = JSON.stringify(await notifications.collection(name).find().toArray()).toLowerCase();
        for (const value of personal) if (text.includes(value.toLowerCase())) found.add(value);
      }
      return [...found];
    };
    try {
      // What the check reads is where the addresses were.
      expect(await heldThere()).toEqual(expect.arrayContaining([mailed.email, refused.email]));
      expect((await client.delete(`/api/v2/applications/${id}/personal_data`)).status).toBe(200);
      await eventually('the notifications database without the applicants’ data', async () => (await heldThere()).length === 0);
    } finally {
      await notifications.close();
    }
    const [sent, retried] = await Promise.all(added.map(listed));
    expect([sent[0], retried[0]]).toEqual([
      expect.objectContaining({ kind: 'invitation', to: null, status: 'sent' }),
      expect.objectContaining({ kind: 'invitation', to: null, status: 'suppressed' }),
    ]);
    await eventually('the spans of the erasure exported', () => receiver.spans.some((span) => span.service === 'notifications'));
    const logs = stack.logLines().join('\n').toLowerCase();
    const spans = JSON.stringify(receiver.spans).toLowerCase();
    expect(personal.filter((value) => logs.includes(value.toLowerCase()))).toEqual([]);
    expect(personal.filter((value) => spans.includes(value.toLowerCase()))).toEqual([]);
  });

  it('leaves nothing of what it erased in the database’s files, once SQLite has checkpointed its log', async () => {
    await stack.stopProcesses();
    // Stopping checkpoints each database's write-ahead log into its file, as SQLite does on its own every 1,000 pages.
    await run(FERRETDB_SCRIPT, ['stop', dir]);
    const erased = [...stored.get(requested.id)!, ...stored.get(expired.id)!, abandoned.typed];
    expect(await inFiles(erased)).toEqual([]);
    for (const { uploaded } of [requested, expired, undecided]) expect(await inFiles([uploaded])).toEqual([]);
    // What was not erased is still there to be found: the reading finds what the files hold.
    expect(await inFiles(stored.get(undecided.id)!)).toEqual(stored.get(undecided.id));
  });
});
