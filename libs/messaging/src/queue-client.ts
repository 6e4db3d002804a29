import { DynamicModule, Inject } from '@nestjs/common';
import { ClientsModule } from '@nestjs/microservices';
import { CommonEnvironment } from '@app/config';
import { queueName } from '@app/contracts';
import { rmqClientOptions } from './rmq-options';

/** The injection token of the client of one service's queue; the same in every app. */
export function queueClientToken(baseQueue: string): string {
  return `queue-client:${baseQueue}`;
}

/** Injects the ClientProxy of a service's queue registered by `queueClients`. */
export const InjectQueueClient = (baseQueue: string): ParameterDecorator => Inject(queueClientToken(baseQueue));

/**
 * The one way an app gets clients of other services' queues: with the broker settings every
 * producer shares (rmqClientOptions), on AMQP_URL, under the NAMESPACE prefix. Nest closes them
 * when the app stops.
 */
export function queueClients(...baseQueues: string[]): DynamicModule {
  return ClientsModule.registerAsync(
    baseQueues.map((baseQueue) => ({
      name: queueClientToken(baseQueue),
      inject: [CommonEnvironment],
      useFactory: (env: CommonEnvironment) => rmqClientOptions({ url: env.AMQP_URL, queue: queueName(env.NAMESPACE, baseQueue) }),
    })),
  );
}
