import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { instrumentHttp } from '@app/observability';
import { exitOnStartupFailure, stopGracefully } from '@app/runtime';
import { AppModule } from './app.module';
import { GatewayEnvironment } from './config/gateway.environment';
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
  await app.listen(env.PORT, '0.0.0.0');
  // Nest's own "successfully started" comes before the port is bound; this comes after.
  logger.log(`HTTP API listening on port ${env.PORT}`, 'Gateway');
}

bootstrap().catch(exitOnStartupFailure);
