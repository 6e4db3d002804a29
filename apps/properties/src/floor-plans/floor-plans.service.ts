import { Injectable } from '@nestjs/common';
import { FloorPlanChanges, FloorPlanInput, FloorPlanRepresentation, ServiceError } from '@app/contracts';
import { EventSpec } from '@app/events';
import { CreateScope, Idempotency } from '@app/persistence';
import { PropertiesService } from '../properties/properties.service';
import { PropertiesRepository } from '../properties/properties.repository';
import { toFloorPlanRepresentation } from '../properties/property.mapper';
import { floorPlanOf, newFloorPlan, withChangedFloorPlan, withFloorPlan, withoutFloorPlan } from './floor-plan-changes';

/**
 * Floor plans are kept inside their property, so each change of one is a change of the property:
 * made as its next version, exactly as a PATCH of the property is, and seen in the property.
 */
@Injectable()
export class FloorPlansService {
  constructor(
    private readonly properties: PropertiesService,
    private readonly repository: PropertiesRepository,
    private readonly idempotency: Idempotency,
  ) {}

  async list(clientId: number, propertyId: number): Promise<FloorPlanRepresentation[]> {
    const property = await this.repository.findLive(clientId, propertyId);
    if (!property) throw ServiceError.propertyNotFound(propertyId);
    return (property.floor_plans ?? []).map(toFloorPlanRepresentation);
  }

  async get(clientId: number, propertyId: number, id: number): Promise<FloorPlanRepresentation> {
    const property = await this.repository.findLive(clientId, propertyId);
    if (!property) throw ServiceError.propertyNotFound(propertyId);
    return toFloorPlanRepresentation(floorPlanOf(property, id));
  }

  /** Adds the floor plan once per request, as a create of a property is. */
  create(
    clientId: number,
    propertyId: number,
    input: FloorPlanInput,
    scope: Omit<CreateScope, 'clientId' | 'body'>,
  ): Promise<FloorPlanRepresentation> {
    const body = { property_id: propertyId, floor_plan: input };
    return this.idempotency.run({ ...scope, clientId, body }, async (requestKey) => {
      const id = await this.repository.newFloorPlanId();
      return this.properties.change(clientId, propertyId, (current) => {
        const done = (current.floor_plans ?? []).find((plan) => plan.request_key === requestKey);
        if (done) return { state: null, answer: () => toFloorPlanRepresentation(done), events: [] };
        const plan = newFloorPlan(id, propertyId, input, requestKey);
        return {
          state: withFloorPlan(current, plan, new Date()),
          answer: () => toFloorPlanRepresentation(plan),
          events: [floorPlanEvent('floor_plan.created', propertyId, id)],
        };
      });
    });
  }

  update(
    clientId: number,
    propertyId: number,
    id: number,
    changes: FloorPlanChanges,
    ifMatch?: string,
  ): Promise<FloorPlanRepresentation> {
    return this.properties.change(clientId, propertyId, (current) => {
      this.properties.checkIfMatch(ifMatch, toFloorPlanRepresentation(floorPlanOf(current, id)));
      const { state, plan } = withChangedFloorPlan(current, id, changes, new Date());
      return {
        state,
        answer: () => toFloorPlanRepresentation(plan),
        events: [floorPlanEvent('floor_plan.updated', propertyId, id)],
      };
    });
  }

  delete(clientId: number, propertyId: number, id: number, ifMatch?: string): Promise<FloorPlanRepresentation> {
    return this.properties.change(clientId, propertyId, (current) => {
      const representation = toFloorPlanRepresentation(floorPlanOf(current, id));
      this.properties.checkIfMatch(ifMatch, representation);
      return {
        state: withoutFloorPlan(current, id, new Date()),
        answer: () => representation,
        events: [floorPlanEvent('floor_plan.deleted', propertyId, id)],
      };
    });
  }
}

function floorPlanEvent(
  event: 'floor_plan.created' | 'floor_plan.updated' | 'floor_plan.deleted',
  propertyId: number,
  id: number,
): EventSpec {
  return { event, data: { property_id: propertyId, floor_plan_id: id } };
}
