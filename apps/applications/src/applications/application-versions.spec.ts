import { ApplicationVersions } from './application-versions';
import { ApplicantRecord, ApplicationRecord } from './application.schema';
import { MemoryDatabase } from '@app/persistence/memory-storage.testing';

const applicant = (id: number, at = new Date(`2026-01-0${id}T00:00:00Z`)): ApplicantRecord => ({
  id,
  type: id === 1 ? 'primary' : 'co_applicant',
  first_name: `A${id}`,
  last_name: 'B',
  email: 'a@example.com',
  dob: null,
  id_number: null,
  phone: null,
  custom_data: null,
  reference_id: null,
  redirect_url: null,
  created_at: at,
});

const stored = (overrides: Partial<ApplicationRecord> = {}): ApplicationRecord =>
  ({
    id: 4,
    client_id: 1,
    property_id: 2,
    property_name: 'P',
    assigned_user_id: null,
    user_specified_rent: null,
    desired_move_in: null,
    applicants: [applicant(1)],
    created_at: new Date('2026-01-01T00:00:00Z'),
    updated_at: new Date('2026-01-01T00:00:00Z'),
    request_key: 'r',
    ...overrides,
  }) as ApplicationRecord;

describe('ApplicationVersions', () => {
  it('lets exactly one caller claim each version of an application', async () => {
    const versions = new ApplicationVersions(new MemoryDatabase().connection());
    const won = await Promise.all([1, 2, 3].map((i) => versions.claim(4, 1, applicant(i + 1))));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await versions.claim(4, 2, applicant(9))).toBe(true);
    expect(await versions.claim(5, 1, applicant(9))).toBe(true);
  });

  it('folds in, in order, the claims the stored document does not show yet', async () => {
    const versions = new ApplicationVersions(new MemoryDatabase().connection());
    await versions.claim(4, 1, applicant(2));
    await versions.claim(4, 2, applicant(3));

    const current = await versions.current(stored());
    expect(current.applicants.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(current.version).toBe(2);
    expect(current.updated_at).toEqual(applicant(3).created_at);
  });

  it('adds nothing twice when the document already shows some claims, and reads one claim past the last', async () => {
    const database = new MemoryDatabase();
    const versions = new ApplicationVersions(database.connection());
    await versions.claim(4, 1, applicant(2));
    await versions.claim(4, 2, applicant(3));
    const reads = database.collection('application_versions').reads;

    const shown = stored({ applicants: [applicant(1), applicant(2)], version: 1 });
    expect((await versions.current(shown)).applicants.map((a) => a.id)).toEqual([1, 2, 3]);
    const upToDate = stored({ applicants: [applicant(1), applicant(2), applicant(3)], version: 2 });
    expect(await versions.current(upToDate)).toEqual(upToDate);
    expect(database.collection('application_versions').reads - reads).toBe(3);
  });

  it('brings a page of applications up to date in one read when their copies are, folding in what they miss', async () => {
    const database = new MemoryDatabase();
    const versions = new ApplicationVersions(database.connection());
    const claims = database.collection('application_versions');
    const page = [stored({ id: 7 }), stored({ id: 8 }), stored({ id: 9 })];

    let reads = claims.reads;
    expect(await versions.currentAll(page)).toEqual(page);
    expect(claims.reads - reads).toBe(1);

    await versions.claim(8, 1, applicant(2));
    await versions.claim(8, 2, applicant(3));
    reads = claims.reads;
    const current = await versions.currentAll(page);
    expect(current.map((a) => a.id)).toEqual([7, 8, 9]);
    expect(current[1].applicants.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(current[1].version).toBe(2);
    expect(current[0]).toEqual(page[0]);
    // The page's read, then one more claim and the one past it for the application that had some.
    expect(claims.reads - reads).toBe(3);
    expect(await versions.currentAll([])).toEqual([]);
  });
});
