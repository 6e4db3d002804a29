import { MemoryDatabase } from '@app/persistence/memory-storage.testing';
import { ApplicantForms } from '../applications/applicant-forms';
import { changeableState } from '../applications/application-changes';
import { ApplicationVersions } from '../applications/application-versions';
import { ApplicantRecord, ApplicationRecord } from '../applications/application.schema';
import { ApplicationsRepository } from '../applications/applications.repository';
import { ApplicationsService } from '../applications/applications.service';
import { AuditEvents, ErasureAudit } from '../audit/audit-events';
import { ApplicantFiles } from '../documents/applicant-files';
import { PersonalDataErasure, SETTLE_MS } from './personal-data-erasure';

const sealed = { key_id: 'k1', nonce: 'n', ciphertext: 'c', tag: 't' };
const DECIDED = new Date('2026-01-10T00:00:00Z');
const applicant = (id: number, type: string): ApplicantRecord =>
  ({
    id,
    type,
    first_name: 'A',
    last_name: `N${id}`,
    email: 'a@example.com',
    dob: sealed,
    id_number: sealed,
    form_token_digest: `d${id}`,
  }) as ApplicantRecord;

/**
 * The erasure over collections in memory that behave as FerretDB's do (reads by `_id`, an update
 * that reads then writes), with what it asks of the rest of the service recorded.
 */
function world() {
  const database = new MemoryDatabase();
  const connection = database.connection();
  const versions = new ApplicationVersions(connection);
  const applications = database.collection('applications');
  const erasedForms: string[] = [];
  const erasedDocuments: number[] = [];
  const audits: ErasureAudit[] = [];
  let ids = 100;
  const instance = () =>
    new PersonalDataErasure(
      connection,
      {
        owned: async (_client: number, id: number) =>
          versions.current((await applications.findOne({ _id: String(id) })) as unknown as ApplicationRecord),
        get: async () => ({}),
      } as unknown as ApplicationsService,
      {
        // As the repository writes a copy: every field a change sets, whole.
        saveApplicants: (application: ApplicationRecord) =>
          applications.updateOne(
            { _id: String(application.id) },
            { $set: { ...changeableState(application), applicants: application.applicants, version: application.version } },
          ),
      } as unknown as ApplicationsRepository,
      versions,
      { erase: async (digest: string) => void erasedForms.push(digest) } as unknown as ApplicantForms,
      {
        removeAll: async ({ applicantId }: { applicantId: number }) => (erasedDocuments.push(applicantId), 0),
      } as unknown as ApplicantFiles,
      {
        allocateIds: async (count: number) => Array.from({ length: count }, () => ++ids),
        recordErasure: async (audit: ErasureAudit) => void audits.push(audit),
      } as unknown as AuditEvents,
    );
  return { database, versions, applications, erasedForms, erasedDocuments, audits, instance };
}

async function storeApplication(w: ReturnType<typeof world>): Promise<ApplicationRecord> {
  const created = new Date('2026-01-01T00:00:00Z');
  const record = {
    _id: '7',
    id: 7,
    client_id: 1,
    property_id: 2,
    property_name: 'P',
    applicants: [applicant(1, 'primary')],
    version: 0,
    created_at: created,
    updated_at: created,
    request_key: 'r',
  };
  await w.applications.insertOne(record);
  // Version 1 added a guarantor, version 2 recorded the decision, each in a claim of its own that
  // the document's copy has not caught up with: the claims hold copies of the applicants they add.
  const decision = {
    status: 'approved',
    conditions: [],
    reasons: [],
    note: null,
    decided_by: 3,
    key_id: null,
    decided_at: DECIDED,
  };
  await w.versions.claim(7, 1, applicant(2, 'guarantor'));
  await w.versions.claimFields(7, 2, { decisions: [decision] as ApplicationRecord['decisions'] }, DECIDED, []);
  return w.versions.current(record as unknown as ApplicationRecord);
}

describe('PersonalDataErasure', () => {
  it('erases once when two instances erase the same application at once, keeping its decision', async () => {
    const w = world();
    const application = await storeApplication(w);
    const requester = { key_id: '0123456789abcdef', request_id: 'r-1' };

    await Promise.all([w.instance().erase(1, 7, requester), w.instance().eraseExpired(application)]);

    // One record, whose time and audit ids both completed.
    const records = [...w.database.collection('personal_data_erasures').documents.values()];
    expect(records).toHaveLength(1);
    expect(w.audits).toHaveLength(2);
    expect(w.audits[1]).toEqual(w.audits[0]);
    expect(w.audits[0].events.map((event) => event.applicant_id)).toEqual([1, 2]);
    // One version says so; the application reads erased, its decision and dates kept.
    const claims = [...w.database.collection('application_versions').documents.values()];
    expect(claims.filter((claim) => (claim.fields as Record<string, unknown>)?.personal_data_erased_at)).toHaveLength(1);
    const current = await w.versions.current((await w.applications.findOne({ _id: '7' })) as unknown as ApplicationRecord);
    expect(current).toMatchObject({
      personal_data_erased_at: records[0].erased_at,
      decisions: application.decisions,
      created_at: application.created_at,
      version: 3,
    });
    expect(current.applicants.map(({ dob, id_number }) => [dob, id_number])).toEqual([
      [null, null],
      [null, null],
    ]);
    // Every copy: the document, the claim that added the guarantor, each form record and its documents.
    const stored = (await w.applications.findOne({ _id: '7' })) as unknown as ApplicationRecord;
    expect(stored.applicants.every((each) => each.dob === null && each.id_number === null)).toBe(true);
    expect(claims.find((claim) => claim._id === '7:1')!.applicant).toMatchObject({ id: 2, id_number: null });
    expect([...new Set(w.erasedForms)].sort()).toEqual(['d1', 'd2']);
    expect([...new Set(w.erasedDocuments)].sort()).toEqual([1, 2]);
  });

  it('is settled by the sweep that completes it again once a late write can no longer land', async () => {
    const w = world();
    const application = await storeApplication(w);
    const erasure = w.instance();
    await erasure.erase(1, 7, { key_id: '0123456789abcdef', request_id: 'r-1' });
    const record = () => w.database.collection('personal_data_erasures').documents.get('7')!;
    expect(record().settled_at).toBeUndefined();
    // A step saved as it ran wrote the guarantor's claim again.
    await w.database
      .collection('application_versions')
      .updateOne({ _id: '7:1' }, { $set: { applicant: applicant(2, 'guarantor') } });

    const later = (record().erased_at as Date).getTime() + SETTLE_MS;
    // As settle() completes each due record (it finds them by a scan, which the collections in memory refuse).
    await erasure.eraseExpired(application, later);
    expect(record().settled_at).toEqual(new Date(later));
    expect(w.database.collection('application_versions').documents.get('7:1')!.applicant).toMatchObject({ id_number: null });
    expect(w.audits.every((audit) => audit.events[0].event_id === w.audits[0].events[0].event_id)).toBe(true);
  });
});
