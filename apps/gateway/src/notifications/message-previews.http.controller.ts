import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MessagePreviewListResponse } from '@app/contracts';
import { messagePreviews } from '@app/mail';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { ApiErrorResponses, ApiSuccess } from '../openapi/api-responses';
import { API_KEY_SCHEME } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

/**
 * The messages the caller's applicants may receive, to read before any is sent: made here from
 * the templates the notifications service sends with (libs/mail) and the caller's settings, so
 * that the notifications service is asked nothing a release before this one cannot answer.
 */
@ApiTags('notifications')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/message_previews')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class MessagePreviewsHttpController {
  constructor(private readonly backends: Backends) {}

  @Get()
  @ApiOperation({
    operationId: 'listMessagePreviews',
    summary: 'Preview the e-mails',
    description:
      'Every message the caller’s applicants and guarantors may receive (invitations, the reminder, the confirmation, ' +
      'each decision, the decline on the screening report with its adverse action notice), subject, text and HTML, ' +
      'as the current notification settings make it, with sample names and placeholder links. Nothing is sent.',
  })
  @ApiSuccess(200, MessagePreviewListResponse, 'One preview per message.')
  @ApiErrorResponses([401, 429, 503])
  async list(@ClientId() clientId: number): Promise<MessagePreviewListResponse> {
    const { notification_settings: settings } = await this.backends.notificationSettings(clientId);
    return { previews: messagePreviews(settings) };
  }
}
