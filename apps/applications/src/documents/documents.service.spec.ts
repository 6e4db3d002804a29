import { FormApplicant, StoredDocumentFields } from '@app/contracts';
import { FieldCipher, FormOpener } from '@app/crypto';
import { DocumentNotStoredError, DocumentOwner, DocumentVault } from '@app/documents';
import { EventOutbox } from '@app/events';
import { IdAllocator } from '@app/persistence';
import { MemoryDatabase, MemoryStorage } from '@app/persistence/memory-storage.testing';
import { ApplicationFormsService, FormLink } from '../applications/application-forms.service';
import { ApplicationsService } from '../applications/applications.service';
import { AuditEvents } from '../audit/audit-events';
import { ApplicantDocuments } from './applicant-documents';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { DocumentStorage } from './document-storage';
import { DocumentsService } from './documents.service';

const CIPHER = new FieldCipher(`k1:${Buffer.alloc(32, 7).toString('base64')}`);
const LINK: FormLink = { digest: 'digest-of-the-form-token', applicationId: 7 };
const fields = {
  file_id: 'file-1',
  kind: 'proof_of_income',
  file_name: 'payslip.pdf',
  content_type: 'application/pdf',
  size: 1024,
  sha256: 'a'.repeat(64),
} as StoredDocumentFields;

/** The vault's side of an upload: which files it was asked to take, for whom; `stored` says which it holds. */
function vaultHolding(stored: string[]) {
  const adopted: Array<[string, DocumentOwner]> = [];
  const vault = {
    adopt: async (fileId: string, owner: DocumentOwner) => {
      if (!stored.includes(fileId)) throw new DocumentNotStoredError(fileId);
      adopted.push([fileId, owner]);
    },
  } as unknown as DocumentVault;
  return { vault, adopted };
}

/**
 * The documents service over its collections in memory, for an applicant whose form reads
 * `status` and whose completion claim is found (`completedSince`) once the upload looks again.
 */
function documents(
  database: MemoryDatabase,
  status: FormApplicant['form_status'],
  completedSince = false,
  vault = vaultHolding([fields.file_id]).vault,
) {
  const connection = database.connection();
  const applicant = { client_id: 1, application_id: 7, applicant_id: 12, property_id: 3, form_status: status };
  const forms = {
    find: async () => applicant,
    takeSubmission: async () => undefined,
    isCompleted: async () => status === 'completed' || completedSince,
  } as unknown as ApplicationFormsService;
  let id = 0;
  const ids = { allocate: async () => ++id } as unknown as IdAllocator;
  const records = new ApplicantDocuments(connection, CIPHER);
  const opener = {} as FormOpener;
  return new DocumentsService(
    records,
    forms,
    { owned: async () => ({ id: 7, client_id: 1 }) } as unknown as ApplicationsService,
    ids,
    {} as AuditEvents,
    new EventOutbox(connection),
    vault,
    opener,
    new DocumentStorage(new MemoryStorage(database)),
    Object.assign(new ApplicationsEnvironment(), { DOCUMENT_STORAGE_PER_CLIENT_MB: 1, CLIENT_DOCUMENT_STORAGE_MB: '' }),
  );
}

describe('DocumentsService.add', () => {
  it('keeps a document of an applicant whose form is open, with its event, once the vault took its file for them', async () => {
    const database = new MemoryDatabase();
    const { vault, adopted } = vaultHolding([fields.file_id]);
    await expect(documents(database, 'started', false, vault).add(LINK, fields, 'nonce')).resolves.toMatchObject({ id: 1 });
    expect(adopted).toEqual([[fields.file_id, { clientId: 1, applicantId: 12 }]]);
    expect(database.collection('applicant_documents').documents.size).toBe(1);
    expect(database.collection('event_outbox').documents.size).toBe(1);
  });

  it('refuses a document whose file the vault does not hold for the applicant, keeping nothing', async () => {
    const database = new MemoryDatabase();
    const service = documents(database, 'started', false, vaultHolding([]).vault);
    await expect(service.add(LINK, fields, 'nonce')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'the file is not stored for this applicant',
    });
    expect(database.collection('applicant_documents').documents.size).toBe(0);
    expect(database.collection('event_outbox').documents.size).toBe(0);
  });

  it('refuses a document past the client’s storage budget (1 MB here) before its file is taken, and counts what is not kept as free', async () => {
    const database = new MemoryDatabase();
    const { vault, adopted } = vaultHolding([fields.file_id, 'second', 'third']);
    const service = documents(database, 'started', false, vault);
    const half = 512 * 1024;
    await service.add(LINK, { ...fields, size: half }, 'nonce-1');
    // A file the vault does not hold is refused, and what it would have taken is free again.
    await expect(service.add(LINK, { ...fields, file_id: 'missing', size: half }, 'nonce-2')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await service.add(LINK, { ...fields, file_id: 'second', size: half }, 'nonce-3');
    await expect(service.add(LINK, { ...fields, file_id: 'third', size: 1 }, 'nonce-4')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'document', message: 'cannot be kept: the property manager has no room left for documents; tell them' }],
    });
    expect(adopted.map(([fileId]) => fileId)).toEqual([fields.file_id, 'second']);
    expect(database.collection('applicant_documents').documents.size).toBe(2);
    expect(await new DocumentStorage(new MemoryStorage(database)).used(1)).toBe(2 * half);
  });

  it('stores the file name sealed, and lists it opened', async () => {
    const database = new MemoryDatabase();
    const service = documents(database, 'started');
    await service.add(LINK, { ...fields, file_name: 'John_Smith_passport.jpg' }, 'nonce');
    const [stored] = [...database.collection('applicant_documents').documents.values()];
    expect(JSON.stringify(stored)).not.toContain('John_Smith');
    expect(stored.file_name).toMatchObject({ key_id: 'k1' });
    await expect(service.listForForm(LINK)).resolves.toMatchObject([{ file_name: 'John_Smith_passport.jpg' }]);
  });

  it('lists a file name kept in clear before names were sealed', async () => {
    const database = new MemoryDatabase();
    const service = documents(database, 'started');
    await service.add(LINK, fields, 'nonce');
    const [stored] = [...database.collection('applicant_documents').documents.values()];
    stored.file_name = 'kept-in-clear.pdf';
    await expect(service.listForForm(LINK)).resolves.toMatchObject([{ file_name: 'kept-in-clear.pdf' }]);
  });

  it('refuses a document for an applicant who completed (signed) its form', async () => {
    const database = new MemoryDatabase();
    await expect(documents(database, 'completed').add(LINK, fields, 'nonce')).rejects.toThrow(
      'this application form is already completed',
    );
    expect(database.collection('applicant_documents').documents.size).toBe(0);
  });

  it('takes back a document whose applicant completed the form while it was on its way, and its event', async () => {
    const database = new MemoryDatabase();
    await expect(documents(database, 'started', true).add(LINK, fields, 'nonce')).rejects.toThrow(
      'this application form is already completed',
    );
    expect(database.collection('applicant_documents').documents.size).toBe(0);
    expect(database.collection('event_outbox').documents.size).toBe(0);
  });
});
