import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { DomainEvent, InvitationNotice, ScreeningAgency } from '@app/contracts';
import { ackWhenDone, BrokerChannel, SenderCheck } from '@app/messaging';
import { countNotificationEvent } from '@app/observability';
import { MAX_REMINDERS, NotificationsEnvironment } from '../config/notifications.environment';
import { SettingsStore } from '../settings/settings-store';
import { ApplicantsClient } from './applicants.client';
import { MessageComposer, Recipient } from './message-composer';
import { MessageSender, SendTask } from './message-sender';
import { DECIDED, NotificationQueues } from './notification-queues';

/** A reminder due once it has waited: of the form the event `source` says was started. */
interface ReminderTask {
  source: string;
  client_id: number;
  application_id: number;
  applicant_id: number;
  /** 1 for the first reminder, up to MAX_REMINDERS. */
  number: number;
}

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
 *
 * NotificationQueues declares the queues and publishes onto them, MessageComposer makes the
 * messages and MessageSender makes the attempts; this takes the work off the queues and turns
 * events and reminders into messages.
 */
@Injectable()
export class NotificationWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('NotificationWorker');

  constructor(
    private readonly queues: NotificationQueues,
    private readonly composer: MessageComposer,
    private readonly sender: MessageSender,
    private readonly settings: SettingsStore,
    private readonly applicants: ApplicantsClient,
    private readonly env: NotificationsEnvironment,
  ) {}

  onApplicationBootstrap(): void {
    this.queues.open((channel, broker) => this.consume(channel, broker));
  }

  async onModuleDestroy(): Promise<void> {
    await this.queues.close();
  }

  /** Takes work from every queue, once NotificationQueues has declared them. */
  private async consume(channel: ConfirmChannel, broker: BrokerChannel): Promise<void> {
    const { events, decisions, invitations, outgoing, reminders } = this.queues.names;
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
    await consume(outgoing, (task: SendTask) => this.sender.attempt(task));
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
    if (event.event === 'application.personal_data_erased' && applicationId) {
      await this.composer.eraseApplication(event.client_id, applicationId);
      return;
    }
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
      await this.composer.compose(event.id, 'invitation', recipient, subject.form_url);
    } else if (event.event === 'application_form.completed') {
      await this.composer.compose(event.id, 'confirmation', recipient, null);
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
      await this.composer.compose(`decision:${applicationId}:${number}`, 'decision', recipient, null);
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
    await this.composer.compose(notice.id, 'invitation', recipient, notice.url);
  }

  private async remindLater(task: ReminderTask): Promise<void> {
    await this.queues.publish(this.queues.names.reminderWait, task);
  }

  /** A reminder is sent only while the form is started and not completed; then the next one waits. */
  private async onReminderDue(task: ReminderTask): Promise<void> {
    const subject = await this.applicants.subject(task.client_id, task.application_id, task.applicant_id);
    if (!subject || subject.form_status !== 'started' || !subject.form_url) return;
    await this.composer.compose(`${task.source}:${task.number}`, 'reminder', subject, subject.form_url);
    if (task.number < MAX_REMINDERS) await this.remindLater({ ...task, number: task.number + 1 });
  }
}
