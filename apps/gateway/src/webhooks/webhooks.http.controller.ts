import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ContractPipe,
  CreatedWebhookResponse,
  CreateWebhookMessage,
  CreateWebhookRequest,
  DeliveryListResponse,
  DeliveryResponse,
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
import { IdempotencyKey } from '../http/idempotency-key.decorator';
import { ApiErrorResponses, ApiSuccess, errorBody } from '../openapi/api-responses';

/** A webhook's 404: the one the API's other resources answer, about a webhook. */
const WEBHOOK_404 = {
  description: 'The id is not a positive integer, names no webhook, a deleted one, or another client’s.',
  examples: { notFound: errorBody('No such webhook', 'webhook 7 cannot be found') },
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
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

const WEBHOOK_ID = ApiParam({ name: 'id', description: 'The webhook’s id, a positive integer.', example: 1 });

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
  @ApiErrorResponses([400, 401, 409, 413, 415, 422, 429, 503], { 503: CREATE_503 })
  create(
    @ClientId() clientId: number,
    @Body(new ContractPipe(CreateWebhookRequest)) request: CreateWebhookRequest,
    @IdempotencyKey() idempotencyKey: string | undefined,
  ): Promise<CreatedWebhookResponse> {
    const message: CreateWebhookMessage = { client_id: clientId, request, idempotency_key: idempotencyKey };
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

  @Get(':id/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'List a webhook’s deliveries',
    description: 'Its latest 100 deliveries, newest first, each with every attempt made.',
  })
  @WEBHOOK_ID
  @ApiSuccess(200, DeliveryListResponse, 'The deliveries and their attempts.')
  @ApiErrorResponses([401, 404, 429, 503], { 404: WEBHOOK_404 })
  deliveries(@ClientId() clientId: number, @Param('id') id: string): Promise<DeliveryListResponse> {
    return this.backends.webhooks(WEBHOOKS.DELIVERIES, webhookRefFromPath(clientId, id));
  }

  @Post(':id/test')
  @ReadsNoBody()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'testWebhook',
    summary: 'Send a test event',
    description: 'Delivers an event with test_mode true and no ids, of the first kind the webhook takes.',
  })
  @WEBHOOK_ID
  @ApiSuccess(201, DeliveryResponse, 'The delivery made, its first attempt queued.')
  @ApiErrorResponses([401, 404, 429, 503], { 404: WEBHOOK_404 })
  test(@ClientId() clientId: number, @Param('id') id: string): Promise<DeliveryResponse> {
    return this.backends.webhooks(WEBHOOKS.TEST, webhookRefFromPath(clientId, id));
  }

  @Post(':id/deliveries/:delivery_id/redeliver')
  @ReadsNoBody()
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
  @ApiErrorResponses([401, 404, 429, 503], { 404: DELIVERY_404 })
  redeliver(
    @ClientId() clientId: number,
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
  ): Promise<DeliveryResponse> {
    const message: RedeliverMessage = { ...webhookRefFromPath(clientId, id), delivery_id: deliveryId };
    return this.backends.webhooks(WEBHOOKS.REDELIVER, message);
  }
}
