import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AddDocumentMessage,
  ListDocumentsMessage,
  DocumentListResponse,
  DocumentLocation,
  DocumentRepresentation,
  DOCUMENTS,
  FormTokenMessage,
  readApplicantRef,
  readDocumentId,
  ReadDocumentMessage,
  readSensitiveReader,
  readStoredDocument,
} from '@app/contracts';
import { DocumentsService } from '../use-cases/documents.service';
import { readLink, readSubmission } from './form-messages';

@Controller()
export class DocumentsMessageController {
  constructor(private readonly documents: DocumentsService) {}

  @MessagePattern(DOCUMENTS.FORM_LIST)
  async listForForm(@Payload() message: FormTokenMessage): Promise<DocumentListResponse> {
    return { documents: await this.documents.listForForm(readLink(message)) };
  }

  @MessagePattern(DOCUMENTS.ADD)
  add(@Payload() message: AddDocumentMessage): Promise<DocumentRepresentation> {
    return this.documents.add(readLink(message), readStoredDocument(message), readSubmission(message));
  }

  @MessagePattern(DOCUMENTS.LIST)
  async list(@Payload() message: ListDocumentsMessage): Promise<DocumentListResponse> {
    const { clientId, applicationId, id } = readApplicantRef(message);
    const reader = message.reader === undefined ? undefined : readSensitiveReader({ ...message, reader: message.reader });
    return { documents: await this.documents.list(clientId, applicationId, id, reader) };
  }

  @MessagePattern(DOCUMENTS.READ)
  read(@Payload() message: ReadDocumentMessage): Promise<DocumentLocation> {
    const { clientId, applicationId, id } = readApplicantRef(message);
    return this.documents.read(clientId, applicationId, id, readDocumentId(message), readSensitiveReader(message));
  }
}
