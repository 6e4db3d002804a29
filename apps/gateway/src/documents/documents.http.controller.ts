import { Controller, ForbiddenException, Get, Param, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import {
  applicantRefFromPath,
  ListDocumentsMessage,
  attachmentDisposition,
  DocumentListResponse,
  DocumentLocation,
  documentIdFromPath,
  DOCUMENTS,
  ReadDocumentMessage,
  SENSITIVE_DATA_SCOPE,
  ServiceError,
} from '@app/contracts';
import { UnknownKeyError } from '@app/crypto';
import { DocumentVault } from '@app/documents';
import { ApiKeyGuard, Credential } from '../auth/api-key.guard';
import { ApiCredential } from '../auth/api-keys';
import { readerOf } from '../auth/reader';
import { Backends } from '../backends/backends';
import { ApiErrorResponses, ApiSuccess, errorBody, REQUEST_ID } from '../openapi/api-responses';
import { APPLICANT_404 } from '../openapi/applicant-responses';
import { API_KEY_SCHEME } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { APPLICANT_PARAMS, ApiPathId } from '../openapi/path-ids';

export const DOCUMENTS_403 = {
  description: 'A key that API_KEY_SCOPES does not grant the sensitive_data scope: documents are sensitive data.',
  examples: {
    scope: errorBody(
      'Scope missing',
      'documents need the sensitive_data scope, which this API key does not have (API_KEY_SCOPES)',
    ),
  },
};

const DOCUMENT_404 = {
  description: `${APPLICANT_404.description} Or the document id names none of the applicant’s documents.`,
  examples: { ...APPLICANT_404.examples, document: errorBody('No such document', 'document 3 cannot be found') },
};

/** A document whose data key is sealed under a key FIELD_ENCRYPTION_KEYS no longer holds. */
export function documentKeyMissing(documentId: number, keyId: string): ServiceError {
  return ServiceError.conflict(
    `document ${documentId} cannot be opened: its key is sealed under key id ${JSON.stringify(keyId)}, which ` +
      'FIELD_ENCRYPTION_KEYS no longer holds; it opens again once that key is back in the ring',
  );
}

/**
 * The documents an applicant uploaded on the form: listed, and downloaded. Both are sensitive
 * data (the scope rule of the applicant GET); the bytes stream from the documents bucket through
 * the decryption to the client, never whole in memory, and every download is an audit event.
 */
@ApiTags('applications')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/applications/:application_id/applicants/:id/documents')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class DocumentsHttpController {
  constructor(
    private readonly backends: Backends,
    private readonly vault: DocumentVault,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listApplicantDocuments',
    summary: 'List an applicant’s documents',
    description:
      'The documents the applicant uploaded on the form (photo ID, proof of income...), oldest first. Only to a key ' +
      'granted the sensitive_data scope (API_KEY_SCOPES); the answer is Cache-Control: no-store.',
  })
  @APPLICANT_PARAMS
  @ApiSuccess(200, DocumentListResponse, 'The applicant’s documents.')
  @ApiErrorResponses([401, 403, 404, 429, 503], { 403: DOCUMENTS_403, 404: APPLICANT_404 })
  async list(
    @Credential() credential: ApiCredential,
    @Param('application_id') applicationId: string,
    @Param('id') id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DocumentListResponse> {
    const ref = applicantRefFromPath(credential.clientId, applicationId, id);
    requireScope(credential);
    reply.header('cache-control', 'no-store');
    const message: ListDocumentsMessage = { ...ref, reader: readerOf(credential) };
    return this.backends.applications<DocumentListResponse>(DOCUMENTS.LIST, message);
  }

  @Get(':document_id/content')
  @ApiOperation({
    operationId: 'downloadApplicantDocument',
    summary: 'Download a document',
    description:
      'The document’s bytes as uploaded (their SHA-256 is the listed sha256), with its Content-Type, as an attachment, ' +
      'Cache-Control: no-store. Only to a key granted the sensitive_data scope; each download is recorded ' +
      '(GET /api/v2/audit_events).',
  })
  @APPLICANT_PARAMS
  @ApiPathId('document_id', 'The document’s id, a positive integer.', 3)
  @ApiResponse({
    status: 200,
    description: 'The bytes.',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'image/jpeg': { schema: { type: 'string', format: 'binary' } },
      'image/png': { schema: { type: 'string', format: 'binary' } },
    },
    headers: {
      ...REQUEST_ID,
      'Content-Disposition': {
        description: 'attachment, with the file name (ASCII in filename, UTF-8 in filename*).',
        schema: { type: 'string' },
      },
      'Cache-Control': { description: 'no-store', schema: { type: 'string' } },
    },
  })
  @ApiErrorResponses([401, 403, 404, 429, 503], { 403: DOCUMENTS_403, 404: DOCUMENT_404 })
  async content(
    @Credential() credential: ApiCredential,
    @Param('application_id') applicationId: string,
    @Param('id') id: string,
    @Param('document_id') documentId: string,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const ref = applicantRefFromPath(credential.clientId, applicationId, id);
    const message: ReadDocumentMessage = {
      ...ref,
      document_id: documentIdFromPath(documentId),
      reader: readerOf(credential),
    };
    requireScope(credential);
    const { document, file_id } = await this.backends.applications<DocumentLocation>(DOCUMENTS.READ, message);
    const bytes = await this.vault
      .open(file_id, { clientId: credential.clientId, applicantId: ref.id })
      .catch((error: unknown) => {
        // An operator removed the key that seals this file from FIELD_ENCRYPTION_KEYS: say so, not a bare 500.
        if (error instanceof UnknownKeyError) throw documentKeyMissing(document.id, error.keyId);
        throw error;
      });
    return reply
      .header('content-type', document.content_type)
      .header('content-length', String(document.size))
      .header('content-disposition', attachmentDisposition(document.file_name, document.content_type))
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  }
}

function requireScope(credential: ApiCredential): void {
  if (!credential.scopes.includes(SENSITIVE_DATA_SCOPE)) {
    throw new ForbiddenException(
      `documents need the ${SENSITIVE_DATA_SCOPE} scope, which this API key does not have (API_KEY_SCOPES)`,
    );
  }
}
