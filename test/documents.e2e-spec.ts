import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import mongoose from 'mongoose';
import { queueName, QUEUES } from '@app/contracts';
import { freePort, KEYS, Stack } from '../tools/stack';
import { startPublicForm } from '../tools/form-client';
import { launchBrowser, mainText, submit } from './support/browser';
import { EventTap } from './support/events';
import {
  csrfOf,
  fillStepsOfPreset3,
  sendStep,
  startForm,
  Upload,
  uploadDocument,
  uploadInPieces,
} from './support/form-documents';
import { Api, api, expectErrorBody } from './support/http';
import { ANSWERS, EMERGENCY, EMPLOYMENT, HOUSEHOLD, RESIDENCES } from './support/preset-one-answers';
import { eventually } from './support/wait';
import { jpegOf, pngOf } from '../libs/documents/src/documents.testing';
import { FieldCipher } from '@app/crypto';
import { DocumentVault } from '@app/documents';
import { EventOutbox } from '@app/events';
import { ClaimStorage } from '@app/persistence';
import { ApplicantDocumentsRepository } from '../apps/applications/src/store/applicant-documents.repository';
import { UNRECORDED_UPLOAD_GRACE_MS, UnrecordedUploads } from '../apps/applications/src/use-cases/unrecorded-uploads';
import { CsrfTokens } from '../apps/form/src/form/csrf-tokens';

// pdf-parse's own entry point reads a test file when it is the main module; its parser is this one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parsePdf = require('pdf-parse/lib/pdf-parse.js') as (data: Buffer) => Promise<{ text: string }>;

/** A key of client one that API_KEY_SCOPES grants the sensitive_data scope; client one's usual key has none. */
const READER_KEY = 'test-key-client-one-documents';
const reader = { key: READER_KEY };
/** Client two's key with the scope: it still sees nothing of client one's. */
const OTHER_READER = { key: 'test-key-client-two-documents' };
/** Client three's key, with the scope: its properties take strangers on their public form. */
const THIRD = { key: 'test-key-client-three-documents' };
const MB = 1024 * 1024;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const pathOf = (url: string) => new URL(url).pathname;

/** A small PDF whose bytes carry `marker`, to look for in what the database stores. */
function pdfWith(marker: string, padding = 0): Buffer {
  return Buffer.concat([Buffer.from(`%PDF-1.4\n% ${marker}\n`), Buffer.alloc(padding, 0x20), Buffer.from('\n%%EOF\n')]);
}

/** A 600 KB proof of income (three 256 KB units of a storage budget) carrying `marker`. */
const pdf = (marker: string): Upload => ({
  kind: 'proof_of_income',
  name: `${marker}.pdf`,
  type: 'application/pdf',
  bytes: pdfWith(marker, 600_000),
});

/**
 * Applicants' documents against the whole stack: uploaded through the form over HTTP
 * (multipart, as a browser sends it), kept encrypted in the applications database's GridFS
 * bucket, listed and downloaded through the API by a key with the sensitive_data scope.
 */
describe('applicants’ documents', () => {
  let stack: Stack;
  let client: Api;
  let tap: EventTap;
  let database: mongoose.Connection;
  let propertyId: number;

  beforeAll(async () => {
    stack = await Stack.start({
      form: true,
      env: {
        FORM_RATE_LIMIT_PER_MINUTE: '1000000',
        FORM_REQUEST_RATE_LIMIT_PER_MINUTE: '1000000',
        FORM_UPLOADS_PER_HOUR: '1000000',
        // Client two may keep 1 MB of documents, client three 2 MB, half of which strangers may hold.
        CLIENT_DOCUMENT_STORAGE_MB: '2:1,3:2',
        UNSUBMITTED_DOCUMENT_STORAGE_PERCENT: '50',
        // Client one's and three's properties use preset 3, which requires a photo ID and proof of income.
        CLIENT_DEFAULTS: '1:3:1,3:3:1',
        API_KEYS: `${KEYS.clientOne}:1,${KEYS.clientTwo}:2,${READER_KEY}:1,${OTHER_READER.key}:2,${THIRD.key}:3`,
        API_KEY_SCOPES: `${READER_KEY}:sensitive_data,${OTHER_READER.key}:sensitive_data,${THIRD.key}:sensitive_data`,
      },
    });
    client = api(stack.url);
    tap = await EventTap.open(stack.namespace);
    database = await mongoose
      .createConnection(process.env.MONGODB_URI!, { dbName: queueName(stack.namespace, QUEUES.APPLICATIONS) })
      .asPromise();
    const created = await client.post('/api/v2/properties', {
      property: {
        name: 'Birch House',
        kind: 'single_family',
        manager_name: 'Birch Lettings',
        manager_email: 'office@birch.example',
      },
    });
    expect(created.status).toBe(201);
    propertyId = created.body.property.id;
  });

  afterAll(async () => {
    await database?.close();
    await tap?.close();
    await stack?.stop();
  });

  /** What the bucket holds: its files and its chunks. */
  const stored = async () => ({
    files: await database.collection('documents.files').countDocuments(),
    chunks: await database.collection('documents.chunks').countDocuments(),
  });

  /** Ada Byron's application, made through the API by `key`'s client: its applicant's path and started form. */
  async function apiMadeForm(propertyId: number, key: { key: string }): Promise<{ applicantPath: string; token: string }> {
    const application = {
      property_id: propertyId,
      applicant: { first_name: 'Ada', last_name: 'Byron', email: 'ada@example.com' },
    };
    const created = await client.post('/api/v2/applications', { application }, key);
    const applicantPath = pathOf(created.body.application.applicants[0].api_url);
    return {
      applicantPath,
      token: await startForm(stack.formUrl, (await client.get(applicantPath, key)).body.applicant.form_url),
    };
  }

  /** A new application whose primary applicant has started its form: its form token and api_url path. */
  async function startedApplicant(
    property = propertyId,
  ): Promise<{ token: string; applicantPath: string; applicationId: number }> {
    const created = await client.post('/api/v2/applications', {
      application: {
        property_id: property,
        applicant: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', id_number: '219-09-9999' },
      },
    });
    expect(created.status).toBe(201);
    const applicantPath = pathOf(created.body.application.applicants[0].api_url);
    const token = await startForm(stack.formUrl, (await client.get(applicantPath)).body.applicant.form_url);
    return { token, applicantPath, applicationId: created.body.application.id };
  }

  async function documentsPage(token: string): Promise<{ status: number; html: string; csrf: string }> {
    const page = await fetch(`${stack.formUrl}/applicants/${token}/documents`);
    const html = await page.text();
    return { status: page.status, html, csrf: csrfOf(html) };
  }

  const upload = (token: string, file: Upload) => uploadDocument(stack.formUrl, token, file);

  it('has the bucket’s indexes made by the applications service before any upload, so that the form needs no right to make them', async () => {
    const keys = async (collection: string) =>
      (await database.collection(collection).listIndexes().toArray()).map((index) => ({
        key: index.key,
        unique: !!index.unique,
      }));
    expect(await database.collection('documents.files').countDocuments()).toBe(0);
    expect(await keys('documents.files')).toContainEqual({ key: { filename: 1, uploadDate: 1 }, unique: false });
    expect(await keys('documents.chunks')).toContainEqual({ key: { files_id: 1, n: 1 }, unique: true });
  });

  it('keeps uploads encrypted, lists them and gives back the same bytes, with their event', async () => {
    const { token, applicantPath } = await startedApplicant();
    const photo = Buffer.concat([pngOf(1200, 800), randomBytes(300_000)]);
    const marker = `pay-stub-${randomBytes(8).toString('hex')}`;
    const payStub = pdfWith(marker, 700_000);

    const first = await upload(token, { kind: 'photo_id', name: 'license.png', type: 'image/png', bytes: photo });
    expect(first.status).toBe(303);
    expect(first.location).toBe(`/applicants/${token}/documents`);
    // The declared type and the name are not what decides: the bytes are a PDF.
    const second = await upload(token, {
      kind: 'proof_of_income',
      name: 'C:\\scans\\stub.bin',
      type: 'image/png',
      bytes: payStub,
    });
    expect(second.status).toBe(303);

    const page = await documentsPage(token);
    expect(page.html).toContain('license.png');
    expect(page.html).toContain('stub.bin');
    expect(page.html).not.toContain('Still needed');

    const listed = await client.get(`${applicantPath}/documents`, reader);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    const documents = listed.body.documents;
    expect(documents.map((document: object) => Object.keys(document))).toEqual([
      ['id', 'kind', 'file_name', 'content_type', 'size', 'uploaded_at', 'sha256'],
      ['id', 'kind', 'file_name', 'content_type', 'size', 'uploaded_at', 'sha256'],
    ]);
    expect(documents[0]).toMatchObject({
      kind: 'photo_id',
      file_name: 'license.png',
      content_type: 'image/png',
      size: photo.length,
      sha256: sha256(photo),
    });
    expect(documents[1]).toMatchObject({
      kind: 'proof_of_income',
      file_name: 'stub.bin',
      content_type: 'application/pdf',
      size: payStub.length,
      sha256: sha256(payStub),
    });
    expect(documents[0].uploaded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);

    for (const [document, bytes] of [
      [documents[0], photo],
      [documents[1], payStub],
    ] as const) {
      const content = await fetch(`${stack.url}${applicantPath}/documents/${document.id}/content`, {
        headers: { authorization: `Bearer ${READER_KEY}` },
      });
      expect(content.status).toBe(200);
      const body = Buffer.from(await content.arrayBuffer());
      expect(body.equals(bytes)).toBe(true);
      expect(sha256(body)).toBe(document.sha256);
      expect(content.headers.get('content-type')).toBe(document.content_type);
      expect(content.headers.get('cache-control')).toBe('no-store');
      expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const disposition = await fetch(`${stack.url}${applicantPath}/documents/${documents[1].id}/content`, {
      headers: { authorization: `Bearer ${READER_KEY}` },
    });
    await disposition.arrayBuffer();
    // The name says what the bytes are, whatever the upload was called.
    expect(disposition.headers.get('content-disposition')).toBe(
      `attachment; filename="stub.bin.pdf"; filename*=UTF-8''stub.bin.pdf`,
    );

    // What the database holds does not show the file.
    const chunks = await database.collection('documents.chunks').find({}).toArray();
    const everything = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.data.buffer)));
    expect(everything.length).toBeGreaterThan(payStub.length);
    expect(everything.includes(Buffer.from(marker))).toBe(false);
    // Nor their names, which often say whose they are.
    const records = JSON.stringify(await database.collection('applicant_documents').find({}).toArray());
    expect(records).not.toContain('license.png');
    expect(records).not.toContain('stub.bin');

    const added = await eventually('two applicant.document_added events', () => {
      const mine = tap
        .named('applicant.document_added')
        .filter((event) => documents.some((document: { id: number }) => document.id === event.data.document_id));
      return mine.length === 2 && mine;
    });
    expect(added[0].data).toMatchObject({ property_id: propertyId, document_id: documents[0].id });

    // Each download is a recorded read that names its document, and each list is recorded too.
    const audit = await client.get(`/api/v2/audit_events?applicant_id=${applicantPath.split('/').pop()}`, reader);
    type Event = { read: string; document_id: number | null; request_id: string };
    const events: Event[] = audit.body.audit_events;
    expect(events.filter((event) => event.read === 'document').map((event) => event.document_id)).toEqual([
      documents[1].id,
      documents[1].id,
      documents[0].id,
    ]);
    expect(events.filter((event) => event.read === 'document_list').length).toBeGreaterThanOrEqual(1);
    for (const event of events.filter((e) => e.read === 'document_list')) expect(event.document_id).toBeNull();
    const listedAgain = await client.get(`${applicantPath}/documents`, {
      ...reader,
      headers: { 'x-request-id': 'list-of-documents' },
    });
    expect(listedAgain.status).toBe(200);
    const after = await client.get(`/api/v2/audit_events?applicant_id=${applicantPath.split('/').pop()}`, reader);
    expect(after.body.audit_events[0]).toMatchObject({
      read: 'document_list',
      document_id: null,
      request_id: 'list-of-documents',
    });
  });

  it('needs the sensitive_data scope, and shows nothing of another client’s applicant', async () => {
    const { token, applicantPath } = await startedApplicant();
    expect((await upload(token, { name: 'id.jpg', type: 'image/jpeg', bytes: jpegOf(640, 480, 2) })).status).toBe(303);
    const documentId = (await client.get(`${applicantPath}/documents`, reader)).body.documents[0].id;

    for (const path of [`${applicantPath}/documents`, `${applicantPath}/documents/${documentId}/content`]) {
      const withoutScope = await client.get(path);
      expect(withoutScope.status).toBe(403);
      expectErrorBody(withoutScope, /sensitive_data scope/);
      const otherClient = await client.get(path, OTHER_READER);
      expect(otherClient.status).toBe(404);
      expectErrorBody(otherClient, /application \d+ cannot be found/);
    }
    const unknown = await client.get(`${applicantPath}/documents/999999/content`, reader);
    expect(unknown.status).toBe(404);
    expectErrorBody(unknown, 'document 999999 cannot be found');
  });

  it('refuses hostile files with a clear message, and keeps no file of them', async () => {
    const { token, applicantPath } = await startedApplicant();
    const before = await stored();
    const refusals: Array<[string, Upload, number, RegExp]> = [
      [
        'an executable renamed .pdf',
        {
          name: 'statement.pdf',
          type: 'application/pdf',
          bytes: Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), randomBytes(5000)]),
        },
        422,
        /not a PDF, JPEG or PNG/,
      ],
      [
        'text that says it is a PNG',
        { name: 'photo.png', type: 'image/png', bytes: Buffer.from('<script>alert(1)</script>') },
        422,
        /not a PDF, JPEG or PNG/,
      ],
      [
        '10 MB and one byte',
        { name: 'big.pdf', type: 'application/pdf', bytes: pdfWith('big', 10 * MB + 1 - pdfWith('big').length) },
        422,
        /larger than 10 MB/,
      ],
      [
        'an image of enormous declared size',
        { name: 'bomb.png', type: 'image/png', bytes: pngOf(100_000, 100_000) },
        422,
        /100000 × 100000 pixels/,
      ],
      [
        'a forged CSRF token',
        { name: 'id.png', type: 'image/png', bytes: pngOf(10, 10), csrf: 'mkq1.AAAAAAAAAAAAAAAAAAAAAA.forged' },
        403,
        /expired/,
      ],
    ];
    for (const [what, file, status, message] of refusals) {
      const answer = await upload(token, file);
      expect({ what, status: answer.status }).toEqual({ what, status });
      expect(answer.html).toMatch(message);
      // What a refusal part-way wrote stays, as no file, for the sweep: the form removes nothing.
      expect((await stored()).files).toBe(before.files);
    }

    // A page sent twice: the second upload is refused, and its file gets no record.
    const { csrf } = await documentsPage(token);
    expect((await upload(token, { name: 'a.png', type: 'image/png', bytes: pngOf(10, 10), csrf })).status).toBe(303);
    const replayed = await upload(token, { name: 'b.png', type: 'image/png', bytes: pngOf(20, 20), csrf });
    expect(replayed.status).toBe(409);
    expect(replayed.html).toContain('already sent');
    expect((await client.get(`${applicantPath}/documents`, reader)).body.documents.map((d: any) => d.file_name)).toEqual([
      'a.png',
    ]);
  });

  it('leaves what an upload cut off half-way wrote to the sweep, which removes it once a day has passed', async () => {
    const { token } = await startedApplicant();
    const before = await stored();
    /** The uploads that wrote chunks but no file record. */
    const unfinished = async () => {
      const files = new Set((await database.collection('documents.files').find().toArray()).map((file) => String(file._id)));
      const started = await database.collection('documents.chunks').find({ n: 0 }).toArray();
      return started.map((chunk) => String(chunk.files_id)).filter((id) => !files.has(id));
    };
    const unfinishedBefore = await unfinished();
    const { csrf } = await documentsPage(token);
    const boundary = '----cutoff';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n${csrf}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nphoto_id\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const url = new URL(`${stack.formUrl}/applicants/${token}/documents`);
    const sent = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(url, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + 6 * MB) },
      });
      request.on('error', () => resolve(-1));
      request.on('response', (response) => resolve(response.statusCode ?? 0));
      request.write(head);
      // Three of the six megabytes: more than a GridFS chunk reaches the database before the cut.
      let written = 0;
      const piece = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(256 * 1024 - 9, 0x20)]);
      const more = () => {
        while (written < 3 * MB) {
          written += piece.length;
          if (!request.write(written === piece.length ? piece : Buffer.alloc(piece.length, 0x20)))
            return void request.once('drain', more);
        }
        // Its chunks reach the bucket before the connection goes.
        void eventually('the first chunks stored', async () => (await stored()).chunks > before.chunks, { timeoutMs: 10000 })
          .then(() => request.destroy())
          .catch(reject);
      };
      more();
    });
    expect(sent).toBe(-1);
    // The form, whose database user may remove nothing, leaves its chunks, and no file.
    const [cut] = await eventually('the cut-off upload left unfinished', async () => {
      const left = (await unfinished()).filter((id) => !unfinishedBefore.includes(id));
      return left.length === 1 && left;
    });
    expect((await stored()).files).toBe(before.files);
    const chunksOf = () => database.collection('documents.chunks').countDocuments({ files_id: new mongoose.mongo.ObjectId(cut) });
    expect(await chunksOf()).toBeGreaterThan(0);
    // The applications service's sweep leaves it its day, then removes it.
    const cipher = new FieldCipher(stack.fieldEncryptionKeys);
    const records = new ApplicantDocumentsRepository(new ClaimStorage(database), database, cipher, new EventOutbox(database));
    const sweep = new UnrecordedUploads(new DocumentVault(database.db!, cipher), records);
    await sweep.remove();
    expect(await chunksOf()).toBeGreaterThan(0);
    await sweep.remove(new Date(Date.now() + UNRECORDED_UPLOAD_GRACE_MS + 60_000));
    expect(await chunksOf()).toBe(0);
    expect(await unfinished()).toEqual([]);
    // The form still takes the next upload.
    expect((await upload(token, { name: 'id.png', type: 'image/png', bytes: pngOf(10, 10) })).status).toBe(303);
  });

  it('stores a small PNG whole however its bytes arrive: 100 uploads, the file after the fields, cut anywhere, late', async () => {
    // The page reads the fields and asks the services before it reads the file (documents.http.controller.ts):
    // bytes that arrive while it asks, or after, wait in the file's stream. None is ever read as empty.
    const gaps = [0, 1, 20, 100];
    const answers: Array<{ status: number; message: string | null }> = [];
    for (let applicant = 0; applicant < 5; applicant++) {
      const { token, applicantPath } = await startedApplicant();
      const sent: Buffer[] = [];
      for (let i = 0; i < 20; i++) {
        const n = applicant * 20 + i;
        const png = pngOf(4 + n, 4);
        const cuts = n % 2 === 0 ? [n % png.length] : [1, Math.floor(png.length / 2), png.length - 1];
        const answer = await uploadInPieces(
          stack.formUrl,
          token,
          { kind: 'other', name: `tiny-${n}.png`, type: 'image/png', bytes: png },
          cuts,
          gaps[n % gaps.length],
        );
        answers.push({ status: answer.status, message: /class="error[^"]*"[^>]*>([^<]*)</.exec(answer.html)?.[1] ?? null });
        sent.push(png);
      }
      const listed = (await client.get(`${applicantPath}/documents`, reader)).body.documents;
      expect(listed.map((document: { size: number; sha256: string }) => [document.size, document.sha256])).toEqual(
        sent.map((png) => [png.length, sha256(png)]),
      );
    }
    expect(answers.filter((answer) => answer.status !== 303)).toEqual([]);
  }, 180_000);

  it('takes 20 documents per applicant and refuses the 21st', async () => {
    const { token, applicantPath } = await startedApplicant();
    let heldPage = '';
    for (let i = 0; i < 20; i++) {
      // The page as it was before the 20th upload: its form still offers one more.
      if (i === 19) heldPage = (await documentsPage(token)).csrf;
      const answer = await upload(token, { kind: 'other', name: `page-${i}.png`, type: 'image/png', bytes: pngOf(10 + i, 10) });
      expect(answer.status).toBe(303);
    }
    const full = await fetch(`${stack.formUrl}/applicants/${token}/documents`);
    expect(await full.text()).toContain('as many documents as an application can hold');
    const before = await stored();
    const refused = await upload(token, {
      kind: 'other',
      name: 'extra.png',
      type: 'image/png',
      bytes: pngOf(5, 5),
      csrf: heldPage,
    });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('an applicant uploads at most 20 documents');
    expect(await stored()).toEqual(before);
    expect((await client.get(`${applicantPath}/documents`, reader)).body.documents).toHaveLength(20);
  });

  it('takes FORM_UPLOADS_PER_HOUR files an hour from one address, whatever applicants they are for, and reads none past it', async () => {
    // A second form process of the stack's, with a limit of its own.
    const port = await freePort();
    const limited = await stack.startApp('form', { FORM_PORT: String(port), FORM_UPLOADS_PER_HOUR: '2' });
    try {
      const formUrl = `http://127.0.0.1:${port}`;
      const file = (i: number): Upload => ({ kind: 'other', name: `scan-${i}.png`, type: 'image/png', bytes: pngOf(20 + i, 20) });
      const first = await startedApplicant();
      const second = await startedApplicant();
      expect((await uploadDocument(formUrl, first.token, file(1))).status).toBe(303);
      expect((await uploadDocument(formUrl, second.token, file(2))).status).toBe(303);
      const before = await stored();
      const refused = await uploadDocument(formUrl, second.token, file(3));
      expect(refused.status).toBe(429);
      expect(refused.html).toContain('Too many files were sent from your network in the last hour.');
      expect(await stored()).toEqual(before);
      expect((await client.get(`${second.applicantPath}/documents`, reader)).body.documents).toHaveLength(1);
    } finally {
      await stack.signal(limited, 'SIGTERM');
    }
  });

  it('refuses a file past its client’s storage budget with a clear message, keeping no record of it', async () => {
    const other = { key: KEYS.clientTwo };
    const property = (
      await client.post('/api/v2/properties', { property: { name: 'Small Budget', kind: 'single_family' } }, other)
    ).body.property;
    const { applicantPath, token } = await apiMadeForm(property.id, other);
    expect((await upload(token, pdf('first'))).status).toBe(303);
    const before = await stored();
    const refused = await upload(token, pdf('second'));
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('the property manager has no room left for documents');
    // Its file stays without a record, for the sweep: the form removes nothing.
    expect((await stored()).files).toBe(before.files + 1);
    expect((await client.get(`${applicantPath}/documents`, OTHER_READER)).body.documents).toHaveLength(1);
  });

  it('keeps strangers’ uploads on forms not yet sent within their half of the budget, and an API-made applicant’s upload past it', async () => {
    const property = (await client.post('/api/v2/properties', { property: { name: 'Open House', kind: 'single_family' } }, THIRD))
      .body.property;
    // 600 KB each, three 256 KB units: client three's 2 MB are 8 units, of which strangers may hold 4.
    const first = await startPublicForm(stack.formUrl, property.id);
    expect((await upload(first, pdf('first stranger'))).status).toBe(303);
    const second = await startPublicForm(stack.formUrl, property.id, {
      first_name: 'Sam',
      last_name: 'Stranger',
      email: 'sam@example.com',
      phone: '5550105555',
    });
    const before = await stored();
    const refused = await upload(second, pdf('second stranger'));
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('no room left for documents of applications not yet sent');
    // Its file stays without a record, for the sweep: the form removes nothing.
    expect((await stored()).files).toBe(before.files + 1);
    // An applicant the client made through the API uploads into the rest of the budget.
    const { applicantPath, token: made } = await apiMadeForm(property.id, THIRD);
    expect((await upload(made, pdf('made through the API'))).status).toBe(303);
    expect((await client.get(`${applicantPath}/documents`, THIRD)).body.documents).toHaveLength(1);
  });

  it('takes an applicant’s documents, files and chunks included, away with the applicant when it is removed', async () => {
    const { applicationId } = await startedApplicant();
    const added = await client.post(`/api/v2/applications/${applicationId}/applicants`, {
      applicant: { first_name: 'Charles', last_name: 'Babbage', email: 'charles@example.com' },
    });
    expect(added.status).toBe(201);
    const token = await startForm(stack.formUrl, added.body.applicant.form_url, {
      first_name: 'Charles',
      last_name: 'Babbage',
      email: 'charles@example.com',
    });
    expect(
      (await upload(token, { kind: 'other', name: 'deed.pdf', type: 'application/pdf', bytes: pdfWith('deed', 300_000) })).status,
    ).toBe(303);
    const [record] = await database.collection('applicant_documents').find({ applicant_id: added.body.applicant.id }).toArray();
    const fileId = new mongoose.mongo.ObjectId(record.file_id as string);
    expect(await database.collection('documents.chunks').countDocuments({ files_id: fileId })).toBeGreaterThan(0);

    expect((await client.delete(pathOf(added.body.applicant.api_url))).status).toBe(200);
    expect(await database.collection('applicant_documents').countDocuments({ applicant_id: added.body.applicant.id })).toBe(0);
    expect(await database.collection('documents.files').countDocuments({ _id: fileId })).toBe(0);
    expect(await database.collection('documents.chunks').countDocuments({ files_id: fileId })).toBe(0);
  });

  it('removes a file that no record names, and the chunks of an upload cut off, once a day has passed, and no other', async () => {
    const { token, applicantPath } = await startedApplicant();
    expect((await upload(token, { kind: 'other', name: 'kept.png', type: 'image/png', bytes: pngOf(12, 12) })).status).toBe(303);
    // Two uploads whose records were never kept, as when the request died between the two writes.
    const bucket = new mongoose.mongo.GridFSBucket(database.db!, { bucketName: 'documents' });
    const unrecorded = async () => {
      const stream = bucket.openUploadStream('upload');
      await new Promise((resolve, reject) => stream.once('finish', resolve).once('error', reject).end(randomBytes(300_000)));
      return stream.id;
    };
    const [old, recent] = [await unrecorded(), await unrecorded()];
    const recordedIds = (await database.collection('applicant_documents').find().toArray()).map((record) => record.file_id);
    const dayAgo = new Date(Date.now() - UNRECORDED_UPLOAD_GRACE_MS - 60_000);
    for (const id of [old, ...recordedIds.map((fileId) => new mongoose.mongo.ObjectId(fileId as string))]) {
      await database.collection('documents.files').updateOne({ _id: id }, { $set: { uploadDate: dayAgo } });
    }
    const chunksOf = (id: unknown) => database.collection('documents.chunks').countDocuments({ files_id: id });
    expect(await chunksOf(old)).toBeGreaterThan(0);

    const cipher = new FieldCipher(stack.fieldEncryptionKeys);
    const records = new ApplicantDocumentsRepository(new ClaimStorage(database), database, cipher, new EventOutbox(database));
    const sweep = new UnrecordedUploads(new DocumentVault(database.db!, cipher), records);
    expect(await sweep.remove()).toBe(1);
    expect(await database.collection('documents.files').countDocuments({ _id: old })).toBe(0);
    expect(await chunksOf(old)).toBe(0);
    expect(await database.collection('documents.files').countDocuments({ _id: recent })).toBe(1);
    // Every recorded file is still there and downloads.
    const [kept] = (await client.get(`${applicantPath}/documents`, reader)).body.documents;
    const content = await fetch(`${stack.url}${applicantPath}/documents/${kept.id}/content`, {
      headers: { authorization: `Bearer ${READER_KEY}` },
    });
    expect(content.status).toBe(200);
    expect(await sweep.remove()).toBe(0);

    // Chunks of uploads whose process died before the file's record was written: one a day old, one new.
    const startedAt = (at: number) => mongoose.mongo.ObjectId.createFromTime(Math.floor(at / 1000));
    const [cutOff, underWay] = [startedAt(dayAgo.getTime()), startedAt(Date.now())];
    for (const files_id of [cutOff, underWay]) {
      await database
        .collection('documents.chunks')
        .insertMany([0, 1].map((n) => ({ files_id, n, data: new mongoose.mongo.Binary(randomBytes(1000)) })));
    }
    expect(await sweep.remove()).toBe(1);
    expect([await chunksOf(cutOff), await chunksOf(underWay)]).toEqual([0, 2]);
    expect(await chunksOf(new mongoose.mongo.ObjectId(recordedIds[0] as string))).toBeGreaterThan(0);
    expect(await sweep.remove()).toBe(0);
  });

  it('does not complete a form before the documents the preset requires are uploaded', async () => {
    const { token, applicantPath } = await startedApplicant();
    const csrf = CsrfTokens.fromKeyRing(stack.csrfKeys);
    await fillStepsOfPreset3(stack.formUrl, token);
    // Every other step saved: the form_url, the review and the signature all send the applicant to its documents.
    const documentsUrl = `/applicants/${token}/documents`;
    for (const step of ['', '/review', '/finish']) {
      const asked = await fetch(`${stack.formUrl}/applicants/${token}${step}`, { redirect: 'manual' });
      expect({ step, status: asked.status, location: asked.headers.get('location') }).toEqual({
        step,
        status: 303,
        location: documentsUrl,
      });
    }
    const refused = await fetch(`${stack.formUrl}/applicants/${token}/finish`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      // A signature page's own token (as a page opened before a document was removed holds): past the
      // prelude, the step itself sends the applicant to its documents.
      body: new URLSearchParams({
        csrf_token: csrf.issue(`/applicants/${token}/finish`),
        consent: 'yes',
        signature: 'Grace Hopper',
      }),
    });
    expect({ status: refused.status, location: refused.headers.get('location') }).toEqual({
      status: 303,
      location: documentsUrl,
    });
    expect((await client.get(applicantPath)).body.applicant.form_status).toBe('started');

    // The page says what is still needed; with the photo ID alone it still does.
    expect((await documentsPage(token)).html).toContain('Still needed:');
    expect((await upload(token, { kind: 'photo_id', name: 'id.png', type: 'image/png', bytes: pngOf(40, 30) })).status).toBe(303);
    expect((await fetch(`${stack.formUrl}/applicants/${token}`, { redirect: 'manual' })).headers.get('location')).toBe(
      documentsUrl,
    );
    expect(
      (await upload(token, { kind: 'proof_of_income', name: 'stub.pdf', type: 'application/pdf', bytes: pdfWith('stub') }))
        .status,
    ).toBe(303);
    // Both there: the documents step counts as saved, and the form resumes at the review.
    expect((await fetch(`${stack.formUrl}/applicants/${token}`, { redirect: 'manual' })).headers.get('location')).toBe(
      `/applicants/${token}/review`,
    );
  });

  it('places the documents page among the steps: its Continue leads to the next one, its Back to the one before', async () => {
    const { token } = await startedApplicant();
    await fillStepsOfPreset3(stack.formUrl, token);
    const { html } = await documentsPage(token);
    expect(html).toContain(`<a class="button" href="/applicants/${token}/questions">Continue</a>`);
    expect(html).toContain(`<a href="/applicants/${token}/identity">Back</a>`);
    expect(html).toContain('Step 4 of 7');
  });

  /** Completes the last step of the form (preset 3) as a browser would send it, every other step saved. */
  async function complete(token: string, userAgent: string, csrf?: string): Promise<Response> {
    const fields = {
      csrf_token: csrf ?? csrfOf(await (await fetch(`${stack.formUrl}/applicants/${token}/finish`)).text()),
      consent: 'yes',
      signature: 'Grace B. Hopper',
    };
    return fetch(`${stack.formUrl}/applicants/${token}/finish`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
      body: new URLSearchParams(fields),
    });
  }

  it('records the signed consent once, readable on the applicant and never changed', async () => {
    const { token, applicantPath } = await startedApplicant();
    expect((await upload(token, { kind: 'photo_id', name: 'id.png', type: 'image/png', bytes: pngOf(40, 30) })).status).toBe(303);
    expect(
      (await upload(token, { kind: 'proof_of_income', name: 'stub.pdf', type: 'application/pdf', bytes: pdfWith('stub') }))
        .status,
    ).toBe(303);
    await fillStepsOfPreset3(stack.formUrl, token);
    expect((await client.get(applicantPath)).body.applicant.consent).toBeNull();

    // A second copy of the last step, open in another tab, is sent after the first.
    const otherTab = csrfOf(await (await fetch(`${stack.formUrl}/applicants/${token}/finish`)).text());
    const completed = await complete(token, 'ConsentTest/1.0 (X11)');
    expect(completed.status).toBe(303);
    const preset = (await client.get('/api/v2/form_presets')).body.form_presets.find((p: { id: number }) => p.id === 3);
    const { consent, form_completed_at } = (await client.get(applicantPath)).body.applicant;
    expect(consent).toEqual({
      signed_name: 'Grace B. Hopper',
      signed_at: form_completed_at,
      ip_address: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/),
      user_agent: 'ConsentTest/1.0 (X11)',
      form_preset_id: 3,
      form_preset_version: preset.version,
      disclosures: preset.disclosures.map(({ id, title, text }: Record<string, string>) => ({ id, title, text })),
    });

    // Neither a correction of the applicant nor the last step sent again changes it.
    const corrected = await client.patch(applicantPath, { applicant: { first_name: 'Amazing Grace' } });
    expect(corrected.status).toBe(200);
    expect(corrected.body.applicant.consent).toEqual(consent);
    const again = await complete(token, 'Other/2.0', otherTab);
    expect(again.status).toBe(409);
    expect((await client.get(applicantPath)).body.applicant.consent).toEqual(consent);
  });

  it('prints the application as a PDF: property, applicants, documents, consent, the SSN as its last four digits', async () => {
    const { token, applicantPath, applicationId } = await startedApplicant();
    expect(
      (await upload(token, { kind: 'photo_id', name: 'passport-scan.png', type: 'image/png', bytes: pngOf(40, 30) })).status,
    ).toBe(303);
    expect(
      (
        await upload(token, {
          kind: 'proof_of_income',
          name: 'paystub-june.pdf',
          type: 'application/pdf',
          bytes: pdfWith('june'),
        })
      ).status,
    ).toBe(303);
    await fillStepsOfPreset3(stack.formUrl, token);
    expect((await complete(token, 'PdfTest/1.0')).status).toBe(303);
    const coApplicant = await client.post(`/api/v2/applications/${applicationId}/applicants`, {
      applicant: {
        first_name: 'Howard',
        last_name: 'Aiken',
        email: 'howard@example.com',
        id_number: '078-05-1120',
      },
    });
    expect(coApplicant.status).toBe(201);

    const decide = (decision: unknown) => client.post(`/api/v2/applications/${applicationId}/decision`, { decision });
    expect((await decide({ status: 'conditionally_approved', conditions: [{ kind: 'deposit', amount: 3700 }] })).status).toBe(
      201,
    );
    expect(
      (
        await decide({
          status: 'declined',
          reasons: ['income', 'rental_history'],
          note: 'Income below twice the rent.',
          decided_by: 42,
        })
      ).status,
    ).toBe(201);

    const refused = await client.get(`/api/v2/applications/${applicationId}/summary.pdf`);
    expect(refused.status).toBe(403);
    expectErrorBody(refused, /sensitive_data scope/);

    const answer = await fetch(`${stack.url}/api/v2/applications/${applicationId}/summary.pdf`, {
      headers: { authorization: `Bearer ${READER_KEY}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // Each applicant laid out is a read of its own, told from the API's reads.
    const summaryRequest = answer.headers.get('x-request-id');
    const audit = await client.get('/api/v2/audit_events?limit=100', reader);
    const summaryReads = audit.body.audit_events.filter((event: { request_id: string }) => event.request_id === summaryRequest);
    expect(summaryReads).toHaveLength(2);
    for (const event of summaryReads) expect(event).toMatchObject({ read: 'summary_pdf', application_id: applicationId });
    const { text } = await parsePdf(bytes);
    const flat = text.replace(/\s+/g, ' ');
    for (const expected of [
      `Rental application ${applicationId}`,
      'Birch House',
      'Manager: Birch Lettings, office@birch.example',
      'Primary applicant: Grace Hopper',
      'Co-applicant: Howard Aiken',
      'XXX-XX-6789',
      'XXX-XX-1120',
      'Current address: 1 Old Road, Springfield',
      'Middle name: Brewster',
      'passport-scan.png',
      'paystub-june.pdf',
      'Signed by: Grace B. Hopper',
      'PdfTest/1.0',
      'Tenant screening',
      'Not signed yet.',
      'Status: declined',
      'Note: Income below twice the rent.',
      'Decision history, newest first',
      'declined, reasons: income, rental_history, by user 42, through API key',
      'approved on conditions, conditions: deposit of $3,700, through API key',
    ]) {
      expect(flat).toContain(expected);
    }
    expect(flat).not.toMatch(/123-?45-?6789|078-?05-?1120/);
    expect((await client.get(`${applicantPath}`)).status).toBe(200);
  });

  it('prints the answers under the questions of the preset version they were given to', async () => {
    const created = await client.post('/api/v2/form_presets', {
      form_preset: {
        name: 'Pets only',
        questions: [{ id: 'pet_name', label: 'Name of your pet', kind: 'text', required: true }],
        disclosures: [{ id: 'screening', title: 'Tenant screening', text: 'We check your rental history.' }],
        sections: [{ kind: 'questions' }],
        documents: [],
      },
    });
    expect(created.status).toBe(201);
    const presetId = created.body.form_preset.id;
    const property = await client.post('/api/v2/properties', {
      property: { name: 'Pet Place', kind: 'single_family', form_preset_id: presetId },
    });
    const application = await client.post('/api/v2/applications', {
      application: {
        property_id: property.body.property.id,
        applicant: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
      },
    });
    const applicantPath = pathOf(application.body.application.applicants[0].api_url);
    const token = await startForm(stack.formUrl, (await client.get(applicantPath)).body.applicant.form_url);
    for (const [step, fields] of [
      ['details', { desired_move_in: '2027-03-01' }],
      ['identity', { dob: '1990-04-12', id_number: '123-45-6789' }],
      ['questions', { 'answers.pet_name': 'Rex' }],
    ] as const) {
      expect([step, (await sendStep(stack.formUrl, token, step, fields)).status]).toEqual([step, 303]);
    }
    expect((await complete(token, 'PdfTest/1.0')).status).toBe(303);
    // Changed after the applicant signed: the PDF still asks the question as it was asked.
    const changed = await client.patch(`/api/v2/form_presets/${presetId}`, {
      form_preset: { questions: [{ id: 'pet_name', label: 'Changed label', kind: 'text', required: true }] },
    });
    expect(changed.status).toBe(200);

    const answer = await fetch(`${stack.url}/api/v2/applications/${application.body.application.id}/summary.pdf`, {
      headers: { authorization: `Bearer ${READER_KEY}` },
    });
    expect(answer.status).toBe(200);
    const flat = (await parsePdf(Buffer.from(await answer.arrayBuffer()))).text.replace(/\s+/g, ' ');
    expect(flat).toContain('Name of your pet: Rex');
    expect(flat).not.toContain('Changed label');
  });

  it('prints every section of every applicant and guarantor, answers in the wording of their options', async () => {
    const property = await client.post('/api/v2/properties', {
      property: { name: 'Preset One House', kind: 'single_family', form_preset_id: 1 },
    });
    expect(property.status).toBe(201);
    const { token, applicationId } = await startedApplicant(property.body.property.id);
    // Preset 1 (shipped) asks every section.
    for (const [step, fields] of [
      ['details', { desired_move_in: '2027-03-01' }],
      ['identity', { middle_name: 'Brewster', dob: '1990-04-12', id_number: '123-45-6789', drivers_license_state: 'NY' }],
      ['residence_history', RESIDENCES],
      ['employment', EMPLOYMENT],
      ['household', HOUSEHOLD],
      ['emergency_contact', EMERGENCY],
      ['questions', ANSWERS],
    ] as const) {
      expect([step, (await sendStep(stack.formUrl, token, step, fields)).status]).toEqual([step, 303]);
    }
    expect((await complete(token, 'PdfTest/1.0')).status).toBe(303);

    const answer = await fetch(`${stack.url}/api/v2/applications/${applicationId}/summary.pdf`, {
      headers: { authorization: `Bearer ${READER_KEY}` },
    });
    expect(answer.status).toBe(200);
    const flat = (await parsePdf(Buffer.from(await answer.arrayBuffer()))).text.replace(/\s+/g, ' ');
    for (const expected of [
      'Primary applicant: Grace Hopper',
      'Co-applicant: Charles Babbage',
      'Guarantor: Anne Milbanke',
      'XXX-XX-6789',
      'Middle name: Brewster',
      'Driver’s license state: NY',
      'Residence: 12 Elm Street, Springfield, IL 62701',
      'Monthly rent: $1,450',
      'Landlord: Old Landlord, 5550102222',
      'Reason for leaving: Needed more room',
      'Employment: Analytical Engines Ltd, Engineer, since 2020-02-01',
      'Monthly income: $5,200',
      'Other income: Child support, $400 a month',
      'Other adult: Charles Babbage, charles@example.com',
      'Child: Annabella, age 7',
      'Pet: Dog, Beagle, 10 kg',
      'Vehicle: Toyota Corolla, ABC 1234',
      'Guarantor: Anne Milbanke, anne@example.com',
      'Emergency contact: Mary Somerville (Aunt), 5550109876',
      'Have you ever been evicted?: Yes',
      'Explain the eviction: A dispute in 2015, settled',
      'Does anyone who will live here smoke?: No',
      'How did you hear about this home?: A friend',
      'How many people will live here in all?: 3',
    ]) {
      expect(flat).toContain(expected);
    }
    expect(flat).not.toMatch(/\?: (yes|no)\b/);
    expect(flat).not.toMatch(/123-?45-?6789/);
  });

  it('uploads a small PNG picked from disk in a browser 19 times, each whole; a file emptied after it was picked arrives empty', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'documents-'));
    const { token, applicantPath } = await startedApplicant();
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const sent: Buffer[] = [];
      // 19: the twentieth, the last an applicant may upload, is the emptied file below.
      for (let i = 0; i < 19; i++) {
        // Written whole before it is picked (renamed into place), as a file a person picks is.
        const png = pngOf(4 + i, 4);
        const path = join(directory, `scan-${i}.png`);
        await writeFile(`${path}.part`, png);
        await rename(`${path}.part`, path);
        await page.goto(`${stack.formUrl}/applicants/${token}/documents`);
        await page.getByLabel('Another document').check();
        await page.getByLabel('File').setInputFiles(path);
        const reloaded = page.waitForURL(/\/documents$/, { waitUntil: 'load' });
        await page.getByRole('button', { name: 'Upload' }).click();
        await reloaded;
        await eventually(`scan-${i}.png listed`, async () => (await mainText(page)).includes(`scan-${i}.png`));
        sent.push(png);
      }
      const listed = (await client.get(`${applicantPath}/documents`, reader)).body.documents;
      expect(listed.map((document: { size: number; sha256: string }) => [document.size, document.sha256])).toEqual(
        sent.map((png) => [png.length, sha256(png)]),
      );

      // Chromium reads a picked file when it sends it, not when it is picked: one emptied in between
      // (a tool writing it again, which truncates it first) is sent with no bytes, and refused as such.
      const path = join(directory, 'rewritten.png');
      await writeFile(path, pngOf(9, 9));
      await page.goto(`${stack.formUrl}/applicants/${token}/documents`);
      await page.getByLabel('Another document').check();
      await page.getByLabel('File').setInputFiles(path);
      await truncate(path, 0);
      await page.getByRole('button', { name: 'Upload' }).click();
      await eventually('the refusal shown', async () => (await mainText(page)).includes('The file is empty.'));
    } finally {
      await browser.close();
      await rm(directory, { recursive: true, force: true });
    }
  }, 120_000);

  it('uploads through the real page in a browser: with JavaScript showing progress, and without it', async () => {
    const { token, applicantPath } = await startedApplicant();
    const browser = await launchBrowser();
    try {
      const withScript = await browser.newContext();
      const statuses: string[] = [];
      // The status line's texts, kept across the navigation the upload ends with.
      await withScript.exposeBinding('noteStatus', (_source, text: string) => void statuses.push(text));
      await withScript.addInitScript(
        `document.addEventListener('DOMContentLoaded', () => {
          const status = document.getElementById('upload-status');
          if (status) new MutationObserver(() => window.noteStatus(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
        });`,
      );
      const page = await withScript.newPage();
      await page.goto(`${stack.formUrl}/applicants/${token}/documents`);
      await page.getByLabel('Photo ID (driver’s license, state ID or passport)').check();
      const photo = Buffer.concat([jpegOf(1600, 1200, 2), randomBytes(3 * MB)]);
      await page.getByLabel('File').setInputFiles({ name: 'license.jpg', mimeType: 'image/jpeg', buffer: photo });
      const reloaded = page.waitForEvent('load');
      await page.getByRole('button', { name: 'Upload' }).click();
      await reloaded;
      await eventually('the uploaded file listed', async () => (await mainText(page)).includes('license.jpg'));
      expect(statuses.some((text) => /^Uploading: [1-9]\d*%$/.test(text))).toBe(true);

      const withoutScript = await browser.newContext({ javaScriptEnabled: false });
      const plain = await withoutScript.newPage();
      await plain.goto(`${stack.formUrl}/applicants/${token}/documents`);
      await plain.getByLabel('Proof of income (your last pay stub showing year-to-date pay)').check();
      await plain
        .getByLabel('File')
        .setInputFiles({ name: 'stub.pdf', mimeType: 'application/pdf', buffer: pdfWith('browser', 50_000) });
      await submit(plain);
      expect(await mainText(plain)).toContain('stub.pdf');
      expect(await mainText(plain)).not.toContain('Still needed');

      // A refusal shows beside the field, without JavaScript as with it.
      await plain
        .getByLabel('File')
        .setInputFiles({ name: 'virus.pdf', mimeType: 'application/pdf', buffer: Buffer.from('MZ not a pdf') });
      await submit(plain);
      expect(await mainText(plain)).toContain('The file is not a PDF, JPEG or PNG');

      const listed = await client.get(`${applicantPath}/documents`, reader);
      expect(listed.body.documents.map((document: { file_name: string; sha256: string }) => document.file_name)).toEqual([
        'license.jpg',
        'stub.pdf',
      ]);
      expect(listed.body.documents[0].sha256).toBe(sha256(photo));
    } finally {
      await browser.close();
    }
  });
});
