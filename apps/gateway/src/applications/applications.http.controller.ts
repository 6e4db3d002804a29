import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  AddApplicantMessage,
  AddApplicantRequest,
  ApplicantResponse,
  APPLICATION_STATUSES,
  ApplicationListResponse,
  applicationRefFromPath,
  ApplicationResponse,
  APPLICATIONS,
  ARCHIVED_FILTERS,
  ContractPipe,
  PlainTextPipe,
  CreateApplicationMessage,
  CreateApplicationRequest,
  ErasePersonalDataMessage,
  FORM_STATUSES,
  listApplicationsFromQuery,
  PERSONAL_DATA_ERASURE_SCOPE,
  UpdateApplicationMessage,
  UpdateApplicationRequest,
} from '@app/contracts';
import { ApplicantSealer } from '@app/crypto';
import { BoundToMessage } from '@app/messaging';
import { ApiKeyGuard, ClientId, Credential } from '../auth/api-key.guard';
import { ApiCredential } from '../auth/api-keys';
import { readerOf } from '../auth/reader';
import { ScopeGuard } from '../auth/scope.guard';
import { Backends } from '../backends/backends';
import { EntityTagInterceptor } from '../http/entity-tag.interceptor';
import { IdempotencyFields, IdempotencyKey } from '../http/idempotency-key.decorator';
import { IfMatch } from '../http/if-match.decorator';
import { APPLICATION_422, ApiErrorResponses, ApiSuccess } from '../openapi/api-responses';
import {
  APPLICANT_422,
  APPLICANT_ADD_409,
  APPLICATION_404,
  APPLICATION_UPDATE_422,
  ApiTaggedResource,
  personalDataErasure403,
  LIST_422,
} from '../openapi/application-responses';
import { IF_MATCH_HEADER } from '../openapi/conditional-requests';
import { API_KEY_SCHEME, IDEMPOTENCY_KEY_HEADER } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { ApiPathId } from '../openapi/path-ids';
import { ApiPageQueries } from '../openapi/page-queries';

const ERASING = 'erasing personal data';
const APPLICATION_ID = (name: string) => ApiPathId(name, 'The application’s id, a positive integer.');

@ApiTags('applications')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/applications')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class ApplicationsHttpController {
  constructor(
    private readonly backends: Backends,
    private readonly sealer: ApplicantSealer,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createApplication',
    summary: 'Create an application',
    description: 'Creates an application to a live property of the caller’s, and its first, primary applicant.',
  })
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiSuccess(201, ApplicationResponse, 'The application as created.')
  @ApiErrorResponses([400, 401, 409, 413, 415, 422, 429, 503], { 422: APPLICATION_422 })
  create(
    @ClientId() clientId: number,
    @Body(
      new ContractPipe(CreateApplicationRequest),
      new PlainTextPipe(['application.applicant.first_name', 'application.applicant.last_name']),
    )
    request: CreateApplicationRequest,
    @IdempotencyKey() idempotency: IdempotencyFields,
  ): Promise<ApplicationResponse> {
    // The applicant's id_number and dob leave this process only sealed, for this client and message.
    const message = new BoundToMessage((messageId): CreateApplicationMessage => ({
      client_id: clientId,
      ...this.sealer.seal(request, { clientId, messageId }),
      ...idempotency,
    }));
    return this.backends.applications(APPLICATIONS.CREATE, message);
  }

  @Get()
  @ApiOperation({
    operationId: 'listApplications',
    summary: 'List applications',
    description: 'The caller’s applications, newest first, a page at a time; of one property when property_id is given.',
  })
  @ApiQuery({
    name: 'property_id',
    required: false,
    schema: { type: 'integer', minimum: 1 },
    description: 'Only applications to this property.',
    example: 1,
  })
  @ApiPageQueries('Applications')
  @ApiQuery({
    name: 'archived',
    required: false,
    enum: ARCHIVED_FILTERS,
    description: 'false (the default): archived applications are left out; true: only those; all: both.',
  })
  @ApiQuery({
    name: 'form_status',
    required: false,
    enum: FORM_STATUSES,
    description: 'Only applications whose primary applicant’s form_status is this.',
  })
  @ApiQuery({
    name: 'assigned_user_id',
    required: false,
    schema: { type: 'integer', minimum: 1 },
    description: 'Only applications assigned to this user.',
  })
  @ApiQuery({
    name: 'updated_since',
    required: false,
    schema: { type: 'string' },
    description:
      'Only applications with updated_at at or after this ISO 8601 timestamp (encode + as %2B) or date (YYYY-MM-DD, ' +
      'midnight UTC): pass the latest updated_at seen to sync. A page reads at most 500 list positions, so with a ' +
      'filter few applications pass it may be short, or empty, and still have a next_cursor.',
    example: '2026-11-22T14:03:09+00:00',
  })
  @ApiQuery({
    name: 'status',
    required: false,
    enum: APPLICATION_STATUSES,
    description: 'Only applications whose status is this: draft, submitted, or the current decision’s.',
  })
  @ApiQuery({
    name: 'income_to_rent_min',
    required: false,
    schema: { type: 'string', pattern: '^\\d{1,4}(\\.\\d{1,2})?$' },
    description:
      'Only applications whose household income_to_rent is at least this (0 to 1000, two decimals at most); those without one are left out.',
    example: '3',
  })
  @ApiSuccess(200, ApplicationListResponse, 'A page of applications, and the cursor of the next one.')
  @ApiErrorResponses([401, 422, 429, 503], { 422: LIST_422 })
  list(@ClientId() clientId: number, @Query() query: Record<string, unknown>): Promise<ApplicationListResponse> {
    return this.backends.applications(APPLICATIONS.LIST, listApplicationsFromQuery(clientId, query));
  }

  @Get(':id')
  @UseInterceptors(EntityTagInterceptor)
  @ApiOperation({ operationId: 'getApplication', summary: 'Get an application', description: 'With all its applicants.' })
  @APPLICATION_ID('id')
  @ApiTaggedResource(ApplicationResponse, 'The application.')
  @ApiErrorResponses([401, 404, 429, 503], { 404: APPLICATION_404 })
  get(@ClientId() clientId: number, @Param('id') id: string): Promise<ApplicationResponse> {
    return this.backends.applications(APPLICATIONS.GET, applicationRefFromPath(clientId, id));
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateApplication',
    summary: 'Change an application',
    description:
      'Changes the fields given, each checked; the rest keep their values. archived: true archives it, false ' +
      'restores it. Changes made at the same time are all kept. Publishes application.updated (naming the ' +
      'changed fields), application.archived or application.restored.',
  })
  @APPLICATION_ID('id')
  @IF_MATCH_HEADER
  @ApiSuccess(200, ApplicationResponse, 'The application as changed.')
  @ApiErrorResponses([400, 401, 404, 412, 413, 415, 422, 429, 503], { 404: APPLICATION_404, 422: APPLICATION_UPDATE_422 })
  update(
    @ClientId() clientId: number,
    @Param('id') id: string,
    @Body(new ContractPipe(UpdateApplicationRequest)) request: UpdateApplicationRequest,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<ApplicationResponse> {
    const message: UpdateApplicationMessage = { ...applicationRefFromPath(clientId, id), request, if_match: ifMatch };
    return this.backends.applications(APPLICATIONS.UPDATE, message);
  }

  @Delete(':id/personal_data')
  @ApiOperation({
    operationId: 'erasePersonalData',
    summary: 'Erase the applicants’ personal data',
    description:
      'Erases, at once and for good, the personal data of the application’s applicants, as an applicant may ask: ' +
      'identity numbers, dates of birth, documents (and their files), addresses, employment and income, the rest of ' +
      'the form’s sections and the answers to its questions. The application keeps its decisions, its dates, the ' +
      'applicants’ names and contact details and their consent, and shows personal_data_erased_at; each applicant ' +
      'gets a personal_data.erased audit event naming this key. Needs a key with the personal_data_erasure scope. Its form takes no more answers and no applicant can ' +
      'be added to it. Asked again, it answers the same and erases nothing more. Decided applications are erased ' +
      'without asking once the client’s retention period has passed (PUT /api/v2/retention_settings), and those a ' +
      'visitor started on the public form and nobody completed once ABANDONED_FORM_DAYS pass without a change.',
  })
  @UseGuards(new ScopeGuard(PERSONAL_DATA_ERASURE_SCOPE, ERASING))
  @APPLICATION_ID('id')
  @ApiSuccess(200, ApplicationResponse, 'The application as it is now, personal_data_erased_at set.')
  @ApiErrorResponses([401, 403, 404, 429, 503], { 403: personalDataErasure403(ERASING), 404: APPLICATION_404 })
  erasePersonalData(@Credential() credential: ApiCredential, @Param('id') id: string): Promise<ApplicationResponse> {
    const message: ErasePersonalDataMessage = {
      ...applicationRefFromPath(credential.clientId, id),
      requester: readerOf(credential),
    };
    return this.backends.applications(APPLICATIONS.ERASE_PERSONAL_DATA, message);
  }

  @Post(':application_id/applicants')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'addApplicant',
    summary: 'Add a co-applicant',
    description:
      'Adds a co-applicant to an application of the caller’s, under the rules of the primary applicant; the ' +
      'application’s applicants then list it.',
  })
  @APPLICATION_ID('application_id')
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiSuccess(201, ApplicantResponse, 'The co-applicant as added.')
  @ApiErrorResponses([400, 401, 404, 409, 413, 415, 422, 429, 503], {
    404: APPLICATION_404,
    409: APPLICANT_ADD_409,
    422: APPLICANT_422,
  })
  addApplicant(
    @ClientId() clientId: number,
    @Param('application_id') applicationId: string,
    @Body(new ContractPipe(AddApplicantRequest), new PlainTextPipe(['applicant.first_name', 'applicant.last_name']))
    request: AddApplicantRequest,
    @IdempotencyKey() idempotency: IdempotencyFields,
  ): Promise<ApplicantResponse> {
    const { id } = applicationRefFromPath(clientId, applicationId);
    // As on create: the co-applicant's id_number and dob leave this process only sealed.
    const message = new BoundToMessage((messageId): AddApplicantMessage => ({
      client_id: clientId,
      application_id: id,
      ...this.sealer.sealCoApplicant(request, { clientId, messageId }),
      ...idempotency,
    }));
    return this.backends.applications(APPLICATIONS.ADD_APPLICANT, message);
  }
}
