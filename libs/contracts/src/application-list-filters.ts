import { parseCalendarDate } from './dates';
import { FORM_STATUSES, FormStatus } from './dto/applicant.dto';
import { MAX_USER_ID } from './dto/application.dto';
import { APPLICATION_STATUSES, ApplicationStatus } from './dto/decision-status';
import { FieldProblem } from './errors';
import { isPositiveId } from './messages';

export const ARCHIVED_FILTERS = ['false', 'true', 'all'] as const;
export type ArchivedFilter = (typeof ARCHIVED_FILTERS)[number];

/** The filters of the applications list, as they travel in ListApplicationsMessage. */
export interface ApplicationListFilters {
  /** Absent means `false`: archived applications are left out unless asked for. */
  archived?: ArchivedFilter;
  /** The primary applicant's form_status. */
  form_status?: FormStatus;
  assigned_user_id?: number;
  /** ISO 8601 (`Date.toISOString`): only applications with `updated_at` at or after it. */
  updated_since?: string;
  /** The application's status: draft, submitted, or its decision's. */
  status?: ApplicationStatus;
  /** Only applications whose household income_to_rent is at least this (those without one are left out). */
  income_to_rent_min?: number;
}

export const LIST_FILTER_PARAMETERS = [
  'archived',
  'form_status',
  'assigned_user_id',
  'updated_since',
  'status',
  'income_to_rent_min',
] as const;

/** income_to_rent_min: a decimal number, at most two places, from 0 to this. */
const MAX_INCOME_TO_RENT = 1000;
const DECIMAL = /^\d{1,4}(\.\d{1,2})?$/;

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * `updated_since`: an ISO 8601 timestamp with its offset (`2026-11-22T14:03:09+00:00`, the
 * format of `updated_at`) or a date (midnight UTC). A `+` that reached the query string
 * unencoded arrives as a space and is read as the `+` it was.
 */
export function parseTimestampQuery(text: string): Date | null {
  const match = TIMESTAMP.exec(text.replace(/ (\d{2}:\d{2})$/, '+$1'));
  if (!match || parseCalendarDate(match[1]) !== match[1]) return null;
  const [hours, minutes, seconds] = [match[2], match[3], match[4] ?? '0'].map(Number);
  if (match[2] !== undefined && (hours > 23 || minutes > 59 || seconds > 59)) return null;
  const at = new Date(match[2] === undefined ? `${match[1]}T00:00:00Z` : match[0].replace(/ /, '+'));
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Reads the filters of a list query string; each bad value adds its problem to `problems`. */
export function parseListFilters(query: Record<string, unknown>, problems: FieldProblem[]): ApplicationListFilters {
  const filters: ApplicationListFilters = {};
  const { archived, form_status: formStatus, assigned_user_id: assigned, updated_since: since, status } = query;
  const minimum = query.income_to_rent_min;
  if (minimum !== undefined) {
    const value = typeof minimum === 'string' && DECIMAL.test(minimum) ? Number(minimum) : NaN;
    if (value <= MAX_INCOME_TO_RENT) filters.income_to_rent_min = value;
    else
      problems.push({
        field: 'income_to_rent_min',
        message: `must be a number from 0 to ${MAX_INCOME_TO_RENT}, with at most two decimals (2.5)`,
      });
  }
  if (archived !== undefined) {
    if (ARCHIVED_FILTERS.includes(archived as ArchivedFilter)) filters.archived = archived as ArchivedFilter;
    else problems.push({ field: 'archived', message: `must be one of ${ARCHIVED_FILTERS.join(', ')}` });
  }
  if (formStatus !== undefined) {
    if (FORM_STATUSES.includes(formStatus as FormStatus)) filters.form_status = formStatus as FormStatus;
    else problems.push({ field: 'form_status', message: `must be one of ${FORM_STATUSES.join(', ')}` });
  }
  if (assigned !== undefined) {
    const id = typeof assigned === 'string' && /^[1-9]\d{0,9}$/.test(assigned) ? Number(assigned) : NaN;
    if (id <= MAX_USER_ID) filters.assigned_user_id = id;
    else problems.push({ field: 'assigned_user_id', message: `must be an integer from 1 to ${MAX_USER_ID}` });
  }
  if (since !== undefined) {
    const at = typeof since === 'string' ? parseTimestampQuery(since) : null;
    if (at) filters.updated_since = at.toISOString();
    else
      problems.push({
        field: 'updated_since',
        message: 'must be a timestamp such as 2026-11-22T14:03:09+00:00 (encode + as %2B) or a date YYYY-MM-DD',
      });
  }
  if (status !== undefined) {
    if (APPLICATION_STATUSES.includes(status as ApplicationStatus)) filters.status = status as ApplicationStatus;
    else problems.push({ field: 'status', message: `must be one of ${APPLICATION_STATUSES.join(', ')}` });
  }
  return filters;
}

/** The filters a list message carries, and no other of its fields. */
export function listFiltersOf(message: ApplicationListFilters): ApplicationListFilters {
  const filters: Record<string, unknown> = {};
  for (const name of LIST_FILTER_PARAMETERS) {
    if (message[name] !== undefined) filters[name] = message[name];
  }
  return filters as ApplicationListFilters;
}

/** Whether the filters of a message are as parseListFilters makes them: a queue has more writers than the gateway. */
export function validListFilters(filters: ApplicationListFilters): boolean {
  const { archived, form_status: formStatus, assigned_user_id: assigned, updated_since: since, status } = filters;
  return (
    (status === undefined || APPLICATION_STATUSES.includes(status)) &&
    (filters.income_to_rent_min === undefined ||
      (typeof filters.income_to_rent_min === 'number' &&
        filters.income_to_rent_min >= 0 &&
        filters.income_to_rent_min <= MAX_INCOME_TO_RENT)) &&
    (archived === undefined || ARCHIVED_FILTERS.includes(archived)) &&
    (formStatus === undefined || FORM_STATUSES.includes(formStatus)) &&
    (assigned === undefined || (isPositiveId(assigned) && assigned <= MAX_USER_ID)) &&
    (since === undefined || (typeof since === 'string' && !Number.isNaN(Date.parse(since))))
  );
}
