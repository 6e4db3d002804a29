import { ApplicationRecord } from './application';
import { startedOnPublicForm } from './form-added';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether the application's personal data has been kept its `days` since its current decision, as of `now`. */
export function retentionEnded(application: ApplicationRecord, days: number, now: number): boolean {
  const decision = application.decisions?.[0];
  if (!decision || application.personal_data_erased_at) return false;
  return decision.decided_at.getTime() + days * DAY_MS <= now;
}

/**
 * Whether `application` is a form abandoned for `days` as of `now`: started on the public form (an
 * integrator that made one can issue its link again), undecided, not erased, completed by none of
 * its applicants, and changed by nobody for `days`: neither the application, nor an applicant's
 * form (its `applicants` carry their form progress, withFormProgress, whose updated_at a form step
 * moves), nor its documents (`uploads`: when each applicant last uploaded one, null for none).
 */
export function formAbandoned(application: ApplicationRecord, uploads: Array<Date | null>, days: number, now: number): boolean {
  if (!startedOnPublicForm(application)) return false;
  if (application.decisions?.length || application.personal_data_erased_at) return false;
  if (application.applicants.some((applicant) => applicant.form_status === 'completed')) return false;
  const changes = [application.updated_at, ...uploads, ...application.applicants.map((applicant) => applicant.updated_at)];
  const lastChange = Math.max(...changes.map((at) => at?.getTime() ?? 0));
  return lastChange + days * DAY_MS <= now;
}
