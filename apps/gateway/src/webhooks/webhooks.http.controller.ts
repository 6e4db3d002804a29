import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  ContractPipe,
  CreatedWebhookResponse,
  CreateWebhookMessage,
  CreateWebhookRequest,
  DEFAULT_PAGE_SIZE,
  deliveryPageFromQuery,
  DeliveryListResponse,
  DeliveryResponse,
  MAX_LISTED_ATTEMPTS,
  MAX_PAGE_SIZE,
  RedeliverMessage,
  WebhookListResponse,
  webhookRefFromPath,
  WebhookResponse,
  WEBHOOKS,
} from '@app/contracts';
import { SERVICE_UNAVAILABLE_MESSAGE } from '@app/messaging';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { ReadsNoBody } from '../http/http-setup';
import { IdempotencyFields, IdempotencyKey } from '../http/idempotency-key.decorator';
import { ApiErrorResponses, ApiSuccess, errorBody } from '../openapi/api-responses';

/** A webhook's 404: the one the API's other resources answer, about a webhook. */
const WEBHOOK_404 = {
  description: 'The id is not a positive integer, names no webhook, a deleted one, or another client’s.',
  examples: { notFound: errorBody('No such webhook', 'webhook 7 cannot be found') },
};

/** A create's 409: the client has as many webhooks as it may, or the Idempotency-Key is in use. */
const WEBHOOK_LIMIT_409 = {
  description:
    'The caller has WEBHOOK_MAX_SUBSCRIPTIONS webhooks already (20 unless configured): delete one first. Or the ' +
    'first request with this Idempotency-Key is still being worked on; retry a moment later.',
  examples: {
    tooMany: errorBody('Too many webhooks', 'a client may have at most 20 webhooks; delete one before adding another'),
    inProgress: errorBody('Key in use', 'a request with this Idempotency-Key is still in progress; retry later'),
  },
};

/** The 429 of what makes the service send a request on demand: the key's rate limit, or its own. */
const SENDS_429 = {
  description:
    'The API key has spent its rate limit, or its WEBHOOK_SENDS_PER_MINUTE test events and redeliveries ' +
    '(10 a minute unless configured); retry after Retry-After seconds.',
  examples: {
    sends: errorBody(
      'Too many sends',
      'webhook test and redeliver limit (10 a minute per API key) exceeded: retry after 6 seconds',
    ),
    limited: errorBody('Too many requests', 'rate limit exceeded: retry after 1 seconds'),
  },
};

/** A redelivery's 409: the delivery was asked for again as often as it may be. */
const REDELIVER_409 = {
  description: 'The delivery was redelivered MAX_REDELIVERIES times already (10): it is not redelivered again.',
  examples: {
    tooMany: errorBody('Redelivered enough', 'delivery evt_1f0c4b0e cannot be redelivered more than 10 times'),
  },
};

/** Create's 503: a service that did not answer, or a URL whose host did not resolve to an address it may reach. */
const CREATE_503 = {
  description:
    'A service, the broker or a database did not answer in time; or the URL’s host name does not resolve, its lookup ' +
    'failed or took over 5 s, or it resolves to a loopback, private or link-local address (one answer for all of ' +
    'these, naming no address). Retry after Retry-After seconds: the 503 is not kept for the Idempotency-Key.',
  examples: {
    unavailable: errorBody('No answer in time', SERVICE_UNAVAILABLE_MESSAGE),
    unresolved: errorBody(
      'Host not resolved to a public address',
      'webhook.url host does not resolve, or resolves to a loopback, private or link-local address (allowed only when the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true); retry later if its DNS records are new',
    ),
  },
};

/** A redelivery's 404: no such webhook, or no such delivery of it. */
const DELIVERY_404 = {
  description: 'The id names no webhook of this client (as for GET), or delivery_id names none of its deliveries.',
  examples: {
    notFound: errorBody('No such webhook', 'webhook 7 cannot be found'),
    noDelivery: errorBody('No such delivery', 'delivery 0f8c3a52-6a1e-4a55-9d3c-2b7e1f0c9a41 cannot be found'),
  },
};
import { API_KEY_SCHEME, IDEMPOTENCY_KEY_HEADER } from '../openapi/openapi';
import { RateLimitGuard, WebhookSendLimitGuard } from '../rate-limit/rate-limit.guard';
import { ApiPathId } from '../openapi/path-ids';

const WEBHOOK_ID = ApiPathId('id', 'The webhook’s id, a positive integer.');

@ApiTags('webhooks')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/webhooks')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class WebhooksHttpController {
  constructor(private readonly backends: Backends) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Subscribe a URL to events',
    description:
      'Deliveries are signed as Standard Webhooks do; the signing secret is in this answer and never shown again. ' +
      'A URL that is not https, or whose host is a loopback, private or link-local address, is a 422; ' +
      'one whose host name does not resolve to public addresses is a 503 to retry.',
  })
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiSuccess(201, CreatedWebhookResponse, 'The subscription, with its secret.')
  @ApiErrorResponses([400, 401, 409, 413, 415, 422, 429, 503], { 409: WEBHOOK_LIMIT_409, 503: CREATE_503 })
  create(
    @ClientId() clientId: number,
    @Body(new ContractPipe(CreateWebhookRequest)) request: CreateWebhookRequest,
    @IdempotencyKey() idempotency: IdempotencyFields,
  ): Promise<CreatedWebhookResponse> {
    const message: CreateWebhookMessage = { client_id: clientId, request, ...idempotency };
    return this.backends.webhooks(WEBHOOKS.CREATE, message);
  }

  @Get()
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: 'List webhooks',
    description: 'The caller’s subscriptions, newest first.',
  })
  @ApiSuccess(200, WebhookListResponse, 'Every live subscription of the caller.')
  @ApiErrorResponses([401, 429, 503])
  list(@ClientId() clientId: number): Promise<WebhookListResponse> {
    return this.backends.webhooks(WEBHOOKS.LIST, { client_id: clientId });
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getWebhook', summary: 'Get a webhook', description: 'Without its secret.' })
  @WEBHOOK_ID
  @ApiSuccess(200, WebhookResponse, 'The subscription.')
  @ApiErrorResponses([401, 404, 429, 503], { 404: WEBHOOK_404 })
  get(@ClientId() clientId: number, @Param('id') id: string): Promise<WebhookResponse> {
    return this.backends.webhooks(WEBHOOKS.GET, webhookRefFromPath(clientId, id));
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'deleteWebhook', summary: 'Delete a webhook', description: 'No attempt is made after this.' })
  @WEBHOOK_ID
  @ApiSuccess(200, WebhookResponse, 'The subscription as it was.')
  @ApiErrorResponses([401, 404, 429, 503], { 404: WEBHOOK_404 })
  delete(@ClientId() clientId: number, @Param('id') id: string): Promise<WebhookResponse> {
    return this.backends.webhooks(WEBHOOKS.DELETE, webhookRefFromPath(clientId, id));
  }

  @Post(':id/rotate_secret')
  @ReadsNoBody()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'Give a webhook a new signing secret',
    description:
      'The new secret is in this answer and never shown again. Every attempt from now on, retries of earlier ' +
      'deliveries included, is signed with it; the old secret signs nothing more.',
  })
  @WEBHOOK_ID
  @ApiSuccess(200, CreatedWebhookResponse, 'The subscription, with its new secret.')
  @ApiErrorResponses([401, 404, 429, 503], { 404: WEBHOOK_404 })
  rotateSecret(@ClientId() clientId: number, @Param('id') id: string): Promise<CreatedWebhookResponse> {
    return this.backends.webhooks(WEBHOOKS.ROTATE_SECRET, webhookRefFromPath(clientId, id));
  }

  @Get(':id/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'List a webhook’s deliveries',
    description: `Its deliveries, newest first, a page at a time, each with its latest ${MAX_LISTED_ATTEMPTS} attempts.`,
  })
  @WEBHOOK_ID
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    description: 'Deliveries per page.',
  })
  @ApiQuery({
    name: 'cursor',
    required: false,
    schema: { type: 'string' },
    description: 'The `next_cursor` of the previous page.',
  })
  @ApiSuccess(200, DeliveryListResponse, 'A page of deliveries and their attempts.')
  @ApiErrorResponses([401, 404, 422, 429, 503], {
    404: WEBHOOK_404,
    422: {
      description: 'A `limit` or `cursor` that is not one this API accepts, or an unknown query parameter; details names each.',
      examples: {
        invalid: errorBody('Bad cursor', 'cursor is not a cursor this API handed out', [
          { field: 'cursor', message: 'is not a cursor this API handed out' },
        ]),
      },
    },
  })
  deliveries(
    @ClientId() clientId: number,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<DeliveryListResponse> {
    return this.backends.webhooks(WEBHOOKS.DELIVERIES, deliveryPageFromQuery(clientId, id, query));
  }

  @Post(':id/test')
  @ReadsNoBody()
  @UseGuards(WebhookSendLimitGuard)
  @HttpCode(201)
  @ApiOperation({
    operationId: 'testWebhook',
    summary: 'Send a test event',
    description: 'Delivers an event with test_mode true and no ids, of the first kind the webhook takes.',
  })
  @WEBHOOK_ID
  @ApiSuccess(201, DeliveryResponse, 'The delivery made, its first attempt queued.')
  @ApiErrorResponses([401, 404, 429, 503], { 404: WEBHOOK_404, 429: SENDS_429 })
  test(@ClientId() clientId: number, @Param('id') id: string): Promise<DeliveryResponse> {
    return this.backends.webhooks(WEBHOOKS.TEST, webhookRefFromPath(clientId, id));
  }

  @Post(':id/deliveries/:delivery_id/redeliver')
  @ReadsNoBody()
  @UseGuards(WebhookSendLimitGuard)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'redeliverWebhook',
    summary: 'Deliver again',
    description: 'Makes one more attempt of the delivery now, with the same webhook-id, whatever its state.',
  })
  @WEBHOOK_ID
  @ApiParam({
    name: 'delivery_id',
    description: 'The delivery’s id: its event id.',
    example: 'evt_1f0c4b0e4a3b4e8f9d3c2b1a0f9e8d7c',
  })
  @ApiSuccess(200, DeliveryResponse, 'The delivery as it was before this attempt, which is queued.')
  @ApiErrorResponses([401, 404, 409, 429, 503], { 404: DELIVERY_404, 409: REDELIVER_409, 429: SENDS_429 })
  redeliver(
    @ClientId() clientId: number,
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
  ): Promise<DeliveryResponse> {
    const message: RedeliverMessage = { ...webhookRefFromPath(clientId, id), delivery_id: deliveryId };
    return this.backends.webhooks(WEBHOOKS.REDELIVER, message);
  }
}
