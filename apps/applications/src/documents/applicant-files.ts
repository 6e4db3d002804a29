import { Injectable } from '@nestjs/common';
import { DocumentVault } from '@app/documents';
import { ApplicantDocuments, DocumentSubject } from './applicant-documents';
import { DocumentStorage } from './document-storage';

/** Takes away all of an applicant's documents: their records, their files and chunks, and their room in the budget. */
@Injectable()
export class ApplicantFiles {
  constructor(
    private readonly records: ApplicantDocuments,
    private readonly vault: DocumentVault,
    private readonly storage: DocumentStorage,
  ) {}

  /** Removes every document of the applicant; done again, it finishes what a stopped one left. How many went. */
  removeAll(subject: DocumentSubject): Promise<number> {
    return this.records.eraseAll(subject, async (document) => {
      await this.vault.remove(document.file_id);
      // Done again if the removal stops before the record goes: the room is then given back twice.
      await this.storage.giveBack(document.client_id, document.file_id, document.size);
    });
  }
}
