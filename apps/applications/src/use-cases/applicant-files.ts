import { Injectable } from '@nestjs/common';
import { DocumentVault } from '@app/documents';
import { ApplicantDocumentsRepository, DocumentSubject } from '../store/applicant-documents.repository';
import { DocumentStorageRepository } from '../store/document-storage.repository';

/** Takes away all of an applicant's documents: their records, their files and chunks, and their room in the budget. */
@Injectable()
export class ApplicantFiles {
  constructor(
    private readonly records: ApplicantDocumentsRepository,
    private readonly vault: DocumentVault,
    private readonly storage: DocumentStorageRepository,
  ) {}

  /**
   * Removes every document of the applicant; done again, or at the same time, it finishes what a
   * stopped one left, and each file's room goes back to the budget once. How many there were.
   */
  removeAll(subject: DocumentSubject): Promise<number> {
    return this.records.eraseAll(subject, async (document) => {
      await this.vault.remove(document.file_id);
      await this.storage.giveBack(document.client_id, document.file_id, document.size);
    });
  }
}
