import { randomBytes } from 'node:crypto';
import { DecisionsService } from '../decisions/decisions.service';
import { ApplicantInput, ApplicationInput, ErrorCode, MAX_APPLICANTS, ServiceError } from '@app/contracts';
import { ApplicantSealer, FieldCipher, FormLinkTokens } from '@app/crypto';
import { EventOutbox, PendingEvent } from '@app/events';
import { BodyFingerprints, IdAllocator, Idempotency } from '@app/persistence';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { ApplicationFormsService } from './application-forms.service';
import { ApplicationIndex } from './application-index';
import { ApplicationVersions } from './application-versions';
import { ApplicantRecord, ApplicationRecord } from './application.schema';
import { ApplicationsRepository } from './applications.repository';
import { ApplicationsService } from './applications.service';
import { ApplicantForms } from './applicant-forms';
import { FormTokens, formTokenDigest } from './form-tokens';
import { MemoryCollection, MemoryDatabase, MemoryStorage } from '@app/persistence/memory-storage.testing';
import { PropertiesClient } from './properties.client';

const KEYS = `k1:${randomBytes(32).toString('base64')}`;
const LINK_KEYS = `l1:${randomBytes(32).toString('base64')}`;
const env = Object.assign(new ApplicationsEnvironment(), {
  FIELD_ENCRYPTION_KEYS: KEYS,
  FORM_LINK_KEYS: LINK_KEYS,
  PUBLIC_BASE_URL: 'https://api.example.com/',
  APPLY_BASE_URL: 'https://apply.example.com',
});
const CLIENT = 1;
const OTHER_CLIENT = 2;
const primary: ApplicantInput = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', id_number: '078051120' };
const co = (name: string): ApplicantInput => ({ first_name: name, last_name: 'Co', email: 'co@example.com', dob: '1990-01-02' });

/** The repository's part over a collection in memory: stores once per request key, reads and writes by `_id`. */
class MemoryRepository {
  constructor(
    private readonly applications: MemoryCollection,
    private readonly created: MemoryCollection,
  ) {}

  createdWitness(id: number) {
    return { collection: 'applications_created', key: String(id) };
  }

  async confirmCreated(id: number, eventIds: string[]) {
    if (await this.settle({ _id: String(id), event_ids: eventIds })) return true;
    await this.applications.deleteOne({ _id: String(id) });
    return false;
  }

  async removeUnlessKept(id: number) {
    if (!(await this.settle({ _id: String(id), event_ids: [], removed: true }))) return false;
    await this.applications.deleteOne({ _id: String(id) });
    return true;
  }

  /** The first settlement of a creation stands, as the unique `_id` of the real collection has it. */
  private async settle(settled: { _id: string; event_ids: string[]; removed?: true }) {
    const first = this.created.documents.get(settled._id);
    if (!first) await this.created.insertOne(settled);
    return !first || first.removed === settled.removed;
  }

  findByKey(id: number) {
    return this.applications.findOne({ _id: String(id) });
  }

  findAllByKey(ids: number[]) {
    return this.applications.find({ _id: { $in: ids.map(String) } }).toArray();
  }

  async findByRequestKey(requestKey: string) {
    const stored = [...this.applications.documents.values()].find((d) => d.request_key === requestKey);
    return stored ? structuredClone(stored) : null;
  }

  async insertOnce(record: ApplicationRecord) {
    const earlier = [...this.applications.documents.values()].find((d) => d.request_key === record.request_key);
    if (earlier) return structuredClone(earlier);
    await this.applications.insertOne({ _id: String(record.id), ...record });
    return record;
  }

  saveApplicants({ id, applicants, version, updated_at }: ApplicationRecord) {
    return this.applications.updateOne({ _id: String(id) }, { $set: { applicants, version, updated_at } });
  }
}

/** The properties service as this one sees it: ids below 100 are live until deleted. */
class MemoryProperties {
  readonly deleted = new Set<number>();
  /** Runs once each lookup has read its answer: a delete landing just after it. */
  afterLookup = () => undefined as void;

  async lookup(clientId: number, id: number) {
    const answer = id < 100 && !this.deleted.has(id) ? { id, name: `P${clientId}:${id}` } : null;
    this.afterLookup();
    return answer;
  }
}

/** One applications service instance on a shared database, with its own memory (as a process has). */
function instance(database: MemoryDatabase, ids: Map<string, number>, properties = new MemoryProperties(), claims?: Idempotency) {
  const connection = database.connection();
  const cipher = new FieldCipher(KEYS);
  const allocator = { allocate: async (kind: string) => ids.set(kind, (ids.get(kind) ?? 0) + 1).get(kind)! };
  // Unless claims are given, every request runs as if for the first time, keyed by its message id.
  const idempotency = claims ?? {
    run: (scope: { messageId: string }, work: (key: string, resumed: boolean) => unknown) =>
      work(`message:${scope.messageId}`, false),
  };
  return new ApplicationsService(
    new MemoryRepository(
      database.collection('applications'),
      database.collection('applications_created'),
    ) as unknown as ApplicationsRepository,
    new ApplicationVersions(connection),
    new ApplicationIndex(new MemoryStorage(database)),
    properties as unknown as PropertiesClient,
    allocator as unknown as IdAllocator,
    idempotency as unknown as Idempotency,
    new ApplicantSealer(cipher),
    new FormTokens(cipher, env),
    new ApplicantForms(connection),
    new EventOutbox(connection),
    env,
  );
}

let messages = 0;
const scope = () => ({ messageId: `m${++messages}` });

async function refusal(work: Promise<unknown>): Promise<ServiceError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

/**
 * The service over collections in memory that behave as FerretDB's do: what it reads, lists and
 * adds, across two instances on one database.
 */
describe('ApplicationsService over collections in memory', () => {
  let database: MemoryDatabase;
  let service: ApplicationsService;
  let ids: Map<string, number>;
  const apply = (propertyId = 1, applicant = primary, clientId = CLIENT) =>
    service.create(clientId, { property_id: propertyId, applicant } as ApplicationInput, scope());

  beforeEach(() => {
    database = new MemoryDatabase();
    ids = new Map();
    service = instance(database, ids);
  });

  describe('get', () => {
    it('answers with the application as created', async () => {
      const created = await apply();
      expect(await service.get(CLIENT, created.id)).toEqual(created);
    });

    it('refuses another client’s application and an unknown one with the same answer', async () => {
      const created = await apply();
      for (const [client, id] of [
        [OTHER_CLIENT, created.id],
        [CLIENT, 999],
      ]) {
        const error = await refusal(service.get(client, id));
        expect([error.code, error.message]).toEqual([ErrorCode.NOT_FOUND, `application ${id} cannot be found`]);
      }
    });
  });

  describe('getApplicant', () => {
    it('answers with the applicant’s record and a form_url whose token only the digest stored names', async () => {
      const created = await apply();
      const applicant = await service.getApplicant(CLIENT, created.id, created.applicants[0].id);
      expect(applicant).toMatchObject({
        id: created.applicants[0].id,
        application_id: created.id,
        type: 'primary',
        email: 'ada@example.com',
      });
      const token = /^https:\/\/apply\.example\.com\/applicants\/([\w-]{60})$/.exec(applicant.form_url!)![1];
      const stored = database.collection('applications').documents.get(String(created.id))!;
      const [record] = stored.applicants as Array<Record<string, unknown>>;
      expect(record.form_token_digest).toBe(formTokenDigest(token));
      expect(JSON.stringify(stored)).not.toContain(token);
      expect(JSON.stringify(applicant)).not.toContain('078051120');
    });

    it('seals each form token for its applicant: one copied into another applicant’s record does not open there', async () => {
      const [one, two] = [await apply(), await apply()];
      const documents = database.collection('applications').documents;
      const copied = (documents.get(String(one.id))!.applicants as ApplicantRecord[])[0].form_token;
      (documents.get(String(two.id))!.applicants as ApplicantRecord[])[0].form_token = copied;
      await expect(service.getApplicant(CLIENT, two.id, two.applicants[0].id)).rejects.toThrow('failed authentication');
      expect((await service.getApplicant(CLIENT, one.id, one.applicants[0].id)).form_url).toMatch(/^https:\/\/apply/);
    });

    it('refuses an applicant of another application, and any of another client’s', async () => {
      const [one, two] = [await apply(), await apply()];
      const theirs = await refusal(service.getApplicant(CLIENT, one.id, two.applicants[0].id));
      expect(theirs.message).toBe(`applicant ${two.applicants[0].id} cannot be found`);
      const foreign = await refusal(service.getApplicant(OTHER_CLIENT, one.id, one.applicants[0].id));
      expect(foreign.message).toBe(`application ${one.id} cannot be found`);
    });
  });

  describe('addApplicant', () => {
    it('adds a co-applicant that the application then lists, its dob sealed', async () => {
      const created = await apply();
      const added = await service.addApplicant(CLIENT, created.id, co('Bea'), scope());
      expect(added).toMatchObject({ type: 'co_applicant', name: 'Bea Co', application_id: created.id });
      expect((await service.get(CLIENT, created.id)).applicants.map((a) => [a.id, a.type])).toEqual([
        [created.applicants[0].id, 'primary'],
        [added.id, 'co_applicant'],
      ]);
      const stored = JSON.stringify(database.collection('applications').documents.get(String(created.id)));
      expect(stored).not.toContain('1990-01-02');
      expect(stored).toContain('"version":1');
    });

    it('adds once for a request done twice', async () => {
      const created = await apply();
      const request = scope();
      const first = await service.addApplicant(CLIENT, created.id, co('Bea'), request);
      const again = await service.addApplicant(CLIENT, created.id, co('Bea'), request);
      expect(again).toEqual(first);
      expect((await service.get(CLIENT, created.id)).applicants).toHaveLength(2);
    });

    it('loses no addition made at once through two instances', async () => {
      const created = await apply();
      const other = instance(database, ids);
      const added = await Promise.all(
        Array.from({ length: MAX_APPLICANTS - 1 }, (_, i) =>
          (i % 2 ? other : service).addApplicant(CLIENT, created.id, co(`C${i}`), scope()),
        ),
      );
      const listed = (await service.get(CLIENT, created.id)).applicants;
      expect(listed).toHaveLength(MAX_APPLICANTS);
      expect(new Set(listed.map((a) => a.id))).toEqual(new Set([created.applicants[0].id, ...added.map((a) => a.id)]));
    });

    it('keeps an addition whose copy into the application was never written', async () => {
      const created = await apply();
      const applications = database.collection('applications');
      const updateOne = jest.spyOn(applications, 'updateOne').mockRejectedValueOnce(new Error('process died'));
      await expect(service.addApplicant(CLIENT, created.id, co('Lost'), scope())).rejects.toThrow('process died');
      updateOne.mockRestore();

      expect((await service.get(CLIENT, created.id)).applicants.map((a) => a.name)).toEqual(['Ada Lovelace', 'Lost Co']);
      await service.addApplicant(CLIENT, created.id, co('Next'), scope());
      const stored = applications.documents.get(String(created.id))!;
      expect((stored.applicants as unknown[]).length).toBe(3);
    });

    it(`refuses an applicant beyond ${MAX_APPLICANTS}, also among additions made at once`, async () => {
      const created = await apply();
      const other = instance(database, ids);
      const answers = await Promise.allSettled(
        Array.from({ length: MAX_APPLICANTS + 5 }, (_, i) =>
          (i % 2 ? other : service).addApplicant(CLIENT, created.id, co(`C${i}`), scope()),
        ),
      );
      expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(MAX_APPLICANTS - 1);
      const refused = answers.filter((a): a is PromiseRejectedResult => a.status === 'rejected').map((a) => a.reason);
      expect(refused).toHaveLength(6);
      for (const error of refused) {
        expect(error).toBeInstanceOf(ServiceError);
        expect([error.code, error.message]).toEqual([
          ErrorCode.VALIDATION_FAILED,
          `applicant cannot be added: an application has at most ${MAX_APPLICANTS} applicants`,
        ]);
      }
      expect((await service.get(CLIENT, created.id)).applicants).toHaveLength(MAX_APPLICANTS);
    });

    it('refuses another client’s application', async () => {
      const created = await apply();
      expect((await refusal(service.addApplicant(OTHER_CLIENT, created.id, co('X'), scope()))).code).toBe(ErrorCode.NOT_FOUND);
    });
  });

  describe('list', () => {
    it('pages through the client’s applications newest first, and through one property’s', async () => {
      const made = [];
      for (let i = 0; i < 7; i++) made.push(await apply(i % 2 ? 2 : 3));
      const theirs = await apply(1, primary, OTHER_CLIENT);

      const pages = [];
      let before: number | undefined;
      for (;;) {
        const page = await service.list(CLIENT, { limit: 3, before });
        pages.push(page.items.map((a) => a.id));
        if (!page.next_cursor) break;
        before = Number(Buffer.from(page.next_cursor, 'base64url').toString().slice(3));
      }
      expect(pages).toEqual([[made[6].id, made[5].id, made[4].id], [made[3].id, made[2].id, made[1].id], [made[0].id]]);
      const ofTwo = await service.list(CLIENT, { propertyId: 2, limit: 25 });
      expect(ofTwo.items.map((a) => a.id)).toEqual([made[5].id, made[3].id, made[1].id]);
      expect(ofTwo.next_cursor).toBeNull();
      expect(await service.list(OTHER_CLIENT, { propertyId: 2, limit: 25 })).toEqual({ items: [], next_cursor: null });
      expect((await service.list(OTHER_CLIENT, { limit: 25 })).items).toEqual([theirs]);
    });

    it('skips entries whose application was never stored, and still fills the page', async () => {
      const first = await apply();
      const applications = database.collection('applications');
      jest.spyOn(applications, 'insertOne').mockRejectedValueOnce(new Error('database gone'));
      await expect(apply()).rejects.toThrow('database gone');
      const third = await apply();

      const page = await service.list(CLIENT, { limit: 2 });
      expect(page.items.map((a) => a.id)).toEqual([third.id, first.id]);
      expect(page.next_cursor).toBeNull();
    });

    it('reads a page in three reads of keys however long it is, once the head is known', async () => {
      for (let i = 0; i < 25; i++) await apply();
      await service.list(CLIENT, { limit: 25 });
      const reads = () => ['application_index', 'applications', 'application_versions'].map((c) => database.collection(c).reads);
      const before = reads();
      const page = await service.list(CLIENT, { limit: 25 });
      expect(page.items).toHaveLength(25);
      const after = reads();
      // The head checked (one read past it), then the page's positions, applications and claims.
      expect(after.map((count, i) => count - before[i])).toEqual([2, 1, 1]);
    });

    it("reads a page's form records in one read, and the completions of those there are in one more", async () => {
      for (let i = 0; i < 25; i++) await apply();
      const digests = [...database.collection('applications').documents.values()].map(
        (stored) => (stored as unknown as ApplicationRecord).applicants[0].form_token_digest!,
      );
      const started = new Date('2026-11-20T10:00:00Z');
      for (const [i, digest] of digests.entries()) {
        database.collection('applicant_forms').documents.set(digest, {
          _id: digest,
          form_status: i % 5 === 0 ? 'completed' : 'started',
          form_started_at: started,
          form_completed_at: null,
          updated_at: started,
        });
        if (i % 5 === 0) database.collection('form_completions').documents.set(digest, { _id: digest, form_status: 'completed' });
      }
      const reads = () => ['applicant_forms', 'form_completions'].map((c) => database.collection(c).reads);
      const before = reads();
      const page = await service.list(CLIENT, { limit: 25, filters: { form_status: 'completed' } });
      expect(page.items).toHaveLength(5);
      expect(reads().map((count, i) => count - before[i])).toEqual([1, 1]);
    });

    it('reads at most 500 positions for a page that a filter leaves short, and hands on a cursor from there', async () => {
      const made = [];
      for (let i = 0; i < 520; i++) made.push(await apply());
      const sparse = await service.list(CLIENT, { limit: 10, filters: { assigned_user_id: 7 } });
      expect(sparse.items).toEqual([]);
      // Positions 520 down to 21 read: the next page starts below them.
      const before = Number(Buffer.from(sparse.next_cursor!, 'base64url').toString().slice(3));
      expect(before).toBe(21);
      expect(await service.list(CLIENT, { limit: 10, before, filters: { assigned_user_id: 7 } })).toEqual({
        items: [],
        next_cursor: null,
      });
      const archivedToo = await service.list(CLIENT, { limit: 2, before, filters: { archived: 'all' } });
      expect(archivedToo.items.map((a) => a.id)).toEqual([made[19].id, made[18].id]);
    });

    it('starts a cursor from beyond the head at the head', async () => {
      const only = await apply();
      expect((await service.list(CLIENT, { limit: 5, before: 1_000_000 })).items.map((a) => a.id)).toEqual([only.id]);
    });
  });
  describe('the form finding an applicant by its link', () => {
    const forms = () => {
      const connection = database.connection();
      const cipher = new FieldCipher(KEYS);
      return new ApplicationFormsService(
        service,
        new MemoryRepository(
          database.collection('applications'),
          database.collection('applications_created'),
        ) as unknown as ApplicationsRepository,
        new ApplicationVersions(connection),
        new ApplicantForms(connection),
        new FormTokens(cipher, env),
        new ApplicantSealer(cipher),
        new EventOutbox(connection),
        {} as DecisionsService,
      );
    };
    const tokenOf = async (applicationId: number, applicantId: number) =>
      (await service.getApplicant(CLIENT, applicationId, applicantId)).form_url!.split('/').pop()!;

    // The collections in memory refuse any read not by `_id`, as FerretDB would scan for it.
    it('finds an applicant made through the API, never opened, by keys alone', async () => {
      const created = await apply();
      const co = await service.addApplicant(
        CLIENT,
        created.id,
        { first_name: 'Co', last_name: 'B', email: 'co@example.com' },
        scope(),
      );
      for (const applicant of [created.applicants[0], co]) {
        const token = await tokenOf(created.id, applicant.id);
        expect(FormLinkTokens.fromKeyRing(LINK_KEYS).read(token)?.applicationId).toBe(created.id);
        const found = await forms().find({ digest: formTokenDigest(token), applicationId: created.id });
        expect(found).toMatchObject({ application_id: created.id, applicant_id: applicant.id, form_status: 'not_started' });
      }
    });

    it('finds nothing, by keys alone, for a link whose token is not of the application it names', async () => {
      const [one, two] = [await apply(), await apply()];
      const token = await tokenOf(one.id, one.applicants[0].id);
      expect(await forms().find({ digest: formTokenDigest(token), applicationId: two.id })).toBeNull();
      expect(await forms().find({ digest: formTokenDigest('forged'), applicationId: 999 })).toBeNull();
    });
  });

  describe('create, racing a delete of its property', () => {
    let properties: MemoryProperties;

    beforeEach(() => {
      properties = new MemoryProperties();
      service = instance(database, ids, properties, new Idempotency(database.connection(), new BodyFingerprints(KEYS)));
    });

    it('refuses with the documented 422, keeping nothing, when the delete lands between the lookup and the insert', async () => {
      properties.afterLookup = () => {
        properties.deleted.add(1);
      };
      const error = await refusal(apply(1));
      expect([error.code, error.message]).toEqual([ErrorCode.PROPERTY_ID_INVALID, 'property_id is invalid or cannot be found']);
      expect(database.collection('applications').documents.size).toBe(0);
    });

    it('shows no event of the create to the relay before the second look has kept it', async () => {
      const outbox = new EventOutbox(database.connection());
      const pending = () => [...database.collection('event_outbox').documents.values()] as unknown as PendingEvent[];
      let lookups = 0;
      let visibleDuringSecondLook: string[] = [];
      properties.afterLookup = () => {
        // The delete lands between the lookup and the insert; the second look sees it.
        if (++lookups === 1) properties.deleted.add(1);
      };
      const second = properties.lookup.bind(properties);
      properties.lookup = async (clientId: number, id: number) => {
        const answer = await second(clientId, id);
        if (lookups === 2) visibleDuringSecondLook = [...(await outbox.writtenAmong(pending()))];
        return answer;
      };

      await refusal(apply(1));

      expect(visibleDuringSecondLook).toEqual([]);
      expect([...(await outbox.writtenAmong(pending()))]).toEqual([]);
    });

    it('shows the events of a create once it is kept', async () => {
      const outbox = new EventOutbox(database.connection());
      await apply(1);
      const pending = [...database.collection('event_outbox').documents.values()] as unknown as PendingEvent[];
      expect((await outbox.writtenAmong(pending)).size).toBe(2);
    });

    it('keeps nothing when the second look at the property fails, so that the retry starts over', async () => {
      let lookups = 0;
      properties.afterLookup = () => {
        if (++lookups === 2) throw new Error('properties service unreachable');
      };
      await expect(apply(1)).rejects.toThrow('properties service unreachable');
      expect(database.collection('applications').documents.size).toBe(0);
      const retried = await apply(1);
      expect(database.collection('applications').documents.get(String(retried.id))).toBeDefined();
    });

    it('keeps what a redelivery answered with while the first try’s second look was failing', async () => {
      // The first try has stored the application and waits on its second look at the property.
      let failSecondLook: (error: Error) => void = () => undefined;
      const secondLook = new Promise<void>((_resolve, reject) => (failSecondLook = reject));
      let reachedSecondLook: () => void = () => undefined;
      const atSecondLook = new Promise<void>((resolve) => (reachedSecondLook = resolve));
      let lookups = 0;
      const looked = properties.lookup.bind(properties);
      properties.lookup = async (clientId: number, id: number) => {
        const answer = await looked(clientId, id);
        if (++lookups === 2) {
          reachedSecondLook();
          await secondLook;
        }
        return answer;
      };
      const first = service.create(CLIENT, { property_id: 1, applicant: primary } as ApplicationInput, { messageId: 'm-twice' });
      await atSecondLook;
      // Its message is delivered again, to another instance, which finds it stored and answers.
      const other = instance(database, ids, new MemoryProperties());
      const answered = await other.create(CLIENT, { property_id: 1, applicant: primary } as ApplicationInput, {
        messageId: 'm-twice',
      });

      failSecondLook(new Error('properties service unreachable'));

      expect((await first).id).toBe(answered.id);
      expect(database.collection('applications').documents.get(String(answered.id))).toBeDefined();
    });

    it('stores afresh when the application it meets under its request key was being removed', async () => {
      let lookups = 0;
      properties.afterLookup = () => {
        if (++lookups === 2) throw new Error('properties service unreachable');
      };
      // The first try's removal began, then its process died before the delete.
      jest.spyOn(database.collection('applications'), 'deleteOne').mockRejectedValueOnce(new Error('process died'));
      await expect(
        service.create(CLIENT, { property_id: 1, applicant: primary } as ApplicationInput, { messageId: 'm-again' }),
      ).rejects.toThrow('process died');
      const [half] = database.collection('applications').documents.values();

      const again = await service.create(CLIENT, { property_id: 1, applicant: primary } as ApplicationInput, {
        messageId: 'm-again',
      });

      expect(again.id).not.toBe(half.id);
      expect([...database.collection('applications').documents.keys()]).toEqual([String(again.id)]);
    });

    it('answers a retry that takes over an unfinished claim with what the first try stored, the property deleted since', async () => {
      const keyed = { key: 'retry-me', messageId: 'm-retried' };
      const input = { property_id: 1, applicant: primary } as ApplicationInput;
      // The first try stores the application, then its process dies before the outcome is kept.
      jest.spyOn(database.collection('idempotency_outcomes'), 'insertOne').mockRejectedValueOnce(new Error('process died'));
      await expect(service.create(CLIENT, input, keyed)).rejects.toThrow('process died');
      const [stored] = database.collection('applications').documents.values();
      properties.deleted.add(1);

      const retried = await service.create(CLIENT, input, keyed);

      expect(retried.id).toBe(stored.id);
      expect(database.collection('applications').documents.size).toBe(1);
    });
  });
});
