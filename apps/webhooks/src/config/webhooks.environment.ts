import { IsIn, Matches } from 'class-validator';
import { isIntegerInRange, ServiceEnvironment } from '@app/config';
import { MAX_WEBHOOK_SUBSCRIPTIONS } from '@app/contracts';
import { isFieldEncryptionKeys } from '@app/crypto';

/**
 * Seconds between attempts: 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h three times; the last
 * attempt is made about 37 hours after the first.
 */
export const DEFAULT_RETRY_SCHEDULE = '5,300,1800,7200,18000,36000,36000,36000';

export class WebhooksEnvironment extends ServiceEnvironment {
  override HTTP_PORT: number = 3005;

  /** Seconds to wait before each retry of a failed delivery, comma separated: one retry per entry. */
  @Matches(/^\d{1,6}(,\d{1,6}){0,19}$/, {
    message: 'WEBHOOK_RETRY_SCHEDULE must be up to 20 whole numbers of seconds, comma separated',
  })
  WEBHOOK_RETRY_SCHEDULE: string = DEFAULT_RETRY_SCHEDULE;

  /** Allow loopback, private and link-local targets and plain http (tests, local receivers). */
  @IsIn(['true', 'false'], { message: 'WEBHOOK_ALLOW_PRIVATE_URLS must be true or false' })
  WEBHOOK_ALLOW_PRIVATE_URLS: string = 'false';

  /** Deliveries one instance has under way at once. */
  @isIntegerInRange('WEBHOOK_CONCURRENCY', 1, 500)
  WEBHOOK_CONCURRENCY: number = 32;

  /** Attempts one instance has under way at once to one endpoint (scheme, host and port). */
  @isIntegerInRange('WEBHOOK_ENDPOINT_CONCURRENCY', 1, 500)
  WEBHOOK_ENDPOINT_CONCURRENCY: number = 8;

  /** Attempts one instance has under way at once for one client, whatever its endpoints. */
  @isIntegerInRange('WEBHOOK_CLIENT_CONCURRENCY', 1, 500)
  WEBHOOK_CLIENT_CONCURRENCY: number = 16;

  /** Attempts in a row an endpoint leaves unanswered (or answers 5xx) before it is left alone. */
  @isIntegerInRange('WEBHOOK_BREAKER_FAILURES', 1, 1000)
  WEBHOOK_BREAKER_FAILURES: number = 5;

  /** Seconds an endpoint is left alone, its deliveries waiting, before one attempt probes it. */
  @isIntegerInRange('WEBHOOK_BREAKER_OPEN_SECONDS', 1, 3600)
  WEBHOOK_BREAKER_OPEN_SECONDS: number = 30;

  /**
   * Days a finished delivery and its attempts are kept after it last changed (or was asked to be
   * made again); then they are removed. Must outlast the retry schedule, which it does by far.
   */
  @isIntegerInRange('WEBHOOK_DELIVERY_RETENTION_DAYS', 1, 3650)
  WEBHOOK_DELIVERY_RETENTION_DAYS: number = 30;

  /** `id:base64key` entries: the first seals the subscriptions' signing secrets, every one opens them. */
  @isFieldEncryptionKeys()
  FIELD_ENCRYPTION_KEYS: string;

  /**
   * Seconds past its time after which a retry still waiting is queued again: its message was lost
   * or is held by the broker (RabbitMQ 3.10 holds a quorum queue's dead letters for minutes when
   * the queue recovers before the exchanges after a restart).
   */
  @isIntegerInRange('WEBHOOK_RETRY_OVERDUE_SECONDS', 2, 86400)
  WEBHOOK_RETRY_OVERDUE_SECONDS: number = 120;

  /** Live subscriptions one client may have at once. */
  @isIntegerInRange('WEBHOOK_MAX_SUBSCRIPTIONS', 1, MAX_WEBHOOK_SUBSCRIPTIONS)
  WEBHOOK_MAX_SUBSCRIPTIONS: number = 20;

  get deliveryRetentionMs(): number {
    return this.WEBHOOK_DELIVERY_RETENTION_DAYS * 24 * 60 * 60 * 1000;
  }

  get retrySchedule(): number[] {
    return this.WEBHOOK_RETRY_SCHEDULE.split(',').map(Number);
  }

  get allowPrivateUrls(): boolean {
    return this.WEBHOOK_ALLOW_PRIVATE_URLS === 'true';
  }
}
