import { Body, Controller, Get, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ContractPipe,
  PlainTextPipe,
  NotificationSettingsResponse,
  NOTIFICATIONS,
  PutNotificationSettingsMessage,
  PutNotificationSettingsRequest,
} from '@app/contracts';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { ApiErrorResponses, ApiSuccess } from '../openapi/api-responses';
import { API_KEY_SCHEME } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

/**
 * How the caller's e-mails to applicants present themselves: the sender's name, the reply-to
 * address, and the screening agency a decline's adverse action notice names.
 */
@ApiTags('notifications')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/notification_settings')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class NotificationSettingsHttpController {
  constructor(private readonly backends: Backends) {}

  @Get()
  @ApiOperation({
    operationId: 'getNotificationSettings',
    summary: 'Get the e-mail settings',
    description:
      'The sender name, reply-to address and screening agency of the e-mails sent to the caller’s applicants; null when unset.',
  })
  @ApiSuccess(200, NotificationSettingsResponse, 'The settings.')
  @ApiErrorResponses([401, 429, 503])
  get(@ClientId() clientId: number): Promise<NotificationSettingsResponse> {
    return this.backends.notificationSettings(clientId);
  }

  @Put()
  @ApiOperation({
    operationId: 'putNotificationSettings',
    summary: 'Change the e-mail settings',
    description:
      'Sets the fields given (null unsets one); those left out stay as they were. Messages made from then on use them.',
  })
  @ApiSuccess(200, NotificationSettingsResponse, 'The settings as they are now.')
  @ApiErrorResponses([400, 401, 413, 415, 422, 429, 503])
  put(
    @ClientId() clientId: number,
    @Body(
      new ContractPipe(PutNotificationSettingsRequest),
      new PlainTextPipe([
        'notification_settings.sender_name',
        'notification_settings.screening_agency.name',
        'notification_settings.screening_agency.address',
        'notification_settings.screening_agency.phone',
      ]),
    )
    request: PutNotificationSettingsRequest,
  ): Promise<NotificationSettingsResponse> {
    const message: PutNotificationSettingsMessage = { client_id: clientId, request };
    return this.backends.notifications(NOTIFICATIONS.PUT_SETTINGS, message);
  }
}
