import { FloorPlanChanges, FloorPlanInput, MAX_FLOOR_PLANS, ServiceError } from '@app/contracts';
import { invalid } from '../properties/property-changes';
import { FloorPlanRecord, PropertyRecord, PropertyState, stateOf } from '../properties/property.schema';

const NUMBER_FIELDS = ['beds', 'baths', 'deposit', 'rent'] as const;

/** The property's floor plan `id`, or a 404. */
export function floorPlanOf(property: PropertyRecord, id: number): FloorPlanRecord {
  const plan = (property.floor_plans ?? []).find((candidate) => candidate.id === id);
  if (!plan) throw ServiceError.notFound('floor plan', id);
  return plan;
}

/**
 * The property with `plan` added; a single_family property has exactly one floor plan, any other
 * at most MAX_FLOOR_PLANS.
 */
export function withFloorPlan(property: PropertyRecord, plan: FloorPlanRecord, at: Date): PropertyState {
  const next = stateOf(property);
  if (next.kind === 'single_family' && next.floor_plans.length >= 1) {
    throw invalid('floor_plan', 'cannot be added: a single_family property has exactly one floor plan');
  }
  if (next.floor_plans.length >= MAX_FLOOR_PLANS) {
    throw invalid('floor_plan', `cannot be added: a property has at most ${MAX_FLOOR_PLANS} floor plans`);
  }
  return { ...next, floor_plans: [...next.floor_plans, plan], updated_at: at };
}

/** A new floor plan record from its input; unset numbers are null. */
export function newFloorPlan(id: number, propertyId: number, input: FloorPlanInput, requestKey: string): FloorPlanRecord {
  const plan: FloorPlanRecord = {
    id,
    property_id: propertyId,
    name: input.name,
    beds: null,
    baths: null,
    deposit: null,
    rent: null,
  };
  for (const field of NUMBER_FIELDS) plan[field] = input[field] ?? null;
  return { ...plan, request_key: requestKey };
}

/** The property with floor plan `id` changed, and that plan; state null when nothing changes. */
export function withChangedFloorPlan(
  property: PropertyRecord,
  id: number,
  changes: FloorPlanChanges,
  at: Date,
): { state: PropertyState | null; plan: FloorPlanRecord } {
  const current = floorPlanOf(property, id);
  const plan = { ...current };
  if (changes.name !== undefined) plan.name = changes.name;
  for (const field of NUMBER_FIELDS) {
    if (changes[field] !== undefined) plan[field] = changes[field] ?? null;
  }
  const unchanged =
    plan.name === current.name && NUMBER_FIELDS.every((field) => (plan[field] ?? null) === (current[field] ?? null));
  if (unchanged) return { state: null, plan: current };
  const next = stateOf(property);
  return { state: { ...next, floor_plans: next.floor_plans.map((p) => (p.id === id ? plan : p)), updated_at: at }, plan };
}

/** The property without floor plan `id`; every property keeps at least one. */
export function withoutFloorPlan(property: PropertyRecord, id: number, at: Date): PropertyState {
  floorPlanOf(property, id);
  const next = stateOf(property);
  if (next.floor_plans.length <= 1) {
    throw invalid('floor_plan', 'cannot be deleted: it is the property’s only floor plan, and every property keeps at least one');
  }
  return { ...next, floor_plans: next.floor_plans.filter((plan) => plan.id !== id), updated_at: at };
}
