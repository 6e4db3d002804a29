import { IsNumber, Matches, Max, Min } from 'class-validator';
import { HTTP_URL, isIntegerInRange, isTimeout, ServiceEnvironment } from '@app/config';

/**
 * Seconds between attempts to hand a message to the mail server: 10 s, 1 min, 5 min, 15 min,
 * 30 min, 1 h, 2 h, 4 h, 6 h, 6 h, 4 h; the last attempt is made about 24 hours after the first,
 * and a message it fails is given up.
 */
export const DEFAULT_MAIL_RETRY_SCHEDULE = '10,60,300,900,1800,3600,7200,14400,21600,21600,14400';

/** Reminders of a started, unfinished form, at most. */
export const MAX_REMINDERS = 2;

/** Invitations e-mailed to the people one application's form names, at most (its household holds six). */
export const FORM_INVITATIONS_PER_APPLICATION = 6;

/** Invitations e-mailed a day to the people named on forms filled in from one applicant's address, at most. */
export const FORM_INVITATIONS_PER_SENDER_A_DAY = 12;

/**
 * Address confirmations one mailbox (every spelling of it together) is sent an hour, from every
 * client together; the rest are not sent, and the next message held for it asks again.
 */
export const CONFIRMATIONS_PER_MAILBOX_AN_HOUR = 3;

export class NotificationsEnvironment extends ServiceEnvironment {
  override HTTP_PORT: number = 3006;

  /** The mail server: smtp:// (STARTTLS when offered) or smtps://, with user and password in it if it needs them. */
  @Matches(/^smtps?:\/\/\S+$/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL: string = 'smtp://127.0.0.1:1025';

  /** The sender address of every message; a client's sender_name is shown with it. */
  @Matches(/^[^\s@<>",]+@[^\s@<>",]+$/, { message: 'MAIL_FROM must be an e-mail address' })
  MAIL_FROM: string = 'applications@rental-applications.localhost';

  /** How long after a form was started, and not completed, a reminder goes; hours, fractions allowed. */
  @IsNumber({}, { message: 'REMINDER_AFTER_HOURS must be a number of hours' })
  @Min(0.0001, { message: 'REMINDER_AFTER_HOURS must be at least 0.0001 (0.36 s)' })
  @Max(720, { message: 'REMINDER_AFTER_HOURS must be at most 720 (30 days)' })
  REMINDER_AFTER_HOURS: number = 24;

  /** Seconds to wait before each retry of a message the mail server did not take, comma separated. */
  @Matches(/^\d{1,6}(,\d{1,6}){0,19}$/, {
    message: 'MAIL_RETRY_SCHEDULE must be up to 20 whole numbers of seconds, comma separated',
  })
  MAIL_RETRY_SCHEDULE: string = DEFAULT_MAIL_RETRY_SCHEDULE;

  /**
   * Where applicants reach the form: the links an e-mail carries to confirm its address or to
   * stop every e-mail to it start with it.
   */
  @Matches(HTTP_URL, { message: 'APPLY_BASE_URL must be an absolute http(s) URL' })
  APPLY_BASE_URL: string = 'http://localhost:3003';

  /** Messages handed to the mail server a day for one address, whatever client they are from; the rest wait for the next day. */
  @isIntegerInRange('MAIL_DAILY_LIMIT_PER_ADDRESS', 1, 1000)
  MAIL_DAILY_LIMIT_PER_ADDRESS: number = 10;

  /**
   * How long a message to an address typed on the form waits for its owner to confirm it, in
   * hours (fractions allowed); then it is recorded `failed`, its content dropped.
   */
  @IsNumber({}, { message: 'MAIL_HOLD_HOURS must be a number of hours' })
  @Min(0.0001, { message: 'MAIL_HOLD_HOURS must be at least 0.0001 (0.36 s)' })
  @Max(720, { message: 'MAIL_HOLD_HOURS must be at most 720 (30 days)' })
  MAIL_HOLD_HOURS: number = 168;

  /**
   * Invitations e-mailed a UTC day to people named on forms at one property, whoever filled them
   * in: the sender's own address is typed on the form, so a cap on it alone is escaped by a new one.
   */
  @isIntegerInRange('FORM_INVITATIONS_PER_PROPERTY_A_DAY', 1, 100000)
  FORM_INVITATIONS_PER_PROPERTY_A_DAY: number = 60;

  /** Messages one instance has under way at once. */
  @isIntegerInRange('MAIL_CONCURRENCY', 1, 100)
  MAIL_CONCURRENCY: number = 8;

  /** How long one SMTP exchange (connect, greeting, the message) may take. */
  @isTimeout('SMTP_TIMEOUT_MS')
  SMTP_TIMEOUT_MS: number = 15000;

  /** The deadline of a question to the applications service. */
  @isTimeout('RPC_TIMEOUT_MS')
  RPC_TIMEOUT_MS: number = 5000;

  get reminderAfterMs(): number {
    return Math.max(1, Math.round(this.REMINDER_AFTER_HOURS * 3600 * 1000));
  }

  get holdMs(): number {
    return Math.max(1, Math.round(this.MAIL_HOLD_HOURS * 3600 * 1000));
  }

  get retrySchedule(): number[] {
    return this.MAIL_RETRY_SCHEDULE.split(',').map(Number);
  }
}
