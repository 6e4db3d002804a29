import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, RmqContext } from '@nestjs/microservices';
import {
  ContractPipe,
  CreatePropertyRequest,
  DeletePropertyMessage,
  ListPropertiesMessage,
  parseRequest,
  PropertyListResponse,
  readIfMatch,
  readListProperties,
  UpdatePropertyMessage,
  UpdatePropertyRequest,
  IdempotencyKeyPipe,
  ApiKeyIdPipe,
  PROPERTIES,
  PropertyRefMessage,
  PropertyResponse,
  PropertySummary,
  readPropertyRef,
  requireClientId,
} from '@app/contracts';
import { messageIdOf } from '@app/messaging';
import { PropertiesService } from './properties.service';

@Controller()
export class PropertiesMessageController {
  constructor(private readonly properties: PropertiesService) {}

  @MessagePattern(PROPERTIES.CREATE)
  async create(
    @Payload('client_id') clientId: unknown,
    @Payload('request', new ContractPipe(CreatePropertyRequest)) request: CreatePropertyRequest,
    @Payload('idempotency_key', IdempotencyKeyPipe) key: string | undefined,
    @Payload('key_id', ApiKeyIdPipe) keyId: string | undefined,
    @Ctx() context: RmqContext,
  ): Promise<PropertyResponse> {
    const scope = { key, keyId, messageId: messageIdOf(context.getMessage()) };
    return { property: await this.properties.create(requireClientId(clientId), request.property, scope) };
  }

  @MessagePattern(PROPERTIES.GET)
  async get(@Payload() message: PropertyRefMessage): Promise<PropertyResponse> {
    const { clientId, id } = readPropertyRef(message);
    return { property: await this.properties.get(clientId, id) };
  }

  @MessagePattern(PROPERTIES.LIST)
  async list(@Payload() message: ListPropertiesMessage): Promise<PropertyListResponse> {
    const { clientId, available, page } = readListProperties(message);
    const { items, next_cursor } = await this.properties.listPage(clientId, page, available);
    return { properties: items, next_cursor };
  }

  @MessagePattern(PROPERTIES.UPDATE)
  async update(@Payload() message: UpdatePropertyMessage): Promise<PropertyResponse> {
    const { clientId, id } = readPropertyRef(message);
    const { property } = parseRequest(UpdatePropertyRequest, message.request);
    return { property: await this.properties.update(clientId, id, property, readIfMatch(message)) };
  }

  @MessagePattern(PROPERTIES.DELETE)
  async delete(@Payload() message: DeletePropertyMessage, @Ctx() context: RmqContext): Promise<PropertyResponse> {
    const { clientId, id } = readPropertyRef(message);
    const requestKey = `message:${messageIdOf(context.getMessage())}`;
    return { property: await this.properties.delete(clientId, id, readIfMatch(message), requestKey) };
  }

  @MessagePattern(PROPERTIES.LOOKUP)
  lookup(@Payload() message: PropertyRefMessage): Promise<PropertySummary | null> {
    const { clientId, id } = readPropertyRef(message);
    return this.properties.lookup(clientId, id);
  }
}
