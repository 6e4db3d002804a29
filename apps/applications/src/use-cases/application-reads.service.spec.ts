import { ApplicantInput, ApplicationInput, ErrorCode, ServiceError } from '@app/contracts';
import { FormLinkTokens } from '@app/crypto';
import { MemoryDatabase } from '@app/persistence/memory-storage.testing';
import { ApplicantRecord, ApplicationRecord } from '../domain/application';
import { applicationsInstance, ApplicationsInstance, LINK_KEYS, scope } from './applications-instance.testing';
import { formTokenDigest } from './form-tokens';

const CLIENT = 1;
const OTHER_CLIENT = 2;
const primary: ApplicantInput = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', id_number: '078051120' };

async function refusal(work: Promise<unknown>): Promise<ServiceError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

/**
 * The reads over collections in memory that behave as FerretDB's do (they count what is read by
 * `_id` and what would scan): what a get, a list page and the form's lookup of a link read.
 */
describe('ApplicationReadsService', () => {
  let database: MemoryDatabase;
  let app: ApplicationsInstance;
  const apply = (propertyId = 1, applicant = primary, clientId = CLIENT) =>
    app.service.create(clientId, { property_id: propertyId, applicant } as ApplicationInput, scope());

  beforeEach(async () => {
    database = new MemoryDatabase();
    app = await applicationsInstance(database);
  });

  // FerretDB answers a filter on anything but `_id` by reading the whole collection (the id
  // allocator reads its highest claim so once per process).
  afterEach(() => expect(database.counts(/_ids$/).scans).toBe(0));

  describe('get', () => {
    it('answers with the application as created', async () => {
      const created = await apply();
      expect(await app.reads.get(CLIENT, created.id)).toEqual(created);
    });

    it('refuses another client’s application and an unknown one with the same answer', async () => {
      const created = await apply();
      for (const [client, id] of [
        [OTHER_CLIENT, created.id],
        [CLIENT, 999],
      ]) {
        const error = await refusal(app.reads.get(client, id));
        expect([error.code, error.message]).toEqual([ErrorCode.NOT_FOUND, `application ${id} cannot be found`]);
      }
    });
  });

  describe('getApplicant', () => {
    it('answers with the applicant’s record and a form_url whose token only the digest stored names', async () => {
      const created = await apply();
      const applicant = await app.reads.getApplicant(CLIENT, created.id, created.applicants[0].id);
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
      await expect(app.reads.getApplicant(CLIENT, two.id, two.applicants[0].id)).rejects.toThrow('failed authentication');
      expect((await app.reads.getApplicant(CLIENT, one.id, one.applicants[0].id)).form_url).toMatch(/^https:\/\/apply/);
    });

    it('refuses an applicant of another application, and any of another client’s', async () => {
      const [one, two] = [await apply(), await apply()];
      const theirs = await refusal(app.reads.getApplicant(CLIENT, one.id, two.applicants[0].id));
      expect(theirs.message).toBe(`applicant ${two.applicants[0].id} cannot be found`);
      const foreign = await refusal(app.reads.getApplicant(OTHER_CLIENT, one.id, one.applicants[0].id));
      expect(foreign.message).toBe(`application ${one.id} cannot be found`);
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
        const page = await app.reads.list(CLIENT, { limit: 3, before });
        pages.push(page.items.map((a) => a.id));
        if (!page.next_cursor) break;
        before = Number(Buffer.from(page.next_cursor, 'base64url').toString().slice(3));
      }
      expect(pages).toEqual([[made[6].id, made[5].id, made[4].id], [made[3].id, made[2].id, made[1].id], [made[0].id]]);
      const ofTwo = await app.reads.list(CLIENT, { propertyId: 2, limit: 25 });
      expect(ofTwo.items.map((a) => a.id)).toEqual([made[5].id, made[3].id, made[1].id]);
      expect(ofTwo.next_cursor).toBeNull();
      expect(await app.reads.list(OTHER_CLIENT, { propertyId: 2, limit: 25 })).toEqual({ items: [], next_cursor: null });
      expect((await app.reads.list(OTHER_CLIENT, { limit: 25 })).items).toEqual([theirs]);
    });

    it('skips entries whose application was never stored, and still fills the page', async () => {
      const first = await apply();
      const applications = database.collection('applications');
      jest.spyOn(applications, 'insertOne').mockRejectedValueOnce(new Error('database gone'));
      await expect(apply()).rejects.toThrow('database gone');
      const third = await apply();

      const page = await app.reads.list(CLIENT, { limit: 2 });
      expect(page.items.map((a) => a.id)).toEqual([third.id, first.id]);
      expect(page.next_cursor).toBeNull();
    });

    it('reads a page in three reads of keys however long it is, once the head is known', async () => {
      for (let i = 0; i < 25; i++) await apply();
      await app.reads.list(CLIENT, { limit: 25 });
      const reads = () => ['application_index', 'applications', 'application_versions'].map((c) => database.collection(c).reads);
      const before = reads();
      const page = await app.reads.list(CLIENT, { limit: 25 });
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
      const page = await app.reads.list(CLIENT, { limit: 25, filters: { form_status: 'completed' } });
      expect(page.items).toHaveLength(5);
      expect(reads().map((count, i) => count - before[i])).toEqual([1, 1]);
    });

    it('reads at most 500 positions for a page that a filter leaves short, and hands on a cursor from there', async () => {
      const made = [];
      for (let i = 0; i < 520; i++) made.push(await apply());
      const sparse = await app.reads.list(CLIENT, { limit: 10, filters: { assigned_user_id: 7 } });
      expect(sparse.items).toEqual([]);
      // Positions 520 down to 21 read: the next page starts below them.
      const before = Number(Buffer.from(sparse.next_cursor!, 'base64url').toString().slice(3));
      expect(before).toBe(21);
      expect(await app.reads.list(CLIENT, { limit: 10, before, filters: { assigned_user_id: 7 } })).toEqual({
        items: [],
        next_cursor: null,
      });
      const archivedToo = await app.reads.list(CLIENT, { limit: 2, before, filters: { archived: 'all' } });
      expect(archivedToo.items.map((a) => a.id)).toEqual([made[19].id, made[18].id]);
    });

    it('starts a cursor from beyond the head at the head', async () => {
      const only = await apply();
      expect((await app.reads.list(CLIENT, { limit: 5, before: 1_000_000 })).items.map((a) => a.id)).toEqual([only.id]);
    });
  });
  describe('the form finding an applicant by its link', () => {
    const forms = () => app.formSteps;
    const tokenOf = async (applicationId: number, applicantId: number) =>
      (await app.reads.getApplicant(CLIENT, applicationId, applicantId)).form_url!.split('/').pop()!;

    // The collections in memory refuse any read not by `_id`, as FerretDB would scan for it.
    it('finds an applicant made through the API, never opened, by keys alone', async () => {
      const created = await apply();
      const co = await app.service.addApplicant(
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
});
