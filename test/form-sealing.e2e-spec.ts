import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { AddressInfo, connect as connectTcp, createServer } from 'node:net';
import { Readable } from 'node:stream';
import { parseKeyRing } from '@app/config';
import { APPLICATION_FORMS, APPLICATIONS, CreateApplicationRequest, DOCUMENTS, parseRequest } from '@app/contracts';
import { ApplicantSealer, FieldCipher, FormFieldSealer, FormOpener, formTokenDigest, FormSealer } from '@app/crypto';
import { DocumentUploads, openFormSealedDataKey, unwrapDataKey } from '@app/documents';
import { sendStep, startForm, uploadDocument } from './support/form-documents';
import { saveStep } from '../tools/form-client';
import { api, Api } from './support/http';
import { askQueue } from './support/service-rpc';
import { yearsAgo } from './support/preset-one-answers';
import { freePort, KEYS, Stack } from '../tools/stack';
import { pngOf } from '../libs/documents/src/documents.testing';

/**
 * The form holds no key that opens anything stored: it seals applicants' identity numbers and
 * documents' data keys to a public key, whose private keys only the applications service holds.
 * The service takes each kind of envelope only in the messages of its sender: a form's with
 * values sealed to FORM_SEALING_KEYS, a gateway's with values sealed with FIELD_ENCRYPTION_KEYS.
 */
describe('what the form seals', () => {
  let stack: Stack;
  let client: Api;
  let propertyId: number;

  /** An applicant created through the API whose form is started: its link's token and application. */
  const startedApplicant = async (): Promise<{ token: string; applicationId: number; applicantPath: string }> => {
    const answer = await client.post('/api/v2/applications', {
      application: {
        property_id: propertyId,
        applicant: { first_name: 'Ada', last_name: 'Lovelace', email: `ada${randomUUID()}@example.com` },
      },
    });
    expect(answer.status).toBe(201);
    const applicantPath = new URL(answer.body.application.applicants[0].api_url).pathname;
    const token = await startForm(stack.formUrl, (await client.get(applicantPath)).body.applicant.form_url);
    return { token, applicationId: answer.body.application.id, applicantPath };
  };

  /** Sends a message to the applications service as an app would, and resolves with its answer. */
  const ask = (pattern: string, data: unknown, correlationId: string) =>
    askQueue(`${stack.namespace}applications`, pattern, data, correlationId);

  /** An identity step's message as the form sends it, with `sealed_applicant` as given. */
  const identityStep = (token: string, applicationId: number, sealedApplicant: unknown, section: object = {}) => ({
    token_digest: formTokenDigest(token),
    application_id: applicationId,
    kind: 'identity',
    section: { middle_name: 'King', ...section },
    sealed_applicant: sealedApplicant,
    submission: randomBytes(16).toString('base64url'),
  });

  const sensitiveData = async (applicantPath: string) => {
    const answer = await client.get(`${applicantPath}?include=sensitive_data`);
    expect(answer.status).toBe(200);
    return answer.body.applicant.sensitive_data;
  };

  /** Every value of the form's environment that reads as a key ring: whatever key the form holds. */
  const formKeys = (): string[] =>
    Object.values(stack.process('form').env).filter((value) => {
      try {
        parseKeyRing('ANY', value);
        return true;
      } catch {
        return false;
      }
    });

  /**
   * Whether any key the form holds (each entry of each ring above), named `keyId` so that the key
   * id is no obstacle, opens what `open` opens as a field key or as a form sealing private key.
   */
  const formOpens = (keyId: string, open: (cipher: FieldCipher, opener: FormOpener) => unknown): boolean =>
    formKeys()
      .flatMap((ring) => parseKeyRing('ANY', ring).map(({ key }) => `${keyId}:${key.toString('base64')}`))
      .some((ring) => {
        try {
          open(new FieldCipher(ring), new FormOpener(ring));
          return true;
        } catch {
          return false;
        }
      });

  /** The applicant's stored document, as the applications database holds it. */
  const storedApplicant = async (applicationId: number) => {
    const db = await stack.database('applications');
    try {
      const application = await db.collection('applications').findOne({ id: applicationId });
      const [applicant] = application!.applicants;
      return { applicant, owner: { clientId: application!.client_id as number, applicantId: applicant.id as number } };
    } finally {
      await db.close();
    }
  };

  /** The identity numbers the form saved for the applicant of `token`, as the applications database holds them. */
  const savedIdentity = async (token: string) => {
    const db = await stack.database('applications');
    try {
      const form = await db
        .collection<{ _id: string; [field: string]: any }>('applicant_forms')
        .findOne({ _id: formTokenDigest(token) });
      return { id_number: form!.id_number, owner: { clientId: 1, applicantId: form!.applicant_id as number } };
    } finally {
      await db.close();
    }
  };

  /** The metadata key of a stored file. */
  const fileKey = async (fileId: string) => {
    const db = await stack.database('applications');
    try {
      const file = await db.collection('documents.files').findOne({ filename: fileId });
      return file?.metadata.key;
    } finally {
      await db.close();
    }
  };

  beforeAll(async () => {
    stack = await Stack.start({ form: true, env: { API_KEY_SCOPES: `${KEYS.clientOne}:sensitive_data` } });
    client = api(stack.url);
    propertyId = (await client.post('/api/v2/properties', { property: { name: 'Sealed Street' } })).body.property.id;
  });

  afterAll(() => stack?.stop());

  it('runs without FIELD_ENCRYPTION_KEYS or a private key, and nothing it holds opens the SSN it took', async () => {
    const form = stack.process('form');
    expect(form.env.FIELD_ENCRYPTION_KEYS).toBe('');
    expect(form.env.FORM_SEALING_KEYS).toBe('');
    expect(form.env.FORM_SEALING_PUBLIC_KEY).toBe(stack.formSealingKey.publicKey);
    // What it does hold: the public key, the form link MAC keys and the CSRF keys.
    expect(formKeys().sort()).toEqual([stack.csrfKeys, stack.formLinkKeys, stack.formSealingKey.publicKey].sort());

    const { token, applicantPath } = await startedApplicant();
    const sent = await sendStep(stack.formUrl, token, 'identity', { dob: '1990-04-12', id_number: '123-45-6789' });
    expect(sent.status).toBe(303);
    expect(await sensitiveData(applicantPath)).toEqual({
      dob: '1990-04-12',
      id_number: '123456789',
      drivers_license_number: null,
    });

    const saved = await savedIdentity(token);
    const openSsn = (cipher: FieldCipher) => new ApplicantSealer(cipher).openField('id_number', saved.id_number, saved.owner);
    expect(openSsn(new FieldCipher(stack.fieldEncryptionKeys))).toBe('123456789');
    expect(formOpens(saved.id_number.key_id, (cipher) => openSsn(cipher))).toBe(false);
  });

  it('seals each upload’s data key to the public key, which the service seals again with the field keys before it keeps the record', async () => {
    const { token, applicationId, applicantPath } = await startedApplicant();
    const bytes = Buffer.concat([pngOf(40, 30), randomBytes(100_000)]);
    expect((await uploadDocument(stack.formUrl, token, { name: 'id.png', type: 'image/png', bytes })).status).toBe(303);
    const [document] = (await client.get(`${applicantPath}/documents`)).body.documents;
    const content = await fetch(`${stack.url}${applicantPath}/documents/${document.id}/content`, {
      headers: { authorization: `Bearer ${KEYS.clientOne}` },
    });
    expect(content.status).toBe(200);
    expect(Buffer.from(await content.arrayBuffer()).equals(bytes)).toBe(true);

    const db = await stack.database('applications');
    const file = await db
      .collection('documents.files')
      .find({})
      .sort({ uploadDate: -1 })
      .limit(1)
      .next()
      .finally(() => db.close());
    const key = file!.metadata.key;
    expect(key).toMatchObject({ v: 2, key_id: stack.fieldEncryptionKeys.split(':')[0] });
    const { owner } = await storedApplicant(applicationId);
    const fileId = file!._id.toHexString();
    expect(unwrapDataKey(new FieldCipher(stack.fieldEncryptionKeys), key, owner, fileId)).toHaveLength(32);
    expect(formOpens(key.key_id, (cipher) => unwrapDataKey(cipher, key, owner, fileId))).toBe(false);
  });

  it('keeps a record only of a file stored for the applicant, whose form-sealed key the service opens', async () => {
    const { token, applicationId, applicantPath } = await startedApplicant();
    const { owner } = await storedApplicant(applicationId);
    const db = await stack.database('applications');
    try {
      // Stored as the form stores an upload, with nothing but the public key.
      const uploads = new DocumentUploads(db.getClient().db(db.name), new FormSealer(stack.formSealingKey.publicKey));
      const png = pngOf(20, 10);
      const mine = await uploads.store(Readable.from([png]), owner);
      const strangers = await uploads.store(Readable.from([png]), { ...owner, applicantId: owner.applicantId + 1000 });
      const formSealed = await fileKey(mine.file_id);
      expect(formSealed).toMatchObject({ v: 3, key_id: 's1' });
      expect(
        openFormSealedDataKey(new FormOpener(stack.formSealingKey.privateKey), formSealed, owner, mine.file_id),
      ).toHaveLength(32);
      expect(
        formOpens(formSealed.key_id, (_cipher, opener) => openFormSealedDataKey(opener, formSealed, owner, mine.file_id)),
      ).toBe(false);

      const add = (fileId: string) => {
        const message = {
          token_digest: formTokenDigest(token),
          application_id: applicationId,
          document: { ...mine, file_id: fileId, kind: 'photo_id', file_name: 'id.png' },
          submission: randomBytes(16).toString('base64url'),
        };
        return ask(DOCUMENTS.ADD, message, randomUUID());
      };
      const notStored = { code: 'VALIDATION_FAILED', message: 'the file is not stored for this applicant' };
      expect((await add(strangers.file_id)).err).toMatchObject(notStored);
      expect((await add('0123456789abcdef01234567')).err).toMatchObject(notStored);
      expect((await client.get(`${applicantPath}/documents`)).body.documents).toEqual([]);
      // The stranger's file keeps the key the form sealed: an orphan nobody downloads.
      expect(await fileKey(strangers.file_id)).toMatchObject({ v: 3 });

      expect((await add(mine.file_id)).err).toBeUndefined();
      expect(await fileKey(mine.file_id)).toMatchObject({ v: 2, key_id: stack.fieldEncryptionKeys.split(':')[0] });
      const [document] = (await client.get(`${applicantPath}/documents`)).body.documents;
      const content = await fetch(`${stack.url}${applicantPath}/documents/${document.id}/content`, {
        headers: { authorization: `Bearer ${KEYS.clientOne}` },
      });
      expect(Buffer.from(await content.arrayBuffer()).equals(png)).toBe(true);
    } finally {
      await db.close();
    }
  });

  it('refuses a form’s message whose values were sealed with FIELD_ENCRYPTION_KEYS, and takes it sealed to the public key', async () => {
    const { token, applicationId, applicantPath } = await startedApplicant();
    const messageId = randomUUID();
    const owner = `form:${formTokenDigest(token)} message:${messageId}`;
    // What a form holding the symmetric ring sealed, as the form did before.
    const cipher = new FieldCipher(stack.fieldEncryptionKeys);
    const symmetric = {
      id_number: cipher.seal('987654321', 'applicant.id_number', owner),
      dob: cipher.seal('1985-06-07', 'applicant.dob', owner),
    };
    const refused = await ask(APPLICATION_FORMS.SAVE_SECTION, identityStep(token, applicationId, symmetric), messageId);
    expect(refused.err).toMatchObject({ code: 'INTERNAL' });
    const refusal = stack.logLines().find((line) => line.includes('form message refused: sealed id_number cannot be opened'));
    expect(refusal).toContain('not a value sealed to a form sealing key');
    expect(await sensitiveData(applicantPath)).toEqual({ dob: null, id_number: null, drivers_license_number: null });
    // Nor in clear beside the envelope.
    const clear = identityStep(token, applicationId, {}, { id_number: '987654321', dob: '1985-06-07' });
    expect((await ask(APPLICATION_FORMS.SAVE_SECTION, clear, randomUUID())).err).toMatchObject({ code: 'INTERNAL' });
    expect(stack.logLines().some((line) => line.includes('form message refused: id_number came in clear'))).toBe(true);
    expect(await sensitiveData(applicantPath)).toEqual({ dob: null, id_number: null, drivers_license_number: null });

    // The same values sealed to the public key, in a message of their own: taken.
    const sealer = new FormFieldSealer(new FormSealer(stack.formSealingKey.publicKey));
    const acceptedId = randomUUID();
    const sealed = sealer.sealFields(
      { id_number: '987654321', dob: '1985-06-07' },
      { tokenDigest: formTokenDigest(token), messageId: acceptedId },
    );
    const taken = await ask(APPLICATION_FORMS.SAVE_SECTION, identityStep(token, applicationId, sealed), acceptedId);
    expect(taken.err).toBeUndefined();
    expect(await sensitiveData(applicantPath)).toEqual({
      dob: '1985-06-07',
      id_number: '987654321',
      drivers_license_number: null,
    });
  });

  it('refuses a gateway’s message whose values were sealed to the form’s public key', async () => {
    const messageId = randomUUID();
    const request = parseRequest(CreateApplicationRequest, {
      application: { property_id: propertyId, applicant: { first_name: 'Eve', last_name: 'Forged', email: 'eve@example.com' } },
    });
    const formSealed = new FormSealer(stack.formSealingKey.publicKey).seal(
      '111223333',
      'applicant.id_number',
      `client:1 message:${messageId}`,
    );
    const message = { client_id: 1, request, sealed_applicant: { id_number: formSealed } };
    expect((await ask(APPLICATIONS.CREATE, message, messageId)).err).toMatchObject({ code: 'INTERNAL' });
    expect(stack.logLines().some((line) => line.includes('sealed id_number is bound to no client and message'))).toBe(true);

    // The gateway's own envelope of the same request is taken.
    const gatewayId = randomUUID();
    const gateway = new ApplicantSealer(new FieldCipher(stack.fieldEncryptionKeys));
    const sealedByGateway = gateway.seal(
      parseRequest(CreateApplicationRequest, {
        application: { ...request.application, applicant: { ...request.application.applicant, id_number: '111223333' } },
      }),
      { clientId: 1, messageId: gatewayId },
    );
    expect((await ask(APPLICATIONS.CREATE, { client_id: 1, ...sealedByGateway }, gatewayId)).err).toBeUndefined();
  });

  it('seals each section step whole: what the applicant typed never crosses the broker in clear, nor stays in a dead letter', async () => {
    // A form instance whose broker connection passes through here, every byte it sends kept.
    const sent: Buffer[] = [];
    const broker = new URL(process.env.AMQP_URL!);
    const proxy = createServer((inbound) => {
      const outbound = connectTcp(Number(broker.port || 5672), broker.hostname);
      inbound.on('data', (chunk: Buffer) => sent.push(chunk));
      inbound.pipe(outbound).pipe(inbound);
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
    });
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    try {
      const port = await freePort();
      const throughProxy = new URL(broker);
      throughProxy.host = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      await stack.startApp('form', { FORM_PORT: String(port), AMQP_URL: throughProxy.toString() });
      const { token, applicantPath } = await startedApplicant();
      const typed = `${randomUUID()} Hidden Lane`;
      const fields = { 'residences.0.address': typed, 'residences.0.from': yearsAgo(4) };
      await saveStep(`http://127.0.0.1:${port}`, token, 'residence_history', fields);

      // Saved as typed, having crossed the broker sealed.
      expect(JSON.stringify((await client.get(applicantPath)).body.applicant)).toContain(typed);
      const wire = Buffer.concat(sent);
      expect(wire.includes(APPLICATION_FORMS.SAVE_SECTION)).toBe(true);
      expect(wire.includes(typed)).toBe(false);
    } finally {
      proxy.close();
    }
  });
});
