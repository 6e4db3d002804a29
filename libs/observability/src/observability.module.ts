import { DynamicModule, Inject, Module, OnModuleInit } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { CommonEnvironment } from '@app/config';
import { lineFormat, loggerParams } from './logging/logger-params';
import { RequestContextInterceptor } from './logging/request-context.interceptor';
import { startMetrics } from './metrics/metrics';

const APP_NAME = Symbol('APP_NAME');

/**
 * What every app needs to be watched: logs through nestjs-pino at LOG_LEVEL (JSON, or readable
 * lines at a terminal: LOG_FORMAT), the request context of every request and message, and the
 * process metrics labelled with the app's name. The app hands the module's Logger to Nest at
 * boot (`app.useLogger`), so that Nest's own lines go the same way.
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
          useFactory: (env: CommonEnvironment) => loggerParams(app, env.LOG_LEVEL, lineFormat(env.LOG_FORMAT)),
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
