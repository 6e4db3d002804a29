import './tracing';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger, Params, PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
import { instrumentHttp, OperationsEndpoint } from '@app/observability';
import { drainConnectionsWhenStopping, exitOnStartupFailure, stopGracefully } from '@app/runtime';
import { AppModule } from './app.module';
import { ApiGate, gateApi } from './auth/api-gate';
import { ApiKeys } from './auth/api-keys';
import { Backends } from './backends/backends';
import { GatewayEnvironment } from './config/gateway.environment';
import { gatewayReadinessChecks } from './health/health.module';
import { RateLimiter } from '@app/rate-limit';
import { configureHttp, FASTIFY_OPTIONS } from './http/http-setup';
import { serveOpenApi } from './openapi/openapi';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(FASTIFY_OPTIONS), {
    bufferLogs: true,
    // configureHttp registers the JSON parser: the API takes JSON only, and an empty body where
    // none is read is no body.
    bodyParser: false,
  });
  const logger = app.get(Logger);
  app.useLogger(logger);
  const env = app.get(GatewayEnvironment);
  const corsOrigins = env.CORS_ORIGINS?.split(',') ?? [];
  await configureHttp(app, { corsOrigins });
  gateApi(
    app,
    new ApiGate(app.get(ApiKeys), app.get(RateLimiter), {
      perKey: { perSecond: env.RATE_LIMIT_PER_SECOND, burst: env.RATE_LIMIT_BURST },
      unauthenticatedPerAddress: {
        perSecond: env.RATE_LIMIT_UNAUTHENTICATED_PER_SECOND,
        burst: env.RATE_LIMIT_UNAUTHENTICATED_BURST,
      },
    }),
  );
  instrumentHttp(app);
  serveOpenApi(app);
  // Requests on the connections clients keep are answered before Fastify and the broker
  // connections close.
  stopGracefully(app, drainConnectionsWhenStopping(app));
  // Probes and metrics on a port of their own, never the API's; closed with the app.
  await app.get(OperationsEndpoint).open({
    checks: gatewayReadinessChecks(app.get(Backends)),
    loggerParams: app.get<Params>(PARAMS_PROVIDER_TOKEN),
    logger,
    port: env.HTTP_PORT,
  });
  // Beyond it, Node closes a new connection at once rather than let idle ones exhaust the process.
  app.getHttpServer().maxConnections = env.MAX_CONNECTIONS;
  await app.listen(env.PORT, '0.0.0.0');
  // Nest's own "successfully started" comes before the port is bound; this comes after.
  logger.log(`HTTP API listening on port ${env.PORT}`, 'Gateway');
}

bootstrap().catch(exitOnStartupFailure);
