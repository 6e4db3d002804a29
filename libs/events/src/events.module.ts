import { DynamicModule, Module } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { ServiceEnvironment } from '@app/config';
import { EventOutbox } from './event-outbox';
import { EventRelay } from './event-relay';

/**
 * A service's domain events: the outbox in its own database, and the relay that publishes from
 * it. Import once, beside DatabaseModule; EventOutbox is then injectable anywhere.
 */
@Module({})
export class EventsModule {
  static forService(): DynamicModule {
    return {
      module: EventsModule,
      global: true,
      providers: [
        { provide: EventOutbox, inject: [getConnectionToken()], useFactory: (c: Connection) => new EventOutbox(c) },
        {
          provide: EventRelay,
          inject: [EventOutbox, ServiceEnvironment],
          useFactory: (outbox: EventOutbox, env: ServiceEnvironment) =>
            new EventRelay(outbox, {
              amqpUrl: env.AMQP_URL,
              namespace: env.NAMESPACE,
              intervalMs: env.EVENT_RELAY_INTERVAL_MS,
              graceMs: env.EVENT_DROP_AFTER_SECONDS * 1000,
              onWrite: env.EVENT_RELAY_ON_WRITE === 'true',
            }),
        },
      ],
      exports: [EventOutbox],
    };
  }
}
