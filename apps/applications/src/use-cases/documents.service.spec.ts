import { ApplicationInput, FormApplicant, FormContactInput, StoredDocumentFields } from '@app/contracts';
import { FormOpener, formTokenDigest } from '@app/crypto';
import { DocumentNotStoredError, DocumentOwner, DocumentVault } from '@app/documents';
import { MemoryDatabase } from '@app/persistence/memory-storage.testing';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { ApplicantDocumentsRepository } from '../store/applicant-documents.repository';
import { AuditEventsRepository } from '../store/audit-events.repository';
import { DocumentStorageRepository, STORAGE_UNIT_BYTES } from '../store/document-storage.repository';
import { ApplicationsInstance, applicationsInstance, scope } from './applications-instance.testing';
import { DocumentsService } from './documents.service';
import { FormLink } from './form-subjects';

const fields = {
  file_id: 'file-1',
  kind: 'proof_of_income',
  file_name: 'payslip.pdf',
  content_type: 'application/pdf',
  size: 1024,
  sha256: 'a'.repeat(64),
} as StoredDocumentFields;

/** The vault's side of an upload: which files it was asked to take, for whom; `stored` says which it holds. */
function vaultHolding(stored: string[], whileAdopting: () => Promise<void> = async () => undefined) {
  const adopted: Array<[string, DocumentOwner]> = [];
  const vault = {
    adopt: async (fileId: string, owner: DocumentOwner) => {
      if (!stored.includes(fileId)) throw new DocumentNotStoredError(fileId);
      adopted.push([fileId, owner]);
      await whileAdopting();
    },
  } as unknown as DocumentVault;
  return { vault, adopted };
}

/**
 * The documents service over its collections in memory, for the primary applicant of an
 * application made through the API, whose form reads `status`; with `completedSince`, the form is
 * signed while the file is on its way (as the vault takes it).
 */
async function documents(
  database: MemoryDatabase,
  status: FormApplicant['form_status'],
  completedSince = false,
  holding: string[] = [fields.file_id],
) {
  const app = await applicationsInstance(database);
  const created = await app.service.create(
    1,
    { property_id: 3, applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } } as ApplicationInput,
    scope(),
  );
  const applicant = (await app.repository.find(created.id))!.applicants[0];
  const digest = applicant.form_token_digest!;
  const link: FormLink = { digest, applicationId: created.id };
  await app.forms.save(
    digest,
    { application_id: created.id, applicant_id: applicant.id },
    {
      form_status: status,
      form_started_at: new Date(),
      form_completed_at: null,
    },
  );
  if (status === 'completed') await database.collection('form_completions').insertOne({ _id: digest, form_status: 'completed' });
  database.collection('event_outbox').documents.clear();
  const { vault, adopted } = vaultHolding(holding, async () => {
    if (completedSince) await database.collection('form_completions').insertOne({ _id: digest, form_status: 'completed' });
  });
  return { ...documentsOn(app, database, vault), app, adopted, link, vault, applicantId: applicant.id };
}

/**
 * The documents service of one instance (`app`) over `database`, with a budget of 1 MB per client,
 * half of which uploads on public forms not yet sent may hold.
 */
function documentsOn(app: Awaited<ReturnType<typeof applicationsInstance>>, database: MemoryDatabase, vault: DocumentVault) {
  const records = new ApplicantDocumentsRepository(app.storage, database.connection(), app.cipher, app.outbox);
  const storage = new DocumentStorageRepository(app.storage);
  const service = new DocumentsService(
    records,
    app.subjects,
    app.submissions,
    app.repository,
    {} as AuditEventsRepository,
    vault,
    {} as FormOpener,
    storage,
    Object.assign(new ApplicationsEnvironment(), {
      DOCUMENT_STORAGE_PER_CLIENT_MB: 1,
      CLIENT_DOCUMENT_STORAGE_MB: '',
      UNSUBMITTED_DOCUMENT_STORAGE_PERCENT: 50,
    }),
  );
  return { service, storage };
}

/** A visitor's form started on the property's public form, its identity step saved: its link. */
async function visitor(app: ApplicationsInstance, n: number): Promise<FormLink> {
  const contact = { first_name: 'Vic', last_name: `Itor ${n}`, email: `vic${n}@example.com` } as FormContactInput;
  const started = await app.formSteps.start(1, 3, contact, `step-1-${n}`);
  const link = { digest: formTokenDigest(started.token!), applicationId: started.application_id };
  await app.formSteps.saveSection(link, { kind: 'identity', value: {}, sealed: { dob: '1990-01-02', id_number: '078051120' } });
  return link;
}

describe('DocumentsService.add', () => {
  it('keeps a document of an applicant whose form is open, with its event, once the vault took its file for them', async () => {
    const database = new MemoryDatabase();
    const { service, adopted, link, applicantId } = await documents(database, 'started');
    await expect(service.add(link, fields, 'nonce')).resolves.toMatchObject({ id: 1 });
    expect(adopted).toEqual([[fields.file_id, { clientId: 1, applicantId }]]);
    expect(database.collection('applicant_documents').documents.size).toBe(1);
    expect(database.collection('event_outbox').documents.size).toBe(1);
  });

  it('refuses a document whose file the vault does not hold for the applicant, keeping nothing', async () => {
    const database = new MemoryDatabase();
    const { service, link } = await documents(database, 'started', false, []);
    await expect(service.add(link, fields, 'nonce')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'the file is not stored for this applicant',
    });
    expect(database.collection('applicant_documents').documents.size).toBe(0);
    expect(database.collection('event_outbox').documents.size).toBe(0);
  });

  it('refuses a document past the client’s storage budget (1 MB here) before its file is taken, and counts what is not kept as free', async () => {
    const database = new MemoryDatabase();
    const { service, adopted, link, storage } = await documents(database, 'started', false, [fields.file_id, 'second', 'third']);
    const half = 512 * 1024;
    await service.add(link, { ...fields, size: half }, 'nonce-1');
    // A file the vault does not hold is refused, and what it would have taken is free again.
    await expect(service.add(link, { ...fields, file_id: 'missing', size: half }, 'nonce-2')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await service.add(link, { ...fields, file_id: 'second', size: half }, 'nonce-3');
    await expect(service.add(link, { ...fields, file_id: 'third', size: 1 }, 'nonce-4')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'document', message: 'cannot be kept: the property manager has no room left for documents; tell them' }],
    });
    expect(adopted.map(([fileId]) => fileId)).toEqual([fields.file_id, 'second']);
    expect(database.collection('applicant_documents').documents.size).toBe(2);
    expect(await storage.used(1)).toBe(2 * half);
  });

  it('counts the room of an upload delivered twice at once, to two instances, once: the try refused gives none back', async () => {
    const database = new MemoryDatabase();
    const { service, link, storage, vault } = await documents(database, 'started');
    const other = documentsOn(await applicationsInstance(database), database, vault).service;
    const tries = await Promise.allSettled([service.add(link, fields, 'nonce'), other.add(link, fields, 'nonce')]);
    expect(tries.map(({ status }) => status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(database.collection('applicant_documents').documents.size).toBe(1);
    expect(await storage.used(1)).toBe(STORAGE_UNIT_BYTES);
  });

  it('keeps strangers’ uploads on public forms within their half of the budget, an API-made applicant’s past it, until a form is sent', async () => {
    const database = new MemoryDatabase();
    const holding = ['s1', 's2', 's3', 'made'];
    const { service, app, link: made, storage } = await documents(database, 'started', false, holding);
    const [one, two] = [await visitor(app, 1), await visitor(app, 2)];
    const quarter = { ...fields, size: STORAGE_UNIT_BYTES };
    await service.add(one, { ...quarter, file_id: 's1' }, 'nonce-1');
    await service.add(two, { ...quarter, file_id: 's2' }, 'nonce-2');
    await expect(service.add(two, { ...quarter, file_id: 's3' }, 'nonce-3')).rejects.toMatchObject({
      message: expect.stringContaining('no room left for documents of applications not yet sent'),
    });
    await service.add(made, { ...quarter, file_id: 'made' }, 'nonce-4');
    expect(await storage.used(1)).toBe(3 * STORAGE_UNIT_BYTES);
    // The first visitor sends its form: its upload keeps its room, no longer in the strangers' part.
    await app.formSteps.complete(one, {
      signature: 'Vic Itor',
      consent: {
        form_preset_id: 1,
        form_preset_version: 1,
        disclosures: [],
        ip_address: '203.0.113.7',
        user_agent: 'Browser/1.0',
      },
    });
    await service.add(two, { ...quarter, file_id: 's3' }, 'nonce-5');
    expect(await storage.used(1)).toBe(4 * STORAGE_UNIT_BYTES);
  });

  it('stores the file name sealed, and lists it opened', async () => {
    const database = new MemoryDatabase();
    const { service, link } = await documents(database, 'started');
    await service.add(link, { ...fields, file_name: 'John_Smith_passport.jpg' }, 'nonce');
    const [stored] = [...database.collection('applicant_documents').documents.values()];
    expect(JSON.stringify(stored)).not.toContain('John_Smith');
    expect(stored.file_name).toMatchObject({ key_id: 'k1' });
    await expect(service.listForForm(link)).resolves.toMatchObject([{ file_name: 'John_Smith_passport.jpg' }]);
  });

  it('lists a file name kept in clear before names were sealed', async () => {
    const database = new MemoryDatabase();
    const { service, link } = await documents(database, 'started');
    await service.add(link, fields, 'nonce');
    const [stored] = [...database.collection('applicant_documents').documents.values()];
    stored.file_name = 'kept-in-clear.pdf';
    await expect(service.listForForm(link)).resolves.toMatchObject([{ file_name: 'kept-in-clear.pdf' }]);
  });

  it('refuses a document for an applicant who completed (signed) its form', async () => {
    const database = new MemoryDatabase();
    const { service, link } = await documents(database, 'completed');
    await expect(service.add(link, fields, 'nonce')).rejects.toThrow('this application form is already completed');
    expect(database.collection('applicant_documents').documents.size).toBe(0);
  });

  it('takes back a document whose applicant completed the form while it was on its way, and its event', async () => {
    const database = new MemoryDatabase();
    const { service, link } = await documents(database, 'started', true);
    await expect(service.add(link, fields, 'nonce')).rejects.toThrow('this application form is already completed');
    expect(database.collection('applicant_documents').documents.size).toBe(0);
    expect(database.collection('event_outbox').documents.size).toBe(0);
  });
});
