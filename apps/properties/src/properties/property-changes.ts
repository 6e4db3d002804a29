import { ErrorCode, PropertyChanges, ServiceError } from '@app/contracts';
import { PropertyRecord, PropertyState, stateOf } from './property.schema';

/** Fields whose null means "not set", stored as "". */
const TEXT_FIELDS = [
  'street',
  'city',
  'state',
  'zip',
  'manager_name',
  'manager_email',
  'manager_phone',
  'invitation_only_message',
] as const;

/**
 * The state `changes` leave the property in, or null when they change nothing. The floor plans
 * keep their names when the property is renamed; a single_family property has one floor plan.
 */
export function changedProperty(current: PropertyRecord, changes: PropertyChanges, at: Date): PropertyState | null {
  const next = stateOf(current);
  if (changes.available !== undefined) next.available = changes.available;
  if (changes.kind !== undefined) next.kind = changes.kind;
  if (changes.name !== undefined) next.name = changes.name;
  if (changes.invitation_only !== undefined) next.invitation_only = changes.invitation_only;
  if (changes.form_preset_id !== undefined) next.form_preset_id = changes.form_preset_id;
  for (const field of TEXT_FIELDS) {
    if (changes[field] !== undefined) next[field] = changes[field] ?? '';
  }
  if (next.kind === 'single_family' && next.floor_plans.length > 1) {
    throw invalid('property.kind', `cannot be single_family while the property has ${next.floor_plans.length} floor plans`);
  }
  const unchanged = Object.keys(next).every(
    (field) => next[field as keyof PropertyState] === current[field as keyof PropertyState],
  );
  if (unchanged) return null;
  next.updated_at = at;
  return next;
}

/** A 422 naming one field, as input validation gives it. */
export function invalid(field: string, message: string): ServiceError {
  return new ServiceError(ErrorCode.VALIDATION_FAILED, `${field} ${message}`, [{ field, message }]);
}
