import { connect } from 'amqplib';
import { randomBytes, randomUUID } from 'node:crypto';
import { APPLICATION_FORMS, APPLICATIONS, CreateApplicationRequest, parseRequest } from '@app/contracts';
import { ApplicantSealer, FieldCipher, FormFieldSealer, formTokenDigest, FormSealer } from '@app/crypto';
import { sendStep, startForm } from './support/form-documents';
import { api, Api } from './support/http';
import { KEYS, Stack } from '../tools/stack';

/**
 * The form seals applicants' identity numbers to a public key, and the applications service takes
 * each kind of envelope only in the messages of its sender: a form's with values sealed to
 * FORM_SEALING_KEYS, a gateway's with values sealed with FIELD_ENCRYPTION_KEYS.
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
  async function ask(pattern: string, data: unknown, correlationId: string): Promise<{ err?: { code: string }; response?: any }> {
    const connection = await connect(process.env.AMQP_URL!);
    try {
      const channel = await connection.createChannel();
      const { queue: replyTo } = await channel.assertQueue('', { exclusive: true });
      const reply = new Promise<any>((resolve) =>
        channel.consume(replyTo, (message) => message && resolve(JSON.parse(message.content.toString())), { noAck: true }),
      );
      const body = JSON.stringify({ pattern, data, id: correlationId });
      channel.sendToQueue(`${stack.namespace}applications`, Buffer.from(body), { replyTo, correlationId });
      const answer = await reply;
      await channel.close();
      return answer;
    } finally {
      await connection.close();
    }
  }

  /** An identity step's message as the form sends it, with `sealed_applicant` as given. */
  const identityStep = (token: string, applicationId: number, sealedApplicant: unknown) => ({
    token_digest: formTokenDigest(token),
    application_id: applicationId,
    kind: 'identity',
    section: { middle_name: 'King' },
    sealed_applicant: sealedApplicant,
    submission: randomBytes(16).toString('base64url'),
  });

  const sensitiveData = async (applicantPath: string) => {
    const answer = await client.get(`${applicantPath}?include=sensitive_data`);
    expect(answer.status).toBe(200);
    return answer.body.applicant.sensitive_data;
  };

  beforeAll(async () => {
    stack = await Stack.start({ form: true, env: { API_KEY_SCOPES: `${KEYS.clientOne}:sensitive_data` } });
    client = api(stack.url);
    propertyId = (await client.post('/api/v2/properties', { property: { name: 'Sealed Street' } })).body.property.id;
  });

  afterAll(() => stack?.stop());

  it('holds no private key: the form runs with the public key alone, and what it seals is stored', async () => {
    const form = stack.process('form');
    expect(form.env.FORM_SEALING_KEYS).toBe('');
    expect(form.env.FORM_SEALING_PUBLIC_KEY).toBe(stack.formSealingKey.publicKey);

    const { token, applicantPath } = await startedApplicant();
    const sent = await sendStep(stack.formUrl, token, 'identity', { dob: '1990-04-12', id_number: '123-45-6789' });
    expect(sent.status).toBe(303);
    expect(await sensitiveData(applicantPath)).toEqual({
      dob: '1990-04-12',
      id_number: '123456789',
      drivers_license_number: null,
    });
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
});
