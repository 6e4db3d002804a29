import { ApplicationListFilters, FormStatus } from '@app/contracts';
import { applicationStatus } from './application.mapper';
import { ApplicationRecord } from './application.schema';

/**
 * Whether an application belongs in a list page with these filters. Without `archived`, archived
 * applications are left out. `form_status` is the primary applicant's, which the caller reads
 * (from the form's records) only when that filter, or `status` on an application not yet decided, is given.
 */
export function matchesListFilters(
  application: ApplicationRecord,
  filters: ApplicationListFilters,
  primaryFormStatus?: FormStatus,
): boolean {
  const archived = filters.archived ?? 'false';
  if (archived !== 'all' && Boolean(application.archived_at) !== (archived === 'true')) return false;
  if (filters.assigned_user_id !== undefined && application.assigned_user_id !== filters.assigned_user_id) return false;
  if (filters.updated_since !== undefined && application.updated_at.getTime() < Date.parse(filters.updated_since)) return false;
  if (filters.form_status !== undefined && primaryFormStatus !== filters.form_status) return false;
  if (filters.status !== undefined && applicationStatus(application, primaryFormStatus === 'completed') !== filters.status)
    return false;
  return true;
}
