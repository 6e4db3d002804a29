import { Readable } from 'node:stream';
import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import {
  AddDocumentMessage,
  DocumentListResponse,
  DOCUMENTS,
  FieldProblem,
  FormDocumentKind,
  MAX_DOCUMENTS_PER_APPLICANT,
} from '@app/contracts';
import { DocumentRefusal, DocumentUploads } from '@app/documents';
import { countDocument } from '@app/observability';
import { FormBackends } from '../backends/form-backends';
import { FormFlow, Iframe, OpenStep, Refusal } from '../form/form-flow';
import { FormBody } from '../questions/question-kinds';
import { nextStep, previousStep } from '../sections/steps';
import { documentKindLabels, missingDocuments } from './missing-documents';

/** The fields a browser sends before the file: the hidden ones and the kind. Anything else is ignored. */
const KNOWN_FIELDS = new Set(['csrf_token', 'website', 'kind']);

/**
 * The documents step: an applicant uploads what its preset asks for (`documents`), one file per
 * POST, as multipart/form-data that streams through the checks and the encryption into the
 * documents bucket (libs/documents) without ever being held whole. A plain file input posts it
 * without JavaScript; with JavaScript (documents.js) the page shows the upload's progress.
 */
@Controller()
export class DocumentsHttpController {
  constructor(
    private readonly flow: FormFlow,
    private readonly backends: FormBackends,
    private readonly vault: DocumentUploads,
  ) {}

  @Get('applicants/:token/documents')
  async show(@Param('token') token: string, @Iframe() iframe: boolean, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.page(reply, iframe, token, await this.flow.openStep(token, 'documents', iframe, 'GET'), {});
  }

  @Post('applicants/:token/documents')
  async upload(
    @Param('token') token: string,
    @Iframe() iframe: boolean,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    // The prelude first, as for every form POST (form-prelude.ts): a multipart body's fields come
    // before its file, so they are read, and the file left waiting, before any service is asked.
    await this.flow.countUpload(request);
    const { fields, file } = await readUpload(request);
    const body = await this.flow.submitted(request, `/applicants/${token}/documents`, fields).catch(discarding(file));
    const opened = await this.flow.openStep(token, 'documents', iframe, 'POST').catch(discarding(file));
    const { preset } = opened;
    const problems: FieldProblem[] = [];
    if (!preset.documents.some((asked) => asked.kind === body.kind)) {
      problems.push({ field: 'kind', message: 'must be one of the documents listed' });
    }
    if (!file) problems.push({ field: 'file', message: 'must be chosen' });
    const { documents } = await this.backends.applications<DocumentListResponse>(DOCUMENTS.FORM_LIST, opened.link);
    if (documents.length >= MAX_DOCUMENTS_PER_APPLICANT) {
      problems.push({
        field: 'file',
        message: `cannot be added: an applicant uploads at most ${MAX_DOCUMENTS_PER_APPLICANT} documents`,
      });
    }
    if (problems.length > 0 || !file) {
      file?.file.resume();
      return this.page(reply, iframe, token, opened, body, problems, 422);
    }
    const owner = { clientId: opened.applicant.client_id, applicantId: opened.applicant.applicant_id };
    const stored = await this.vault.store(file.file, owner).catch((error: unknown) => {
      if (error instanceof DocumentRefusal) return error;
      if (request.raw.readableAborted || request.raw.destroyed) throw CUT_OFF;
      throw error;
    });
    if (stored instanceof DocumentRefusal) {
      countDocument('refused', stored.code);
      return this.page(reply, iframe, token, opened, body, [{ field: 'file', message: stored.message }], 422);
    }
    const message: AddDocumentMessage = {
      ...opened.link,
      document: {
        file_id: stored.file_id,
        kind: body.kind as FormDocumentKind,
        file_name: file.filename,
        content_type: stored.content_type,
        size: stored.size,
        sha256: stored.sha256,
      },
      submission: body.nonce,
    };
    // Refused, or not answered in time, the file stays without a record: the form may remove
    // nothing, and the applications service's sweep removes files that no record names.
    await this.backends.applications(DOCUMENTS.ADD, message);
    countDocument('stored');
    return this.flow.pages.redirect(reply, this.flow.stepUrl(token, 'documents', iframe), iframe);
  }

  private async page(
    reply: FastifyReply,
    iframe: boolean,
    token: string,
    opened: OpenStep,
    values: FormBody,
    problems: FieldProblem[] = [],
    status = 200,
  ): Promise<FastifyReply> {
    const { preset, property, link } = opened;
    const { documents } = await this.backends.applications<DocumentListResponse>(DOCUMENTS.FORM_LIST, link);
    const action = `/applicants/${token}/documents`;
    return this.flow.pages.send(reply, status, 'documents', {
      ...this.flow.frame('Your documents', iframe, opened, 'documents', problems),
      property,
      values: { kind: values.kind ?? '' },
      requested: preset.documents,
      documents,
      missing: missingDocuments(preset, documents),
      full: documents.length >= MAX_DOCUMENTS_PER_APPLICANT,
      kindLabels: documentKindLabels,
      sizeText,
      action: iframe ? `${action}?iframe=true` : action,
      next: this.flow.stepUrl(token, nextStep(opened.steps, 'documents'), iframe),
      back: this.flow.stepUrl(token, previousStep(opened.steps, 'documents'), iframe),
      csrf: this.flow.csrf.issue(action),
    });
  }
}

const CUT_OFF = new Refusal(400, 'Upload interrupted', 'The file did not arrive whole, so nothing was kept. Try again.');

/**
 * The fields sent before the file, and the file itself as a stream not yet read (the page sends
 * the fields first). A body that is not multipart, or breaks the parser's limits, is refused.
 */
async function readUpload(
  request: FastifyRequest,
): Promise<{ fields: FormBody; file: (MultipartFile & { file: Readable }) | null }> {
  if (!request.isMultipart()) throw new Refusal(415, 'Not accepted', 'Send the file with the upload form on this page.');
  const fields: FormBody = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') return { fields, file: part };
      if (KNOWN_FIELDS.has(part.fieldname) && typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      throw new Refusal(status, 'Not accepted', 'This upload could not be read. Go back and try again.');
    }
    throw error;
  }
  return { fields, file: null };
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Rethrows a refusal once the file the refused upload was sending is drained, not held open. */
function discarding(file: { file: NodeJS.ReadableStream } | null | undefined): (error: unknown) => never {
  return (error: unknown) => {
    file?.file.resume();
    throw error;
  };
}
