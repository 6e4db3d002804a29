import { MemoryDatabase, MemoryStorage } from '@app/persistence/memory-storage.testing';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { AuditEventsRepository } from './audit-events.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
const reader = (request_id: string) => ({ key_id: '0123456789abcdef', request_id });

describe('AuditEventsRepository', () => {
  let database: MemoryDatabase;
  let audit: AuditEventsRepository;

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), doNotFake: ['nextTick', 'setImmediate'] });
    database = new MemoryDatabase();
    audit = new AuditEventsRepository(
      new MemoryStorage(database),
      Object.assign(new ApplicationsEnvironment(), { AUDIT_RETENTION_DAYS: 30 }),
    );
  });

  afterEach(() => jest.useRealTimers());

  it('lists a client’s reads newest first, of one applicant when asked, a page at a time', async () => {
    await audit.recordRead(1, reader('a'), { applicationId: 5, applicantId: 7 });
    await audit.recordRead(1, reader('b'), { applicationId: 5, applicantId: 8 });
    await audit.recordRead(1, reader('c'), { applicationId: 5, applicantId: 7 });
    await audit.recordRead(2, reader('d'), { applicationId: 6, applicantId: 9 });

    const requestIds = async (clientId: number, query: Parameters<AuditEventsRepository['list']>[1]) =>
      (await audit.list(clientId, query)).items.map((event) => event.request_id);
    expect(await requestIds(1, { limit: 25 })).toEqual(['c', 'b', 'a']);
    expect(await requestIds(1, { limit: 25, applicantId: 7 })).toEqual(['c', 'a']);
    expect(await requestIds(2, { limit: 25, applicantId: 7 })).toEqual([]);
    const first = await audit.list(1, { limit: 2 });
    expect(first.items.map((event) => event.request_id)).toEqual(['c', 'b']);
    expect(first.next_cursor).not.toBeNull();
    expect(await requestIds(1, { limit: 2, before: 2 })).toEqual(['a']);
  });

  it('records what was read: the applicant, a document by its id, a list of documents, or a summary PDF', async () => {
    await audit.recordRead(1, reader('a'), { applicationId: 5, applicantId: 7 });
    await audit.recordRead(1, reader('b'), { applicationId: 5, applicantId: 7, read: 'document', documentId: 3 });
    await audit.recordRead(1, reader('c'), { applicationId: 5, applicantId: 7, read: 'document_list' });
    await audit.recordRead(1, { ...reader('d'), purpose: 'summary_pdf' }, { applicationId: 5, applicantId: 7 });

    const events = (await audit.list(1, { limit: 25 })).items.map(({ request_id, read, document_id }) => ({
      request_id,
      read,
      document_id,
    }));
    expect(events).toEqual([
      { request_id: 'd', read: 'summary_pdf', document_id: null },
      { request_id: 'c', read: 'document_list', document_id: null },
      { request_id: 'b', read: 'document', document_id: 3 },
      { request_id: 'a', read: 'applicant', document_id: null },
    ]);
  });

  it('keeps every event AUDIT_RETENTION_DAYS, and shows none past it, whether deleted yet or not', async () => {
    await audit.recordRead(1, reader('old'), { applicationId: 5, applicantId: 7 });
    jest.setSystemTime(Date.now() + 20 * DAY_MS);
    await audit.recordRead(1, reader('new'), { applicationId: 5, applicantId: 7 });
    expect((await audit.list(1, { limit: 25 })).items.map((event) => event.request_id)).toEqual(['new', 'old']);

    jest.setSystemTime(Date.now() + 10 * DAY_MS + 1000);
    expect((await audit.list(1, { limit: 25 })).items.map((event) => event.request_id)).toEqual(['new']);
    const stored = [...database.collection('audit_events').documents.values()];
    expect(stored.map((event) => (event.expires_at as Date).getTime() - (event.created_at as Date).getTime())).toEqual([
      30 * DAY_MS,
      30 * DAY_MS,
    ]);
    const entries = [...database.collection('audit_index').documents.values()];
    expect(entries.map((entry) => (entry.expires_at as Date).getTime() - (entry.created_at as Date).getTime())).toEqual(
      entries.map(() => 30 * DAY_MS),
    );
  });
});
