import { DynamicModule, Injectable, INestMicroservice, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger, LoggerModule, Params, PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
import { ServiceEnvironment } from '../config/environment';
import { REQUEST_ID_OPTIONS, returnRequestId } from '../logging/http-request-id';
import { instrumentHttp } from '../metrics/http-metrics';
import { MetricsController } from '../metrics/metrics.controller';

/** What the service's HTTP listener needs of the service. */
interface ServiceParts {
  loggerParams: Params;
}

/** The root module of the listener. */
@Module({})
class OperationsHttpModule {
  static serving({ loggerParams }: ServiceParts): DynamicModule {
    return {
      module: OperationsHttpModule,
      imports: [LoggerModule.forRoot(loggerParams)],
      controllers: [MetricsController],
    };
  }
}

/**
 * A microservice's own small HTTP listener on HTTP_PORT: GET /metrics, for Prometheus. It is an application of its own beside the
 * microservice, so that the message consumer stays exactly as it is configured; it closes when
 * the microservice does.
 */
@Injectable()
export class OperationsEndpoint implements OnApplicationShutdown {
  private app: NestFastifyApplication | null = null;

  async open(service: INestMicroservice): Promise<void> {
    const parts: ServiceParts = { loggerParams: service.get<Params>(PARAMS_PROVIDER_TOKEN) };
    const logger = service.get(Logger);
    this.app = await NestFactory.create<NestFastifyApplication>(
      OperationsHttpModule.serving(parts),
      new FastifyAdapter(REQUEST_ID_OPTIONS),
      { logger },
    );
    returnRequestId(this.app);
    instrumentHttp(this.app);
    const config = service.get<ConfigService<ServiceEnvironment, true>>(ConfigService);
    const wanted: number = config.get('HTTP_PORT', { infer: true });
    await this.app.listen(wanted, '0.0.0.0');
    const { port } = this.app.getHttpServer().address() as { port: number };
    logger.log(`metrics listening on port ${port}`, 'OperationsEndpoint');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.app?.close();
    this.app = null;
  }
}
