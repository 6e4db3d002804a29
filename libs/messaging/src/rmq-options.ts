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
 * Quorum queues: replicated and durable, with a delivery limit and a dead-letter route. Queue
 * arguments must match on every assert, from servers and clients alike.
 */
export function queueOptions(queue: string) {
  return {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-delivery-limit': MAX_DELIVERIES,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': deadLetterQueue(queue),
    },
  };
}

export const DEAD_LETTER_QUEUE_OPTIONS = { durable: true, arguments: { 'x-queue-type': 'quorum' } } as const;

const SOCKET_OPTIONS = {
  heartbeatIntervalInSeconds: 5,
  reconnectTimeInSeconds: 1,
  connectionOptions: { noDelay: true },
};

export function rmqServerOptions(settings: BrokerSettings & { prefetch: number; consumerTag: string }) {
  return {
    urls: [settings.url],
    queue: settings.queue,
    queueOptions: queueOptions(settings.queue),
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
      queueOptions: queueOptions(settings.queue),
      persistent: true,
      socketOptions: SOCKET_OPTIONS,
      serializer: new MessageSerializer(),
    },
  };
}
