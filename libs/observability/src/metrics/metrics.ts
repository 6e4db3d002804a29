import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

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
export function countNotificationMessage(kind: string, step: 'made' | 'already_made' | 'sent' | 'retried' | 'given_up'): void {
  notificationMessages.inc({ kind, step });
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
