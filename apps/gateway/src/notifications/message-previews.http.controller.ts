import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MessagePreviewListResponse, NOTIFICATIONS } from '@app/contracts';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { ApiErrorResponses, ApiSuccess } from '../openapi/api-responses';
import { API_KEY_SCHEME } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

/** The messages the caller's applicants may receive, to read before any is sent. */
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
  list(@ClientId() clientId: number): Promise<MessagePreviewListResponse> {
    return this.backends.notifications(NOTIFICATIONS.PREVIEW_MESSAGES, { client_id: clientId });
  }
}
