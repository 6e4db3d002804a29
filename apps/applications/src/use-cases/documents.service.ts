import { Injectable } from '@nestjs/common';
import {
  DocumentLocation,
  DocumentRepresentation,
  documentFileName,
  ErrorCode,
  MAX_DOCUMENTS_PER_APPLICANT,
  SensitiveReader,
  ServiceError,
  StoredDocumentFields,
} from '@app/contracts';
import { FormOpener, SealedValueError } from '@app/crypto';
import { DocumentNotStoredError, DocumentVault } from '@app/documents';
import { startedOnPublicForm } from '../domain/form-added';
import { alreadyCompleted, personalDataErased } from '../domain/form-refusals';
import { ApplicantDocumentsRepository, documentRepresentation, DocumentSubject } from '../store/applicant-documents.repository';
import { ApplicationsRepository } from '../store/applications.repository';
import { AuditEventsRepository } from '../store/audit-events.repository';
import { DocumentStorageRepository } from '../store/document-storage.repository';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { FormSubmissionsService } from './form-submissions.service';
import { FormLink, FormSubject, FormSubjects } from './form-subjects';

/**
 * The records of applicants' documents. The form streams a file into the documents bucket
 * itself (libs/documents), its data key sealed to the form sealing key, then hands its record
 * here: this service decides whether the applicant may have it, seals its key again with the
 * field key ring (which the form does not hold), keeps it and publishes applicant.document_added.
 */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly records: ApplicantDocumentsRepository,
    private readonly subjects: FormSubjects,
    private readonly submissions: FormSubmissionsService,
    private readonly applications: ApplicationsRepository,
    private readonly audit: AuditEventsRepository,
    private readonly vault: DocumentVault,
    private readonly opener: FormOpener,
    private readonly storage: DocumentStorageRepository,
    private readonly env: ApplicationsEnvironment,
  ) {}

  /** The documents of the applicant a form link names. */
  async listForForm(link: FormLink): Promise<DocumentRepresentation[]> {
    const { application, applicant } = await this.subjects.get(link);
    const records = await this.records.list({ applicationId: application.id, applicantId: applicant.id });
    return records.map(documentRepresentation);
  }

  /**
   * Keeps the record of a file the form stored, once per upload page (`submission`, its CSRF
   * nonce); refused once the applicant has MAX_DOCUMENTS_PER_APPLICANT, has completed (signed)
   * its form, or its client's documents would take more than the client's budget, or (on a form a
   * visitor started on the public form) the uploads not yet submitted more than their part of it
   * (UNSUBMITTED_DOCUMENT_STORAGE_PERCENT). A file whose record is not kept gives its room back.
   */
  async add(link: FormLink, fields: StoredDocumentFields, submission: string): Promise<DocumentRepresentation> {
    const subject = await this.subjects.get(link);
    if (subject.form?.form_status === 'completed') throw alreadyCompleted();
    if (subject.application.personal_data_erased_at) throw personalDataErased();
    // The upload's one try: a page sent again (a message delivered twice, to two instances) is
    // refused here, before it takes room or gives back the room the other try keeps the file in.
    await this.submissions.take(submission);
    const clientId = subject.application.client_id;
    // The applicant's form is not completed: on a form a visitor started, a stranger's upload.
    const unsubmitted = startedOnPublicForm(subject.application) ? this.env.unsubmittedDocumentStorageBytes(clientId) : undefined;
    const budget = this.env.documentStorageBytes(clientId);
    const refused = await this.storage.take(clientId, fields.file_id, fields.size, budget, unsubmitted);
    if (refused) throw refused === 'budget' ? storageFull() : unsubmittedFull();
    try {
      return await this.keep(link, subject, fields);
    } catch (error) {
      await this.storage.giveBack(clientId, fields.file_id, fields.size);
      throw error;
    }
  }

  private async keep(
    link: FormLink,
    { application, applicant }: FormSubject,
    fields: StoredDocumentFields,
  ): Promise<DocumentRepresentation> {
    await this.adopt(fields.file_id, { clientId: application.client_id, applicantId: applicant.id });
    const kept = await this.records.keep(
      {
        ...fields,
        file_name: documentFileName(fields.file_name),
        client_id: application.client_id,
        application_id: application.id,
        applicant_id: applicant.id,
        uploaded_at: new Date(),
      },
      (id) => [
        {
          event: 'applicant.document_added',
          data: {
            applicant_id: applicant.id,
            application_id: application.id,
            property_id: application.property_id,
            document_id: id,
          },
        },
      ],
      // Completed while the file was on its way: the record goes again, with its event, so that
      // no document is kept that was added after the applicant signed.
      async () => !(await this.subjects.isCompleted(link)),
    );
    if (kept === null) throw tooManyDocuments();
    if (kept === 'closed') throw alreadyCompleted();
    return documentRepresentation(kept);
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
    const application = await this.applications.findOwned(clientId, applicationId);
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

function unsubmittedFull(): ServiceError {
  const message =
    'cannot be kept now: the property manager has no room left for documents of applications not yet sent; try again later, or tell them';
  return new ServiceError(ErrorCode.VALIDATION_FAILED, message, [{ field: 'document', message }]);
}

function tooManyDocuments(): ServiceError {
  const message = `an applicant can upload at most ${MAX_DOCUMENTS_PER_APPLICANT} documents`;
  return new ServiceError(ErrorCode.VALIDATION_FAILED, message, [{ field: 'document', message }]);
}
