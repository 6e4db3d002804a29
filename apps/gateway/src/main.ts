import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { exitOnStartupFailure, stopGracefully } from '@app/common';
import { AppModule } from './app.module';
import { GatewayEnvironment } from './config/gateway.environment';
import { closeConnectionsWhenStopping, configureHttp, FASTIFY_OPTIONS } from './http/http-setup';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(FASTIFY_OPTIONS));
  const config = app.get<ConfigService<GatewayEnvironment, true>>(ConfigService);
  const corsOrigins = config.get('CORS_ORIGINS', { infer: true })?.split(',') ?? [];
  await configureHttp(app, { corsOrigins });
  // Closing Fastify lets requests in flight finish before the broker connections close.
  const stopKeepingAlive = closeConnectionsWhenStopping(app);
  stopGracefully(app, async () => stopKeepingAlive());
  const port: number = config.get('PORT', { infer: true });
  await app.listen(port, '0.0.0.0');
  // Nest's own "successfully started" comes before the port is bound; this comes after.
  new Logger('Gateway').log(`HTTP API listening on port ${port}`);
}

bootstrap().catch(exitOnStartupFailure);
