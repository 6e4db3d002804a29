import { randomBytes } from 'node:crypto';
import { ApplicantSealer, FieldCipher, formTokenDigest } from '@app/crypto';
import { sendStep, startForm, uploadDocument } from './support/form-documents';
import { api, Api, expectErrorBody } from './support/http';
import { KEYS, Stack, testFieldKey, testFormSealingKey } from '../tools/stack';
import { pngOf } from '../libs/documents/src/documents.testing';

/**
 * Rotating FIELD_ENCRYPTION_KEYS as docs/operators/security.md says: put a new key first everywhere, keeping the
 * old one after it. New values and documents are sealed under the new key; values sealed and
 * documents stored before stay readable, and form links issued before stay good. The form's
 * sealing key pair is rotated alongside: a new private key first on the applications service,
 * then its public key to the form.
 */
describe('field encryption key rotation', () => {
  let stack: Stack;
  let client: Api;
  let propertyId: number;
  const oldKey = () => stack.fieldEncryptionKeys;
  const newKey = testFieldKey('t2');
  const rotated = () => `${newKey},${oldKey()}`;
  const newSealingKey = testFormSealingKey('s2');

  const apply = async (id_number: string, dob: string): Promise<number> => {
    const answer = await client.post('/api/v2/applications', {
      application: {
        property_id: propertyId,
        applicant: { first_name: 'Rot', last_name: 'Ation', email: 'r@example.com', id_number, dob },
      },
    });
    expect(answer.status).toBe(201);
    return answer.body.application.id;
  };

  /** The stored applicant's sealed id_number and dob, by application id. */
  const stored = async (id: number) => {
    const db = await stack.database('applications');
    try {
      const document = await db.collection('applications').findOne({ id });
      const [applicant] = document!.applicants;
      return {
        id_number: applicant.id_number,
        dob: applicant.dob,
        owner: { clientId: document!.client_id, applicantId: applicant.id },
      };
    } finally {
      await db.close();
    }
  };

  const applicantPathOf = async (id: number): Promise<string> =>
    new URL((await client.get(`/api/v2/applications/${id}`)).body.application.applicants[0].api_url).pathname;

  /** A photo ID uploaded on the form by the applicant whose form link is `token`: its bytes. */
  const uploadPhoto = async (token: string): Promise<Buffer> => {
    const bytes = Buffer.concat([pngOf(60, 40), randomBytes(200_000)]);
    expect((await uploadDocument(stack.formUrl, token, { name: 'id.png', type: 'image/png', bytes })).status).toBe(303);
    return bytes;
  };

  /** Each document of the applicant as the API lists it, with the bytes its download gives. */
  const downloaded = async (applicantPath: string) => {
    const listed = await client.get(`${applicantPath}/documents`);
    expect(listed.status).toBe(200);
    return Promise.all(
      listed.body.documents.map(async (document: { id: number }) => {
        const content = await fetch(`${stack.url}${applicantPath}/documents/${document.id}/content`, {
          headers: { authorization: `Bearer ${KEYS.clientOne}` },
        });
        expect(content.status).toBe(200);
        return Buffer.from(await content.arrayBuffer());
      }),
    );
  };

  /** The key id that sealed each stored document's data key, oldest first. */
  const documentKeyIds = async (): Promise<string[]> => {
    const db = await stack.database('applications');
    try {
      const files = await db.collection('documents.files').find({}).sort({ uploadDate: 1 }).toArray();
      return files.map((file) => file.metadata.key.key_id);
    } finally {
      await db.close();
    }
  };

  beforeAll(async () => {
    stack = await Stack.start({ form: true, env: { API_KEY_SCOPES: `${KEYS.clientOne}:sensitive_data` } });
    client = api(stack.url);
    propertyId = (await client.post('/api/v2/properties', { property: { name: 'Rotation Row' } })).body.property.id;
  });

  afterAll(() => stack?.stop());

  it('keeps old values and documents readable and seals new ones under the key put first', async () => {
    const before = await apply('111-22-3333', '1970-01-02');
    const withDocuments = await applicantPathOf(await apply('444-55-6666', '1973-04-05'));
    const token = await startForm(stack.formUrl, (await client.get(withDocuments)).body.applicant.form_url);
    const oldPhoto = await uploadPhoto(token);

    // The services first, so that they can open what a gateway seals under either key...
    await stack.stopApp('applications');
    await stack.startApp('applications', {
      FIELD_ENCRYPTION_KEYS: rotated(),
      FORM_SEALING_KEYS: `${newSealingKey.privateKey},${stack.formSealingKey.privateKey}`,
    });
    const during = await apply('222-33-4444', '1971-02-03');
    // ...then the gateways.
    await stack.stopApp('gateway');
    await stack.startApp('gateway', { FIELD_ENCRYPTION_KEYS: rotated() });
    const after = await apply('333-44-5555', '1972-03-04');
    // The form holds no field key: it is given the new sealing key's public key once the
    // applications service opens with it. The link issued before the rotation still opens the form.
    await stack.stopApp('form');
    await stack.startApp('form', { FORM_SEALING_PUBLIC_KEY: newSealingKey.publicKey, FORM_PORT: new URL(stack.formUrl).port });
    const newPhoto = await uploadPhoto(token);
    const identity = await sendStep(stack.formUrl, token, 'identity', { dob: '1974-05-06', id_number: '555-66-7777' });
    expect(identity.status).toBe(303);

    const [oldId, newId] = [oldKey(), newKey].map((entry) => entry.split(':')[0]);
    const values = await Promise.all([before, during, after].map(stored));
    expect(values.map((v) => [v.id_number.key_id, v.dob.key_id])).toEqual([
      [oldId, oldId],
      [newId, newId],
      [newId, newId],
    ]);

    const ring = new ApplicantSealer(new FieldCipher(rotated()));
    expect(values.map((v) => [ring.openField('id_number', v.id_number, v.owner), ring.openField('dob', v.dob, v.owner)])).toEqual(
      [
        ['111223333', '1970-01-02'],
        ['222334444', '1971-02-03'],
        ['333445555', '1972-03-04'],
      ],
    );
    // And the API reads every one of them to a key with the scope, whichever key sealed it.
    const read = async (id: number) => {
      const applicant = (await client.get(`/api/v2/applications/${id}`)).body.application.applicants[0];
      const answer = await client.get(`${new URL(applicant.api_url).pathname}?include=sensitive_data`);
      expect(answer.status).toBe(200);
      return answer.body.applicant.sensitive_data;
    };
    expect(await Promise.all([before, during, after].map(read))).toEqual([
      { dob: '1970-01-02', id_number: '111223333', drivers_license_number: null },
      { dob: '1971-02-03', id_number: '222334444', drivers_license_number: null },
      { dob: '1972-03-04', id_number: '333445555', drivers_license_number: null },
    ]);

    // Typed into the form after the rotation: sealed to the new sealing key, stored under the new field key.
    const db = await stack.database('applications');
    const saved = await db
      .collection<{ _id: string; [field: string]: any }>('applicant_forms')
      .findOne({ _id: formTokenDigest(token) })
      .finally(() => db.close());
    expect([saved!.id_number.key_id, saved!.dob.key_id]).toEqual([newId, newId]);
    expect((await client.get(`${withDocuments}?include=sensitive_data`)).body.applicant.sensitive_data).toEqual({
      dob: '1974-05-06',
      id_number: '555667777',
      drivers_license_number: null,
    });

    // Each document's data key, which the form sealed to its sealing key, sealed again with the
    // field key ring by the applications service: the old photo's under the old key, the new one's under the new.
    expect(await documentKeyIds()).toEqual([oldId, newId]);
    const [oldDownload, newDownload] = await downloaded(withDocuments);
    expect(oldDownload.equals(oldPhoto)).toBe(true);
    expect(newDownload.equals(newPhoto)).toBe(true);

    // The old value is readable only while its key stays in the ring.
    expect(() =>
      new ApplicantSealer(new FieldCipher(newKey)).openField('id_number', values[0].id_number, values[0].owner),
    ).toThrow('unknown key id');

    // A gateway whose ring has lost the old key says which key the old document needs, not a bare 500.
    await stack.stopApp('gateway');
    await stack.startApp('gateway', { FIELD_ENCRYPTION_KEYS: newKey });
    const [oldDocument] = (await client.get(`${withDocuments}/documents`)).body.documents;
    const lost = await client.get(`${withDocuments}/documents/${oldDocument.id}/content`);
    expect(lost.status).toBe(409);
    expectErrorBody(
      lost,
      `document ${oldDocument.id} cannot be opened: its key is sealed under key id "${oldId}", which FIELD_ENCRYPTION_KEYS no longer holds; it opens again once that key is back in the ring`,
    );
  });
});
