import { DynamicModule, Module } from '@nestjs/common';
import { HealthIndicatorFunction, TerminusModule } from '@nestjs/terminus';
import { LoggerModule, Params } from 'nestjs-pino';
import { HealthController, MetricsController, READINESS_CHECKS, ReadinessIndicators } from '@app/observability';
import { FormBackends } from '../backends/form-backends';

/**
 * The form's operator listener on HTTP_PORT: /health/live, /health/ready and /metrics, kept off
 * the port applicants reach. Ready when connected to the broker and both services answer.
 */
@Module({})
export class FormHealthModule {
  static serving(backends: FormBackends, loggerParams: Params): DynamicModule {
    return {
      module: FormHealthModule,
      imports: [LoggerModule.forRoot(loggerParams), TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController, MetricsController],
      providers: [
        ReadinessIndicators,
        {
          provide: READINESS_CHECKS,
          inject: [ReadinessIndicators],
          useFactory: (indicators: ReadinessIndicators): HealthIndicatorFunction[] => {
            const connections = backends.brokerConnections();
            return [
              () => indicators.broker('broker', connections),
              () => indicators.answers('properties', () => backends.ping('properties'), 'the properties service'),
              () => indicators.answers('applications', () => backends.ping('applications'), 'the applications service'),
            ];
          },
        },
      ],
    };
  }
}
