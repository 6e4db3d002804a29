import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApplicationResponse,
  APPLICATIONS,
  ContractPipe,
  CreateApplicationMessage,
  CreateApplicationRequest,
} from '@app/contracts';
import { ApplicantSealer } from '@app/crypto';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { IdempotencyKey } from '../http/idempotency-key.decorator';
import { APPLICATION_422, ApiErrorResponses, ApiSuccess } from '../openapi/api-responses';
import { API_KEY_SCHEME, IDEMPOTENCY_KEY_HEADER } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

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
    @Body(new ContractPipe(CreateApplicationRequest)) request: CreateApplicationRequest,
    @IdempotencyKey() idempotencyKey: string | undefined,
  ): Promise<ApplicationResponse> {
    // The applicant's id_number and dob leave this process only sealed.
    const message: CreateApplicationMessage = {
      client_id: clientId,
      ...this.sealer.seal(request),
      idempotency_key: idempotencyKey,
    };
    return this.backends.applications(APPLICATIONS.CREATE, message);
  }
}
