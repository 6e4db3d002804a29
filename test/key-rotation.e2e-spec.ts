import { ApplicantSealer, FieldCipher } from '@app/crypto';
import { api, Api } from './support/http';
import { KEYS, Stack, testFieldKey } from '../tools/stack';

/**
 * Rotating FIELD_ENCRYPTION_KEYS as the README says: put a new key first everywhere, keeping the
 * old one after it. New values are sealed under the new key; values sealed before stay readable.
 */
describe('field encryption key rotation', () => {
  let stack: Stack;
  let client: Api;
  let propertyId: number;
  const oldKey = () => stack.fieldEncryptionKeys;
  const newKey = testFieldKey('t2');
  const rotated = () => `${newKey},${oldKey()}`;

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

  beforeAll(async () => {
    stack = await Stack.start({ env: { API_KEY_SCOPES: `${KEYS.clientOne}:sensitive_data` } });
    client = api(stack.url);
    propertyId = (await client.post('/api/v2/properties', { property: { name: 'Rotation Row' } })).body.property.id;
  });

  afterAll(() => stack?.stop());

  it('keeps old values readable and seals new ones under the key put first', async () => {
    const before = await apply('111-22-3333', '1970-01-02');

    // The services first, so that they can open what a gateway seals under either key...
    await stack.stopApp('applications');
    await stack.startApp('applications', { FIELD_ENCRYPTION_KEYS: rotated() });
    const during = await apply('222-33-4444', '1971-02-03');
    // ...then the gateways.
    await stack.stopApp('gateway');
    await stack.startApp('gateway', { FIELD_ENCRYPTION_KEYS: rotated() });
    const after = await apply('333-44-5555', '1972-03-04');

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

    // The old value is readable only while its key stays in the ring.
    expect(() =>
      new ApplicantSealer(new FieldCipher(newKey)).openField('id_number', values[0].id_number, values[0].owner),
    ).toThrow('unknown key id');
  });
});
