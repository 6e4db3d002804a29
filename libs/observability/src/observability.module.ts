import { DynamicModule, Inject, Module, OnModuleInit } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { CommonEnvironment } from '@app/config';
import { loggerParams } from './logging/logger-params';
import { RequestContextInterceptor } from './logging/request-context.interceptor';
import { startMetrics } from './metrics/metrics';

const APP_NAME = Symbol('APP_NAME');

/**
 * What every app needs to be watched: JSON logs through nestjs-pino at LOG_LEVEL, the request
 * context of every request and message, and the process metrics labelled with the app's name.
 * The app hands the module's Logger to Nest at boot (`app.useLogger`), so that Nest's own lines
 * are JSON too.
 */
@Module({})
export class ObservabilityModule implements OnModuleInit {
  constructor(@Inject(APP_NAME) private readonly app: string) {}

  static forApp(app: string): DynamicModule {
    return {
      module: ObservabilityModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [CommonEnvironment],
          useFactory: (env: CommonEnvironment) => loggerParams(app, env.LOG_LEVEL),
        }),
      ],
      providers: [
        { provide: APP_NAME, useValue: app },
        { provide: APP_INTERCEPTOR, useClass: RequestContextInterceptor },
      ],
    };
  }

  onModuleInit(): void {
    startMetrics(this.app);
  }
}
