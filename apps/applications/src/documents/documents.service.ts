import { Injectable } from '@nestjs/common';
import {
  DocumentLocation,
  DocumentRepresentation,
  documentFileName,
  ErrorCode,
  FormApplicant,
  MAX_DOCUMENTS_PER_APPLICANT,
  SensitiveReader,
  ServiceError,
  StoredDocumentFields,
} from '@app/contracts';
import { FormOpener, SealedValueError } from '@app/crypto';
import { DocumentNotStoredError, DocumentVault } from '@app/documents';
import { EventOutbox } from '@app/events';
import { IdAllocator } from '@app/persistence';
import {
  alreadyCompleted,
  ApplicationFormsService,
  FormLink,
  personalDataErased,
} from '../applications/application-forms.service';
import { ApplicationsService } from '../applications/applications.service';
import { AuditEvents } from '../audit/audit-events';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { ApplicantDocuments, documentRepresentation, DocumentSubject } from './applicant-documents';
import { DocumentStorage } from './document-storage';

const DOCUMENT_IDS = 'documents';

/**
 * The records of applicants' documents. The form streams a file into the documents bucket
 * itself (libs/documents), its data key sealed to the form sealing key, then hands its record
 * here: this service decides whether the applicant may have it, seals its key again with the
 * field key ring (which the form does not hold), keeps it and publishes applicant.document_added.
 */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly records: ApplicantDocuments,
    private readonly forms: ApplicationFormsService,
    private readonly applications: ApplicationsService,
    private readonly ids: IdAllocator,
    private readonly audit: AuditEvents,
    private readonly outbox: EventOutbox,
    private readonly vault: DocumentVault,
    private readonly opener: FormOpener,
    private readonly storage: DocumentStorage,
    private readonly env: ApplicationsEnvironment,
  ) {}

  /** The documents of the applicant a form link names. */
  async listForForm(link: FormLink): Promise<DocumentRepresentation[]> {
    const applicant = await this.forms.find(link);
    if (!applicant) throw ServiceError.notFound('applicant', 'for this form link');
    const records = await this.records.list({ applicationId: applicant.application_id, applicantId: applicant.applicant_id });
    return records.map(documentRepresentation);
  }

  /**
   * Keeps the record of a file the form stored, once per upload page (`submission`, its CSRF
   * nonce); refused once the applicant has MAX_DOCUMENTS_PER_APPLICANT, has completed (signed)
   * its form, or its client's documents would take more than the client's budget. A file whose
   * record is not kept gives its room back.
   */
  async add(link: FormLink, fields: StoredDocumentFields, submission: string): Promise<DocumentRepresentation> {
    const applicant = await this.forms.find(link);
    if (!applicant) throw ServiceError.notFound('applicant', 'for this form link');
    if (applicant.form_status === 'completed') throw alreadyCompleted();
    const application = await this.applications.owned(applicant.client_id, applicant.application_id);
    if (application.personal_data_erased_at) throw personalDataErased();
    const clientId = applicant.client_id;
    if (!(await this.storage.take(clientId, fields.file_id, fields.size, this.env.documentStorageBytes(clientId)))) {
      throw storageFull();
    }
    try {
      return await this.keep(link, applicant, fields, submission);
    } catch (error) {
      await this.storage.giveBack(clientId, fields.file_id, fields.size);
      throw error;
    }
  }

  private async keep(
    link: FormLink,
    applicant: FormApplicant,
    fields: StoredDocumentFields,
    submission: string,
  ): Promise<DocumentRepresentation> {
    await this.adopt(fields.file_id, { clientId: applicant.client_id, applicantId: applicant.applicant_id });
    await this.forms.takeSubmission(submission);
    const subject: DocumentSubject = { applicationId: applicant.application_id, applicantId: applicant.applicant_id };
    // Each lost race for a slot means another document was kept: at most one try per slot.
    for (let attempt = 0; attempt <= MAX_DOCUMENTS_PER_APPLICANT; attempt++) {
      const slot = this.records.freeSlot(await this.records.list(subject));
      if (slot === null) throw tooManyDocuments();
      const id = await this.ids.allocate(DOCUMENT_IDS);
      const eventIds = await this.outbox.record(applicant.client_id, this.records.witness(subject, slot), [
        {
          event: 'applicant.document_added',
          data: {
            applicant_id: applicant.applicant_id,
            application_id: applicant.application_id,
            property_id: applicant.property_id,
            document_id: id,
          },
        },
      ]);
      const record = {
        ...fields,
        file_name: documentFileName(fields.file_name),
        id,
        client_id: applicant.client_id,
        application_id: subject.applicationId,
        applicant_id: subject.applicantId,
        slot,
        uploaded_at: new Date(),
        event_ids: eventIds,
      };
      if (await this.records.insert(record)) {
        // Completed while the file was on its way: the record goes again, with its event, so
        // that no document is kept that was added after the applicant signed.
        if (await this.forms.isCompleted(link)) {
          await this.records.remove(subject, slot);
          await this.outbox.discard(eventIds);
          throw alreadyCompleted();
        }
        this.outbox.written(eventIds);
        return documentRepresentation({ _id: '', ...record });
      }
      await this.outbox.discard(eventIds);
    }
    throw tooManyDocuments();
  }

  /** The documents of a client's applicant; recorded as a read when a reader (the API's list) asks. */
  async list(
    clientId: number,
    applicationId: number,
    applicantId: number,
    reader?: SensitiveReader,
  ): Promise<DocumentRepresentation[]> {
    const subject = await this.owned(clientId, applicationId, applicantId);
    const records = await this.records.list(subject);
    if (reader) await this.audit.recordRead(clientId, reader, { ...subject, read: 'document_list' });
    return records.map(documentRepresentation);
  }

  /** Where a document's bytes are, for its download: recorded as a read of sensitive data first. */
  async read(
    clientId: number,
    applicationId: number,
    applicantId: number,
    documentId: number,
    reader: SensitiveReader,
  ): Promise<DocumentLocation> {
    const subject = await this.owned(clientId, applicationId, applicantId);
    const record = (await this.records.list(subject)).find((candidate) => candidate.id === documentId);
    if (!record) throw ServiceError.notFound('document', documentId);
    await this.audit.recordRead(clientId, reader, { ...subject, read: 'document', documentId });
    return { document: documentRepresentation(record), file_id: record.file_id };
  }

  /**
   * The file's data key sealed with the key ring, as the gateway's download and the summary PDF
   * open it, before its record is kept; a file that is not stored, or not for this applicant, is
   * refused (the form then removes it). A file whose record is never kept keeps the key the form
   * sealed: nobody downloads it.
   */
  private async adopt(fileId: string, owner: { clientId: number; applicantId: number }): Promise<void> {
    try {
      await this.vault.adopt(fileId, owner, this.opener);
    } catch (error) {
      if (!(error instanceof DocumentNotStoredError || error instanceof SealedValueError)) throw error;
      const message = 'the file is not stored for this applicant';
      throw new ServiceError(ErrorCode.VALIDATION_FAILED, message, [{ field: 'document', message }]);
    }
  }

  private async owned(clientId: number, applicationId: number, applicantId: number): Promise<DocumentSubject> {
    const application = await this.applications.owned(clientId, applicationId);
    if (!application.applicants.some((applicant) => applicant.id === applicantId)) {
      throw ServiceError.notFound('applicant', applicantId);
    }
    return { applicationId, applicantId };
  }
}

function storageFull(): ServiceError {
  const message = 'cannot be kept: the property manager has no room left for documents; tell them';
  return new ServiceError(ErrorCode.VALIDATION_FAILED, message, [{ field: 'document', message }]);
}

function tooManyDocuments(): ServiceError {
  const message = `an applicant can upload at most ${MAX_DOCUMENTS_PER_APPLICANT} documents`;
  return new ServiceError(ErrorCode.VALIDATION_FAILED, message, [{ field: 'document', message }]);
}
