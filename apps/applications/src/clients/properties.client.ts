import { Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { ErrorCode, isPositiveId, PROPERTIES, PropertyRefMessage, PropertySummary, QUEUES, ServiceError } from '@app/contracts';
import { InjectQueueClient, sendRpc } from '@app/messaging';
import { ApplicationsEnvironment } from '../config/applications.environment';

/** Asks the properties service, over the broker, about the property an application names. */
@Injectable()
export class PropertiesClient {
  private readonly timeoutMs: number;

  constructor(
    @InjectQueueClient(QUEUES.PROPERTIES) private readonly client: ClientProxy,
    env: ApplicationsEnvironment,
  ) {
    this.timeoutMs = env.PROPERTY_LOOKUP_TIMEOUT_MS;
  }

  async lookup(clientId: number, propertyId: number): Promise<PropertySummary | null> {
    const message: PropertyRefMessage = { client_id: clientId, id: propertyId };
    const answer = await sendRpc<unknown>(this.client, PROPERTIES.LOOKUP, message, this.timeoutMs);
    if (answer === null || isPropertySummary(answer)) return answer;
    // Not a refusal but a peer out of step with this one: the message is retried, then dead-lettered.
    throw new Error(`properties.lookup answered with an unexpected shape: ${typeof answer}`);
  }

  /**
   * The ids of the floor plans of the client's live property, or null when it has no such
   * property (deleted since the application was made, say): what a floor_plan_id is checked against.
   */
  async floorPlanIds(clientId: number, propertyId: number): Promise<number[] | null> {
    return (await this.floorPlans(clientId, propertyId))?.map((plan) => plan.id) ?? null;
  }

  /** The floor plans (id and rent) of the client's live property, or null when it has none such. */
  async floorPlans(clientId: number, propertyId: number): Promise<Array<{ id: number; rent: number | null }> | null> {
    const message: PropertyRefMessage = { client_id: clientId, id: propertyId };
    let answer: unknown;
    try {
      answer = await sendRpc<unknown>(this.client, PROPERTIES.GET, message, this.timeoutMs);
    } catch (error) {
      if (error instanceof ServiceError && error.code === ErrorCode.PROPERTY_NOT_FOUND) return null;
      throw error;
    }
    const plans = (answer as { property?: { floor_plans?: unknown } } | null)?.property?.floor_plans;
    if (Array.isArray(plans) && plans.every((plan) => isPositiveId((plan as { id?: unknown } | null)?.id))) {
      return plans.map((plan: { id: number; rent?: unknown }) => ({
        id: plan.id,
        rent: typeof plan.rent === 'number' ? plan.rent : null,
      }));
    }
    throw new Error('properties.get answered with an unexpected shape');
  }
}

function isPropertySummary(value: unknown): value is PropertySummary {
  const candidate = value as Partial<PropertySummary> | null;
  return typeof candidate === 'object' && candidate !== null && isPositiveId(candidate.id) && typeof candidate.name === 'string';
}
