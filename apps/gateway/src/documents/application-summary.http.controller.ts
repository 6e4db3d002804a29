import { Controller, ForbiddenException, Get, Param, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import {
  answerWording,
  ApplicantRepresentation,
  applicationRefFromPath,
  ApplicationRefMessage,
  ApplicationResponse,
  DocumentListResponse,
  DOCUMENTS,
  ErrorCode,
  formatTimestamp,
  FORM_PRESET_PATTERNS,
  formPreset,
  FormPreset,
  FormPresetResponse,
  PROPERTIES,
  PropertyRepresentation,
  PropertyResponse,
  SealedSensitiveApplicant,
  SENSITIVE_DATA_SCOPE,
  SensitiveApplicantMessage,
  ServiceError,
  APPLICATIONS,
  DecisionListResponse,
} from '@app/contracts';
import { ApplicantSealer } from '@app/crypto';
import { BoundToMessage, SERVICE_UNAVAILABLE_MESSAGE } from '@app/messaging';
import { ApiKeyGuard, Credential } from '../auth/api-key.guard';
import { ApiCredential } from '../auth/api-keys';
import { readerOf } from '../auth/reader';
import { Backends } from '../backends/backends';
import { ApiErrorResponses, errorBody, REQUEST_ID } from '../openapi/api-responses';
import { APPLICATION_404 } from '../openapi/application-responses';
import { API_KEY_SCHEME } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { ApplicationSummary, SummaryAnswer, SummaryApplicant } from './summary-pdf';
import { SUMMARY_PDF_BUSY_MESSAGE, SummaryPdfRenderer } from './summary-pdf-renderer';
import { ApiPathId } from '../openapi/path-ids';

/** An applicant as read for the summary, before its answers are worded under the preset's questions. */
type ApplicantRead = Omit<SummaryApplicant, 'answers'>;

/** The applicant's answers under the preset's questions, in their order, worded as the form's review words them. */
function wordedAnswers(preset: FormPreset, applicant: ApplicantRepresentation): SummaryAnswer[] {
  const answers = applicant.form_answers ?? {};
  return preset.questions
    .filter((question) => answers[question.id] !== undefined)
    .map((question) => ({ label: question.label, wording: answerWording(question, answers[question.id]) }));
}

const SUMMARY_403 = {
  description: 'A key that API_KEY_SCOPES does not grant the sensitive_data scope: the summary holds applicants’ personal data.',
  examples: {
    scope: errorBody(
      'Scope missing',
      'summary.pdf needs the sensitive_data scope, which this API key does not have (API_KEY_SCOPES)',
    ),
  },
};

const SUMMARY_503 = {
  description:
    'A service, the broker or a database did not answer in time; or as many summaries as the gateway lays out at once ' +
    '(SUMMARY_PDF_WORKERS) and lets wait (SUMMARY_PDF_QUEUE) are under way, and nothing was read for this one. ' +
    'Retry after Retry-After seconds.',
  examples: {
    unavailable: errorBody('No answer in time', SERVICE_UNAVAILABLE_MESSAGE),
    busy: errorBody('Too many summaries at once', SUMMARY_PDF_BUSY_MESSAGE),
  },
};

/** The application as one PDF a landlord can print and file. */
@ApiTags('applications')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/applications/:id/summary.pdf')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class ApplicationSummaryHttpController {
  constructor(
    private readonly backends: Backends,
    private readonly sealer: ApplicantSealer,
    private readonly renderer: SummaryPdfRenderer,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'getApplicationSummaryPdf',
    summary: 'Print an application',
    description:
      'A PDF of the application: the property, every applicant and guarantor with their details and answers, their ' +
      'documents and each signed consent, the status, income to rent and every decision recorded; an SSN only as its ' +
      'last four digits. Only to a key granted the ' +
      'sensitive_data scope; each applicant’s sensitive data read for it is recorded (GET /api/v2/audit_events).',
  })
  @ApiPathId('id', 'The application’s id, a positive integer.')
  @ApiResponse({
    status: 200,
    description: 'The PDF.',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    headers: { ...REQUEST_ID, 'Cache-Control': { description: 'no-store', schema: { type: 'string' } } },
  })
  @ApiErrorResponses([401, 403, 404, 429, 503], { 403: SUMMARY_403, 404: APPLICATION_404, 503: SUMMARY_503 })
  async summary(
    @Credential() credential: ApiCredential,
    @Param('id') id: string,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const ref = applicationRefFromPath(credential.clientId, id);
    if (!credential.scopes.includes(SENSITIVE_DATA_SCOPE)) {
      throw new ForbiddenException(
        `summary.pdf needs the ${SENSITIVE_DATA_SCOPE} scope, which this API key does not have (API_KEY_SCOPES)`,
      );
    }
    const pdf = await this.renderer.render(() => this.read(credential, ref));
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="application-${ref.id}.pdf"`)
      .header('cache-control', 'no-store')
      .send(pdf);
  }

  /** Everything the summary prints: the application, its property, each applicant (read as its GET reads it, audited), every decision. */
  private async read(credential: ApiCredential, ref: ApplicationRefMessage): Promise<ApplicationSummary> {
    const { application } = await this.backends.applications<ApplicationResponse>(APPLICATIONS.GET, ref);
    const property = await this.backends
      .properties<PropertyResponse>(PROPERTIES.GET, { client_id: credential.clientId, id: application.property_id })
      .then(({ property: found }): PropertyRepresentation | null => found)
      .catch((error: unknown) => {
        if (error instanceof ServiceError && error.code === ErrorCode.PROPERTY_NOT_FOUND) return null;
        throw error;
      });
    const applicants: ApplicantRead[] = [];
    for (const { id: applicantId } of application.applicants) {
      applicants.push(await this.applicant(credential, application.id, applicantId));
    }
    const { decisions } = await this.backends.applications<DecisionListResponse>(APPLICATIONS.LIST_DECISIONS, ref);
    const preset = await this.preset(credential.clientId, property, applicants);
    return {
      application,
      property,
      applicants: applicants.map((read): SummaryApplicant => ({ ...read, answers: wordedAnswers(preset, read.applicant) })),
      decisions,
      generatedAt: formatTimestamp(new Date()),
    };
  }

  /**
   * The preset the answers were given to: the version a signed consent names (a client's preset
   * changed since still prints the questions as they were asked), else the property's current
   * one. A preset that is gone leaves the shipped one its id falls back to, as the form does.
   */
  private async preset(
    clientId: number,
    property: PropertyRepresentation | null,
    applicants: ApplicantRead[],
  ): Promise<FormPreset> {
    const signed = applicants.find(({ applicant }) => applicant.consent)?.applicant.consent;
    const id = signed?.form_preset_id ?? property?.form_preset_id;
    if (id === undefined) return formPreset(id);
    const ref = { client_id: clientId, id, ...(signed ? { version: signed.form_preset_version } : {}) };
    return this.backends
      .properties<FormPresetResponse>(FORM_PRESET_PATTERNS.GET, ref)
      .then(({ form_preset: found }) => found)
      .catch((error: unknown) => {
        if (error instanceof ServiceError && error.code === ErrorCode.NOT_FOUND) return formPreset(id);
        throw error;
      });
  }

  /** An applicant with its sensitive data (read as the applicant GET reads it, audited) and its documents. */
  private async applicant(credential: ApiCredential, applicationId: number, id: number): Promise<ApplicantRead> {
    const ref = { client_id: credential.clientId, application_id: applicationId, id };
    let messageId = '';
    const message = new BoundToMessage((bound): SensitiveApplicantMessage => {
      messageId = bound;
      return { ...ref, reader: { ...readerOf(credential), purpose: 'summary_pdf' } };
    });
    const answer = await this.backends.applications<SealedSensitiveApplicant>(APPLICATIONS.READ_SENSITIVE_DATA, message);
    const opened = this.sealer.openFromMessage(answer.sensitive_data.sealed, { clientId: credential.clientId, messageId });
    const { documents } = await this.backends.applications<DocumentListResponse>(DOCUMENTS.LIST, ref);
    return {
      applicant: answer.applicant,
      dob: typeof opened.dob === 'string' ? opened.dob : null,
      ssnLastFour: typeof opened.id_number === 'string' ? opened.id_number.slice(-4) : null,
      documents,
    };
  }
}
