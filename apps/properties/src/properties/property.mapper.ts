import { FloorPlanRepresentation, PropertyRepresentation } from '@app/contracts';
import { FloorPlanRecord, PropertyRecord } from './property.schema';

/** The public representation: every documented field, in the documented order. */
/** `applyBaseUrl`: the base URL of the online application form (APPLY_BASE_URL). */
export function toPropertyRepresentation(record: PropertyRecord, applyBaseUrl: string): PropertyRepresentation {
  return {
    id: record.id,
    available: record.available,
    kind: record.kind,
    name: record.name,
    street: record.street ?? '',
    city: record.city ?? '',
    state: record.state ?? '',
    zip: record.zip ?? '',
    manager_name: record.manager_name ?? '',
    manager_email: record.manager_email ?? '',
    manager_phone: record.manager_phone ?? '',
    invitation_only: record.invitation_only,
    invitation_only_message: record.invitation_only_message ?? '',
    application_url: `${applyBaseUrl}/properties/${record.id}/apply`,
    form_preset_id: record.form_preset_id,
    background_config_id: record.background_config_id,
    floor_plans: (record.floor_plans ?? []).map(toFloorPlanRepresentation),
  };
}

export function toFloorPlanRepresentation(plan: FloorPlanRecord): FloorPlanRepresentation {
  return {
    id: plan.id,
    property_id: plan.property_id,
    name: plan.name,
    beds: plan.beds ?? null,
    baths: plan.baths ?? null,
    deposit: plan.deposit ?? null,
    rent: plan.rent ?? null,
  };
}
