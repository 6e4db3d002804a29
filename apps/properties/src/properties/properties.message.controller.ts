import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, RmqContext } from '@nestjs/microservices';
import { ContractPipe, IdempotencyKeyPipe, messageIdOf } from '@app/common';
import {
  CreatePropertyRequest,
  isPositiveId,
  PROPERTIES,
  PropertyRefMessage,
  PropertyResponse,
  PropertySummary,
  requireClientId,
  ServiceError,
} from '@app/contracts';
import { PropertiesService } from './properties.service';

@Controller()
export class PropertiesMessageController {
  constructor(private readonly properties: PropertiesService) {}

  @MessagePattern(PROPERTIES.CREATE)
  async create(
    @Payload('client_id') clientId: unknown,
    @Payload('request', new ContractPipe(CreatePropertyRequest)) request: CreatePropertyRequest,
    @Payload('idempotency_key', IdempotencyKeyPipe) key: string | undefined,
    @Ctx() context: RmqContext,
  ): Promise<PropertyResponse> {
    const scope = { key, messageId: messageIdOf(context.getMessage()) };
    return { property: await this.properties.create(requireClientId(clientId), request.property, scope) };
  }

  @MessagePattern(PROPERTIES.GET)
  async get(@Payload() message: PropertyRefMessage): Promise<PropertyResponse> {
    const { clientId, id } = propertyRef(message);
    return { property: await this.properties.get(clientId, id) };
  }

  @MessagePattern(PROPERTIES.DELETE)
  async delete(@Payload() message: PropertyRefMessage): Promise<PropertyResponse> {
    const { clientId, id } = propertyRef(message);
    return { property: await this.properties.delete(clientId, id) };
  }

  @MessagePattern(PROPERTIES.LOOKUP)
  lookup(@Payload() message: PropertyRefMessage): Promise<PropertySummary | null> {
    const { clientId, id } = propertyRef(message);
    return this.properties.lookup(clientId, id);
  }
}

function propertyRef(message: PropertyRefMessage): { clientId: number; id: number } {
  const clientId = requireClientId(message?.client_id);
  if (!isPositiveId(message.id)) throw ServiceError.propertyNotFound(String(message.id));
  return { clientId, id: message.id };
}
