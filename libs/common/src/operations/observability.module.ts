import { DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { CommonEnvironment } from '../config/environment';
import { loggerParams } from '../logging/logger-params';
import { RequestContextInterceptor } from '../logging/request-context.interceptor';

/**
 * What every app needs to be watched: JSON logs through nestjs-pino at LOG_LEVEL, and the
 * request context of every request and message.
 * The app hands the module's Logger to Nest at boot (`app.useLogger`), so that Nest's own lines
 * are JSON too.
 */
@Module({})
export class ObservabilityModule {
  static forApp(app: string): DynamicModule {
    return {
      module: ObservabilityModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService<CommonEnvironment, true>) => loggerParams(app, config.get('LOG_LEVEL')),
        }),
      ],
      providers: [{ provide: APP_INTERCEPTOR, useClass: RequestContextInterceptor }],
    };
  }
}
