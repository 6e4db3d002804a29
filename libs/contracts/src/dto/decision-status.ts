// Apart from decision.dto, which imports application.dto: the application's representation names these too.

/** What a landlord decided on an application; `withdrawn` is also what an applicant's withdrawal records. */
export const DECISION_STATUSES = ['approved', 'conditionally_approved', 'declined', 'withdrawn'] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

/** An application's `status`: `draft` until its primary applicant completes the form, then `submitted`, then the decision. */
export const APPLICATION_STATUSES = ['draft', 'submitted', ...DECISION_STATUSES] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
