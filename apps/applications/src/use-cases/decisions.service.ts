import { Injectable } from '@nestjs/common';
import { CreateScope, Idempotency } from '@app/persistence';
import {
  DecisionInput,
  FormApplicant,
  DecisionRepresentation,
  entityTag,
  ErrorCode,
  MAX_DECISIONS,
  ServiceError,
  tagListMatches,
} from '@app/contracts';
import { ApplicantRecord } from '../domain/application';
import { applicantEventData } from '../domain/applicant-event';
import { toDecisionRepresentation } from '../domain/application.mapper';
import { Decider, storedDecision } from '../domain/decision';
import { ApplicationsRepository } from '../store/applications.repository';
import { ApplicationViews } from './application-views';
import { FormLink, FormSubjects, formView } from './form-subjects';

export type { Decider } from '../domain/decision';

/**
 * Decisions on applications, and an applicant's own withdrawal on the form. Each one is the
 * application's next version, with the whole history (newest first) as the change, so that a
 * decision made at once with a PATCH or another decision, through any instance, loses neither: the
 * loser reads again and goes on top (or its If-Match fails).
 */
@Injectable()
export class DecisionsService {
  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly views: ApplicationViews,
    private readonly idempotency: Idempotency,
    private readonly subjects: FormSubjects,
  ) {}

  /** Records `input` as the application's decision; once per request (Idempotency-Key, or the message). */
  record(
    clientId: number,
    id: number,
    input: DecisionInput,
    decider: Decider,
    scope: Omit<CreateScope, 'clientId' | 'body'>,
    ifMatch?: string,
  ): Promise<DecisionRepresentation> {
    const body = { application_id: id, decision: input };
    return this.idempotency.run({ ...scope, clientId, body }, (requestKey) =>
      this.store(clientId, id, input, decider, requestKey, ifMatch),
    );
  }

  /** The application's current decision; a 404 that says so when none was recorded. */
  async current(clientId: number, id: number): Promise<DecisionRepresentation> {
    const application = await this.applications.findOwned(clientId, id);
    const decision = application.decisions?.[0];
    if (!decision) throw new ServiceError(ErrorCode.NOT_FOUND, `application ${id} has no decision yet`);
    return toDecisionRepresentation(decision);
  }

  /** Every decision recorded on the application, newest first; none is an empty list. */
  async history(clientId: number, id: number): Promise<DecisionRepresentation[]> {
    const application = await this.applications.findOwned(clientId, id);
    return (application.decisions ?? []).map(toDecisionRepresentation);
  }

  /**
   * An applicant's own withdrawal on the form (`submission`, its page's nonce, names the request).
   * The primary applicant's withdraws the application: a decision `withdrawn` by no API key, saying
   * who withdrew. A co-applicant's or guarantor's withdraws only itself, and the application goes on
   * without it. Nothing when the application is withdrawn already.
   */
  async withdrawOnForm(link: FormLink, submission: string): Promise<FormApplicant> {
    const subject = await this.subjects.get(link);
    const { application, applicant } = subject;
    if (application.decisions?.[0]?.status === 'withdrawn') return formView(subject);
    if (applicant.type !== 'primary') {
      await this.withdrawApplicant(application.client_id, application.id, applicant.id);
      return formView((await this.subjects.find(link))!);
    }
    const note = `Withdrawn on the online form by ${applicant.first_name} ${applicant.last_name}.`;
    await this.store(application.client_id, application.id, { status: 'withdrawn', note }, { keyId: null }, `form:${submission}`);
    return formView((await this.subjects.find(link))!);
  }

  /**
   * A co-applicant or guarantor leaves the application, which goes on without it: its withdrawn_at is
   * set and applicant.withdrawn published. What its form kept stays with the application's records
   * (a removal through the API is what takes it away). Once: a withdrawn applicant withdraws nothing more.
   */
  private withdrawApplicant(clientId: number, applicationId: number, id: number): Promise<void> {
    return this.applications.change(clientId, applicationId, (current) => {
      const stored = current.applicants.find((candidate) => candidate.id === id);
      if (!stored) throw ServiceError.notFound('applicant', id);
      if (stored.withdrawn_at) return { change: null, answer: () => undefined };
      const at = new Date();
      const next: ApplicantRecord = { ...stored, withdrawn_at: at, updated_at: at };
      return {
        change: { updated_applicant: next },
        at,
        events: [{ event: 'applicant.withdrawn', data: applicantEventData(applicationId, current.property_id, next) }],
        answer: () => undefined,
      };
    });
  }

  private store(
    clientId: number,
    id: number,
    input: DecisionInput,
    decider: Decider,
    requestKey: string,
    ifMatch?: string,
  ): Promise<DecisionRepresentation> {
    return this.applications.change(clientId, id, async (current) => {
      const earlier = current.decisions ?? [];
      // A request done again (a redelivery, a retry with its Idempotency-Key) finds what it recorded.
      const done = earlier.find((decision) => decision.request_key === requestKey);
      if (done) return { change: null, answer: () => toDecisionRepresentation(done) };
      if (ifMatch !== undefined && !tagListMatches(ifMatch, entityTag(await this.views.represent(current)), 'strong')) {
        throw ServiceError.preconditionFailed();
      }
      if (current.archived_at) {
        throw ServiceError.conflict(`application ${id} is archived; restore it (PATCH archived: false) before deciding on it`);
      }
      if (earlier.length >= MAX_DECISIONS) {
        throw ServiceError.conflict(`application ${id} has ${MAX_DECISIONS} decisions already; no more can be recorded`);
      }
      const at = new Date();
      const decision = storedDecision(input, decider, at, requestKey);
      return {
        change: { fields: { decisions: [decision, ...earlier] } },
        at,
        events: [
          {
            event: 'application.decided',
            data: {
              application_id: id,
              property_id: current.property_id,
              status: decision.status,
              // Those who withdrew from it are no longer its applicants, and are not told.
              applicant_ids: current.applicants.filter((applicant) => !applicant.withdrawn_at).map((applicant) => applicant.id),
            },
          },
        ],
        answer: () => toDecisionRepresentation(decision),
      };
    });
  }
}
