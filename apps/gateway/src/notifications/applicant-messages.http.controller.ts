import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { applicantRefFromPath, APPLICATIONS, MAX_LISTED_MESSAGES, MessageListResponse, NOTIFICATIONS } from '@app/contracts';
import { APPLICANT_PARAMS } from '../openapi/path-ids';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { ApiErrorResponses, ApiSuccess } from '../openapi/api-responses';
import { APPLICANT_404 } from '../openapi/applicant-responses';
import { API_KEY_SCHEME } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

/** The e-mails sent to one applicant. */
@ApiTags('applications')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/applications/:application_id/applicants/:id/messages')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class ApplicantMessagesHttpController {
  constructor(private readonly backends: Backends) {}

  @Get()
  @ApiOperation({
    operationId: 'listApplicantMessages',
    summary: 'List the e-mails sent to an applicant',
    description:
      `Its latest ${MAX_LISTED_MESSAGES} messages (invitation, confirmation, reminder), newest first: to whom, their status and attempts, ` +
      'never their content.',
  })
  @APPLICANT_PARAMS
  @ApiSuccess(200, MessageListResponse, 'The messages.')
  @ApiErrorResponses([401, 404, 429, 503], { 404: APPLICANT_404 })
  async list(
    @ClientId() clientId: number,
    @Param('application_id') applicationId: string,
    @Param('id') id: string,
  ): Promise<MessageListResponse> {
    const ref = applicantRefFromPath(clientId, applicationId, id);
    // The applications service knows whether the applicant is the client's: a 404 comes from there.
    await this.backends.applications(APPLICATIONS.GET_APPLICANT, ref);
    return this.backends.notifications(NOTIFICATIONS.LIST_MESSAGES, ref);
  }
}
