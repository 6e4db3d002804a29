import { ApplicationListFilters, ApplicationRepresentation, FormStatus } from '@app/contracts';
import { ApplicationRecord } from './application';

/** What the filters on figures not in the application document are checked against, once read. */
export interface DerivedFields {
  primaryFormStatus: FormStatus;
  representation: Pick<ApplicationRepresentation, 'status' | 'income_to_rent'>;
}

/**
 * Whether an application belongs in a list page with these filters. Without `archived`, archived
 * applications are left out. Without `derived`, only the filters on the application's own fields
 * are checked (what the caller checks before it reads the rest); with it, the others too:
 * `form_status` (the primary applicant's), `status` and `income_to_rent_min`.
 */
export function matchesListFilters(
  application: ApplicationRecord,
  filters: ApplicationListFilters,
  derived?: DerivedFields,
): boolean {
  const archived = filters.archived ?? 'false';
  if (archived !== 'all' && Boolean(application.archived_at) !== (archived === 'true')) return false;
  if (filters.assigned_user_id !== undefined && application.assigned_user_id !== filters.assigned_user_id) return false;
  if (filters.updated_since !== undefined && application.updated_at.getTime() < Date.parse(filters.updated_since)) return false;
  if (!derived) return true;
  if (filters.form_status !== undefined && derived.primaryFormStatus !== filters.form_status) return false;
  if (filters.status !== undefined && derived.representation.status !== filters.status) return false;
  const ratio = derived.representation.income_to_rent;
  if (filters.income_to_rent_min !== undefined && (ratio === null || ratio === undefined || ratio < filters.income_to_rent_min))
    return false;
  return true;
}
