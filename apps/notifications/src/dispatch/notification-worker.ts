import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import {
  AddressLinkAnswer,
  DomainEvent,
  DomainEventName,
  EVENTS_EXCHANGE,
  InvitationNotice,
  MessageKind,
  MessageStatus,
  NOTIFICATION_INVITATIONS_QUEUE,
  queueName,
  ScreeningAgency,
} from '@app/contracts';
import {
  ackWhenDone,
  assertDeadLetterRoute,
  assertEventsExchange,
  BrokerChannel,
  delayQueueOptions,
  queueOptions,
  SenderCheck,
} from '@app/messaging';
import { countNotificationEvent, countNotificationMessage } from '@app/observability';
import {
  FORM_INVITATIONS_PER_APPLICATION,
  FORM_INVITATIONS_PER_SENDER_A_DAY,
  MAX_REMINDERS,
  NotificationsEnvironment,
} from '../config/notifications.environment';
import { Mailer } from '../mail/mailer';
import { DecisionData, renderMessage } from '@app/mail';
import { AddressBook, addressDigest } from '../addresses/address-book';
import {
  afterFailure,
  MessageDraft,
  messageKey,
  MessageRecord,
  newMessageRecord,
  queueAfterClaim,
} from '../messages/message-record';
import { MessageStore } from '../messages/message-store';
import { SettingsStore } from '../settings/settings-store';
import { ApplicantsClient } from './applicants.client';

/** The events that make a message, or a reminder to wait for; the events queue is bound to these alone. */
const HANDLED_EVENTS: DomainEventName[] = ['applicant.created', 'application_form.started', 'application_form.completed'];

/**
 * The event that has everyone on an application told of its decision, on a queue of its own: an
 * instance of a release before decisions were told, sharing the events queue, would take the
 * event and drop it.
 */
const DECIDED: DomainEventName = 'application.decided';

/** An attempt to hand a message to the mail server: `retry` counts the retries made before it. */
interface SendTask {
  key: string;
  retry: number;
}

/** A reminder due once it has waited: of the form the event `source` says was started. */
interface ReminderTask {
  source: string;
  client_id: number;
  application_id: number;
  applicant_id: number;
  /** 1 for the first reminder, up to MAX_REMINDERS. */
  number: number;
}

/** Whom a message goes to and what it is about. */
interface Recipient {
  client_id: number;
  application_id: number | null;
  applicant_id: number | null;
  property_id: number;
  property_name: string;
  email: string;
  first_name: string | null;
  /** Who listed the addressee on their own form, by full name (an invitation says so). */
  added_by?: string | null;
  /** Whose application the addressee joins, by full name, when no form listed it (an invitation says so). */
  joins?: string | null;
  /** When the invitation's link stops working (an invitation to a property's form says so). */
  expires_at?: string | null;
  /** The addressee's form link, beside which is the page to withdraw the application; none before there is one. */
  form_url?: string | null;
  /** For a decision's message: what was decided. */
  decided?: DecisionData;
  /** Whether the address was typed on the public form: nothing but its confirmation goes there until it is confirmed. */
  email_from_form?: boolean;
  /** For one named on the form: the address of the applicant who named it. */
  added_by_email?: string | null;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * How long one instance holds a message it is handing to the mail server, in SMTP timeouts. Its
 * send is stopped one SMTP timeout before the lease runs out, wherever it is: waiting for one of
 * the pool's connections (MAIL_CONCURRENCY sends share them) or on one. So no send of a message
 * is under way in a live instance once its lease has run out, for another to take it and send it
 * again; the last SMTP timeout is left to record the outcome.
 */
const LEASE_FACTOR = 4;

/**
 * Turns events into e-mails, with nothing held in memory between steps, as the webhooks service
 * turns them into deliveries:
 *  - the events queue (bound to the events exchange for HANDLED_EVENTS), the decisions queue
 *    (application.decided) and the invitations queue (private notices with an invitation's link)
 *    make messages: each is stored once under its key (insert-once), rendered, and its sending
 *    queued on the outgoing queue;
 *  - the outgoing queue holds attempts to make now, any instance takes them; a failed one goes to
 *    the retry queue of its delay (MAIL_RETRY_SCHEDULE), which dead-letters it back when due;
 *  - a started form puts a reminder on the reminder wait queue (TTL REMINDER_AFTER_HOURS), which
 *    dead-letters it onto the reminders queue when due: sent if the form is still unfinished,
 *    and the next one put to wait, up to MAX_REMINDERS. No database is polled.
 * A message is acknowledged only once what it caused is stored and published; a message that
 * fails is handed back, and after MAX_DELIVERIES dead-lettered for an operator. With
 * EVENT_PUBLISHERS, an event or invitation notice from any other broker user is dead-lettered
 * unworked: it would have e-mails sent in a client's name.
 */
@Injectable()
export class NotificationWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('NotificationWorker');
  private broker?: BrokerChannel;
  private readonly schedule: number[];
  private readonly names: {
    exchange: string;
    events: string;
    decisions: string;
    invitations: string;
    outgoing: string;
    reminders: string;
    reminderWait: string;
  };

  constructor(
    private readonly messages: MessageStore,
    private readonly addresses: AddressBook,
    private readonly settings: SettingsStore,
    private readonly mailer: Mailer,
    private readonly applicants: ApplicantsClient,
    private readonly env: NotificationsEnvironment,
  ) {
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
    };
  }

  private retryQueue(seconds: number): string {
    return queueName(this.env.NAMESPACE, `notifications.retry.${seconds}s`);
  }

  onApplicationBootstrap(): void {
    this.broker = new BrokerChannel(this.env.AMQP_URL, 'notifications', (channel, broker) => this.setup(channel, broker));
  }

  async onModuleDestroy(): Promise<void> {
    await this.broker?.close();
  }

  private async setup(channel: ConfirmChannel, broker: BrokerChannel): Promise<void> {
    const { exchange, events, decisions, invitations, outgoing, reminders, reminderWait } = this.names;
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
    await channel.prefetch(this.env.MAIL_CONCURRENCY);
    const publishers = new SenderCheck(this.env.eventPublishers, broker.user);
    // The work queues are fed by this service alone: the broker's default exchange reaches every queue.
    const own = SenderCheck.ownOnly(broker.user);
    const consume = (queue: string, work: (body: never) => Promise<void>, fromPublishers = false) =>
      channel.consume(
        queue,
        (message) =>
          message &&
          void this.settle(channel, message, work, () => (fromPublishers ? publishers : own).assertAccepted(queue, message)),
      );
    const counted = (handle: (event: DomainEvent) => Promise<void>) => async (event: DomainEvent) => {
      await handle(event);
      countNotificationEvent(event.event);
    };
    await consume(
      events,
      counted((event) => this.onEvent(event)),
      true,
    );
    await consume(
      decisions,
      counted((event) => this.onDecided(event)),
      true,
    );
    await consume(invitations, (notice: InvitationNotice) => this.onInvitation(notice), true);
    await consume(outgoing, (task: SendTask) => this.attempt(task));
    await consume(reminders, (task: ReminderTask) => this.onReminderDue(task));
  }

  /**
   * Acknowledges once `work` is done with the message's body; otherwise hands it back, to be taken
   * again. `accept` throws, before anything is read, for a message to refuse unworked.
   */
  private settle(
    channel: ConfirmChannel,
    message: ConsumeMessage,
    work: (body: never) => Promise<void>,
    accept: () => unknown = () => undefined,
  ): Promise<void> {
    return ackWhenDone(
      channel,
      message,
      async () => {
        accept();
        await work(JSON.parse(message.content.toString()) as never);
      },
      this.logger,
    );
  }

  private async onEvent(event: DomainEvent): Promise<void> {
    const { application_id: applicationId, applicant_id: applicantId } = event.data;
    if (!applicationId || !applicantId) return;
    if (event.event === 'application_form.started') {
      const task = { source: event.id, client_id: event.client_id, application_id: applicationId, applicant_id: applicantId };
      await this.remindLater({ ...task, number: 1 });
      return;
    }
    const subject = await this.applicants.subject(event.client_id, applicationId, applicantId);
    if (!subject) return;
    const recipient: Recipient = { ...subject, first_name: subject.first_name };
    if (event.event === 'applicant.created' && subject.invite && subject.form_url && subject.form_status !== 'completed') {
      await this.compose(event.id, 'invitation', recipient, subject.form_url);
    } else if (event.event === 'application_form.completed') {
      await this.compose(event.id, 'confirmation', recipient, null);
    }
  }

  /**
   * Tells every applicant and guarantor of the decision (the event names them), once per decision
   * and addressee: the message is keyed by the decision's place in the history, so a later event
   * of the same decision (or a redelivery) makes nothing again. A decision replaced before its
   * event came is not told: the one that replaced it is, by its own event. An event of a release
   * before this one names nobody, and is told to nobody.
   */
  private async onDecided(event: DomainEvent): Promise<void> {
    const { application_id: applicationId, applicant_ids: applicantIds = [], status } = event.data;
    if (event.event !== DECIDED || !applicationId) return;
    let screeningAgency: ScreeningAgency | null | undefined;
    for (const applicantId of applicantIds) {
      const subject = await this.applicants.subject(event.client_id, applicationId, applicantId);
      const decided = subject?.decision;
      if (!subject || !decided || decided.status !== status) continue;
      screeningAgency ??= (await this.settings.get(event.client_id)).screening_agency ?? null;
      const { number, ...told } = decided;
      const recipient: Recipient = { ...subject, decided: { ...told, screening_agency: screeningAgency } };
      await this.compose(`decision:${applicationId}:${number}`, 'decision', recipient, null);
    }
  }

  private async onInvitation(notice: InvitationNotice): Promise<void> {
    const recipient: Recipient = {
      client_id: notice.client_id,
      application_id: null,
      applicant_id: null,
      property_id: notice.property_id,
      property_name: notice.property_name,
      email: notice.email,
      first_name: null,
      expires_at: notice.expires_at,
    };
    await this.compose(notice.id, 'invitation', recipient, notice.url);
  }

  private async remindLater(task: ReminderTask): Promise<void> {
    await this.broker!.publish('', this.names.reminderWait, task);
  }

  /** A reminder is sent only while the form is started and not completed; then the next one waits. */
  private async onReminderDue(task: ReminderTask): Promise<void> {
    const subject = await this.applicants.subject(task.client_id, task.application_id, task.applicant_id);
    if (!subject || subject.form_status !== 'started' || !subject.form_url) return;
    await this.compose(`${task.source}:${task.number}`, 'reminder', subject, subject.form_url);
    if (task.number < MAX_REMINDERS) await this.remindLater({ ...task, number: task.number + 1 });
  }

  /**
   * Stores the message once under its key and queues its sending. The same event again finds it
   * stored and queues nothing, unless no attempt was made yet (see queueAfterClaim): an attempt
   * skips a message sent meanwhile. Every message about an application carries the page where
   * the addressee can withdraw it, beside its form link, and every message the page that stops
   * all e-mail to its address. A message to an address that asked for none is stored
   * `suppressed`; to an address typed on the form and not confirmed, `held`, and the address is
   * sent the one message that asks it to confirm.
   */
  private async compose(source: string, kind: MessageKind, recipient: Recipient, url: string | null): Promise<void> {
    const settings = await this.settings.get(recipient.client_id);
    const now = new Date();
    const address = addressDigest(recipient.email);
    const unsubscribe = await this.addresses.newLink('unsubscribe', address, recipient.client_id, recipient.property_name);
    const listUnsubscribe = this.mailLink('unsubscribe', unsubscribe);
    const content = renderMessage(
      kind,
      {
        first_name: recipient.first_name,
        property_name: recipient.property_name,
        url,
        sender_name: settings.sender_name,
        added_by: recipient.added_by ?? null,
        joins: recipient.joins ?? null,
        expires_at: recipient.expires_at ?? null,
        withdraw_url: kind === 'address_confirmation' ? null : withdrawUrlOf(recipient.form_url),
        decision: recipient.decided ?? null,
        unsubscribe_url: listUnsubscribe,
      },
      now,
    );
    const draft: Omit<MessageDraft, 'status'> = {
      source,
      kind,
      to: recipient.email,
      client_id: recipient.client_id,
      application_id: recipient.application_id,
      applicant_id: recipient.applicant_id,
      property_id: recipient.property_id,
      from_name: settings.sender_name,
      reply_to: settings.reply_to,
      content,
      list_unsubscribe: listUnsubscribe,
    };
    const key = messageKey(source, kind, recipient.email);
    const status = await this.statusOf(kind, recipient, address, key, now);
    const record = newMessageRecord({ ...draft, status }, this.env.MAIL_FROM, now);
    const created = await this.messages.create(record);
    countNotificationMessage(kind, created ? (status === 'pending' ? 'made' : status) : 'already_made');
    const stored = created ? record : await this.messages.find(record._id);
    if (stored?.status === 'held') {
      // Also when the event came again: the try that stored it may have stopped before this.
      await this.addresses.hold(recipient.client_id, address, key);
      await this.askToConfirm(recipient, address);
      // Confirmed while this was being held: its release may have read the list before it was in.
      if (await this.addresses.isConfirmed(recipient.client_id, address)) await this.release(key);
      return;
    }
    const queued = !created && stored?.status === 'pending' && (await this.messages.isQueued(key));
    if (queueAfterClaim(created, stored, queued)) await this.queue(key);
  }

  /** Queues the message's first attempt, then marks it queued: a redelivered event queues no second. */
  private async queue(key: string): Promise<void> {
    await this.broker!.publish('', this.names.outgoing, { key, retry: 0 });
    await this.messages.markQueued(key);
  }

  /**
   * What a new message starts as: `suppressed` for an address on the suppression list, or an
   * invitation from the form past its caps (per application, and a day per address of the one
   * who named the people); `held` for an address typed on the form that its client's messages
   * have not had confirmed; else `pending`.
   */
  private async statusOf(kind: MessageKind, recipient: Recipient, address: string, key: string, now: Date) {
    if (await this.addresses.isSuppressed(address)) return 'suppressed';
    if (kind === 'invitation' && recipient.added_by_email && recipient.application_id !== null) {
      const day = utcDay(now);
      const withinCaps =
        (await this.addresses.takePlace(`invited:${recipient.application_id}`, FORM_INVITATIONS_PER_APPLICATION, key)) &&
        (await this.addresses.takePlace(
          `invited-by:${addressDigest(recipient.added_by_email)}:${day}`,
          FORM_INVITATIONS_PER_SENDER_A_DAY,
          key,
          new Date(Date.parse(day) + 2 * DAY_MS),
        ));
      if (!withinCaps) return 'suppressed';
    }
    if (kind === 'address_confirmation' || !recipient.email_from_form) return 'pending';
    return (await this.addresses.isConfirmed(recipient.client_id, address)) ? 'pending' : 'held';
  }

  /** The one message that asks an address typed on the form to be confirmed, once per client and address. */
  private async askToConfirm(recipient: Recipient, address: string): Promise<void> {
    const token = await this.addresses.newLink('confirm', address, recipient.client_id, recipient.property_name);
    // Nothing the visitor typed is shown to an address not yet confirmed: not even the name it gave.
    const asked: Recipient = {
      ...recipient,
      first_name: null,
      added_by: null,
      joins: null,
      expires_at: null,
      decided: undefined,
    };
    await this.compose(`address:${recipient.client_id}`, 'address_confirmation', asked, this.mailLink('confirm', token));
  }

  /** An address confirmed by the link its confirmation carried: its held messages go. */
  async confirmAddress(tokenDigest: string): Promise<AddressLinkAnswer | null> {
    const link = await this.addresses.findLink(tokenDigest, 'confirm');
    if (!link) return null;
    await this.addresses.confirm(link.client_id, link.address);
    for (const key of await this.addresses.heldMessages(link.client_id, link.address)) await this.release(key);
    return { property_name: link.property_name };
  }

  /** An address whose e-mail's List-Unsubscribe was followed: no message is sent to it any more. */
  async unsubscribe(tokenDigest: string): Promise<AddressLinkAnswer | null> {
    const link = await this.addresses.findLink(tokenDigest, 'unsubscribe');
    if (!link) return null;
    await this.addresses.suppress(link.address);
    return { property_name: link.property_name };
  }

  /** Queues a held message, once confirmed; instances that both do send it once (the lease). */
  private async release(key: string): Promise<void> {
    if ((await this.messages.find(key))?.status !== 'held') return;
    await this.messages.update(key, { status: 'pending' });
    await this.queue(key);
  }

  private mailLink(purpose: 'confirm' | 'unsubscribe', token: string): string {
    return `${this.env.APPLY_BASE_URL.replace(/\/+$/, '')}/mail/${purpose}/${token}`;
  }

  /**
   * One attempt: only by the instance that leased the message, so that two never hand it over at
   * once. A task for a message leased by another (a redelivery, say) looks again after the first
   * retry delay, in case that instance stopped midway. The Message-ID is the same on every attempt.
   */
  private async attempt(task: SendTask): Promise<void> {
    const message = await this.messages.find(task.key);
    if (!message || !SENDABLE.includes(message.status)) return;
    const address = addressDigest(message.to);
    if (await this.addresses.isSuppressed(address)) {
      await this.messages.update(task.key, { status: 'suppressed', content: null, list_unsubscribe: null, lease_until: null });
      countNotificationMessage(message.kind, 'suppressed');
      return;
    }
    const now = new Date();
    const until = new Date(now.getTime() + LEASE_FACTOR * this.env.SMTP_TIMEOUT_MS);
    if (!(await this.messages.lease(task.key, now, until))) {
      await this.broker!.publish('', this.retryQueue(this.schedule[0]), task);
      return;
    }
    const day = utcDay(now);
    const dailyPlace = this.addresses.takePlace(
      `sent:${address}:${day}`,
      this.env.MAIL_DAILY_LIMIT_PER_ADDRESS,
      task.key,
      new Date(Date.parse(day) + 2 * DAY_MS),
    );
    if (!(await dailyPlace)) {
      // The address has had its day's messages, from whichever clients: this one waits, as long
      // as the longest retry, without counting as one.
      await this.messages.update(task.key, { lease_until: null });
      await this.broker!.publish('', this.retryQueue(Math.max(...this.schedule)), task);
      countNotificationMessage(message.kind, 'over_daily_limit');
      return;
    }
    const attempts = message.attempts + 1;
    try {
      await this.sendBefore(message, until.getTime() - this.env.SMTP_TIMEOUT_MS);
    } catch (error) {
      const lastError = String(error).slice(0, 500);
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
      await this.broker!.publish('', this.retryQueue(next.retryInSeconds), { key: task.key, retry: task.retry + 1 });
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

/** The statuses of a message an attempt may send. */
const SENDABLE: MessageStatus[] = ['pending', 'retrying'];

/** The UTC day of `at`, as YYYY-MM-DD: a daily cap's places are the day's. */
function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The form's page where the applicant whose form link is `formUrl` withdraws its application. */
function withdrawUrlOf(formUrl: string | null | undefined): string | null {
  return formUrl ? `${formUrl}/withdraw` : null;
}
