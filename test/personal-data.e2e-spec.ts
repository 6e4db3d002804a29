import { Channel, ChannelModel, connect, ConsumeMessage } from 'amqplib';
import { randomUUID } from 'node:crypto';
import { APPLICATIONS, CreateApplicationRequest } from '@app/contracts';
import { ApplicantSealer, FieldCipher } from '@app/crypto';
import { api, Answer, Api } from './support/http';
import { askQueue } from './support/service-rpc';
import { KEYS, Stack, testFieldKey } from '../tools/stack';

/** Applicants whose SSN and date of birth must never show in clear outside the processes. */
const APPLICANTS = [
  { id_number: '078-05-1120', dob: '07/23/1981' },
  { id_number: '219099999', dob: '1979-02-14' },
  { id_number: '457-55-5462', dob: '1990-12-31' },
].map((sensitive, i) => ({
  first_name: `Private${i}`,
  last_name: 'Person',
  email: `private${i}@example.com`,
  phone: '5550100000',
  ...sensitive,
}));

/** Every way each value may be written: as sent, normalized, and in the other date format. */
function clearForms({ id_number, dob }: { id_number: string; dob: string }): string[] {
  const digits = id_number.replace(/-/g, '');
  const iso = dob.includes('/') ? `${dob.slice(6)}-${dob.slice(0, 2)}-${dob.slice(3, 5)}` : dob;
  const us = `${iso.slice(5, 7)}/${iso.slice(8)}/${iso.slice(0, 4)}`;
  return [digits, `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`, iso, us];
}

/** Added to the first application as a co-applicant. */
const CO_APPLICANT = {
  first_name: 'Private',
  last_name: 'Partner',
  email: 'partner@example.com',
  id_number: '536-90-4399',
  dob: '03/15/1977',
};

const SECRETS = [...[...APPLICANTS, CO_APPLICANT].flatMap(clearForms), KEYS.clientOne, KEYS.clientTwo];

function expectNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) {
    if (text.includes(secret)) throw new Error(`${where} holds ${JSON.stringify(secret)} in clear`);
  }
}

describe('applicants’ SSN and date of birth, and API keys, outside the processes', () => {
  let stack: Stack;
  let client: Api;
  let propertyId: number;
  let firstApplicationId: number;
  const answers: Answer[] = [];
  const send = async (request: Promise<Answer>) => {
    const answer = await request;
    answers.push(answer);
    return answer;
  };
  const apply = (applicant: Record<string, unknown>, application: Record<string, unknown> = {}) =>
    send(client.post('/api/v2/applications', { application: { property_id: propertyId, ...application, applicant } }));

  beforeAll(async () => {
    stack = await Stack.start({ env: { RPC_TIMEOUT_MS: '2000', PROPERTY_LOOKUP_TIMEOUT_MS: '1000' } });
    client = api(stack.url);
    propertyId = (await client.post('/api/v2/properties', { property: { name: 'Quiet Court' } })).body.property.id;

    const created = [];
    for (const applicant of APPLICANTS) {
      const answer = await apply(applicant);
      expect(answer.status).toBe(201);
      created.push(answer.body.application);
    }
    // The resources read back, a co-applicant added (and refused), all with the values along.
    firstApplicationId = created[0].id;
    const coApplicants = `/api/v2/applications/${firstApplicationId}/applicants`;
    const added = await send(client.post(coApplicants, { applicant: CO_APPLICANT }));
    expect(added.status).toBe(201);
    expect((await send(client.post(coApplicants, { applicant: { ...CO_APPLICANT, email: 'no' } }))).status).toBe(422);
    for (const application of created) {
      expect((await send(client.get(`/api/v2/applications/${application.id}`))).status).toBe(200);
      const path = new URL(application.applicants[0].api_url).pathname;
      expect((await send(client.get(path))).status).toBe(200);
    }
    expect((await send(client.get(new URL(added.body.applicant.api_url).pathname))).status).toBe(200);
    expect((await send(client.get('/api/v2/applications?limit=2'))).status).toBe(200);
    expect((await send(client.get(`/api/v2/applications?property_id=${propertyId}`))).body.applications).toHaveLength(3);
    // Refused on every path: by validation, for the property, for the key; the values ride along.
    const [first, second] = APPLICANTS;
    expect((await apply({ ...first, email: 'not-an-address' })).status).toBe(422);
    expect((await apply({ ...first, id_number: `${first.id_number}0` })).status).toBe(422);
    expect((await apply({ ...second, custom_data: { ssn: second.id_number, born: second.dob, $gt: '' } })).status).toBe(422);
    // Keyed, so that its claim keeps a fingerprint of a body holding the values.
    const unknownProperty = { application: { property_id: 987654, applicant: second } };
    const keyed = { headers: { 'idempotency-key': randomUUID() } };
    expect((await send(client.post('/api/v2/applications', unknownProperty, keyed))).status).toBe(422);
    expect(
      (
        await send(
          client.post(
            '/api/v2/applications',
            { application: { property_id: propertyId, applicant: second } },
            { key: 'not-a-configured-key' },
          ),
        )
      ).status,
    ).toBe(401);
  });

  afterAll(() => stack?.stop());

  it('are in no response', () => {
    expect(answers.length).toBeGreaterThanOrEqual(16);
    for (const answer of answers) expectNoSecret(answer.text, `a ${answer.status} response`);
  });

  it('are in no raw database document, where id_number and dob are sealed values', async () => {
    let applications = 0;
    let fingerprints = 0;
    for (const service of ['applications', 'properties'] as const) {
      const db = await stack.database(service);
      try {
        for (const { name } of await db.db!.listCollections().toArray()) {
          const documents = await db.collection(name).find({}).toArray();
          expectNoSecret(JSON.stringify(documents), `collection ${service}.${name}`);
          if (name === 'idempotency_keys') {
            fingerprints += documents.length;
            // An HMAC under FINGERPRINT_KEYS (key id f1), never a bare digest anyone could match against guesses.
            for (const { fingerprint } of documents) expect(fingerprint).toMatch(/^f1:[0-9a-f]{64}$/);
          }
          if (service === 'applications' && name === 'applications') {
            applications = documents.length;
            const sealer = new ApplicantSealer(new FieldCipher(stack.fieldEncryptionKeys));
            const opened = documents
              .sort((a, b) => a.id - b.id)
              .flatMap(({ client_id: clientId, applicants }) =>
                applicants.map((applicant: any) => ({ owner: { clientId, applicantId: applicant.id }, applicant })),
              )
              .map(({ owner, applicant }) => ({
                id_number: sealer.openField('id_number', applicant.id_number, owner),
                dob: sealer.openField('dob', applicant.dob, owner),
              }));
            const [first, ...rest] = APPLICANTS;
            expect(opened).toEqual(
              [first, CO_APPLICANT, ...rest].map((a) => ({ id_number: clearForms(a)[0], dob: clearForms(a)[2] })),
            );
          }
        }
      } finally {
        await db.close();
      }
    }
    expect(applications).toBe(APPLICANTS.length);
    expect(fingerprints).toBeGreaterThanOrEqual(1);
  });

  /** The create-application message the gateway sent in the broker test, never worked on. */
  let captured: ConsumeMessage | undefined;

  it('are in no message on the broker: what a queue or a dead-letter queue holds is sealed', async () => {
    await stack.stopApp('applications');
    const connection: ChannelModel = await connect(process.env.AMQP_URL!);
    try {
      const channel: Channel = await connection.createChannel();
      const early: ConsumeMessage[] = [];
      const waiting: Array<(message: ConsumeMessage) => void> = [];
      await channel.consume(
        `${stack.namespace}applications`,
        (message) => message && (waiting.shift() ?? ((m: ConsumeMessage) => early.push(m)))(message),
        { noAck: false },
      );
      const nextMessage = () =>
        new Promise<ConsumeMessage>((resolve) => (early.length ? resolve(early.shift()!) : waiting.push(resolve)));
      const coApplicants = `/api/v2/applications/${firstApplicationId}/applicants`;
      for (const [pattern, request, applicantOf] of [
        [
          APPLICATIONS.CREATE,
          () => client.post('/api/v2/applications', { application: { property_id: propertyId, applicant: APPLICANTS[0] } }),
          (data: any) => data.request.application.applicant,
        ],
        [
          APPLICATIONS.ADD_APPLICANT,
          () => client.post(coApplicants, { applicant: CO_APPLICANT }),
          (data: any) => data.request.applicant,
        ],
      ] as const) {
        // The gateway gives up (503) while the message sits in the queue, as it would in a dead-letter queue.
        const pending = send(request());
        const message = await nextMessage();
        channel.nack(message, false, false);
        expect((await pending).status).toBe(503);

        const text = message.content.toString();
        if (pattern === APPLICATIONS.CREATE) captured = message;
        expectNoSecret(text, `the ${pattern} message`);
        const body = JSON.parse(text);
        expect(body.pattern).toBe(pattern);
        expect(Object.keys(body.data.sealed_applicant).sort()).toEqual(['dob', 'id_number']);
        expect(applicantOf(body.data)).not.toHaveProperty('id_number');
        expect(applicantOf(body.data)).not.toHaveProperty('dob');
      }
      await channel.close();
    } finally {
      await connection.close();
    }
    await stack.startApp('applications');
  });

  /** Sends a create-application message as a gateway would and resolves with the answer. */
  const sendCreate = (data: unknown, correlationId: string) =>
    askQueue(`${stack.namespace}applications`, APPLICATIONS.CREATE, data, correlationId);

  it('are not logged when a message sealed under an unknown key is refused', async () => {
    const stranger = new ApplicantSealer(new FieldCipher(testFieldKey('stranger')));
    const [applicant] = APPLICANTS;
    const id = randomUUID();
    const request = { application: { property_id: propertyId, applicant } } as unknown as CreateApplicationRequest;
    const data = { client_id: 1, ...stranger.seal(request, { clientId: 1, messageId: id }) };
    expect((await sendCreate(data, id)).err).toMatchObject({ code: 'INTERNAL' });
    // Log lines are JSON: the quotes around the key id arrive escaped.
    const refusal = stack.logLines().find((line) => line.includes('sealed id_number cannot be opened'));
    expect(refusal).toContain('sealed with unknown key id \\"stranger\\"');
  });

  it('open only in the message the gateway sealed them for, and for its client', async () => {
    const { data, id } = JSON.parse(captured!.content.toString());
    // Copied into another message, or into a message of another client: refused.
    expect((await sendCreate(data, randomUUID())).err).toMatchObject({ code: 'INTERNAL' });
    expect((await sendCreate({ ...data, client_id: 2 }, id)).err).toMatchObject({ code: 'INTERNAL' });
    // As sent, under its own id, it is worked on.
    const answer = await sendCreate(data, id);
    expect(answer.err).toBeUndefined();
    expect(answer.response.application.property_id).toBe(propertyId);
  });

  it('are in no line any process wrote', async () => {
    // Every process stopped, so that everything it had to say has been read.
    await stack.stopProcesses();
    const lines = stack.logLines();
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.join('\n')).toContain('HTTP API listening');
    lines.forEach((line, i) => expectNoSecret(line, `log line ${i + 1} (${line.slice(0, 80)})`));
  });
});
