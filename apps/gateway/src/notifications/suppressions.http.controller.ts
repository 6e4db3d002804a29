import { Controller, Delete, Get, Param, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  AUDIT_EVENTS,
  NOTIFICATIONS,
  ServiceError,
  SuppressionLiftAuditMessage,
  suppressionMessage,
  SuppressionResponse,
} from '@app/contracts';
import { ApiKeyGuard, ClientId, Credential } from '../auth/api-key.guard';
import { ApiCredential } from '../auth/api-keys';
import { readerOf } from '../auth/reader';
import { Backends } from '../backends/backends';
import { ApiErrorResponses, ApiSuccess, errorBody } from '../openapi/api-responses';
import { API_KEY_SCHEME } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

const EMAIL_PARAM = ApiParam({
  name: 'email',
  description: 'The address, URL-encoded (`@` as `%40`). Every spelling of one mailbox counts as one.',
  example: 'dana@example.com',
});

const EMAIL_422 = {
  description: 'The path names no e-mail address.',
  examples: {
    invalid: errorBody('Not an address', 'email must be a valid e-mail address', [
      { field: 'email', message: 'must be a valid e-mail address' },
    ]),
  },
};

/**
 * The addresses whose owner unsubscribed (a link in any client's e-mail), which no message but a
 * notice the law requires reaches: whether one is suppressed for the caller's mail, and lifting
 * it for the caller's mail alone when its owner asks.
 */
@ApiTags('notifications')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/suppressions/:email')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class SuppressionsHttpController {
  constructor(private readonly backends: Backends) {}

  @Get()
  @ApiOperation({
    operationId: 'getSuppression',
    summary: 'Whether an address is suppressed',
    description:
      'Whether the caller’s messages to the address are suppressed (its owner unsubscribed and the caller has not ' +
      'lifted it since), when it last unsubscribed and when the caller last lifted it. Never a 404: an address ' +
      'that never unsubscribed is simply not suppressed.',
  })
  @EMAIL_PARAM
  @ApiSuccess(200, SuppressionResponse, 'The address’s suppression for the caller’s mail.')
  @ApiErrorResponses([401, 422, 429, 503], { 422: EMAIL_422 })
  get(@ClientId() clientId: number, @Param('email') email: string): Promise<SuppressionResponse> {
    return this.backends.notifications(NOTIFICATIONS.GET_SUPPRESSION, suppressionMessage(clientId, email));
  }

  @Delete()
  @ApiOperation({
    operationId: 'liftSuppression',
    summary: 'Lift an address’s suppression',
    description:
      'Only when the address’s owner asked to get mail again: the caller’s messages reach the address from now on; ' +
      'other clients’ stay suppressed. Each lift is a suppression.lifted audit event naming the key and the request, ' +
      'recorded before the lift. The owner unsubscribing again suppresses it again. 404 when it is not suppressed ' +
      'for the caller’s mail.',
  })
  @EMAIL_PARAM
  @ApiSuccess(200, SuppressionResponse, 'The address’s suppression as it is now: not suppressed.')
  @ApiErrorResponses([401, 404, 422, 429, 503], {
    404: {
      description: 'The address is not suppressed for the caller’s mail: it never unsubscribed, or was lifted since.',
      examples: { notFound: errorBody('Not suppressed', 'suppression of dana@example.com cannot be found') },
    },
    422: EMAIL_422,
  })
  async lift(@Credential() credential: ApiCredential, @Param('email') email: string): Promise<SuppressionResponse> {
    const message = suppressionMessage(credential.clientId, email);
    const current = await this.backends.notifications<SuppressionResponse>(NOTIFICATIONS.GET_SUPPRESSION, message);
    if (!current.suppression.suppressed) throw ServiceError.notFound('suppression of', email);
    const audit: SuppressionLiftAuditMessage = { client_id: credential.clientId, requester: readerOf(credential) };
    await this.backends.applications(AUDIT_EVENTS.RECORD_SUPPRESSION_LIFT, audit);
    return this.backends.notifications(NOTIFICATIONS.LIFT_SUPPRESSION, message);
  }
}
