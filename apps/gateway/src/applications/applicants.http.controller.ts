import {
  Body,
  Controller,
  Delete,
  ForbiddenException,
  Get,
  HttpCode,
  Param,
  Patch,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import {
  applicantIncludeFromQuery,
  applicantRefFromPath,
  ApplicantRepresentation,
  ApplicantResponse,
  ApplicantWithSensitiveDataResponse,
  APPLICATIONS,
  ContractPipe,
  PlainTextPipe,
  entityTag,
  RemoveApplicantMessage,
  SealedSensitiveApplicant,
  SENSITIVE_DATA_SCOPE,
  SensitiveApplicantMessage,
  tagListMatches,
  UpdateApplicantMessage,
  UpdateApplicantRequest,
} from '@app/contracts';
import { ApplicantSealer, SEALED_APPLICANT_FIELDS } from '@app/crypto';
import { BoundToMessage } from '@app/messaging';
import { ApiKeyGuard, ClientId, Credential } from '../auth/api-key.guard';
import { ApiCredential } from '../auth/api-keys';
import { readerOf } from '../auth/reader';
import { Backends } from '../backends/backends';
import { IfMatch } from '../http/if-match.decorator';
import { ApiErrorResponses, ApiSuccess, REQUEST_ID } from '../openapi/api-responses';
import {
  APPLICANT_404,
  APPLICANT_PATCH_422,
  APPLICANT_REMOVE_422,
  SENSITIVE_DATA_403,
  SENSITIVE_QUERY_422,
} from '../openapi/applicant-responses';
import { IF_MATCH_HEADER } from '../openapi/conditional-requests';
import { API_KEY_SCHEME } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { APPLICANT_PARAMS } from '../openapi/path-ids';

const ETAG = {
  ETag: {
    description: 'The entity tag of the representation (without its sensitive_data), for If-None-Match and If-Match.',
    schema: { type: 'string' },
  },
};

/** One applicant of an application: read (with its sensitive data, for a key with the scope), correct, remove. */
@ApiTags('applications')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/applications/:application_id/applicants/:id')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class ApplicantsHttpController {
  constructor(
    private readonly backends: Backends,
    private readonly sealer: ApplicantSealer,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'getApplicant',
    summary: 'Get an applicant',
    description:
      'The applicant’s record (an application’s applicants[].api_url). Its date of birth and SSN only with ' +
      '?include=sensitive_data, to a key granted the sensitive_data scope (API_KEY_SCOPES): such an answer is ' +
      'Cache-Control: no-store, has no 304, and the read is recorded (GET /api/v2/audit_events).',
  })
  @APPLICANT_PARAMS
  @ApiQuery({
    name: 'include',
    required: false,
    enum: [SENSITIVE_DATA_SCOPE],
    description: 'Adds sensitive_data: dob and id_number.',
  })
  @ApiHeader({
    name: 'If-None-Match',
    required: false,
    description: 'Entity tags from earlier reads; when one is current the answer is 304 with no body (not with include).',
  })
  @ApiResponse({
    status: 200,
    type: ApplicantWithSensitiveDataResponse,
    description: 'The applicant.',
    headers: { ...REQUEST_ID, ...ETAG },
  })
  @ApiResponse({ status: 304, description: 'Not modified: If-None-Match names the current entity tag.', headers: ETAG })
  @ApiErrorResponses([401, 403, 404, 422, 429, 503], { 403: SENSITIVE_DATA_403, 404: APPLICANT_404, 422: SENSITIVE_QUERY_422 })
  async get(
    @Credential() credential: ApiCredential,
    @Param('application_id') applicationId: string,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ApplicantResponse | undefined> {
    const ref = applicantRefFromPath(credential.clientId, applicationId, id);
    const { sensitiveData } = applicantIncludeFromQuery(query);
    if (!sensitiveData) {
      const answer = await this.backends.applications<ApplicantResponse>(APPLICATIONS.GET_APPLICANT, ref);
      const tag = entityTag(answer.applicant);
      reply.header('etag', tag);
      const ifNoneMatch = request.headers['if-none-match'];
      if (typeof ifNoneMatch !== 'string' || !tagListMatches(ifNoneMatch, tag)) return answer;
      reply.status(304);
      return undefined;
    }
    if (!credential.scopes.includes(SENSITIVE_DATA_SCOPE)) {
      throw new ForbiddenException(
        `include=sensitive_data needs the ${SENSITIVE_DATA_SCOPE} scope, which this API key does not have (API_KEY_SCOPES)`,
      );
    }
    // The answer is sealed for this message, as requests' sensitive fields are: the reply crosses the broker.
    let messageId = '';
    const message = new BoundToMessage((id): SensitiveApplicantMessage => {
      messageId = id;
      return { ...ref, reader: readerOf(credential) };
    });
    const answer = await this.backends.applications<SealedSensitiveApplicant>(APPLICATIONS.READ_SENSITIVE_DATA, message);
    const opened = this.sealer.openFromMessage(answer.sensitive_data.sealed, { clientId: credential.clientId, messageId });
    reply.header('cache-control', 'no-store');
    reply.header('etag', entityTag(answer.applicant));
    // Named in order, each null when the applicant did not give it.
    const sensitive_data = Object.fromEntries([...SEALED_APPLICANT_FIELDS].sort().map((field) => [field, opened[field] ?? null]));
    return { applicant: { ...answer.applicant, sensitive_data } as ApplicantRepresentation };
  }

  @Patch()
  @ApiOperation({
    operationId: 'updateApplicant',
    summary: 'Correct an applicant',
    description:
      'Corrects the contact details (first_name, last_name, email, phone), reference_id and custom_data; a field ' +
      'left out keeps its value. Not type, dob or id_number. Changes made at the same time are all kept.',
  })
  @APPLICANT_PARAMS
  @IF_MATCH_HEADER
  @ApiSuccess(200, ApplicantResponse, 'The applicant as corrected.')
  @ApiErrorResponses([400, 401, 404, 412, 413, 415, 422, 429, 503], { 404: APPLICANT_404, 422: APPLICANT_PATCH_422 })
  update(
    @ClientId() clientId: number,
    @Param('application_id') applicationId: string,
    @Param('id') id: string,
    @Body(new ContractPipe(UpdateApplicantRequest), new PlainTextPipe(['applicant.first_name', 'applicant.last_name']))
    request: UpdateApplicantRequest,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<ApplicantResponse> {
    const message: UpdateApplicantMessage = { ...applicantRefFromPath(clientId, applicationId, id), request, if_match: ifMatch };
    return this.backends.applications(APPLICATIONS.UPDATE_APPLICANT, message);
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'removeApplicant',
    summary: 'Remove a co-applicant or guarantor',
    description:
      'Removes the applicant from its application; its form link stops working. The primary applicant cannot be removed (422).',
  })
  @APPLICANT_PARAMS
  @IF_MATCH_HEADER
  @ApiSuccess(200, ApplicantResponse, 'The representation the applicant had.')
  @ApiErrorResponses([401, 404, 412, 422, 429, 503], { 404: APPLICANT_404, 422: APPLICANT_REMOVE_422 })
  remove(
    @ClientId() clientId: number,
    @Param('application_id') applicationId: string,
    @Param('id') id: string,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<ApplicantResponse> {
    const message: RemoveApplicantMessage = { ...applicantRefFromPath(clientId, applicationId, id), if_match: ifMatch };
    return this.backends.applications(APPLICATIONS.REMOVE_APPLICANT, message);
  }
}
