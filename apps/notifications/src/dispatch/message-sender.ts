/**
 * Hands stored messages to the mail server, one attempt per task from the outgoing queue: under
 * a lease so that two instances never send one at once, within the address's daily limit, and
 * with a failed attempt retried on MAIL_RETRY_SCHEDULE until it is given up.
 */
import { Injectable, Logger } from '@nestjs/common';
import { MessageStatus } from '@app/contracts';
import { countNotificationMessage } from '@app/observability';
import { NotificationsEnvironment } from '../config/notifications.environment';
import { Mailer } from '../mail/mailer';
import { AddressBook, addressDigest, formerAddressDigest } from '../addresses/address-book.repository';
import { afterFailure, attemptError, MessageRecord } from '../messages/message-record';
import { MessageStore } from '../messages/message-store';
import { placesExpireAt, utcDay } from './daily-caps';
import { NotificationQueues } from './notification-queues';

/**
 * An attempt to hand a message to the mail server: `retry` counts the retries made before it.
 * With `hold_over`, the end of a held message's hold instead (MAIL_HOLD_HOURS after it was held).
 */
export interface SendTask {
  key: string;
  retry: number;
  hold_over?: boolean;
}

/**
 * How long one instance holds a message it is handing to the mail server, in SMTP timeouts. Its
 * send is stopped one SMTP timeout before the lease runs out, wherever it is: waiting for one of
 * the pool's connections (MAIL_CONCURRENCY sends share them) or on one. So no send of a message
 * is under way in a live instance once its lease has run out, for another to take it and send it
 * again; the last SMTP timeout is left to record the outcome.
 */
const LEASE_FACTOR = 4;

/** The statuses of a message an attempt may send. */
const SENDABLE: MessageStatus[] = ['pending', 'retrying'];

@Injectable()
export class MessageSender {
  // The context operators have always filtered its warnings by.
  private readonly logger = new Logger('NotificationWorker');
  private readonly schedule: number[];

  constructor(
    private readonly messages: MessageStore,
    private readonly addresses: AddressBook,
    private readonly mailer: Mailer,
    private readonly queues: NotificationQueues,
    private readonly env: NotificationsEnvironment,
  ) {
    this.schedule = env.retrySchedule;
  }

  /**
   * One attempt: only by the instance that leased the message, so that two never hand it over at
   * once. A task for a message leased by another (a redelivery, say) looks again after the first
   * retry delay, in case that instance stopped midway. The Message-ID is the same on every attempt.
   */
  async attempt(task: SendTask): Promise<void> {
    const message = await this.messages.find(task.key);
    // The end of a hold sends nothing: a message released meanwhile has its own task.
    if (task.hold_over) return message?.status === 'held' ? this.endHold(message) : undefined;
    // An erased message is never sendable; its address is gone with the rest.
    if (!message || !SENDABLE.includes(message.status) || message.to === null) return;
    const address = addressDigest(message.to);
    if (
      !message.required_notice &&
      (await this.addresses.isSuppressed(message.client_id, address, formerAddressDigest(message.to)))
    ) {
      await this.messages.update(task.key, { status: 'suppressed', content: null, list_unsubscribe: null, lease_until: null });
      countNotificationMessage(message.kind, 'suppressed');
      return;
    }
    const now = new Date();
    const until = new Date(now.getTime() + LEASE_FACTOR * this.env.SMTP_TIMEOUT_MS);
    if (!(await this.messages.lease(task.key, now, until))) {
      await this.queues.publish(this.queues.retryQueue(this.schedule[0]), task);
      return;
    }
    const day = utcDay(now);
    const dailyPlace = this.addresses.takePlace(
      `sent:${address}:${day}`,
      this.env.MAIL_DAILY_LIMIT_PER_ADDRESS,
      task.key,
      placesExpireAt(day),
    );
    if (!(await dailyPlace)) {
      // The address has had its day's messages, from whichever clients: this one waits, as long
      // as the longest retry, without counting as one.
      await this.messages.update(task.key, { lease_until: null });
      await this.queues.publish(this.queues.retryQueue(Math.max(...this.schedule)), task);
      countNotificationMessage(message.kind, 'over_daily_limit');
      return;
    }
    const attempts = message.attempts + 1;
    try {
      await this.sendBefore(message, until.getTime() - this.env.SMTP_TIMEOUT_MS);
    } catch (error) {
      const lastError = attemptError(error);
      const next = afterFailure(task.retry, this.schedule);
      if (next === 'give_up') {
        this.logger.warn(`giving up message ${message.message_id} (${message.kind}) after ${attempts} attempts: ${lastError}`);
        countNotificationMessage(message.kind, 'given_up');
        await this.messages.update(task.key, {
          status: 'failed',
          attempts,
          last_error: lastError,
          lease_until: null,
          content: null,
          list_unsubscribe: null,
        });
        return;
      }
      // Updated first: a retry published before could be taken (its delay is short, or the update
      // slow) while the message still showed the attempts before this one, and count it twice.
      await this.messages.update(task.key, { status: 'retrying', attempts, last_error: lastError, lease_until: null });
      await this.queues.publish(this.queues.retryQueue(next.retryInSeconds), { key: task.key, retry: task.retry + 1 });
      countNotificationMessage(message.kind, 'retried');
      return;
    }
    // The content goes with the sending: it holds the addressee's form link, a secret.
    await this.messages.update(task.key, {
      status: 'sent',
      attempts,
      sent_at: new Date(),
      last_error: null,
      lease_until: null,
      content: null,
      list_unsubscribe: null,
    });
    countNotificationMessage(message.kind, 'sent');
  }

  /**
   * A message still held when its hold is over is given up: its address's owner did not confirm
   * it in MAIL_HOLD_HOURS, and its content (with the addressee's link) goes. Only while still held:
   * a confirmation that released it meanwhile wins.
   */
  private async endHold(message: MessageRecord): Promise<void> {
    const lastError = `not sent: its address, typed on the form, was not confirmed within ${this.env.MAIL_HOLD_HOURS} hours`;
    const ended = await this.messages.updateWhileHeld(message._id, {
      status: 'failed',
      last_error: lastError,
      content: null,
      list_unsubscribe: null,
    });
    if (!ended) return;
    this.logger.warn(`giving up held message ${message.message_id} (${message.kind}): ${lastError}`);
    countNotificationMessage(message.kind, 'hold_ended');
  }

  /** Hands the message to the mail server, or gives up at `deadline` (epoch ms) with it not handed over. */
  private async sendBefore(message: MessageRecord, deadline: number): Promise<void> {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(new Error('the lease was running out')), deadline - Date.now());
    try {
      await this.mailer.send(message, stop.signal);
    } finally {
      clearTimeout(timer);
    }
  }
}
