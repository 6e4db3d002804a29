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

/** What the service's HTTP listener reports on: its database, and its own broker connection. */
interface ServiceParts {
  connection: Connection;
  broker: BrokerConnection;
  loggerParams: Params;
}

/** The root module of the listener: health and metrics only. */
@Module({})
class OperationsHttpModule {
  static serving({ connection, broker, loggerParams }: ServiceParts): DynamicModule {
    return {
      module: OperationsHttpModule,
      imports: [LoggerModule.forRoot(loggerParams), TerminusModule.forRoot({ errorLogStyle: 'json' })],
      controllers: [HealthController, MetricsController],
      providers: [
        ReadinessIndicators,
        {
          provide: READINESS_CHECKS,
          inject: [ReadinessIndicators],
          useFactory: (indicators: ReadinessIndicators): HealthIndicatorFunction[] => [
            () => indicators.database('database', connection),
            () => indicators.broker('broker', [broker]),
          ],
        },
      ],
    };
  }
}

/**
 * A microservice's own small HTTP listener on HTTP_PORT: GET /health/live, /health/ready and
 * /metrics, for orchestrators and Prometheus. It is an application of its own beside the
 * microservice, so that the message consumer stays exactly as it is configured; it closes when
 * the microservice does.
 */
@Injectable()
export class OperationsEndpoint implements OnApplicationShutdown {
  private app: NestFastifyApplication | null = null;

  async open(service: INestMicroservice): Promise<void> {
    const parts: ServiceParts = {
      connection: service.get<Connection>(getConnectionToken()),
      broker: new BrokerConnection(service.status),
      loggerParams: service.get<Params>(PARAMS_PROVIDER_TOKEN),
    };
    const logger = service.get(Logger);
    this.app = await NestFactory.create<NestFastifyApplication>(
      OperationsHttpModule.serving(parts),
      new FastifyAdapter(REQUEST_ID_OPTIONS),
      { logger },
    );
    returnRequestId(this.app);
    instrumentHttp(this.app);
    const wanted = service.get(ServiceEnvironment).HTTP_PORT;
    await this.app.listen(wanted, '0.0.0.0');
    const { port } = this.app.getHttpServer().address() as { port: number };
    logger.log(`health and metrics listening on port ${port}`, 'OperationsEndpoint');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.app?.close();
    this.app = null;
  }
}
