import { Injectable } from '@nestjs/common';
import { FormApplicant } from '@app/contracts';
import { formTokenDigest } from '@app/crypto';
import { alreadySubmitted } from '../domain/form-refusals';
import { FormSubmissionsRepository, SubmissionOutcome } from '../store/form-submissions.repository';
import { FormLink, formView, FormSubjects } from './form-subjects';
import { FormTokens } from './form-tokens';

/**
 * How long a submission's claim, with no answer recorded, keeps the same page from being done
 * again: far longer than any step takes, so that only a claim whose process died (and whose
 * message the broker gives back) is taken over.
 */
export const SUBMISSION_LEASE_MS = 60_000;

/** Each form page sent is done once, by its submission nonce (its CSRF token's). */
@Injectable()
export class FormSubmissionsService {
  constructor(
    private readonly submissions: FormSubmissionsRepository,
    private readonly subjects: FormSubjects,
    private readonly formTokens: FormTokens,
  ) {}

  /** Takes a form page's submission nonce; a page sent again is refused and changes nothing. */
  async take(nonce: string): Promise<void> {
    if (!(await this.submissions.claim(nonce))) throw alreadySubmitted();
  }

  /**
   * Does a form page's `work` once for its submission nonce, and answers the page sent again (a
   * message the broker delivered twice, a page sent again after the form gave up waiting) as the
   * first was answered: the applicant it left, read anew, with the link's token for step 1.
   * Refusing it instead would leave an application started on step 1 whose applicant never got
   * its link. While the first is still at work, the page sent again is refused; a claim left by a
   * process that died is taken over after SUBMISSION_LEASE_MS (the work is safe to do again:
   * step 1 is keyed by the nonce, the other steps write the same values). A failed work gives
   * its claim back, so that the page may be sent again.
   */
  async once(nonce: string, link: FormLink | null, work: () => Promise<FormApplicant>): Promise<FormApplicant> {
    if (!(await this.submissions.claim(nonce))) {
      const outcome = await this.submissions.outcome(nonce);
      if (outcome) return this.replay(outcome);
      if (!(await this.submissions.takeOver(nonce, new Date(Date.now() - SUBMISSION_LEASE_MS)))) throw alreadySubmitted();
    }
    let answer: FormApplicant;
    try {
      answer = await work();
    } catch (error) {
      // Not given back (the database failing too): the claim is taken over once its lease ran out.
      await this.submissions.release(nonce).catch(() => undefined);
      throw error;
    }
    await this.submissions.recordOutcome(nonce, {
      token_digest: link?.digest ?? formTokenDigest(answer.token!),
      application_id: answer.application_id,
      with_token: link === null,
    });
    return answer;
  }

  /** The answer of a submission done before, as it is now. */
  private async replay(outcome: SubmissionOutcome): Promise<FormApplicant> {
    const subject = await this.subjects.find({ digest: outcome.token_digest, applicationId: outcome.application_id });
    if (!subject) throw alreadySubmitted();
    if (!outcome.with_token) return formView(subject);
    return { ...formView(subject), token: this.formTokens.token(subject.application.client_id, subject.applicant)! };
  }
}
