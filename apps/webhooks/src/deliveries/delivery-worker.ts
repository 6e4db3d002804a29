import { randomBytes } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { isDomainEvent, queueName } from '@app/contracts';
import {
  ackWhenDone,
  assertDeadLetterRoute,
  assertEventsExchange,
  BrokerChannel,
  delayQueueOptions,
  eventsExchange,
  keepDelayedDeadLetters,
  queueOptions,
  readMessage,
  SenderCheck,
  unroutedEvents,
} from '@app/messaging';
import { countWebhookAttempt, countWebhookAttemptHeld, watchOpenEndpoints } from '@app/observability';
import { isDatabaseUnavailable } from '@app/persistence';
import { WebhooksEnvironment } from '../config/webhooks.environment';
import { SubscriptionStore } from '../subscriptions/subscription-store';
import { DeliveryRecord, deliveryKey, DeliveryStore, WebhookBody } from './delivery-store';
import { EndpointGate, WaitReason } from './endpoint-gate';
import { signatureHeaders } from './signature';
import { AttemptOutcome, sendWebhook } from './webhook-sender';

/** A delivery to attempt: `retry` counts the automatic retries made before it; `manual` ones are asked for. */
export interface DeliveryTask {
  key: string;
  retry: number;
  manual?: boolean;
  /** A retry's token, stored with its delivery (`retry_token`) while it waits. */
  token?: string;
  /** Set on an attempt the gate held back: whose, to where, and how often in a row, to hold it again unread. */
  held?: { client_id: number; endpoint: string; times: number };
}

function isDeliveryTask(body: unknown): body is DeliveryTask {
  if (typeof body !== 'object' || body === null) return false;
  const { key, retry, manual, token, held } = body as Record<string, unknown>;
  return (
    typeof key === 'string' &&
    Number.isSafeInteger(retry) &&
    (retry as number) >= 0 &&
    [undefined, true, false].includes(manual as boolean) &&
    (token === undefined || typeof token === 'string') &&
    (held === undefined || isHeld(held))
  );
}

function isHeld(held: unknown): held is DeliveryTask['held'] {
  if (typeof held !== 'object' || held === null) return false;
  const { client_id: clientId, endpoint, times } = held as Record<string, unknown>;
  return Number.isSafeInteger(clientId) && typeof endpoint === 'string' && Number.isSafeInteger(times);
}

/** Overdue retries queued again per round of the sweep. */
const OVERDUE_BATCH = 100;
/**
 * How long a stopping instance waits for the attempts and events it has taken to be settled
 * before it closes its channel: whatever is still under way then goes back to the queue, and an
 * attempt the receiver already got is sent once more by another instance (same webhook-id).
 */
const STOP_DRAIN_MS = 7000;

function retryToken(): string {
  return randomBytes(9).toString('base64url');
}

/**
 * How long a message whose work failed for a while only (the database out of reach) waits in
 * its queue's backoff queue before it is taken again: long enough not to spin, short enough that
 * deliveries resume soon after the outage.
 */
export const BACKOFF_SECONDS = 10;

/** How long an attempt waits when its endpoint or client has as many under way as it may. */
export const BUSY_WAIT_SECONDS = 1;
/**
 * Holds in a row after which an attempt waits as long as for an endpoint left alone: a backlog
 * behind a slow receiver comes round every WEBHOOK_BREAKER_OPEN_SECONDS, not every second.
 */
export const SHORT_HOLDS = 3;

/** Whether an attempt says its endpoint is in trouble: no answer at all, or a 5xx. */
function endpointFailed(outcome: AttemptOutcome | undefined): boolean {
  if (!outcome) return true;
  if (outcome.response_status === null) return !outcome.error?.startsWith('refused:');
  return outcome.response_status >= 500;
}

/**
 * Delivers events to their subscriptions, with nothing held in memory between attempts:
 *  - the events queue, bound to the events exchange, gets every event; each makes a delivery
 *    per matching subscription (once, under a unique key) and puts it on the deliveries queue;
 *  - the deliveries queue holds attempts to make now; any instance takes them;
 *  - a failed attempt goes to the retry queue of its delay (one per distinct entry of
 *    WEBHOOK_RETRY_SCHEDULE, with that TTL), which dead-letters it back to the deliveries queue
 *    when the delay is over. The broker keeps the schedule; a restart of any process loses none.
 * A message is acknowledged only after what it caused is stored and published, so an instance
 * killed mid-delivery leaves it to another, which may send it once more (same webhook-id).
 *
 * The events and deliveries queues have a delivery limit and a dead-letter queue each
 * (`<queue>.dead-letter`): an unreadable message is dead-lettered at once, one whose work fails
 * every time after the limit. Work that fails because the database is out of reach goes to the
 * queue's backoff queue instead (`<queue>.backoff.<seconds>s`), to come back after a delay without
 * using up the limit. Events no queue was bound for when they were published (before the events
 * queue existed) wait in the events exchange's unrouted queue; they are moved onto the events
 * queue as soon as it exists. With EVENT_PUBLISHERS, an event from any other broker user (on
 * either queue) is refused unworked: it would be delivered signed with its client's secrets.
 *
 * An attempt whose endpoint or client has as many attempts under way as it may waits in the
 * instance up to BUSY_WAIT_SECONDS for one to end (EndpointGate.acquire: a receiver that answers
 * quickly is kept at its cap). One the gate still holds back then (or whose endpoint stopped
 * answering, or with too many waiting already) goes to a wait queue instead, unchanged, and
 * comes back to the deliveries queue after BUSY_WAIT_SECONDS or WEBHOOK_BREAKER_OPEN_SECONDS: the
 * instance's slots go to other clients' deliveries meanwhile, and no retry of the schedule is spent.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeliveryWorker');
  private broker?: BrokerChannel;
  private sweep?: NodeJS.Timeout;
  private readonly schedule: number[];
  private readonly names: { exchange: string; events: string; deliveries: string; unrouted: string };
  private readonly gate: EndpointGate;
  /** The consumers of the current channel, cancelled when the instance stops. */
  private consumers: Array<{ channel: ConfirmChannel; tag: string }> = [];
  /** Messages taken and not yet settled, and who waits for there to be none. */
  private unsettled = 0;
  private settled?: () => void;

  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly deliveries: DeliveryStore,
    private readonly env: WebhooksEnvironment,
  ) {
    this.schedule = env.retrySchedule;
    this.gate = new EndpointGate(
      {
        endpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
        clientConcurrency: env.WEBHOOK_CLIENT_CONCURRENCY,
        breakerFailures: env.WEBHOOK_BREAKER_FAILURES,
        breakerOpenMs: env.WEBHOOK_BREAKER_OPEN_SECONDS * 1000,
      },
      Date.now,
      (endpoint, failures) =>
        this.logger.warn(
          `webhook endpoint ${endpoint} left alone for ${env.WEBHOOK_BREAKER_OPEN_SECONDS} s after ${failures} attempts in a row without an answer or with a 5xx; its deliveries wait`,
        ),
    );
    watchOpenEndpoints(() => this.gate.openEndpoints().length);
    const name = (base: string) => queueName(env.NAMESPACE, base);
    const exchange = eventsExchange(env.NAMESPACE);
    this.names = {
      exchange,
      events: name('webhooks.events'),
      deliveries: name('webhooks.deliveries'),
      unrouted: unroutedEvents(exchange),
    };
  }

  private backoffQueue(queue: string): string {
    return `${queue}.backoff.${BACKOFF_SECONDS}s`;
  }

  private retryQueue(seconds: number): string {
    return queueName(this.env.NAMESPACE, `webhooks.retry.${seconds}s`);
  }

  /** Where an attempt the gate holds back waits: a second while its endpoint or client is busy, at first. */
  private waitQueue(reason: WaitReason, times: number): string {
    const short = reason === 'busy' && times <= SHORT_HOLDS;
    return webhookWaitQueue(this.env.NAMESPACE, short ? BUSY_WAIT_SECONDS : this.env.WEBHOOK_BREAKER_OPEN_SECONDS);
  }

  onApplicationBootstrap(): void {
    this.broker = new BrokerChannel(this.env.AMQP_URL, 'webhook-deliveries', (channel, broker) => this.setup(channel, broker));
    // Started here, outside any message's context, so its reads get their own deadlines.
    const everyMs = (this.env.WEBHOOK_RETRY_OVERDUE_SECONDS * 1000) / 2;
    this.sweep = setInterval(() => void this.requeueOverdue().catch((error) => this.logger.warn(`${error}`)), everyMs);
    this.sweep.unref();
  }

  /**
   * Takes no more messages, lets those taken be settled (an attempt under way finishes and is
   * acknowledged, rather than go back to the queue for another instance to send again), then
   * closes the channel; bounded by STOP_DRAIN_MS.
   */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweep);
    const consumers = this.consumers.splice(0);
    await Promise.all(consumers.map(({ channel, tag }) => channel.cancel(tag).catch(() => undefined)));
    if (this.unsettled > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => (this.settled = resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_DRAIN_MS))),
      ]);
      clearTimeout(timer);
      if (this.unsettled > 0) this.logger.warn(`${this.unsettled} message(s) unsettled; the broker will hand them out again`);
    }
    await this.broker?.close();
  }

  /**
   * Queues again each retry overdue by WEBHOOK_RETRY_OVERDUE_SECONDS, under a new token, so the
   * message that was lost or held, should it come after all, is dropped rather than start a
   * second chain. Nothing that waits for a retry is left waiting for good.
   */
  async requeueOverdue(): Promise<number> {
    const overdueMs = this.env.WEBHOOK_RETRY_OVERDUE_SECONDS * 1000;
    const overdue = await this.deliveries.overdueRetries(new Date(Date.now() - overdueMs), OVERDUE_BATCH);
    for (const delivery of overdue) {
      const task: DeliveryTask = { key: delivery._id, retry: delivery.next_retry ?? 1, token: retryToken() };
      await this.deliveries.update(delivery._id, { next_attempt_at: new Date(), retry_token: task.token });
      await this.queue(task);
    }
    if (overdue.length > 0) {
      this.logger.warn(`queued ${overdue.length} webhook retries again, overdue by over ${overdueMs / 1000} s`);
    }
    return overdue.length;
  }

  private async setup(channel: ConfirmChannel, broker: BrokerChannel): Promise<void> {
    const { exchange, events, deliveries, unrouted } = this.names;
    await assertEventsExchange(channel, broker, exchange);
    for (const queue of [events, deliveries]) {
      await broker.declareOrKeep(`queue ${queue}`, (probe) => probe.assertQueue(queue, queueOptions(queue)));
      await assertDeadLetterRoute(channel, queue);
      await keepDelayedDeadLetters(channel, queue);
      await channel.assertQueue(this.backoffQueue(queue), delayQueueOptions(BACKOFF_SECONDS * 1000, queue));
    }
    await channel.bindQueue(events, exchange, '#');
    for (const seconds of new Set(this.schedule)) {
      await channel.assertQueue(this.retryQueue(seconds), delayQueueOptions(seconds * 1000, deliveries));
    }
    for (const seconds of new Set([BUSY_WAIT_SECONDS, this.env.WEBHOOK_BREAKER_OPEN_SECONDS])) {
      await channel.assertQueue(webhookWaitQueue(this.env.NAMESPACE, seconds), delayQueueOptions(seconds * 1000, deliveries));
    }
    await channel.prefetch(this.env.WEBHOOK_CONCURRENCY);
    this.consumers = [];
    const consume = async (queue: string, handle: (message: ConsumeMessage) => void) => {
      const { consumerTag } = await channel.consume(queue, (message) => message && handle(message));
      this.consumers.push({ channel, tag: consumerTag });
    };
    const senders = new SenderCheck(this.env.eventPublishers, broker.user);
    await consume(events, (message) =>
      this.settle(channel, events, message, async () => {
        senders.assertAccepted(events, message);
        await this.fanOut(message);
      }),
    );
    // Tasks come from this service alone: the broker's default exchange reaches every queue.
    const own = SenderCheck.ownOnly(broker.user);
    await consume(deliveries, (message) =>
      this.settle(channel, deliveries, message, async () => {
        own.assertAccepted(deliveries, message);
        await this.attempt(message);
      }),
    );
    // Now that the events queue is bound, no event is unrouted any more: those kept go onto it.
    // Checked before the move, which stamps this service's own user on it.
    await consume(unrouted, (message) =>
      this.settle(channel, events, message, async () => {
        senders.assertAccepted(unrouted, message);
        await broker.republish(message, events);
      }),
    );
  }

  /**
   * Acknowledges once `work` is done; dead-letters an unreadable message, backs off one whose
   * work found the database out of reach (to come back to `queue`), hands any other back.
   */
  private settle(channel: ConfirmChannel, queue: string, message: ConsumeMessage, work: () => Promise<void>): void {
    this.unsettled++;
    void ackWhenDone(channel, message, work, this.logger, {
      isTransient: isDatabaseUnavailable,
      backOff: (failed) => this.broker!.republish(failed, this.backoffQueue(queue)),
    }).finally(() => {
      if (--this.unsettled === 0) this.settled?.();
    });
  }

  /** One delivery per live subscription of the event's client that wants it. */
  private async fanOut(message: ConsumeMessage): Promise<void> {
    const event = readMessage(message, isDomainEvent, 'an event');
    const { client_id, ...body } = event;
    for (const subscription of await this.subscriptions.listLive(client_id)) {
      if (subscription.events.includes(event.event)) await this.enqueue(subscription.id, client_id, body);
    }
  }

  /**
   * Stores the delivery (once, whatever number of times the event arrives) and queues its first
   * attempt. An event that comes again finds its delivery stored; while no attempt has ended
   * (`pending`) the try that stored it may have stopped before queueing, so it is queued again:
   * an attempt skips a delivery that succeeded meanwhile, and a receiver that got it twice sees
   * one webhook-id. Once an attempt has ended, the retries are the broker's to make.
   *
   * Nothing is written to mark the attempt queued: on FerretDB an update by `_id` reads the
   * collection up to the document (15 to 21 ms for the newest of 1,000 deliveries, 83 ms of
   * 5,000: `bench/db-write-probe.ts`), and a delivery made three such reads.
   */
  async enqueue(subscriptionId: number, clientId: number, body: WebhookBody): Promise<DeliveryRecord> {
    const record: DeliveryRecord = {
      _id: deliveryKey(subscriptionId, body.id),
      subscription_id: subscriptionId,
      client_id: clientId,
      body,
      status: 'pending',
      next_attempt_at: null,
      created_at: new Date(),
    };
    const stored = (await this.deliveries.create(record)) ? record : await this.deliveries.find(record._id);
    if (stored?.status === 'pending') await this.queue({ key: stored._id, retry: 0 });
    return stored ?? record;
  }

  /** Queues an attempt to make now. */
  async queue(task: DeliveryTask): Promise<void> {
    await this.broker!.publish('', this.names.deliveries, task);
  }

  /** The task, held once more, back on the deliveries queue once the wait for `reason` is over. */
  private async hold(task: DeliveryTask, held: NonNullable<DeliveryTask['held']>, reason: WaitReason): Promise<void> {
    const times = held.times + 1;
    countWebhookAttemptHeld(reason);
    await this.broker!.publish('', this.waitQueue(reason, times), { ...task, held: { ...held, times } });
  }

  private async attempt(message: ConsumeMessage): Promise<void> {
    const task = readMessage(message, isDeliveryTask, 'a delivery task');
    // Held back before, and its endpoint or client still has no room, not even to wait: it waits again, unread.
    const stillWaiting = task.held && this.gate.waiting(task.held.client_id, task.held.endpoint);
    if (stillWaiting) return this.hold(task, task.held!, stillWaiting);
    const delivery = await this.deliveries.find(task.key);
    if (!delivery || (delivery.status === 'succeeded' && !task.manual)) return;
    // A retry queued again since (it was overdue) carries the new token: this one is superseded.
    if (task.token && delivery.retry_token && task.token !== delivery.retry_token) return;
    const subscription = await this.subscriptions.findLive(delivery.client_id, delivery.subscription_id);
    if (!subscription) {
      await this.deliveries.update(delivery._id, { status: 'failed', next_attempt_at: null });
      return;
    }
    const admission = await this.gate.acquire(delivery.client_id, subscription.url, BUSY_WAIT_SECONDS * 1000);
    if (!admission.admitted) {
      const held = { client_id: delivery.client_id, endpoint: admission.endpoint, times: task.held?.times ?? 0 };
      return this.hold(task, held, admission.reason);
    }
    const body = JSON.stringify(delivery.body);
    const at = new Date();
    const headers = signatureHeaders(subscription.secret, delivery.body.id, body, at);
    let outcome: AttemptOutcome | undefined;
    try {
      outcome = await sendWebhook(subscription.url, body, headers, this.env.allowPrivateUrls);
    } finally {
      admission.release(endpointFailed(outcome));
    }
    const attempt = await this.deliveries.recordAttempt(delivery, outcome, at, task.retry + 1);
    // Every update below moves the delivery's attempt head up to this attempt (once numbered).
    const head = delivery.attempt_head === undefined ? {} : { attempt_head: attempt.number };
    const retrying = !outcome.success && !task.manual && task.retry < this.schedule.length;
    countWebhookAttempt(outcome.success ? 'delivered' : retrying ? 'retrying' : 'failed');
    if (outcome.success) {
      await this.deliveries.update(delivery._id, { status: 'succeeded', next_attempt_at: null, ...head });
    } else if (retrying) {
      const seconds = this.schedule[task.retry];
      const next: DeliveryTask = { key: delivery._id, retry: task.retry + 1, token: retryToken() };
      // Updated first: an update that fails leaves this message to be taken again, where a retry
      // already published would start a second chain beside the one the redelivery starts.
      await this.deliveries.update(delivery._id, {
        status: 'retrying',
        next_attempt_at: new Date(Date.now() + seconds * 1000),
        next_retry: next.retry,
        retry_token: next.token,
        ...head,
      });
      await this.broker!.publish('', this.retryQueue(seconds), next);
    } else if (delivery.status !== 'succeeded') {
      await this.deliveries.update(delivery._id, { status: 'failed', next_attempt_at: null, ...head });
    } else {
      // A manual attempt that failed leaves a delivery that succeeded as it was, but for its head.
      await this.deliveries.update(delivery._id, head);
    }
  }
}

/** The queue where attempts held back by the gate wait `seconds` before they are made. */
export function webhookWaitQueue(namespace: string, seconds: number): string {
  return queueName(namespace, `webhooks.deliveries.wait.${seconds}s`);
}
