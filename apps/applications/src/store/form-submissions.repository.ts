import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { BackgroundPurge, OnceRecords, Storage } from '@app/persistence';

/**
 * How long a used form page's submission nonce is kept: longer than the CSRF token that carries
 * it lives (4 hours, apps/form), so a page sent again is refused while its token is still valid;
 * after that the form refuses the expired token itself.
 */
export const SUBMISSION_RETENTION_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * What a form page's submission answered, enough to answer it again: the applicant it left (by
 * its form link), and whether the answer carried the link's token (step 1, which makes it).
 */
export interface SubmissionOutcome {
  token_digest: string;
  application_id: number;
  with_token: boolean;
}

/**
 * A form page's submission nonce, claimed when its work starts (`at`), with what it answered once
 * that work is done (`outcome`; absent while it runs, or when the process running it died).
 */
interface FormSubmission {
  at: Date;
  outcome?: SubmissionOutcome;
}

/** The form pages' submission nonces, each used once (the `_id` index decides races). */
@Injectable()
export class FormSubmissionsRepository implements OnModuleInit, OnModuleDestroy {
  private readonly submissions: OnceRecords<FormSubmission>;
  private readonly purge = new BackgroundPurge('used form nonces', PURGE_EVERY_MS, () => this.purgeUsed());

  constructor(storage: Storage) {
    this.submissions = storage.onceRecords<FormSubmission>('form_submissions');
  }

  async onModuleInit(): Promise<void> {
    await this.submissions.prepare();
    this.purge.start();
  }

  onModuleDestroy(): void {
    this.purge.stop();
  }

  /** Whether this is the first use of the nonce. */
  claim(nonce: string): Promise<boolean> {
    return this.submissions.claim(nonce, { at: new Date() });
  }

  /** What the submission `nonce` answered; null while its work runs, or when it was never done. */
  async outcome(nonce: string): Promise<SubmissionOutcome | null> {
    return (await this.submissions.get(nonce))?.outcome ?? null;
  }

  /**
   * Claims again a submission whose work was claimed before `staleBefore` and never answered: the
   * process doing it died, and the message came back. True for the caller that takes it over.
   */
  takeOver(nonce: string, staleBefore: Date): Promise<boolean> {
    return this.submissions.updateWhere(nonce, { outcome: { $exists: false }, at: { $lt: staleBefore } }, { at: new Date() });
  }

  /** Records what the submission `nonce` answered, to answer it so again. */
  recordOutcome(nonce: string, outcome: SubmissionOutcome): Promise<void> {
    return this.submissions.annotate(nonce, { outcome });
  }

  /** Gives back the claim of a submission whose work failed, so that the page may be sent again. */
  async release(nonce: string): Promise<void> {
    await this.submissions.releaseWhere(nonce, { outcome: { $exists: false } });
  }

  /**
   * Removes the nonces used longer ago than SUBMISSION_RETENTION_MS; returns how many. Every
   * instance does this once an hour, in the background: the filter reads every nonce on FerretDB.
   */
  async purgeUsed(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - SUBMISSION_RETENTION_MS);
    return this.submissions.removeWhere({ at: { $lt: before } });
  }
}
