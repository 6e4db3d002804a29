import { Module } from '@nestjs/common';
import { OperationsEndpoint, ReadinessChecks } from '@app/observability';
import { Backends } from '../backends/backends';
import { BackendsModule } from '../backends/backends.module';

/** Ready when connected to the broker and an instance of each service answers a ping. */
export function gatewayReadinessChecks(backends: Backends): ReadinessChecks {
  const connections = backends.brokerConnections();
  return (indicators) => [
    () => indicators.broker('broker', connections),
    () => indicators.answers('properties', () => backends.ping('properties'), 'the properties service'),
    () => indicators.answers('applications', () => backends.ping('applications'), 'the applications service'),
  ];
}

/**
 * /health/live, /health/ready and /metrics for orchestrators and Prometheus, on the gateway's
 * operations port (HTTP_PORT), which main.ts opens beside the API.
 */
@Module({
  imports: [BackendsModule],
  providers: [OperationsEndpoint],
  exports: [OperationsEndpoint],
})
export class HealthModule {}
