import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { MIN_PERSONAL_DATA_DAYS } from '@app/contracts';
import { BackgroundPurge } from '@app/persistence';
import { ApplicationVersions } from '../applications/application-versions';
import { ApplicationRecord } from '../applications/application.schema';
import { ApplicationsRepository } from '../applications/applications.repository';
import { PersonalDataErasure } from './personal-data-erasure';
import { RetentionSettings } from './retention-settings';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often each instance looks for applications past their retention. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** Applications read and worked on at a time. */
const BATCH = 100;

/** Whether the application's personal data has been kept its `days` since its current decision, as of `now`. */
export function retentionEnded(application: ApplicationRecord, days: number, now: number): boolean {
  const decision = application.decisions?.[0];
  if (!decision || application.personal_data_erased_at) return false;
  return decision.decided_at.getTime() + days * DAY_MS <= now;
}

/**
 * Erases the personal data of decided and withdrawn applications once their client's retention
 * period has passed since the current decision: every instance, at boot and hourly after, in the
 * background (finding them is a scan on FerretDB). Instances that sweep at once erase each
 * application once (see PersonalDataErasure), and each sweep first settles the erasures made more
 * than SETTLE_MS before.
 */
@Injectable()
export class PersonalDataRetention implements OnModuleInit, OnModuleDestroy {
  readonly sweep = new BackgroundPurge('personal data past its retention', SWEEP_EVERY_MS, () => this.eraseExpired());
  private readonly logger = new Logger('PersonalDataRetention');
  /** A sweep still at work when the next is due (a first one with years of applications) is not doubled. */
  private sweeping = false;

  constructor(
    private readonly repository: ApplicationsRepository,
    private readonly versions: ApplicationVersions,
    private readonly settings: RetentionSettings,
    private readonly erasure: PersonalDataErasure,
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
      // None can be due before the shortest retention a client may set.
      const ids = await this.repository.decidedBefore(new Date(now - MIN_PERSONAL_DATA_DAYS * DAY_MS));
      const days = new Map<number, Promise<number>>();
      const daysOf = (clientId: number) => {
        if (!days.has(clientId))
          days.set(
            clientId,
            this.settings.get(clientId).then((s) => s.personal_data_days),
          );
        return days.get(clientId)!;
      };
      let erased = 0;
      for (let from = 0; from < ids.length; from += BATCH) {
        const stored = await this.repository.findAllByKey(ids.slice(from, from + BATCH));
        for (const application of await this.versions.currentAll(stored)) {
          if (!retentionEnded(application, await daysOf(application.client_id), now)) continue;
          await this.erasure.eraseExpired(application, now);
          erased++;
        }
      }
      if (erased > 0) this.logger.log(`erased the personal data of ${erased} applications past their retention`);
      return erased;
    } finally {
      this.sweeping = false;
    }
  }
}
