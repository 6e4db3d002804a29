import { ApplicantRefMessage } from './application-messages';
import { SensitiveReader } from './applicant-messages';
import { DocumentRepresentation, StoredDocumentFields } from './dto/document.dto';
import { FormSubmission, FormTokenMessage } from './application-form-messages';
import { ErrorCode, ServiceError } from './errors';
import { FORM_DOCUMENT_KINDS } from './form-presets';
import { isPositiveId, parseIdSegment } from './messages';

/** DOCUMENTS.ADD: the form stored a file (in the documents bucket) for the applicant its link names. */
export interface AddDocumentMessage extends FormTokenMessage, FormSubmission {
  document: StoredDocumentFields;
}

/** DOCUMENTS.READ: one document's record, for a download; the read is recorded as an audit event. */
export interface ReadDocumentMessage extends ApplicantRefMessage {
  document_id: number;
  reader: SensitiveReader;
}

/**
 * DOCUMENTS.LIST: an applicant's documents. With a reader (the API's list), the list is recorded
 * as an audit event; without one (the summary PDF, whose applicant read is recorded), it is not.
 */
export interface ListDocumentsMessage extends ApplicantRefMessage {
  reader?: SensitiveReader;
}

/** The answer to DOCUMENTS.READ: the representation, and where its bytes are. */
export interface DocumentLocation {
  document: DocumentRepresentation;
  file_id: string;
}

/** A document id from a URL path: a positive integer, else "cannot be found". */
export function documentIdFromPath(segment: string): number {
  const id = parseIdSegment(segment);
  if (id === null) throw ServiceError.notFound('document', segment);
  return id;
}

const FILE_ID = /^[0-9a-f]{24}$/;
const SHA256 = /^[0-9a-f]{64}$/;

/** A StoredDocumentFields as the service receives it; anything else is not from the form. */
export function readStoredDocument(message: AddDocumentMessage): StoredDocumentFields {
  const document = message?.document;
  const valid =
    typeof document === 'object' &&
    document !== null &&
    typeof document.file_id === 'string' &&
    FILE_ID.test(document.file_id) &&
    (FORM_DOCUMENT_KINDS as readonly string[]).includes(document.kind) &&
    typeof document.file_name === 'string' &&
    document.file_name.length <= 255 &&
    ['application/pdf', 'image/jpeg', 'image/png'].includes(document.content_type) &&
    Number.isInteger(document.size) &&
    document.size > 0 &&
    typeof document.sha256 === 'string' &&
    SHA256.test(document.sha256);
  if (!valid) throw new ServiceError(ErrorCode.INTERNAL, 'malformed stored document');
  const { file_id, kind, file_name, content_type, size, sha256 } = document;
  return { file_id, kind, file_name, content_type, size, sha256 };
}

export function readDocumentId(message: ReadDocumentMessage): number {
  if (!isPositiveId(message?.document_id)) throw ServiceError.notFound('document', String(message?.document_id));
  return message.document_id;
}
