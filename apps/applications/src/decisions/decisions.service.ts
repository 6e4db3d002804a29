import { Injectable } from '@nestjs/common';
import { EventOutbox } from '@app/events';
import { CreateScope, Idempotency } from '@app/persistence';
import {
  DecisionInput,
  DecisionRepresentation,
  entityTag,
  ErrorCode,
  MAX_DECISIONS,
  ServiceError,
  tagListMatches,
} from '@app/contracts';
import { withChange } from '../applications/application-changes';
import { ApplicationVersions } from '../applications/application-versions';
import { toDecisionRepresentation } from '../applications/application.mapper';
import { ApplicantRecord, ApplicationRecord, StoredDecision } from '../applications/application.schema';
import { ApplicationsRepository } from '../applications/applications.repository';
import { ApplicationsService } from '../applications/applications.service';

/** Decisions that lost their version to another change read again, this often. */
const MAX_DECISION_ATTEMPTS = 20;

/** Who recorded a decision: an API key (its id), or the applicant withdrawing on the form (null). */
export interface Decider {
  keyId: string | null;
}

/**
 * Decisions on applications. Each one claims the application's next version in
 * ApplicationVersions, as a PATCH does, with the whole history (newest first) as the change, so
 * that a decision made at once with a PATCH or another decision, through any instance, loses
 * neither: the loser reads again and goes on top (or its If-Match fails).
 */
@Injectable()
export class DecisionsService {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly versions: ApplicationVersions,
    private readonly repository: ApplicationsRepository,
    private readonly idempotency: Idempotency,
    private readonly outbox: EventOutbox,
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
    const application = await this.applications.owned(clientId, id);
    const decision = application.decisions?.[0];
    if (!decision) throw new ServiceError(ErrorCode.NOT_FOUND, `application ${id} has no decision yet`);
    return toDecisionRepresentation(decision);
  }

  /** Every decision recorded on the application, newest first; none is an empty list. */
  async history(clientId: number, id: number): Promise<DecisionRepresentation[]> {
    const application = await this.applications.owned(clientId, id);
    return (application.decisions ?? []).map(toDecisionRepresentation);
  }

  /**
   * The applicant's own withdrawal on the form (`submission`, its page's nonce, names the
   * request): a decision `withdrawn` by no API key, saying who withdrew; none when the
   * application is withdrawn already.
   */
  async withdrawOnForm(application: ApplicationRecord, applicant: ApplicantRecord, submission: string): Promise<void> {
    if (application.decisions?.[0]?.status === 'withdrawn') return;
    const note = `Withdrawn on the online form by ${applicant.first_name} ${applicant.last_name}.`;
    await this.store(
      application.client_id,
      application.id,
      { status: 'withdrawn', note },
      { keyId: null },
      `form:${submission}`,
      undefined,
    );
  }

  private async store(
    clientId: number,
    id: number,
    input: DecisionInput,
    decider: Decider,
    requestKey: string,
    ifMatch: string | undefined,
  ): Promise<DecisionRepresentation> {
    for (let attempt = 0; attempt < MAX_DECISION_ATTEMPTS; attempt++) {
      const current = await this.applications.owned(clientId, id);
      const earlier = current.decisions ?? [];
      // A request done again (a redelivery, a retry with its Idempotency-Key) finds what it recorded.
      const done = earlier.find((decision) => decision.request_key === requestKey);
      if (done) return toDecisionRepresentation(done);
      if (ifMatch !== undefined && !tagListMatches(ifMatch, entityTag(await this.applications.represent(current)), 'strong')) {
        throw ServiceError.preconditionFailed();
      }
      if (current.archived_at) {
        throw ServiceError.conflict(`application ${id} is archived; restore it (PATCH archived: false) before deciding on it`);
      }
      if (earlier.length >= MAX_DECISIONS) {
        throw ServiceError.conflict(`application ${id} has ${MAX_DECISIONS} decisions already; no more can be recorded`);
      }
      const now = new Date();
      const decision = storedDecision(input, decider, now, requestKey);
      const decisions = [decision, ...earlier];
      const version = (current.version ?? 0) + 1;
      const eventIds = await this.outbox.record(clientId, this.versions.witness(id, version), [
        {
          event: 'application.decided',
          data: {
            application_id: id,
            property_id: current.property_id,
            status: decision.status,
            applicant_ids: current.applicants.map((applicant) => applicant.id),
          },
        },
      ]);
      if (await this.versions.claimFields(id, version, { decisions }, now, eventIds)) {
        await this.repository.saveApplicants(withChange(current, { decisions }, version, now));
        this.outbox.written(eventIds);
        return toDecisionRepresentation(decision);
      }
      await this.outbox.discard(eventIds);
    }
    throw ServiceError.unavailable(`application ${id} is being changed by many requests at once; retry later`);
  }
}

/** A decision as stored: every field, conditions and reasons as lists (empty where they do not apply). */
export function storedDecision(input: DecisionInput, decider: Decider, at: Date, requestKey: string): StoredDecision {
  return {
    status: input.status,
    conditions: (input.conditions ?? []).map((condition) => ({
      kind: condition.kind,
      amount: condition.amount ?? null,
      text: condition.text ?? null,
    })),
    reasons: [...(input.reasons ?? [])],
    note: input.note ?? null,
    decided_by: input.decided_by ?? null,
    key_id: decider.keyId,
    decided_at: at,
    request_key: requestKey,
  };
}
