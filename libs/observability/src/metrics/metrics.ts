import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's metrics, served by GET /metrics in the Prometheus text format. Every series is
 * labelled with `service` (gateway, properties or applications); see startMetrics.
 */
export const metricsRegistry = new Registry();

// From 5 ms to 10 s: a request answers in milliseconds, and no deadline here is over 10 s by default.
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests served, by method, route pattern (unmatched for unknown routes) and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const rpcDuration = new Histogram({
  name: 'rpc_duration_seconds',
  help: 'Requests sent to a service over RabbitMQ, until answered or given up, by pattern and outcome (ok or the error code)',
  labelNames: ['pattern', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const messagesHandled = new Counter({
  name: 'messages_handled_total',
  help: 'Messages a service handled, by pattern and outcome (ok, the error code it answered with, or error)',
  labelNames: ['pattern', 'outcome'] as const,
  registers: [metricsRegistry],
});

const messagesDeadLettered = new Counter({
  name: 'messages_dead_lettered_total',
  help: 'Messages given up on and sent to a dead-letter queue, by queue and reason',
  labelNames: ['queue', 'reason'] as const,
  registers: [metricsRegistry],
});

const dbCommands = new Counter({
  name: 'db_commands_total',
  help: 'Commands sent to the database, by command name; counted only with DB_COMMAND_METRICS=true',
  labelNames: ['command'] as const,
  registers: [metricsRegistry],
});

const eventsRelayed = new Counter({
  name: 'events_relayed_total',
  help:
    'Domain events the relay took out of the outbox, by outcome (published, or dropped as their change was never ' +
    'written) and by how it found them (on_write: its writer said them written; pass: its pass over the outbox)',
  labelNames: ['outcome', 'found'] as const,
  registers: [metricsRegistry],
});

/** For the event relay: counts the events of a batch it published or dropped. */
export function countEventsRelayed(outcome: 'published' | 'dropped', found: 'on_write' | 'pass', count: number): void {
  if (count > 0) eventsRelayed.inc({ outcome, found }, count);
}

const notificationMessages = new Counter({
  name: 'notification_messages_total',
  help:
    'E-mails to applicants, by kind and step: made (stored once for its event and recipient), already_made (its ' +
    'event came again and found it), sent, retried (the mail server did not take it) and given_up',
  labelNames: ['kind', 'step'] as const,
  registers: [metricsRegistry],
});

const notificationEvents = new Counter({
  name: 'notification_events_total',
  help: 'Domain events the notifications service has dealt with (a message made, found made, or none wanted), by event',
  labelNames: ['event'] as const,
  registers: [metricsRegistry],
});

/** For the notifications service: counts one event dealt with. */
export function countNotificationEvent(event: string): void {
  notificationEvents.inc({ event });
}

/** For the notifications service: counts one step of one e-mail. */
export function countNotificationMessage(
  kind: string,
  step: 'made' | 'already_made' | 'held' | 'suppressed' | 'over_daily_limit' | 'sent' | 'retried' | 'given_up' | 'hold_ended',
): void {
  notificationMessages.inc({ kind, step });
}

/**
 * One read shared by the gauges that a scrape collects together (they start at once): each shows
 * what the same read found, and the database or broker is asked once.
 */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let reading: Promise<T> | undefined;
  return () => (reading ??= read().finally(() => (reading = undefined)));
}

const webhookAttempts = new Counter({
  name: 'webhook_attempts_total',
  help:
    'Webhook attempts made, by outcome: delivered (a 2xx), retrying (failed, a retry is scheduled) or failed ' +
    '(failed, no retry left: the delivery is given up)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

/** For the webhook worker: counts one attempt made, by what it led to. */
export function countWebhookAttempt(outcome: 'delivered' | 'retrying' | 'failed'): void {
  webhookAttempts.inc({ outcome });
}

const webhookAttemptsHeld = new Counter({
  name: 'webhook_attempts_held_total',
  help:
    'Webhook attempts held back to wait, by reason: busy (their endpoint or client had as many under way as the ' +
    'per-endpoint and per-client caps allow) or open (their endpoint is left alone by the breaker)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

/** For the webhook worker: counts an attempt held back by the caps (busy) or the breaker (open). */
export function countWebhookAttemptHeld(reason: 'busy' | 'open'): void {
  webhookAttemptsHeld.inc({ reason });
}

let openEndpoints: () => number = () => 0;

new Gauge({
  name: 'webhook_endpoints_open',
  help: 'Webhook endpoints (scheme, host and port) this instance leaves alone now, its breaker open after failures in a row',
  registers: [metricsRegistry],
  collect() {
    this.set(openEndpoints());
  },
});

/** For the webhook worker: how many endpoints its breaker leaves alone now, read at each scrape. */
export function watchOpenEndpoints(read: () => number): void {
  openEndpoints = read;
}

/** What the outbox holds: events waiting, and how long the oldest has waited. */
export interface OutboxState {
  waiting: number;
  oldestAgeSeconds: number;
}

let outboxState: (() => Promise<OutboxState>) | undefined;
let lastOutboxState: OutboxState = { waiting: 0, oldestAgeSeconds: 0 };

/** Read once per scrape for both gauges; a failed read keeps the last values. */
const readOutbox = oncePerScrape(async () => {
  if (outboxState) lastOutboxState = await outboxState().catch(() => lastOutboxState);
  return lastOutboxState;
});

new Gauge({
  name: 'events_outbox_waiting',
  help: "Domain events in this service's outbox, recorded and not yet published or dropped by the relay",
  registers: [metricsRegistry],
  async collect() {
    this.set((await readOutbox()).waiting);
  },
});

new Gauge({
  name: 'events_outbox_oldest_age_seconds',
  help: "How long the oldest event in this service's outbox has waited (0 when it is empty)",
  registers: [metricsRegistry],
  async collect() {
    this.set((await readOutbox()).oldestAgeSeconds);
  },
});

/** For the outbox: what it holds, read at each scrape. */
export function watchOutbox(read: () => Promise<OutboxState>): void {
  outboxState = read;
}

const formSteps = new Counter({
  name: 'form_steps_total',
  help: 'Form pages sent by applicants, by step (the section, or finish) and outcome: submitted (saved) or refused (the page shown again with its problems, or a refusal)',
  labelNames: ['step', 'outcome'] as const,
  registers: [metricsRegistry],
});

/** For the form: counts a step sent, saved or refused. `step` is one of the form's own steps, never what was asked for. */
export function countFormStep(step: string, outcome: 'submitted' | 'refused'): void {
  formSteps.inc({ step, outcome });
}

const documents = new Counter({
  name: 'documents_total',
  help: "Applicants' documents uploaded through the form, by outcome: stored, or refused (and why, by its stable code)",
  labelNames: ['outcome', 'reason'] as const,
  registers: [metricsRegistry],
});

/** For the form: counts an upload stored, or refused with the refusal's stable code. */
export function countDocument(outcome: 'stored' | 'refused', reason = ''): void {
  documents.inc({ outcome, reason });
}

/** A queue this process consumes, as its scrape reads it: messages ready, consumers, and its own share of work. */
export interface QueueState {
  ready: number;
  consumers: number;
  /** This process's messages taken and not yet settled, over as many as it may hold (its prefetch): 0 to 1. */
  utilization?: number;
}

const queueReaders = new Map<string, () => Promise<QueueState>>();
const queueStates = new Map<string, QueueState>();

const readQueues = oncePerScrape(async () => {
  await Promise.all(
    [...queueReaders].map(async ([queue, read]) => {
      const state = await read().catch(() => undefined);
      if (state) queueStates.set(queue, state);
    }),
  );
  return queueStates;
});

new Gauge({
  name: 'queue_messages_ready',
  help: 'Messages waiting in a queue this process consumes, by queue, as the broker counts them at the scrape',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
  async collect() {
    for (const [queue, { ready }] of await readQueues()) this.set({ queue }, ready);
  },
});

new Gauge({
  name: 'queue_consumers',
  help: 'Consumers of a queue this process consumes (every instance of every app taking from it), by queue',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
  async collect() {
    for (const [queue, { consumers }] of await readQueues()) this.set({ queue }, consumers);
  },
});

new Gauge({
  name: 'queue_consumer_utilization',
  help: 'Messages this process holds unsettled from a queue over its prefetch, by queue: 1 means it takes no more',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
  async collect() {
    for (const [queue, { utilization }] of await readQueues()) if (utilization !== undefined) this.set({ queue }, utilization);
  },
});

/** For a consumer: reads the state of `queue` at each scrape (a failed read keeps the last). */
export function watchQueue(queue: string, read: () => Promise<QueueState>): void {
  queueReaders.set(queue, read);
}

/** For the driver's command monitoring: counts one command sent to the database. */
export function countDbCommand(command: string): void {
  dbCommands.inc({ command });
}

/** For the code that dead-letters a message: counts it, by the queue it came from and why. */
export function countDeadLettered(queue: string, reason: string): void {
  messagesDeadLettered.inc({ queue, reason });
}

/** Measures one request to a service, from sending until it is answered or given up. */
export function rpcTimer(pattern: string) {
  const stop = rpcDuration.startTimer({ pattern });
  return {
    answered<T>(answer: T): T {
      stop({ outcome: 'ok' });
      return answer;
    },
    failed<E extends { code: string }>(error: E): E {
      stop({ outcome: error.code });
      return error;
    },
  };
}

let started = false;

/** Names the app on every series and starts the process and Node.js metrics; once, at boot. */
export function startMetrics(app: string): void {
  if (started) return;
  started = true;
  metricsRegistry.setDefaultLabels({ service: app });
  collectDefaultMetrics({ register: metricsRegistry });
}
