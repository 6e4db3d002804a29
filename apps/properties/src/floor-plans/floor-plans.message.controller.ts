import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, RmqContext } from '@nestjs/microservices';
import {
  CreateFloorPlanMessage,
  CreateFloorPlanRequest,
  FLOOR_PLANS,
  FloorPlanListResponse,
  FloorPlanRefMessage,
  FloorPlanResponse,
  FloorPlansMessage,
  IdempotencyKeyPipe,
  ApiKeyIdPipe,
  parseRequest,
  readFloorPlanRef,
  readFloorPlansRef,
  readIfMatch,
  UpdateFloorPlanMessage,
  UpdateFloorPlanRequest,
} from '@app/contracts';
import { messageIdOf } from '@app/messaging';
import { FloorPlansService } from './floor-plans.service';

@Controller()
export class FloorPlansMessageController {
  constructor(private readonly floorPlans: FloorPlansService) {}

  @MessagePattern(FLOOR_PLANS.LIST)
  async list(@Payload() message: FloorPlansMessage): Promise<FloorPlanListResponse> {
    const { clientId, propertyId } = readFloorPlansRef(message);
    return { floor_plans: await this.floorPlans.list(clientId, propertyId) };
  }

  @MessagePattern(FLOOR_PLANS.CREATE)
  async create(
    @Payload() message: CreateFloorPlanMessage,
    @Payload('idempotency_key', IdempotencyKeyPipe) key: string | undefined,
    @Payload('key_id', ApiKeyIdPipe) keyId: string | undefined,
    @Ctx() context: RmqContext,
  ): Promise<FloorPlanResponse> {
    const { clientId, propertyId } = readFloorPlansRef(message);
    const { floor_plan } = parseRequest(CreateFloorPlanRequest, message.request);
    const scope = { key, keyId, messageId: messageIdOf(context.getMessage()) };
    return { floor_plan: await this.floorPlans.create(clientId, propertyId, floor_plan, scope) };
  }

  @MessagePattern(FLOOR_PLANS.GET)
  async get(@Payload() message: FloorPlanRefMessage): Promise<FloorPlanResponse> {
    const { clientId, propertyId, id } = readFloorPlanRef(message);
    return { floor_plan: await this.floorPlans.get(clientId, propertyId, id) };
  }

  @MessagePattern(FLOOR_PLANS.UPDATE)
  async update(@Payload() message: UpdateFloorPlanMessage): Promise<FloorPlanResponse> {
    const { clientId, propertyId, id } = readFloorPlanRef(message);
    const { floor_plan } = parseRequest(UpdateFloorPlanRequest, message.request);
    return { floor_plan: await this.floorPlans.update(clientId, propertyId, id, floor_plan, readIfMatch(message)) };
  }

  @MessagePattern(FLOOR_PLANS.DELETE)
  async delete(@Payload() message: FloorPlanRefMessage): Promise<FloorPlanResponse> {
    const { clientId, propertyId, id } = readFloorPlanRef(message);
    return { floor_plan: await this.floorPlans.delete(clientId, propertyId, id, readIfMatch(message)) };
  }
}
