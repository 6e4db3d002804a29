import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger, Params, PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
import { instrumentHttp, OperationsEndpoint } from '@app/observability';
import { exitOnStartupFailure, stopGracefully } from '@app/runtime';
import { AppModule } from './app.module';
import { Backends } from './backends/backends';
import { GatewayEnvironment } from './config/gateway.environment';
import { gatewayReadinessChecks } from './health/health.module';
import { closeConnectionsWhenStopping, configureHttp, FASTIFY_OPTIONS } from './http/http-setup';
import { serveOpenApi } from './openapi/openapi';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(FASTIFY_OPTIONS), {
    bufferLogs: true,
  });
  const logger = app.get(Logger);
  app.useLogger(logger);
  const env = app.get(GatewayEnvironment);
  const corsOrigins = env.CORS_ORIGINS?.split(',') ?? [];
  await configureHttp(app, { corsOrigins });
  instrumentHttp(app);
  serveOpenApi(app);
  // Closing Fastify lets requests in flight finish before the broker connections close.
  const stopKeepingAlive = closeConnectionsWhenStopping(app);
  stopGracefully(app, async () => stopKeepingAlive());
  // Probes and metrics on a port of their own, never the API's; closed with the app.
  await app.get(OperationsEndpoint).open({
    checks: gatewayReadinessChecks(app.get(Backends)),
    loggerParams: app.get<Params>(PARAMS_PROVIDER_TOKEN),
    logger,
    port: env.HTTP_PORT,
  });
  await app.listen(env.PORT, '0.0.0.0');
  // Nest's own "successfully started" comes before the port is bound; this comes after.
  logger.log(`HTTP API listening on port ${env.PORT}`, 'Gateway');
}

bootstrap().catch(exitOnStartupFailure);
