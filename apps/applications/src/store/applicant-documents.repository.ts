import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import {
  DocumentRepresentation,
  formatTimestamp,
  MAX_DOCUMENTS_PER_APPLICANT,
  SealedValue,
  StoredDocumentFields,
} from '@app/contracts';
import { FieldCipher } from '@app/crypto';
import { makeBucketIndexes } from '@app/documents';
import { EventOutbox, EventSpec } from '@app/events';
import { Ids, OnceRecords, Storage } from '@app/persistence';

const FILE_NAME = 'applicant_document.file_name';
const DOCUMENT_IDS = 'documents';

/** Whose documents: an applicant of an application. */
export interface DocumentSubject {
  applicationId: number;
  applicantId: number;
}

/**
 * One document's record, under `<application>/<applicant>/<slot>`: an applicant has
 * MAX_DOCUMENTS_PER_APPLICANT slots, and a slot is taken by an insert that only one of two
 * uploads at once can make, so no race gets an applicant past the limit. An applicant's documents
 * are read by their keys alone.
 */
export interface ApplicantDocumentRecord extends StoredDocumentFields {
  id: number;
  client_id: number;
  application_id: number;
  applicant_id: number;
  slot: number;
  uploaded_at: Date;
  event_ids: string[];
}

/**
 * A record as the collection holds it: its file name sealed with FIELD_ENCRYPTION_KEYS for its
 * document, as a name like `John_Smith_passport.jpg` says whose it is; in clear in records kept
 * before names were sealed.
 */
type StoredRecord = Omit<ApplicantDocumentRecord, 'file_name'> & { file_name: SealedValue | string };

/** What a new document's record is made of, but its id and slot, which keeping it gives. */
export type NewDocument = Omit<ApplicantDocumentRecord, 'id' | 'slot' | 'event_ids'>;

/** The records of applicants' documents (the files themselves are in the documents bucket). */
@Injectable()
export class ApplicantDocumentsRepository implements OnModuleInit {
  private readonly records: OnceRecords<StoredRecord>;
  private readonly ids: Ids;

  constructor(
    storage: Storage,
    @InjectConnection() private readonly connection: Connection,
    private readonly cipher: FieldCipher,
    private readonly outbox: EventOutbox,
  ) {
    this.records = storage.onceRecords<StoredRecord>('applicant_documents');
    this.ids = storage.ids();
  }

  async onModuleInit(): Promise<void> {
    await this.records.prepare();
    await makeBucketIndexes(this.connection.getClient().db(this.connection.name));
  }

  /** The applicant's documents, oldest first. */
  async list(subject: DocumentSubject): Promise<ApplicantDocumentRecord[]> {
    const found = await this.records.getMany(slotKeys(subject));
    return [...found.values()]
      .map(({ _id: _key, ...stored }) => ({
        ...stored,
        file_name:
          typeof stored.file_name === 'string' ? stored.file_name : this.cipher.open(stored.file_name, FILE_NAME, owner(stored)),
      }))
      .sort((a, b) => a.id - b.id);
  }

  /** When the applicant's latest document was uploaded; null for one with none. Opens no file name. */
  async lastUploadedAt(subject: DocumentSubject): Promise<Date | null> {
    const times = [...(await this.records.getMany(slotKeys(subject))).values()].map((record) => record.uploaded_at.getTime());
    return times.length > 0 ? new Date(Math.max(...times)) : null;
  }

  /**
   * Keeps the document in the applicant's first free slot, with the events `events(id)` make of
   * its new id: the record, or null when the applicant has as many documents as it may. Each lost
   * race for a slot means another document was kept, so it tries at most once per slot.
   * `stillOpen` is asked once the record is in: false takes it out again, with its event (the
   * form was signed meanwhile, say), and answers `closed`.
   */
  async keep(
    document: NewDocument,
    events: (id: number) => EventSpec[],
    stillOpen: () => Promise<boolean>,
  ): Promise<ApplicantDocumentRecord | null | 'closed'> {
    const subject = { applicationId: document.application_id, applicantId: document.applicant_id };
    for (let attempt = 0; attempt <= MAX_DOCUMENTS_PER_APPLICANT; attempt++) {
      const slot = freeSlot(await this.list(subject));
      if (slot === null) return null;
      const id = await this.ids.allocate(DOCUMENT_IDS);
      const key = slotKey(subject, slot);
      const eventIds = await this.outbox.record(document.client_id, this.records.witness(key), events(id));
      const record: ApplicantDocumentRecord = { ...document, id, slot, event_ids: eventIds };
      if (await this.records.claim(key, { ...record, file_name: this.cipher.seal(record.file_name, FILE_NAME, owner(record)) })) {
        if (!(await stillOpen())) {
          await this.records.release(key);
          await this.outbox.discard(eventIds);
          return 'closed';
        }
        this.outbox.written(eventIds);
        return record;
      }
      await this.outbox.discard(eventIds);
    }
    return null;
  }

  /** Which of `fileIds` a record names: a read of every record on FerretDB, for background work only. */
  async recorded(fileIds: string[]): Promise<Set<string>> {
    const found = await this.records.scan({ file_id: { $in: fileIds } }, { projection: { file_id: 1 } });
    return new Set(found.map((record) => record.file_id));
  }

  /**
   * Removes every document of the applicant, what its record names (`removeFile`: the file, the
   * room it took) before the record: a record left by an erasure that stopped half-way still names
   * its file, and the next one removes both. Returns how many there were.
   */
  async eraseAll(
    subject: DocumentSubject,
    removeFile: (document: Pick<ApplicantDocumentRecord, 'client_id' | 'file_id' | 'size'>) => Promise<void>,
  ): Promise<number> {
    const found = await this.records.getMany(slotKeys(subject));
    for (const [key, record] of found) {
      await removeFile(record);
      await this.records.release(key);
    }
    return found.size;
  }
}

/** The first free slot, or null when the applicant has as many documents as it may. */
function freeSlot(existing: ApplicantDocumentRecord[]): number | null {
  const taken = new Set(existing.map((record) => record.slot));
  for (let slot = 1; slot <= MAX_DOCUMENTS_PER_APPLICANT; slot++) if (!taken.has(slot)) return slot;
  return null;
}

/** Bound into a sealed file name: it opens for its own document only. */
function owner(record: Pick<ApplicantDocumentRecord, 'client_id' | 'applicant_id' | 'id'>): string {
  return `client:${record.client_id} applicant:${record.applicant_id} document:${record.id}`;
}

function slotKey({ applicationId, applicantId }: DocumentSubject, slot: number): string {
  return `${applicationId}/${applicantId}/${slot}`;
}

function slotKeys(subject: DocumentSubject): string[] {
  return Array.from({ length: MAX_DOCUMENTS_PER_APPLICANT }, (_, index) => slotKey(subject, index + 1));
}

/** A record as the API shows it: field order fixed. */
export function documentRepresentation(record: ApplicantDocumentRecord): DocumentRepresentation {
  return {
    id: record.id,
    kind: record.kind,
    file_name: record.file_name,
    content_type: record.content_type,
    size: record.size,
    uploaded_at: formatTimestamp(record.uploaded_at),
    sha256: record.sha256,
  };
}
