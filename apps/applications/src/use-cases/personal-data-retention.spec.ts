import { MemoryDatabase, MemoryStorage } from '@app/persistence/memory-storage.testing';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { ApplicantRecord, ApplicationRecord } from '../domain/application';
import { ApplicantForm } from '../domain/form-progress';
import { formAbandoned, retentionEnded } from '../domain/retention';
import { ApplicantDocumentsRepository, DocumentSubject } from '../store/applicant-documents.repository';
import { ApplicantFormsRepository } from '../store/applicant-forms.repository';
import { ApplicationsRepository } from '../store/applications.repository';
import { PersonalDataErasure } from './personal-data-erasure';
import { PersonalDataRetention } from './personal-data-retention';
import { RetentionSettings } from './retention-settings';

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2028-06-01T12:00:00Z');
const decided = (id: number, clientId: number, daysAgo: number, erased = false) =>
  ({
    id,
    client_id: clientId,
    decisions: [{ status: 'declined', decided_at: new Date(NOW - daysAgo * DAY_MS) }],
    ...(erased ? { personal_data_erased_at: new Date(NOW - DAY_MS) } : {}),
  }) as unknown as ApplicationRecord;

describe('retentionEnded', () => {
  it('is true once the days have passed since the current decision, and never for one undecided or erased', () => {
    expect(retentionEnded(decided(1, 1, 730), 730, NOW)).toBe(true);
    expect(retentionEnded(decided(1, 1, 729.9), 730, NOW)).toBe(false);
    expect(retentionEnded({ ...decided(1, 1, 800), decisions: undefined }, 730, NOW)).toBe(false);
    expect(retentionEnded(decided(1, 1, 800, true), 730, NOW)).toBe(false);
  });

  it('counts from the current decision, the first of the history', () => {
    const replaced = decided(1, 1, 10);
    replaced.decisions!.push({ ...replaced.decisions![0], decided_at: new Date(NOW - 900 * DAY_MS) });
    expect(retentionEnded(replaced, 730, NOW)).toBe(false);
  });
});

/**
 * An application started on the public form `daysAgo` and not changed since; `type` 'api' makes
 * it one an integrator created, whose applicant's form was started then.
 */
const started = (id: number, daysAgo: number, type: 'form' | 'api' = 'form') => {
  const at = new Date(NOW - daysAgo * DAY_MS);
  const applicant = {
    id: id * 10,
    type: 'primary',
    form_token_digest: `digest-${id}`,
    form_status: 'started',
    created_at: at,
    updated_at: at,
  };
  return {
    id,
    client_id: 1,
    request_key: type === 'form' ? `form:nonce-${id}` : `key:${id}`,
    applicants: [applicant as ApplicantRecord],
    created_at: at,
    updated_at: at,
  } as unknown as ApplicationRecord;
};
const daysAgo = (days: number) => new Date(NOW - days * DAY_MS);

describe('formAbandoned', () => {
  it('is true once a form started on the public form has not changed for the days', () => {
    expect(formAbandoned(started(1, 30), [], 30, NOW)).toBe(true);
    expect(formAbandoned(started(1, 29.9), [], 30, NOW)).toBe(false);
    expect(formAbandoned(started(1, 400), [], 30, NOW)).toBe(true);
  });

  it('is never true for an application an integrator created, however old', () => {
    expect(formAbandoned(started(1, 400, 'api'), [], 30, NOW)).toBe(false);
  });

  it('is never true once an applicant completed its form, a decision was recorded, or the data was erased', () => {
    const completed = started(1, 400);
    completed.applicants.push({ ...completed.applicants[0], id: 11, type: 'co_applicant', form_status: 'completed' });
    expect(formAbandoned(completed, [], 30, NOW)).toBe(false);
    const withdrawn = { ...started(1, 400), decisions: [{ status: 'withdrawn', decided_at: daysAgo(400) }] };
    expect(formAbandoned(withdrawn as ApplicationRecord, [], 30, NOW)).toBe(false);
    expect(formAbandoned({ ...started(1, 400), personal_data_erased_at: daysAgo(1) }, [], 30, NOW)).toBe(false);
  });

  it('counts from the last change: of the application, of an applicant’s form, or an upload', () => {
    expect(formAbandoned({ ...started(1, 400), updated_at: daysAgo(10) }, [], 30, NOW)).toBe(false);
    const stepped = started(1, 400);
    stepped.applicants[0] = { ...stepped.applicants[0], updated_at: daysAgo(10) };
    expect(formAbandoned(stepped, [], 30, NOW)).toBe(false);
    expect(formAbandoned(started(1, 400), [null, daysAgo(10)], 30, NOW)).toBe(false);
    expect(formAbandoned(started(1, 400), [daysAgo(31)], 30, NOW)).toBe(true);
  });
});

describe('PersonalDataRetention', () => {
  /**
   * The sweep over `stored` applications, each client's retention from `days` (the default
   * elsewhere), the form records `forms` by digest, the uploads `uploads` by applicant id.
   */
  function sweep(
    stored: ApplicationRecord[],
    days: Record<number, number>,
    { forms = {}, uploads = {} }: { forms?: Record<string, Partial<ApplicantForm>>; uploads?: Record<number, Date> } = {},
  ) {
    const erased: string[] = [];
    const asked: number[] = [];
    const database = new MemoryDatabase();
    for (const [digest, form] of Object.entries(forms))
      database.collection('applicant_forms').documents.set(digest, { ...form, _id: digest });
    const ids = (due: (application: ApplicationRecord) => boolean) => async () =>
      stored.filter(due).map((application) => application.id);
    const retention = new PersonalDataRetention(
      {
        decidedBefore: ids((application) => Boolean(application.decisions)),
        abandonedFormsBefore: ids((application) => !application.decisions),
        findMany: async (keys: number[]) => stored.filter((application) => keys.includes(application.id)),
      } as unknown as ApplicationsRepository,
      {
        daysInEffect: async (clientId: number) => (asked.push(clientId), days[clientId] ?? 730),
      } as unknown as RetentionSettings,
      {
        settle: async () => 0,
        eraseExpired: async (application: ApplicationRecord, trigger: string) => void erased.push(`${application.id} ${trigger}`),
      } as unknown as PersonalDataErasure,
      new ApplicantFormsRepository(new MemoryStorage(database)),
      {
        lastUploadedAt: async (subject: DocumentSubject) => uploads[subject.applicantId] ?? null,
      } as unknown as ApplicantDocumentsRepository,
      Object.assign(new ApplicationsEnvironment(), { ABANDONED_FORM_DAYS: 30 }),
    );
    return { retention, erased, asked };
  }

  it('erases the applications past their client’s retention, asking each client’s setting once', async () => {
    const stored = [decided(1, 1, 40), decided(2, 1, 20), decided(3, 2, 40), decided(4, 2, 800), decided(5, 1, 60, true)];
    const { retention, erased, asked } = sweep(stored, { 1: 30 });
    expect(await retention.eraseExpired(NOW)).toBe(2);
    expect(erased).toEqual(['1 retention_period', '4 retention_period']);
    expect(asked.sort()).toEqual([1, 2]);
  });

  it('erases the forms abandoned for ABANDONED_FORM_DAYS, judged by their form records and uploads too', async () => {
    const form = (updatedDaysAgo: number, status: ApplicantForm['form_status'] = 'started') => ({
      form_status: status,
      form_started_at: daysAgo(400),
      form_completed_at: status === 'completed' ? daysAgo(400) : null,
      updated_at: daysAgo(updatedDaysAgo),
    });
    const stored = [started(1, 40), started(2, 40), started(3, 40), started(4, 40), started(5, 40, 'api'), started(6, 10)];
    const { retention, erased } = sweep(
      stored,
      {},
      {
        forms: { 'digest-1': form(35), 'digest-2': form(5), 'digest-3': form(40, 'completed') },
        uploads: { 40: daysAgo(2) },
      },
    );
    expect(await retention.eraseExpired(NOW)).toBe(1);
    expect(erased).toEqual(['1 abandoned_form']);
  });

  it('does not start a sweep while the one before is still at work', async () => {
    const { retention, erased } = sweep([decided(1, 1, 800)], {});
    const [first, second] = await Promise.all([retention.eraseExpired(NOW), retention.eraseExpired(NOW)]);
    expect([first, second]).toEqual([1, 0]);
    expect(erased).toEqual(['1 retention_period']);
  });
});
