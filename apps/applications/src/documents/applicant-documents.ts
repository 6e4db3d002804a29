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
import { EventWitness } from '@app/events';
import { ignoreExistingCollection, isDuplicateKey } from '@app/persistence';

const APPLICANT_DOCUMENTS = 'applicant_documents';
const FILE_NAME = 'applicant_document.file_name';

/** Whose documents: an applicant of an application. */
export interface DocumentSubject {
  applicationId: number;
  applicantId: number;
}

/**
 * One document's record, under `_id` = `<application>/<applicant>/<slot>`: an applicant has
 * MAX_DOCUMENTS_PER_APPLICANT slots, and a slot is taken by an insert that only one of two
 * uploads at once can make, so no race gets an applicant past the limit. An applicant's
 * documents are read by their keys alone (the one read FerretDB answers from an index).
 */
export interface ApplicantDocumentRecord extends StoredDocumentFields {
  _id: string;
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

@Injectable()
export class ApplicantDocuments implements OnModuleInit {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly cipher: FieldCipher,
  ) {}

  private get records() {
    return this.connection.collection<StoredRecord>(APPLICANT_DOCUMENTS);
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection(APPLICANT_DOCUMENTS).catch(ignoreExistingCollection);
    await makeBucketIndexes(this.connection.getClient().db(this.connection.name));
  }

  /** The applicant's documents, oldest first. */
  async list(subject: DocumentSubject): Promise<ApplicantDocumentRecord[]> {
    const keys = Array.from({ length: MAX_DOCUMENTS_PER_APPLICANT }, (_, index) => slotKey(subject, index + 1));
    const found = await this.records.find({ _id: { $in: keys } }).toArray();
    return found
      .map((stored) => ({
        ...stored,
        file_name:
          typeof stored.file_name === 'string' ? stored.file_name : this.cipher.open(stored.file_name, FILE_NAME, owner(stored)),
      }))
      .sort((a, b) => a.id - b.id);
  }

  /** When the applicant's latest document was uploaded; null for one with none. Reads no file name. */
  async lastUploadedAt(subject: DocumentSubject): Promise<Date | null> {
    const keys = Array.from({ length: MAX_DOCUMENTS_PER_APPLICANT }, (_, index) => slotKey(subject, index + 1));
    const found = await this.records.find({ _id: { $in: keys } }, { projection: { uploaded_at: 1 } }).toArray();
    const times = found.map((record) => record.uploaded_at.getTime());
    return times.length > 0 ? new Date(Math.max(...times)) : null;
  }

  /** The first free slot, or null when the applicant has as many documents as it may. */
  freeSlot(existing: ApplicantDocumentRecord[]): number | null {
    const taken = new Set(existing.map((record) => record.slot));
    for (let slot = 1; slot <= MAX_DOCUMENTS_PER_APPLICANT; slot++) if (!taken.has(slot)) return slot;
    return null;
  }

  witness(subject: DocumentSubject, slot: number): EventWitness {
    return { collection: APPLICANT_DOCUMENTS, key: slotKey(subject, slot) };
  }

  /** Takes the slot with the record; false when another upload took it first. */
  async insert(record: Omit<ApplicantDocumentRecord, '_id'>): Promise<boolean> {
    const subject = { applicationId: record.application_id, applicantId: record.applicant_id };
    try {
      const fileName = this.cipher.seal(record.file_name, FILE_NAME, owner(record));
      await this.records.insertOne({ _id: slotKey(subject, record.slot), ...record, file_name: fileName });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Which of `fileIds` a record names: a read of every record on FerretDB, for background work only. */
  async recorded(fileIds: string[]): Promise<Set<string>> {
    const found = await this.records.find({ file_id: { $in: fileIds } }, { projection: { file_id: 1 } }).toArray();
    return new Set(found.map((record) => record.file_id));
  }

  /**
   * Removes every document of the applicant, what its record names (`removeFile`: the file, the
   * room it took) before the record: a record left by an erasure that stopped half-way still
   * names its file, and the next one removes both. Returns how many there were.
   */
  async eraseAll(
    subject: DocumentSubject,
    removeFile: (document: Pick<ApplicantDocumentRecord, 'client_id' | 'file_id' | 'size'>) => Promise<void>,
  ): Promise<number> {
    const keys = Array.from({ length: MAX_DOCUMENTS_PER_APPLICANT }, (_, index) => slotKey(subject, index + 1));
    const found = await this.records
      .find({ _id: { $in: keys } }, { projection: { client_id: 1, file_id: 1, size: 1 } })
      .toArray();
    for (const record of found) {
      await removeFile(record);
      await this.records.deleteOne({ _id: record._id });
    }
    return found.length;
  }

  /** Gives back a slot this process took: no other upload can have it until then. */
  async remove(subject: DocumentSubject, slot: number): Promise<void> {
    await this.records.deleteOne({ _id: slotKey(subject, slot) });
  }
}

/** Bound into a sealed file name: it opens for its own document only. */
function owner(record: Pick<ApplicantDocumentRecord, 'client_id' | 'applicant_id' | 'id'>): string {
  return `client:${record.client_id} applicant:${record.applicant_id} document:${record.id}`;
}

function slotKey({ applicationId, applicantId }: DocumentSubject, slot: number): string {
  return `${applicationId}/${applicantId}/${slot}`;
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
