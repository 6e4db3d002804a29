import { Type } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { AsyncMicroserviceOptions } from '@nestjs/microservices';
import { Logger } from 'nestjs-pino';
import { queueName } from '@app/contracts';
import { ServiceEnvironment } from '../config/environment';
import { OperationsEndpoint } from '../operations/operations-endpoint';
import { AckInterceptor } from './ack.interceptor';
import { rmqServerOptions } from './rmq-options';
import { RpcErrorFilter } from './rpc-error.filter';

/**
 * Starts a microservice consuming its durable queue: acknowledgements after the work, bounded
 * prefetch, one error filter, and a clean close on SIGTERM. Any number of instances may run;
 * they share the queue as competing consumers. It logs JSON (ServiceOperationsModule), and once
 * it consumes, opens its HTTP listener for health and metrics.
 */
export async function runService(module: Type<unknown>, baseQueue: string): Promise<void> {
  const app = await NestFactory.createMicroservice<AsyncMicroserviceOptions>(module, {
    bufferLogs: true,
    inject: [ConfigService],
    useFactory: (config: ConfigService<ServiceEnvironment, true>) =>
      rmqServerOptions({
        url: config.get('AMQP_URL'),
        queue: queueName(config.get('NAMESPACE'), baseQueue),
        prefetch: config.get('RMQ_PREFETCH'),
      }),
  });
  app.useLogger(app.get(Logger));
  app.useGlobalInterceptors(new AckInterceptor());
  app.useGlobalFilters(new RpcErrorFilter());
  app.enableShutdownHooks();
  await app.listen();
  await app.get(OperationsEndpoint).open(app);
}

/** Ends the process with the reason when it cannot start (a bad setting, say). */
export function exitOnStartupFailure(error: unknown): never {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
