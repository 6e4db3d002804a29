import { Module } from '@nestjs/common';
import { HealthIndicatorFunction, TerminusModule } from '@nestjs/terminus';
import { HealthController, MetricsController, READINESS_CHECKS, ReadinessIndicators } from '@app/observability';
import { Backends } from '../backends/backends';
import { BackendsModule } from '../backends/backends.module';

/** /health/live, /health/ready and /metrics for orchestrators and Prometheus. */
@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' }), BackendsModule],
  controllers: [HealthController, MetricsController],
  providers: [
    ReadinessIndicators,
    {
      // Ready when connected to the broker and an instance of each service answers a ping.
      provide: READINESS_CHECKS,
      inject: [ReadinessIndicators, Backends],
      useFactory: (indicators: ReadinessIndicators, backends: Backends): HealthIndicatorFunction[] => {
        const connections = backends.brokerConnections();
        return [
          () => indicators.broker('broker', connections),
          () => indicators.answers('properties', () => backends.ping('properties'), 'the properties service'),
          () => indicators.answers('applications', () => backends.ping('applications'), 'the applications service'),
        ];
      },
    },
  ],
})
export class HealthModule {}
