import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { DocumentRepresentation, formatTimestamp, MAX_DOCUMENTS_PER_APPLICANT, StoredDocumentFields } from '@app/contracts';
import { EventWitness } from '@app/events';
import { ignoreExistingCollection, isDuplicateKey } from '@app/persistence';

const APPLICANT_DOCUMENTS = 'applicant_documents';

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

@Injectable()
export class ApplicantDocuments implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get records() {
    return this.connection.collection<ApplicantDocumentRecord>(APPLICANT_DOCUMENTS);
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection(APPLICANT_DOCUMENTS).catch(ignoreExistingCollection);
  }

  /** The applicant's documents, oldest first. */
  async list(subject: DocumentSubject): Promise<ApplicantDocumentRecord[]> {
    const keys = Array.from({ length: MAX_DOCUMENTS_PER_APPLICANT }, (_, index) => slotKey(subject, index + 1));
    const found = await this.records.find({ _id: { $in: keys } }).toArray();
    return found.sort((a, b) => a.id - b.id);
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
      await this.records.insertOne({ _id: slotKey(subject, record.slot), ...record });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Gives back a slot this process took: no other upload can have it until then. */
  async remove(subject: DocumentSubject, slot: number): Promise<void> {
    await this.records.deleteOne({ _id: slotKey(subject, slot) });
  }
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
