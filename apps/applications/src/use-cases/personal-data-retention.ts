import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { MIN_PERSONAL_DATA_DAYS } from '@app/contracts';
import { BackgroundPurge } from '@app/persistence';
import { ApplicationRecord } from '../domain/application';
import { formAbandoned, retentionEnded } from '../domain/retention';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { ApplicantDocumentsRepository } from '../store/applicant-documents.repository';
import { ApplicantFormsRepository } from '../store/applicant-forms.repository';
import { ApplicationsRepository } from '../store/applications.repository';
import { PersonalDataErasure } from './personal-data-erasure';
import { RetentionSettings } from './retention-settings';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often each instance looks for applications past their retention. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** Applications read and worked on at a time. */
const BATCH = 100;

/**
 * Erases the personal data of decided and withdrawn applications once their client's retention
 * period has passed since the current decision, and of forms abandoned for ABANDONED_FORM_DAYS
 * (formAbandoned): every instance, at boot and hourly after, in the background (finding them is a
 * scan on FerretDB). Instances that sweep at once erase each application once (see
 * PersonalDataErasure), and each sweep first settles the erasures made more than SETTLE_MS before.
 */
@Injectable()
export class PersonalDataRetention implements OnModuleInit, OnModuleDestroy {
  readonly sweep = new BackgroundPurge('personal data past its retention', SWEEP_EVERY_MS, () => this.eraseExpired());
  private readonly logger = new Logger('PersonalDataRetention');
  /** A sweep still at work when the next is due (a first one with years of applications) is not doubled. */
  private sweeping = false;

  constructor(
    private readonly repository: ApplicationsRepository,
    private readonly settings: RetentionSettings,
    private readonly erasure: PersonalDataErasure,
    private readonly forms: ApplicantFormsRepository,
    private readonly documents: ApplicantDocumentsRepository,
    private readonly env: ApplicationsEnvironment,
  ) {}

  onModuleInit(): void {
    this.sweep.start();
    void this.sweep.run();
  }

  onModuleDestroy(): void {
    this.sweep.stop();
  }

  /**
   * Erases what has outlived its retention as of `now` (Date.now, so that a process run on a clock
   * set ahead sweeps as of then); returns how many applications it erased.
   */
  async eraseExpired(now = Date.now()): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    try {
      await this.erasure.settle(now);
      const expired = await this.eraseDecided(now);
      const abandoned = await this.eraseAbandoned(now);
      if (expired > 0) this.logger.log(`erased the personal data of ${expired} applications past their retention`);
      if (abandoned > 0) this.logger.log(`erased the personal data of ${abandoned} forms abandoned on the public form`);
      return expired + abandoned;
    } finally {
      this.sweeping = false;
    }
  }

  /** Erases the decided applications past their client's retention; returns how many. */
  private async eraseDecided(now: number): Promise<number> {
    // None can be due before the shortest retention a client may set.
    const ids = await this.repository.decidedBefore(new Date(now - MIN_PERSONAL_DATA_DAYS * DAY_MS));
    const days = new Map<number, Promise<number>>();
    const daysOf = (clientId: number) => {
      if (!days.has(clientId)) days.set(clientId, this.settings.daysInEffect(clientId, now));
      return days.get(clientId)!;
    };
    return this.eraseWhere(ids, now, 'retention_period', async (application) =>
      retentionEnded(application, await daysOf(application.client_id), now),
    );
  }

  /** Erases the forms abandoned for ABANDONED_FORM_DAYS; returns how many. */
  private async eraseAbandoned(now: number): Promise<number> {
    const days = this.env.ABANDONED_FORM_DAYS;
    const ids = await this.repository.abandonedFormsBefore(new Date(now - days * DAY_MS));
    return this.eraseWhere(ids, now, 'abandoned_form', async (application) => {
      const applicants = await this.forms.withProgress(application.applicants);
      const uploads = await Promise.all(
        application.applicants.map((applicant) =>
          this.documents.lastUploadedAt({ applicationId: application.id, applicantId: applicant.id }),
        ),
      );
      return formAbandoned({ ...application, applicants }, uploads, days, now);
    });
  }

  /**
   * Erases those of the applications `ids`, each read with every change folded in, that `due`
   * says are, as `trigger` makes it; returns how many.
   */
  private async eraseWhere(
    ids: number[],
    now: number,
    trigger: 'retention_period' | 'abandoned_form',
    due: (application: ApplicationRecord) => Promise<boolean>,
  ): Promise<number> {
    let erased = 0;
    for (let from = 0; from < ids.length; from += BATCH) {
      for (const application of await this.repository.findMany(ids.slice(from, from + BATCH))) {
        if (!(await due(application))) continue;
        await this.erasure.eraseExpired(application, trigger, now);
        erased++;
      }
    }
    return erased;
  }
}
