import { Injectable } from '@nestjs/common';
import { startedOnPublicForm } from '../domain/form-added';
import { ApplicantDocumentsRepository } from '../store/applicant-documents.repository';
import { DocumentStorageRepository } from '../store/document-storage.repository';
import { FormSubject } from './form-subjects';

/**
 * The uploads on a form a visitor started on the public form hold their room in the part of the
 * client's budget that strangers may hold (UNSUBMITTED_DOCUMENT_STORAGE_PERCENT) until their
 * applicant sends (completes) the form; then that part is given back, and they keep their room in
 * the budget as any applicant's documents do.
 */
@Injectable()
export class UnsubmittedUploads {
  constructor(
    private readonly records: ApplicantDocumentsRepository,
    private readonly storage: DocumentStorageRepository,
  ) {}

  /**
   * The applicant of `subject` has completed its form. Called after its completion's claim: an
   * upload on its way is either listed here, or sees the claim once its record is in and goes
   * again with its room (DocumentsService).
   */
  async sent({ application, applicant }: FormSubject): Promise<void> {
    if (!startedOnPublicForm(application)) return;
    for (const document of await this.records.list({ applicationId: application.id, applicantId: applicant.id })) {
      await this.storage.sent(document.client_id, document.file_id);
    }
  }
}
