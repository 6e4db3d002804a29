import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, RmqContext } from '@nestjs/microservices';
import {
  CreatedWebhookResponse,
  CreateWebhookMessage,
  CreateWebhookRequest,
  DeliveryListResponse,
  DeliveryPageMessage,
  DeliveryResponse,
  IdempotencyKeyPipe,
  ApiKeyIdPipe,
  parseRequest,
  readDeliveryPage,
  readWebhookRef,
  RedeliverMessage,
  requireClientId,
  ServiceError,
  WebhookListResponse,
  WebhookRefMessage,
  WebhookResponse,
  WEBHOOKS,
} from '@app/contracts';
import { messageIdOf } from '@app/messaging';
import { WebhooksService } from './webhooks.service';

@Controller()
export class WebhooksMessageController {
  constructor(private readonly webhooks: WebhooksService) {}

  @MessagePattern(WEBHOOKS.CREATE)
  async create(
    @Payload() message: CreateWebhookMessage,
    @Payload('idempotency_key', IdempotencyKeyPipe) key: string | undefined,
    @Payload('key_id', ApiKeyIdPipe) keyId: string | undefined,
    @Ctx() context: RmqContext,
  ): Promise<CreatedWebhookResponse> {
    const clientId = requireClientId(message?.client_id);
    const { webhook } = parseRequest(CreateWebhookRequest, message.request);
    return {
      webhook: await this.webhooks.create(clientId, webhook, { key, keyId, messageId: messageIdOf(context.getMessage()) }),
    };
  }

  @MessagePattern(WEBHOOKS.LIST)
  async list(@Payload() message: { client_id: number }): Promise<WebhookListResponse> {
    return { webhooks: await this.webhooks.list(requireClientId(message?.client_id)) };
  }

  @MessagePattern(WEBHOOKS.GET)
  async get(@Payload() message: WebhookRefMessage): Promise<WebhookResponse> {
    const { clientId, id } = readWebhookRef(message);
    return { webhook: await this.webhooks.get(clientId, id) };
  }

  @MessagePattern(WEBHOOKS.DELETE)
  async delete(@Payload() message: WebhookRefMessage): Promise<WebhookResponse> {
    const { clientId, id } = readWebhookRef(message);
    return { webhook: await this.webhooks.delete(clientId, id) };
  }

  @MessagePattern(WEBHOOKS.DELIVERIES)
  async deliveries(@Payload() message: DeliveryPageMessage): Promise<DeliveryListResponse> {
    const { clientId, id } = readWebhookRef(message);
    const { limit, after } = readDeliveryPage(message);
    const { items, next_cursor } = await this.webhooks.listDeliveries(clientId, id, limit, after);
    return { deliveries: items, next_cursor };
  }

  @MessagePattern(WEBHOOKS.TEST)
  async test(@Payload() message: WebhookRefMessage): Promise<DeliveryResponse> {
    const { clientId, id } = readWebhookRef(message);
    return { delivery: await this.webhooks.test(clientId, id) };
  }

  @MessagePattern(WEBHOOKS.ROTATE_SECRET)
  async rotateSecret(@Payload() message: WebhookRefMessage): Promise<CreatedWebhookResponse> {
    const { clientId, id } = readWebhookRef(message);
    return { webhook: await this.webhooks.rotateSecret(clientId, id) };
  }

  @MessagePattern(WEBHOOKS.REDELIVER)
  async redeliver(@Payload() message: RedeliverMessage): Promise<DeliveryResponse> {
    const { clientId, id } = readWebhookRef(message);
    if (typeof message.delivery_id !== 'string') throw ServiceError.notFound('delivery', String(message.delivery_id));
    return { delivery: await this.webhooks.redeliver(clientId, id, message.delivery_id) };
  }
}
