import { Body, Controller, Get, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  APPLICATIONS,
  ClientScoped,
  ContractPipe,
  DEFAULT_PERSONAL_DATA_DAYS,
  PERSONAL_DATA_ERASURE_SCOPE,
  PutRetentionSettingsMessage,
  PutRetentionSettingsRequest,
  RETENTION_SHORTENING_DELAY_DAYS,
  RetentionSettingsResponse,
} from '@app/contracts';
import { ApiKeyGuard, ClientId, Credential } from '../auth/api-key.guard';
import { ApiCredential } from '../auth/api-keys';
import { readerOf } from '../auth/reader';
import { ScopeGuard } from '../auth/scope.guard';
import { Backends } from '../backends/backends';
import { ApiErrorResponses, ApiSuccess } from '../openapi/api-responses';
import { personalDataErasure403 } from '../openapi/application-responses';
import { API_KEY_SCHEME } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

/**
 * How long the caller's decided and withdrawn applications keep their applicants' personal data;
 * the applications service, which erases it, keeps the setting.
 */
const CHANGING = 'changing the retention settings';

@ApiTags('applications')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/retention_settings')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class RetentionSettingsHttpController {
  constructor(private readonly backends: Backends) {}

  @Get()
  @ApiOperation({
    operationId: 'getRetentionSettings',
    summary: 'Get the retention settings',
    description:
      `How long a decided or withdrawn application keeps its applicants’ personal data: ${DEFAULT_PERSONAL_DATA_DAYS} ` +
      'days unless set; and a shortening that waits to take effect, if any.',
  })
  @ApiSuccess(200, RetentionSettingsResponse, 'The settings.')
  @ApiErrorResponses([401, 429, 503])
  get(@ClientId() clientId: number): Promise<RetentionSettingsResponse> {
    const message: ClientScoped = { client_id: clientId };
    return this.backends.applications(APPLICATIONS.GET_RETENTION_SETTINGS, message);
  }

  @Put()
  @ApiOperation({
    operationId: 'putRetentionSettings',
    summary: 'Change the retention settings',
    description:
      'Sets the fields given (null sets the default); those left out stay as they were. Applies to every decided ' +
      'application at the next hourly sweep, those decided before included: a shorter period erases sooner, so a ' +
      `shortening waits ${RETENTION_SHORTENING_DELAY_DAYS} days (shown as pending_change, and undone by setting the ` +
      'days again) unless confirm_shortening is true. Needs a key with the personal_data_erasure scope; each change ' +
      'is a retention_settings.changed audit event naming the key, the request and the days before and after.',
  })
  @UseGuards(new ScopeGuard(PERSONAL_DATA_ERASURE_SCOPE, CHANGING))
  @ApiSuccess(200, RetentionSettingsResponse, 'The settings as they are now.')
  @ApiErrorResponses([400, 401, 403, 413, 415, 422, 429, 503], { 403: personalDataErasure403(CHANGING) })
  put(
    @Credential() credential: ApiCredential,
    @Body(new ContractPipe(PutRetentionSettingsRequest)) request: PutRetentionSettingsRequest,
  ): Promise<RetentionSettingsResponse> {
    const message: PutRetentionSettingsMessage = { client_id: credential.clientId, request, requester: readerOf(credential) };
    return this.backends.applications(APPLICATIONS.PUT_RETENTION_SETTINGS, message);
  }
}
