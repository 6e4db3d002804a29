import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { INestMicroservice, Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AsyncMicroserviceOptions } from '@nestjs/microservices';
import { Logger as JsonLogger } from 'nestjs-pino';
import { ServiceEnvironment } from '@app/config';
import { queueName } from '@app/contracts';
import {
  PatternSenders,
  ReliableServerRMQ,
  rmqServerOptions,
  RpcErrorFilter,
  Settlement,
  SettlementInterceptor,
} from '@app/messaging';
import { OperationsEndpoint } from '@app/observability';
import { stopTracing } from '@app/observability/tracing/tracing';
import { isDatabaseUnavailable } from '@app/persistence';

/** A stopping process must be gone within 10 s; this leaves time to close connections. */
const DRAIN_TIMEOUT_MS = 7000;
/** Past this, a process that is still stopping gives up and exits non-zero. */
const STOP_DEADLINE_MS = 9500;

/**
 * Starts a microservice consuming its durable queue: settlement after the work, bounded
 * prefetch, one error filter. Any number of instances may run; they share the queue as
 * competing consumers. It logs JSON (ServiceOperationsModule), and once it consumes, opens its
 * HTTP listener for health and metrics. On SIGTERM or SIGINT it stops taking messages, finishes
 * and settles the ones it holds, closes its connections (the HTTP listener too) and exits 0.
 */
export async function runService(module: Type<unknown>, baseQueue: string): Promise<void> {
  const settlement = new Settlement();
  let server: ReliableServerRMQ | undefined;
  const app = await NestFactory.createMicroservice<AsyncMicroserviceOptions>(module, {
    bufferLogs: true,
    inject: [ServiceEnvironment],
    useFactory: (env: ServiceEnvironment) => {
      const queue = queueName(env.NAMESPACE, baseQueue);
      server = new ReliableServerRMQ(
        rmqServerOptions({
          url: env.AMQP_URL,
          queue,
          prefetch: env.RMQ_PREFETCH,
          consumerTag: `${queue}.${hostname()}.${process.pid}.${randomBytes(3).toString('hex')}`,
        }),
        settlement,
      );
      return { strategy: server };
    },
  });
  app.useLogger(app.get(JsonLogger));
  // Not APP_INTERCEPTOR/APP_FILTER providers: they share this Settlement with the server made
  // above, before the module's providers exist, and must wrap every handler of every module.
  const senders = new PatternSenders(app.get(ServiceEnvironment).TRUSTED_SENDERS.split(',').filter(Boolean));
  app.useGlobalInterceptors(new SettlementInterceptor(settlement, isDatabaseUnavailable, senders));
  app.useGlobalFilters(new RpcErrorFilter(settlement, isDatabaseUnavailable));
  stopGracefully(app, async () => {
    const drained = (await server?.drain(DRAIN_TIMEOUT_MS)) ?? true;
    const logger = new Logger('Shutdown');
    if (drained) logger.log('every message taken was settled');
    else logger.warn(`${settlement.inFlight} message(s) unsettled; the broker will hand them out again`);
  });
  await app.listen();
  await app.get(OperationsEndpoint).openFor(app);
}

/**
 * On SIGTERM or SIGINT: `drain`, then close the application (connections included), then export
 * the last spans, then exit 0. Nest's own shutdown hooks would re-raise the signal and exit
 * non-zero.
 */
export function stopGracefully(app: Pick<INestMicroservice, 'close'>, drain: () => Promise<void> = async () => {}): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const logger = new Logger('Shutdown');
    logger.log(`${signal}: stopping`);
    setTimeout(() => {
      logger.error(`still stopping after ${STOP_DEADLINE_MS} ms; exiting`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    // A handler that outlives the drain answers through a closed channel; its message goes back
    // to the queue, so the failed reply is expected here and must not crash the exit.
    process.on('unhandledRejection', (reason) => logger.warn(`while stopping: ${String(reason)}`));
    try {
      await drain();
      await app.close();
      await stopTracing();
      process.exit(0);
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** Ends the process with the reason when it cannot start (a bad setting, say). */
export function exitOnStartupFailure(error: unknown): never {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
