/**
 * The notifications service's queues on the broker: their names, their declaration (bindings,
 * dead-letter routes, the retry and reminder delay queues), and publishing onto them.
 */
import { Injectable } from '@nestjs/common';
import type { ConfirmChannel } from 'amqplib';
import { DomainEventName, EVENTS_EXCHANGE, NOTIFICATION_INVITATIONS_QUEUE, queueName } from '@app/contracts';
import { assertDeadLetterRoute, assertEventsExchange, BrokerChannel, delayQueueOptions, queueOptions } from '@app/messaging';
import { NotificationsEnvironment } from '../config/notifications.environment';

/** The events that make a message, or a reminder to wait for, or erase messages; the events queue is bound to these alone. */
export const HANDLED_EVENTS: DomainEventName[] = [
  'applicant.created',
  'application_form.started',
  'application_form.completed',
  'application.personal_data_erased',
];

/**
 * The event that has everyone on an application told of its decision, on a queue of its own: an
 * instance of a release before decisions were told, sharing the events queue, would take the
 * event and drop it.
 */
export const DECIDED: DomainEventName = 'application.decided';

@Injectable()
export class NotificationQueues {
  readonly names: {
    exchange: string;
    events: string;
    decisions: string;
    invitations: string;
    outgoing: string;
    reminders: string;
    reminderWait: string;
    heldWait: string;
  };
  private readonly schedule: number[];
  private broker?: BrokerChannel;

  constructor(private readonly env: NotificationsEnvironment) {
    this.schedule = env.retrySchedule;
    const name = (base: string) => queueName(env.NAMESPACE, base);
    this.names = {
      exchange: name(EVENTS_EXCHANGE),
      events: name('notifications.events'),
      decisions: name('notifications.decisions'),
      invitations: name(NOTIFICATION_INVITATIONS_QUEUE),
      outgoing: name('notifications.outgoing'),
      reminders: name('notifications.reminders'),
      // Named by its delay, as a queue's TTL cannot change: another REMINDER_AFTER_HOURS is another queue.
      reminderWait: name(`notifications.reminders.wait.${env.reminderAfterMs}ms`),
      // A held message's end of hold (MAIL_HOLD_HOURS), dead-lettered onto the outgoing queue.
      heldWait: name(`notifications.held.wait.${env.holdMs}ms`),
    };
  }

  retryQueue(seconds: number): string {
    return queueName(this.env.NAMESPACE, `notifications.retry.${seconds}s`);
  }

  /** Connects to the broker; on every (re)connection declares the queues, then has `consume` take from them. */
  open(consume: (channel: ConfirmChannel, broker: BrokerChannel) => Promise<void>): void {
    this.broker = new BrokerChannel(this.env.AMQP_URL, 'notifications', async (channel, broker) => {
      await this.declare(channel, broker);
      await consume(channel, broker);
    });
  }

  async close(): Promise<void> {
    await this.broker?.close();
  }

  /** Publishes `body` onto `queue`, through the default exchange. */
  async publish(queue: string, body: unknown): Promise<void> {
    await this.broker!.publish('', queue, body);
  }

  private async declare(channel: ConfirmChannel, broker: BrokerChannel): Promise<void> {
    const { exchange, events, decisions, invitations, outgoing, reminders, reminderWait, heldWait } = this.names;
    await assertEventsExchange(channel, broker, exchange);
    for (const queue of [events, decisions, invitations, outgoing, reminders]) {
      await channel.assertQueue(queue, queueOptions(queue));
      await assertDeadLetterRoute(channel, queue);
    }
    for (const event of HANDLED_EVENTS) await channel.bindQueue(events, exchange, event);
    await channel.bindQueue(decisions, exchange, DECIDED);
    for (const seconds of new Set(this.schedule)) {
      await channel.assertQueue(this.retryQueue(seconds), delayQueueOptions(seconds * 1000, outgoing));
    }
    await channel.assertQueue(reminderWait, delayQueueOptions(this.env.reminderAfterMs, reminders));
    await channel.assertQueue(heldWait, delayQueueOptions(this.env.holdMs, outgoing));
  }
}
