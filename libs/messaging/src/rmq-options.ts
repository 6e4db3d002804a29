import { RmqOptions, Transport } from '@nestjs/microservices';
import { MessageSerializer } from './message-bound';

/**
 * The broker settings both ends of a queue share. @nestjs/microservices defaults to auto-ack,
 * unlimited prefetch, transient messages and Nagle's algorithm; each of those is turned around
 * here, in one place, so that a producer and a consumer cannot disagree.
 */
export interface BrokerSettings {
  url: string;
  queue: string;
}

/**
 * How many times a message is handed to a service before it is given up on. The broker counts
 * deliveries itself (a quorum queue's x-delivery-limit), so a message that crashes every process
 * that takes it is dead-lettered too, not only one whose handler throws.
 */
export const MAX_DELIVERIES = 5;

/** Where a queue's messages go when they are given up on, for an operator to look at. */
export function deadLetterQueue(queue: string): string {
  return `${queue}.dead-letter`;
}

/**
 * The exchange a queue dead-letters through. A headers exchange, so that only what is worth an
 * operator's look reaches the dead-letter queue: a message a service gave up on (`rejected`) or
 * one that crashed every process that took it (`delivery_limit`). A request that expired in the
 * queue (its caller was told 503 and may retry) matches no binding and is dropped.
 */
export function deadLetterExchange(queue: string): string {
  return `${queue}.dead-letter-exchange`;
}

/** The reasons RabbitMQ gives (`x-first-death-reason`) for which a message is kept. */
export const KEPT_DEAD_LETTER_REASONS = ['rejected', 'delivery_limit'] as const;

/** Bindings of the dead-letter queue to its exchange: one per kept reason. */
export function deadLetterBindings(): Record<string, string>[] {
  // `any-with-x`: a headers binding ignores x- headers unless told otherwise.
  return KEPT_DEAD_LETTER_REASONS.map((reason) => ({ 'x-match': 'any-with-x', 'x-first-death-reason': reason }));
}

/**
 * Quorum queues: replicated and durable, with a delivery limit and a dead-letter route. Queue
 * arguments must match on every assert, from servers and clients alike.
 */
export function queueOptions(queue: string) {
  return {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-delivery-limit': MAX_DELIVERIES,
      'x-dead-letter-exchange': deadLetterExchange(queue),
    },
  };
}

/** At most this many dead letters are kept per queue; the oldest go first. */
export const DEAD_LETTERS_KEPT = 10_000;
/** A dead letter is kept this long (7 days), time enough for an operator to look at it. */
export const DEAD_LETTER_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Bounded, so that a flood of failures cannot fill the broker's disk (and hold sealed personal
 * data forever): capped in length and in age, the oldest dropped first.
 */
export const DEAD_LETTER_QUEUE_OPTIONS = {
  durable: true,
  arguments: {
    'x-queue-type': 'quorum',
    'x-max-length': DEAD_LETTERS_KEPT,
    'x-overflow': 'drop-head',
    'x-message-ttl': DEAD_LETTER_MAX_AGE_MS,
  },
} as const;

/**
 * Every broker connection's: heartbeats, reconnects, a bound on connecting, and Nagle's algorithm
 * off. Across a partition (packets dropped, nothing closed) a connection's heartbeats stop: both
 * ends give it up after two missed ones (10 s), the consumer's messages go back to the queue for
 * the other instances, and readiness says not connected. A connection attempt then would wait on
 * a handshake that never comes (amqplib sets no limit of its own) and the instance would not come
 * back when the network does; `timeout` gives each attempt up after 5 s, and the next starts.
 */
export const SOCKET_OPTIONS = {
  heartbeatIntervalInSeconds: 5,
  reconnectTimeInSeconds: 1,
  connectionOptions: { noDelay: true, timeout: 5000 },
};

const REQUESTS_SUFFIX = '.requests';

/**
 * The exchange requests to a service's queue are published to: a fanout exchange of its own, to
 * which the service binds its queue. Write on the default exchange would let a sender put a
 * message on any queue (RabbitMQ checks a publish against the exchange alone), so the apps that
 * only ask (the gateway, the form) get write on these exchanges, never on the default one.
 */
export function requestExchange(queue: string): string {
  return `${queue}${REQUESTS_SUFFIX}`;
}

/**
 * The queue a request was consumed from, by where it was published: to the queue's request
 * exchange (the routing key is then the pattern), or straight to the queue through the default
 * exchange (the routing key is then the queue).
 */
export function requestQueueOf(fields: { exchange?: string; routingKey?: string } | undefined): string {
  const exchange = fields?.exchange ?? '';
  if (exchange.endsWith(REQUESTS_SUFFIX)) return exchange.slice(0, -REQUESTS_SUFFIX.length);
  return fields?.routingKey ?? 'unknown';
}

export function rmqServerOptions(settings: BrokerSettings & { prefetch: number; consumerTag: string }) {
  return {
    urls: [settings.url],
    queue: settings.queue,
    queueOptions: queueOptions(settings.queue),
    exchange: requestExchange(settings.queue),
    exchangeType: 'fanout' as const,
    // Settled by the settlement interceptor and error filter once the handler is done.
    noAck: false,
    prefetchCount: settings.prefetch,
    persistent: true,
    consumerTag: settings.consumerTag,
    socketOptions: SOCKET_OPTIONS,
  } satisfies RmqOptions['options'];
}

export function rmqClientOptions(settings: BrokerSettings): RmqOptions {
  return {
    transport: Transport.RMQ,
    options: {
      urls: [settings.url],
      queue: settings.queue,
      // Published to the queue's request exchange, which the service binds its queue to: the
      // client declares the exchange, never the queue, so a request sent before any instance of
      // the service has started once finds no queue and times out.
      exchange: requestExchange(settings.queue),
      exchangeType: 'fanout',
      queueOptions: queueOptions(settings.queue),
      persistent: true,
      socketOptions: SOCKET_OPTIONS,
      serializer: new MessageSerializer(),
    },
  };
}

/** What declaring a queue's dead-letter route needs of a channel (amqplib's, or Nest's server's). */
export interface DeclaringChannel {
  assertExchange(exchange: string, type: string, options: object): Promise<unknown>;
  assertQueue(queue: string, options: object): Promise<unknown>;
  bindQueue(queue: string, source: string, pattern: string, args?: object): Promise<unknown>;
}

/**
 * Declares a service's queue as the service does (ReliableServerRMQ, with rmqServerOptions): the
 * queue, where it dead-letters to, and its request exchange bound to it. For what stands in for a
 * service, a test's peer say.
 */
export async function assertServiceQueue(channel: DeclaringChannel, queue: string): Promise<void> {
  await channel.assertQueue(queue, queueOptions(queue));
  await assertDeadLetterRoute(channel, queue);
  await channel.assertExchange(requestExchange(queue), 'fanout', { durable: true });
  await channel.bindQueue(queue, requestExchange(queue), '');
}

/** Declares where `queue` (declared with queueOptions) dead-letters to: its exchange and its bounded queue. */
export async function assertDeadLetterRoute(channel: DeclaringChannel, queue: string): Promise<void> {
  await channel.assertExchange(deadLetterExchange(queue), 'headers', { durable: true });
  await channel.assertQueue(deadLetterQueue(queue), DEAD_LETTER_QUEUE_OPTIONS);
  for (const binding of deadLetterBindings()) {
    await channel.bindQueue(deadLetterQueue(queue), deadLetterExchange(queue), '', binding);
  }
}

/**
 * Keeps in `queue`'s dead-letter queue, too, what came to `queue` from a delay queue (a retry or a
 * backoff) and was given up on there: its first death is `expired`, in the delay queue, and
 * RabbitMQ 3.10 never changes `x-first-death-reason`, so the bindings of deadLetterBindings would
 * drop it. Only for a queue whose messages carry no TTL, so that none expires in the queue itself.
 */
export async function keepDelayedDeadLetters(channel: DeclaringChannel, queue: string): Promise<void> {
  const expiredBefore = { 'x-match': 'any-with-x', 'x-first-death-reason': 'expired' };
  await channel.bindQueue(deadLetterQueue(queue), deadLetterExchange(queue), '', expiredBefore);
}

/**
 * A queue where messages wait `ttlMs`, then move to `target` (a queue, through the default
 * exchange): the broker keeps a delay, so a retry or a reminder survives any process and needs no
 * polling. Quorum, with at-least-once dead-lettering: a waiting message survives a broker restart
 * and is moved only once the target has taken it.
 */
export function delayQueueOptions(ttlMs: number, target: string) {
  return {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-message-ttl': ttlMs,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': target,
      'x-dead-letter-strategy': 'at-least-once',
      'x-overflow': 'reject-publish',
    },
  };
}
