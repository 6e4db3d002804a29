import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import {
  AddDocumentMessage,
  DocumentListResponse,
  DOCUMENTS,
  ErrorCode,
  FieldProblem,
  FormDocumentKind,
  MAX_DOCUMENTS_PER_APPLICANT,
  ServiceError,
} from '@app/contracts';
import { DocumentRefusal, DocumentVault } from '@app/documents';
import { FormBackends } from '../backends/form-backends';
import { FormBody, FormGate, OpenedApplicant, Redirect, Refusal } from '../form/form-gate';
import { VIEWS_DIR } from '../form/pages';
import { FormPresetSource } from '../form/preset-source';
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
  private readonly script = readFileSync(join(VIEWS_DIR, 'documents.js'), 'utf8');

  constructor(
    private readonly gate: FormGate,
    private readonly backends: FormBackends,
    private readonly vault: DocumentVault,
    private readonly presets: FormPresetSource,
  ) {}

  @Get('documents.js')
  documentsScript(@Res() reply: FastifyReply): FastifyReply {
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(this.script);
  }

  @Get('applicants/:token/documents')
  async show(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.gate.answer(reply, iframe, async () => this.page(reply, iframe, token, await this.open(token, iframe), {}));
  }

  @Post('applicants/:token/documents')
  async upload(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.gate.answer(reply, iframe, async () => {
      const opened = await this.open(token, iframe);
      const { fields, file } = await readUpload(request);
      const body = this.gate.submitted(request, `/applicants/${token}/documents`, fields);
      const preset = await this.presets.find(opened.property);
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
      await this.backends.applications(DOCUMENTS.ADD, message).catch(async (error: unknown) => {
        // Refused, the file goes; not answered in time, it may have been kept, and stays.
        if (!(error instanceof ServiceError && error.code === ErrorCode.SERVICE_UNAVAILABLE))
          await this.vault.remove(stored.file_id);
        throw error;
      });
      return this.gate.pages.redirect(reply, documentsUrl(token, iframe), iframe);
    });
  }

  /** The applicant, while its form is open: a completed one is sent to its confirmation, one not started to step 1. */
  private async open(token: string, iframe: boolean): Promise<OpenedApplicant> {
    const opened = await this.gate.openApplicant(token);
    const suffix = iframe ? '?iframe=true' : '';
    if (opened.applicant.form_status === 'completed') throw new Redirect(`/applicants/${token}/done${suffix}`);
    if (opened.applicant.form_status === 'not_started') throw new Redirect(`/applicants/${token}${suffix}`);
    return opened;
  }

  private async page(
    reply: FastifyReply,
    iframe: boolean,
    token: string,
    { property, link }: OpenedApplicant,
    values: FormBody,
    problems: FieldProblem[] = [],
    status = 200,
  ): Promise<FastifyReply> {
    const preset = await this.presets.find(property);
    const { documents } = await this.backends.applications<DocumentListResponse>(DOCUMENTS.FORM_LIST, link);
    const action = `/applicants/${token}/documents`;
    return this.gate.pages.send(reply, status, 'documents', {
      title: 'Your documents',
      iframe,
      problems,
      property,
      values: { kind: values.kind ?? '' },
      requested: preset.documents,
      documents,
      missing: missingDocuments(preset, documents),
      full: documents.length >= MAX_DOCUMENTS_PER_APPLICANT,
      kindLabels: documentKindLabels,
      sizeText,
      action: iframe ? `${action}?iframe=true` : action,
      next: `/applicants/${token}/finish${iframe ? '?iframe=true' : ''}`,
      csrf: this.gate.csrf.issue(action),
    });
  }
}

const CUT_OFF = new Refusal(400, 'Upload interrupted', 'The file did not arrive whole, so nothing was kept. Try again.');

function documentsUrl(token: string, iframe: boolean): string {
  return `/applicants/${token}/documents${iframe ? '?iframe=true' : ''}`;
}

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
