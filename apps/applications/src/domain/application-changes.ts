import { ApplicationChanges, ErrorCode, EventDataOf, ServiceError } from '@app/contracts';
import { EventSpec } from '@app/events';
import { erasedApplicant } from './erased-fields';
import { ApplicationRecord } from './application';

/** The fields a PATCH sets as given, by their names in the request and in the record alike. */
export const CHANGEABLE_FIELDS = [
  'assigned_user_id',
  'floor_plan_id',
  'desired_unit_number',
  'desired_unit_description',
  'desired_lease_length',
  'desired_move_in',
  'user_specified_rent',
  'showing_agent',
  'showing_agent_id',
  'referral',
] as const;

type ChangeableField = (typeof CHANGEABLE_FIELDS)[number];

/**
 * What a change of an application writes: the fields it sets, `archived_at` for `archived`,
 * `decisions` (the whole history, newest first) for a decision, and `personal_data_erased_at`
 * for the erasure of its applicants' personal data.
 */
export type ApplicationFields = Partial<
  Pick<ApplicationRecord, ChangeableField | 'archived_at' | 'decisions' | 'personal_data_erased_at'>
>;

export interface ApplicationChange {
  fields: ApplicationFields;
  events: EventSpec[];
}

/**
 * What `changes` do to `current`: the fields whose value they change, and the events that say
 * so; null when they change nothing (a PATCH with the values already there, say), so that an
 * idle PATCH claims no version and publishes nothing. Archiving an archived application keeps
 * the time it was archived.
 */
export function changedApplication(current: ApplicationRecord, changes: ApplicationChanges, at: Date): ApplicationChange | null {
  const fields: ApplicationFields = {};
  for (const field of CHANGEABLE_FIELDS) {
    const value = changes[field];
    if (value !== undefined && value !== (current[field] ?? null)) Object.assign(fields, { [field]: value });
  }
  const wasArchived = Boolean(current.archived_at);
  const archiving = changes.archived !== undefined && changes.archived !== wasArchived;
  if (archiving) fields.archived_at = changes.archived ? at : null;

  const data: EventDataOf<'application.created'> = { application_id: current.id, property_id: current.property_id };
  const events: EventSpec[] = [];
  const changed = CHANGEABLE_FIELDS.filter((field) => field in fields);
  if (changed.length > 0) events.push({ event: 'application.updated', data: { ...data, changed_fields: changed } });
  if (archiving) events.push({ event: changes.archived ? 'application.archived' : 'application.restored', data });
  return events.length > 0 ? { fields, events } : null;
}

/**
 * Every field a change can set, as the application has it (null for unset); `decisions` and
 * `personal_data_erased_at` only once set, so that a document without them stays as the previous
 * release wrote it.
 */
export function changeableState(application: ApplicationRecord): ApplicationFields {
  const state: ApplicationFields = { archived_at: application.archived_at ?? null };
  for (const field of CHANGEABLE_FIELDS) Object.assign(state, { [field]: application[field] ?? null });
  if (application.decisions && application.decisions.length > 0) state.decisions = application.decisions;
  if (application.personal_data_erased_at) state.personal_data_erased_at = application.personal_data_erased_at;
  return state;
}

/**
 * The application with a change applied, as its version `version` made at `at`. Once its personal
 * data is erased its applicants are read without it, whatever a copy written before still holds.
 */
export function withChange<T extends ApplicationRecord>(current: T, fields: ApplicationFields, version: number, at: Date): T {
  const changed = { ...current, ...fields, version, updated_at: at };
  const erasedAt = changed.personal_data_erased_at;
  if (!erasedAt) return changed;
  return { ...changed, applicants: changed.applicants.map((applicant) => erasedApplicant(applicant, erasedAt)) };
}

/** The 422 for a floor_plan_id that is not one of the property's floor plans. */
export function floorPlanNotOfProperty(propertyId: number): ServiceError {
  const message = `must be a floor plan of property ${propertyId}`;
  return new ServiceError(ErrorCode.VALIDATION_FAILED, `application.floor_plan_id ${message}`, [
    { field: 'application.floor_plan_id', message },
  ]);
}
