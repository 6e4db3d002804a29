import { MemoryDatabase } from '@app/persistence/memory-storage.testing';
import { ApplicantRecord, ApplicationRecord } from '../domain/application';
import { AuditEventsRepository, ErasureAudit } from '../store/audit-events.repository';
import { ErasuresRepository } from '../store/erasures.repository';
import { ApplicantFiles } from './applicant-files';
import { applicationsInstance } from './applications-instance.testing';
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
 * that reads then writes), made of the real repositories; what it asks of the documents and the
 * audit log is recorded.
 */
async function world() {
  const database = new MemoryDatabase();
  const app = await applicationsInstance(database);
  const applications = database.collection('applications');
  const erasedForms: string[] = [];
  const erasedDocuments: number[] = [];
  const audits: ErasureAudit[] = [];
  const erase = app.forms.erase.bind(app.forms);
  app.forms.erase = async (digest: string) => {
    erasedForms.push(digest);
    await erase(digest);
  };
  let ids = 100;
  const instance = () =>
    new PersonalDataErasure(
      app.repository,
      new ErasuresRepository(app.storage),
      app.views,
      app.forms,
      {
        removeAll: async ({ applicantId }: { applicantId: number }) => (erasedDocuments.push(applicantId), 0),
      } as unknown as ApplicantFiles,
      {
        allocateIds: async (count: number) => Array.from({ length: count }, () => ++ids),
        recordErasure: async (audit: ErasureAudit) => void audits.push(audit),
      } as unknown as AuditEventsRepository,
    );
  return { database, app, applications, erasedForms, erasedDocuments, audits, instance };
}

async function storeApplication(w: Awaited<ReturnType<typeof world>>): Promise<ApplicationRecord> {
  const created = new Date('2026-01-01T00:00:00Z');
  await w.applications.insertOne({
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
  });
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
  const claims = w.database.collection('application_versions');
  await claims.insertOne({
    _id: '7:1',
    application_id: 7,
    version: 1,
    applicant: applicant(2, 'guarantor'),
    created_at: created,
    event_ids: [],
  });
  await claims.insertOne({
    _id: '7:2',
    application_id: 7,
    version: 2,
    fields: { decisions: [decision] },
    created_at: DECIDED,
    event_ids: [],
  });
  return (await w.app.repository.find(7))!;
}

describe('PersonalDataErasure', () => {
  it('erases once when two instances erase the same application at once, keeping its decision', async () => {
    const w = await world();
    const application = await storeApplication(w);
    const requester = { key_id: '0123456789abcdef', request_id: 'r-1' };

    await Promise.all([w.instance().erase(1, 7, requester), w.instance().eraseExpired(application, 'retention_period')]);

    // One record, whose time and audit ids both completed.
    const records = [...w.database.collection('personal_data_erasures').documents.values()];
    expect(records).toHaveLength(1);
    expect(w.audits).toHaveLength(2);
    expect(w.audits[1]).toEqual(w.audits[0]);
    expect(w.audits[0].events.map((event) => event.applicant_id)).toEqual([1, 2]);
    // One version says so; the application reads erased, its decision and dates kept.
    const claims = [...w.database.collection('application_versions').documents.values()];
    expect(claims.filter((claim) => (claim.fields as Record<string, unknown>)?.personal_data_erased_at)).toHaveLength(1);
    const current = (await w.app.repository.find(7))!;
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
    const w = await world();
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
    await erasure.eraseExpired(application, 'retention_period', later);
    expect(record().settled_at).toEqual(new Date(later));
    expect(w.database.collection('application_versions').documents.get('7:1')!.applicant).toMatchObject({ id_number: null });
    expect(w.audits.every((audit) => audit.events[0].event_id === w.audits[0].events[0].event_id)).toBe(true);
  });
});
