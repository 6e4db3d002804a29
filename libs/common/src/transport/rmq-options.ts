import { RmqOptions, Transport } from '@nestjs/microservices';

/**
 * The broker settings both ends of a queue share. @nestjs/microservices defaults to auto-ack,
 * unlimited prefetch, transient messages and Nagle's algorithm; each of those is turned around
 * here, in one place, so that a producer and a consumer cannot disagree.
 */
export interface BrokerSettings {
  url: string;
  queue: string;
}

// Queue arguments must match on every assert, from servers and clients alike.
const QUEUE_OPTIONS = { durable: true } as const;

const SOCKET_OPTIONS = {
  heartbeatIntervalInSeconds: 5,
  reconnectTimeInSeconds: 1,
  connectionOptions: { noDelay: true },
};

export function rmqServerOptions(settings: BrokerSettings & { prefetch: number }): RmqOptions {
  return {
    transport: Transport.RMQ,
    options: {
      urls: [settings.url],
      queue: settings.queue,
      queueOptions: QUEUE_OPTIONS,
      // Acknowledged by AckInterceptor once the handler has finished its work.
      noAck: false,
      prefetchCount: settings.prefetch,
      persistent: true,
      socketOptions: SOCKET_OPTIONS,
    },
  };
}

export function rmqClientOptions(settings: BrokerSettings): RmqOptions {
  return {
    transport: Transport.RMQ,
    options: {
      urls: [settings.url],
      queue: settings.queue,
      queueOptions: QUEUE_OPTIONS,
      persistent: true,
      socketOptions: SOCKET_OPTIONS,
    },
  };
}
