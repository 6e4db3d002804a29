import { ApplicantInput, ApplicationInput, ErrorCode, MAX_APPLICANTS, ServiceError } from '@app/contracts';
import { ApplicantSealer } from '@app/crypto';
import { PendingEvent } from '@app/events';
import { MemoryDatabase } from '@app/persistence/memory-storage.testing';
import { ApplicantRecord, ApplicationRecord } from '../domain/application';
import { applicationsInstance, ApplicationsInstance, MemoryProperties, scope } from './applications-instance.testing';

const CLIENT = 7;
const OTHER_CLIENT = 8;
const SSN = '078051120';
const DOB = '1985-12-10';
const primary: ApplicantInput = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const co = (name: string): ApplicantInput => ({ first_name: name, last_name: 'Co', email: 'co@example.com', dob: '1990-01-02' });

async function refusal(work: Promise<unknown>): Promise<ServiceError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

/** The create and the adds, through the real repositories over collections in memory that behave as FerretDB's do. */
describe('ApplicationsService', () => {
  let database: MemoryDatabase;
  let app: ApplicationsInstance;
  const stored = (id: number) => database.collection('applications').documents.get(String(id)) as unknown as ApplicationRecord;
  const pending = () => [...database.collection('event_outbox').documents.values()] as unknown as PendingEvent[];
  const apply = (input: Partial<ApplicationInput> = {}, applicant: Partial<ApplicantInput> = {}, messageId = scope().messageId) =>
    app.service.create(CLIENT, { property_id: 3, applicant: { ...primary, ...applicant }, ...input } as ApplicationInput, {
      messageId,
    });

  beforeEach(async () => {
    database = new MemoryDatabase();
    app = await applicationsInstance(database);
  });

  describe('create', () => {
    it('stores the application with its primary applicant, the property name and the request key', async () => {
      const before = Date.now();
      const created = await apply({}, {}, 'm-1');
      const record = stored(created.id);
      expect(record).toEqual({
        _id: String(created.id),
        id: created.id,
        client_id: CLIENT,
        property_id: 3,
        property_name: `P${CLIENT}:3`,
        assigned_user_id: null,
        user_specified_rent: null,
        desired_move_in: null,
        applicants: [
          {
            id: created.applicants[0].id,
            type: 'primary',
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: 'ada@example.com',
            dob: null,
            id_number: null,
            phone: null,
            custom_data: null,
            reference_id: null,
            redirect_url: null,
            form_token: expect.objectContaining({ key_id: 'k1' }),
            form_token_digest: expect.stringMatching(/^[\w-]{43}$/),
            form_status: 'not_started',
            form_started_at: null,
            form_completed_at: null,
            created_at: record.created_at,
            updated_at: record.created_at,
          },
        ],
        version: 0,
        event_ids: [expect.any(String), expect.any(String)],
        created_at: record.created_at,
        updated_at: record.created_at,
        request_key: 'message:m-1',
      });
      expect(record.created_at.getTime()).toBeGreaterThanOrEqual(before);
      expect(created).toMatchObject({ id: record.id, client_id: CLIENT, property: { id: 3, name: `P${CLIENT}:3` } });
    });

    it('records its events, shown to the relay once it is kept', async () => {
      const created = await apply();
      const events = pending().map(({ event }) => [event.event, event.data]);
      expect(events).toEqual([
        ['application.created', { application_id: created.id, property_id: 3 }],
        [
          'applicant.created',
          { applicant_id: created.applicants[0].id, application_id: created.id, property_id: 3, reference_id: null },
        ],
      ]);
      expect((await app.outbox.writtenAmong(pending())).size).toBe(2);
    });

    it('lists the application in its client’s list and its property’s', async () => {
      const created = await apply();
      expect(await app.lists.read({ clientId: CLIENT }, 1, 1)).toEqual([{ position: 1, application_id: created.id }]);
      expect(await app.lists.read({ clientId: CLIENT, propertyId: 3 }, 1, 1)).toEqual([
        { position: 1, application_id: created.id },
      ]);
    });

    it('stores the id number and date of birth sealed, each bound to its field, the client and the applicant', async () => {
      const created = await apply({}, { id_number: SSN, dob: DOB });
      const [applicant] = stored(created.id).applicants;
      expect(JSON.stringify(applicant)).not.toContain(SSN);
      expect(JSON.stringify(applicant)).not.toContain(DOB);
      const sealer = new ApplicantSealer(app.cipher);
      const owner = { clientId: CLIENT, applicantId: applicant.id };
      expect(sealer.openField('id_number', applicant.id_number, owner)).toBe(SSN);
      expect(sealer.openField('dob', applicant.dob, owner)).toBe(DOB);
      expect(() => sealer.openField('dob', applicant.dob, { ...owner, applicantId: applicant.id + 1 })).toThrow(
        'failed authentication',
      );
      expect(() => sealer.openField('dob', applicant.dob, { ...owner, clientId: CLIENT + 1 })).toThrow('failed authentication');
    });

    it('keeps the other values given, custom_data as its JSON text', async () => {
      const created = await apply(
        { assigned_user_id: 42, user_specified_rent: 1850, desired_move_in: '2026-12-01' },
        {
          phone: '5550101234',
          custom_data: { source: 'web' },
          reference_id: 'crm-77',
          redirect_url: 'https://landlord.example/thanks',
        },
      );
      const record = stored(created.id);
      expect(record).toMatchObject({ assigned_user_id: 42, user_specified_rent: 1850, desired_move_in: '2026-12-01' });
      expect(record.applicants[0]).toMatchObject({
        phone: '5550101234',
        custom_data: '{"source":"web"}',
        reference_id: 'crm-77',
        redirect_url: 'https://landlord.example/thanks',
      });
    });

    it('answers a request done twice with what its first try stored, creating nothing more', async () => {
      const first = await apply({}, {}, 'm-twice');
      const again = await apply({}, {}, 'm-twice');
      expect(again).toEqual(first);
      expect(database.collection('applications').documents.size).toBe(1);
      expect((await app.outbox.writtenAmong(pending())).size).toBe(2);
    });

    it('refuses a property the lookup does not know, recording and storing nothing', async () => {
      const error = await refusal(apply({ property_id: 300 }));
      expect([error.code, error.message]).toEqual([ErrorCode.PROPERTY_ID_INVALID, 'property_id is invalid or cannot be found']);
      expect(database.collection('applications').documents.size).toBe(0);
      expect(pending()).toEqual([]);
    });

    it('lets the failure of the lookup through, storing nothing', async () => {
      app.properties.afterLookup = () => {
        throw ServiceError.unavailable('the service is temporarily unavailable, retry later');
      };
      expect((await refusal(apply())).code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
      expect(database.collection('applications').documents.size).toBe(0);
    });

    it('sends a few database commands for a create, and looks the property up once', async () => {
      await apply();
      const before = database.counts();
      app.properties.lookups = 0;
      await apply();
      const after = database.counts();
      expect(app.properties.lookups).toBe(1);
      expect(after.scans - before.scans).toBe(0);
      // Ids (two), the outbox, two list entries, the application, the fence, the settlement.
      expect(after.reads + after.writes - before.reads - before.writes).toBeLessThanOrEqual(8);
    });
  });

  describe('create, racing a delete of its property', () => {
    let properties: MemoryProperties;

    beforeEach(async () => {
      properties = new MemoryProperties();
      app = await applicationsInstance(database, properties);
    });

    it('refuses with the documented 422, keeping nothing, when the delete fences the property after the lookup', async () => {
      properties.afterLookup = () => void app.repository.fenceProperty(CLIENT, 3);
      const error = await refusal(apply());
      expect([error.code, error.message]).toEqual([ErrorCode.PROPERTY_ID_INVALID, 'property_id is invalid or cannot be found']);
      expect(database.collection('applications').documents.size).toBe(0);
      expect([...(await app.outbox.writtenAmong(pending()))]).toEqual([]);
    });

    it('keeps an application created before its property was fenced', async () => {
      const created = await apply();
      await app.repository.fenceProperty(CLIENT, 3);
      expect(stored(created.id)).toBeDefined();
      expect((await refusal(apply())).code).toBe(ErrorCode.PROPERTY_ID_INVALID);
    });

    it('keeps what a redelivery answered with while the first try was finding the fence', async () => {
      const fences = database.collection('property_fences');
      let atFenceCheck: () => void = () => undefined;
      const reachedFenceCheck = new Promise<void>((resolve) => (atFenceCheck = resolve));
      let releaseFenceCheck: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (releaseFenceCheck = resolve));
      const findOne = fences.findOne.bind(fences);
      jest.spyOn(fences, 'findOne').mockImplementationOnce(async (...args: Parameters<typeof findOne>) => {
        atFenceCheck();
        await held;
        return findOne(...args);
      });
      const first = apply({}, {}, 'm-twice');
      await reachedFenceCheck;
      // The property is deleted, and the message delivered again to another instance, which finds
      // the application stored under its request key and answers with it.
      await app.repository.fenceProperty(CLIENT, 3);
      const answered = await (
        await applicationsInstance(database, properties)
      ).service.create(CLIENT, { property_id: 3, applicant: primary } as ApplicationInput, { messageId: 'm-twice' });
      releaseFenceCheck();

      expect((await first).id).toBe(answered.id);
      expect(stored(answered.id)).toBeDefined();
    });

    it('finishes a removal that a dying try began, and refuses the retry as its property is gone', async () => {
      properties.afterLookup = () => void app.repository.fenceProperty(CLIENT, 3);
      jest.spyOn(database.collection('applications'), 'deleteOne').mockRejectedValueOnce(new Error('process died'));
      await expect(apply({}, {}, 'm-again')).rejects.toThrow('process died');
      expect(database.collection('applications').documents.size).toBe(1);

      expect((await refusal(apply({}, {}, 'm-again'))).code).toBe(ErrorCode.PROPERTY_ID_INVALID);
      expect(database.collection('applications').documents.size).toBe(0);
    });

    it('answers a retry that takes over an unfinished claim with what the first try stored, the property deleted since', async () => {
      const keyed = { key: 'retry-me', messageId: 'm-retried' };
      const input = { property_id: 1, applicant: primary } as ApplicationInput;
      // The first try stores the application, then its process dies before the outcome is kept.
      jest.spyOn(database.collection('idempotency_outcomes'), 'insertOne').mockRejectedValueOnce(new Error('process died'));
      await expect(app.service.create(CLIENT, input, keyed)).rejects.toThrow('process died');
      const [first] = database.collection('applications').documents.values();
      properties.deleted.add(1);
      await app.repository.fenceProperty(CLIENT, 1);

      const retried = await app.service.create(CLIENT, input, keyed);

      expect(retried.id).toBe(first.id);
      expect(database.collection('applications').documents.size).toBe(1);
    });
  });

  describe('addApplicant', () => {
    it('adds a co-applicant that the application then lists, its dob sealed', async () => {
      const created = await apply();
      const added = await app.service.addApplicant(CLIENT, created.id, co('Bea'), scope());
      expect(added).toMatchObject({ type: 'co_applicant', name: 'Bea Co', application_id: created.id });
      expect((await app.reads.get(CLIENT, created.id)).applicants.map((a) => [a.id, a.type])).toEqual([
        [created.applicants[0].id, 'primary'],
        [added.id, 'co_applicant'],
      ]);
      const copy = JSON.stringify(stored(created.id));
      expect(copy).not.toContain('1990-01-02');
      expect(copy).toContain('"version":1');
    });

    it('adds once for a request done twice', async () => {
      const created = await apply();
      const request = scope();
      const first = await app.service.addApplicant(CLIENT, created.id, co('Bea'), request);
      expect(await app.service.addApplicant(CLIENT, created.id, co('Bea'), request)).toEqual(first);
      expect((await app.reads.get(CLIENT, created.id)).applicants).toHaveLength(2);
    });

    it('loses no addition made at once through two instances', async () => {
      const created = await apply();
      const other = await applicationsInstance(database);
      const added = await Promise.all(
        Array.from({ length: MAX_APPLICANTS - 1 }, (_, i) =>
          (i % 2 ? other : app).service.addApplicant(CLIENT, created.id, co(`C${i}`), scope()),
        ),
      );
      const listed = (await app.reads.get(CLIENT, created.id)).applicants;
      expect(listed).toHaveLength(MAX_APPLICANTS);
      expect(new Set(listed.map((a) => a.id))).toEqual(new Set([created.applicants[0].id, ...added.map((a) => a.id)]));
    });

    it('keeps an addition whose copy into the application was never written', async () => {
      const created = await apply();
      const applications = database.collection('applications');
      const updateOne = jest.spyOn(applications, 'updateOne').mockRejectedValueOnce(new Error('process died'));
      await expect(app.service.addApplicant(CLIENT, created.id, co('Lost'), scope())).rejects.toThrow('process died');
      updateOne.mockRestore();

      expect((await app.reads.get(CLIENT, created.id)).applicants.map((a) => a.name)).toEqual(['Ada Lovelace', 'Lost Co']);
      await app.service.addApplicant(CLIENT, created.id, co('Next'), scope());
      expect((stored(created.id).applicants as ApplicantRecord[]).length).toBe(3);
    });

    it(`refuses an applicant beyond ${MAX_APPLICANTS}, also among additions made at once`, async () => {
      const created = await apply();
      const other = await applicationsInstance(database);
      const answers = await Promise.allSettled(
        Array.from({ length: MAX_APPLICANTS + 5 }, (_, i) =>
          (i % 2 ? other : app).service.addApplicant(CLIENT, created.id, co(`C${i}`), scope()),
        ),
      );
      expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(MAX_APPLICANTS - 1);
      const refused = answers.filter((a): a is PromiseRejectedResult => a.status === 'rejected').map((a) => a.reason);
      expect(refused).toHaveLength(6);
      for (const error of refused) {
        expect([error.code, error.message]).toEqual([
          ErrorCode.VALIDATION_FAILED,
          `applicant cannot be added: an application has at most ${MAX_APPLICANTS} applicants`,
        ]);
      }
      expect((await app.reads.get(CLIENT, created.id)).applicants).toHaveLength(MAX_APPLICANTS);
    });

    it('refuses another client’s application', async () => {
      const created = await apply();
      expect((await refusal(app.service.addApplicant(OTHER_CLIENT, created.id, co('X'), scope()))).code).toBe(
        ErrorCode.NOT_FOUND,
      );
    });
  });
});
