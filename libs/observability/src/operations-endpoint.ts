import { DynamicModule, Injectable, INestMicroservice, Module, OnApplicationShutdown } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getConnectionToken } from '@nestjs/mongoose';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { HealthIndicatorFunction, TerminusModule } from '@nestjs/terminus';
import { Logger, LoggerModule, Params, PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
import { Connection } from 'mongoose';
import { ServiceEnvironment } from '@app/config';
import { HealthController, READINESS_CHECKS } from './health/health.controller';
import { BrokerConnection, ReadinessIndicators } from './health/health-indicators';
import { REQUEST_ID_OPTIONS, returnRequestId } from './logging/http-request-id';
import { instrumentHttp } from './metrics/http-metrics';
import { MetricsController } from './metrics/metrics.controller';

/** The checks GET /health/ready runs, made from terminus's indicators. */
export type ReadinessChecks = (indicators: ReadinessIndicators) => HealthIndicatorFunction[];

/** What an app's operations listener needs: its readiness checks, its logging, its port. */
export interface OperationsSettings {
  checks: ReadinessChecks;
  loggerParams: Params;
  logger: Logger;
  /** 0 takes any free port. */
  port: number;
}

/** The root module of the listener: health and metrics only. */
@Module({})
class OperationsHttpModule {
  static serving({ checks, loggerParams }: Pick<OperationsSettings, 'checks' | 'loggerParams'>): DynamicModule {
    return {
      module: OperationsHttpModule,
      imports: [LoggerModule.forRoot(loggerParams), TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController, MetricsController],
      providers: [ReadinessIndicators, { provide: READINESS_CHECKS, inject: [ReadinessIndicators], useFactory: checks }],
    };
  }
}

/**
 * An app's own small HTTP listener for operators: GET /health/live, /health/ready and /metrics,
 * for orchestrators and Prometheus, on a port of its own (HTTP_PORT) that is never the API's, so
 * that neither the probes nor the metrics are open to the API's callers. It is an application of
 * its own beside the app, so that the app stays exactly as it is configured; it closes when the
 * app does.
 */
@Injectable()
export class OperationsEndpoint implements OnApplicationShutdown {
  private app: NestFastifyApplication | null = null;

  /** Opens the listener of a microservice: ready when its database and its broker connection are. */
  async openFor(service: INestMicroservice): Promise<void> {
    const connection = service.get<Connection>(getConnectionToken());
    const broker = new BrokerConnection(service.status);
    await this.open({
      checks: (indicators) => [() => indicators.database('database', connection), () => indicators.broker('broker', [broker])],
      loggerParams: service.get<Params>(PARAMS_PROVIDER_TOKEN),
      logger: service.get(Logger),
      port: service.get(ServiceEnvironment).HTTP_PORT,
    });
  }

  async open({ checks, loggerParams, logger, port }: OperationsSettings): Promise<void> {
    this.app = await NestFactory.create<NestFastifyApplication>(
      OperationsHttpModule.serving({ checks, loggerParams }),
      new FastifyAdapter(REQUEST_ID_OPTIONS),
      { logger },
    );
    returnRequestId(this.app);
    instrumentHttp(this.app);
    await this.app.listen(port, '0.0.0.0');
    const { port: bound } = this.app.getHttpServer().address() as { port: number };
    logger.log(`health and metrics listening on port ${bound}`, 'OperationsEndpoint');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.app?.close();
    this.app = null;
  }
}
