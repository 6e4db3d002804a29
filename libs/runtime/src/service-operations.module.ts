import { DynamicModule, Module } from '@nestjs/common';
import { ObservabilityModule, OperationsEndpoint, pingController } from '@app/observability';

/**
 * What makes a microservice operable: its logs and metrics, an answer to the gateway's readiness
 * ping, and its own HTTP listener for health and metrics, which runService opens once the
 * microservice consumes its queue.
 */
@Module({})
export class ServiceOperationsModule {
  static forService(service: string, pingPattern: string): DynamicModule {
    return {
      module: ServiceOperationsModule,
      imports: [ObservabilityModule.forApp(service)],
      controllers: [pingController(pingPattern)],
      providers: [OperationsEndpoint],
    };
  }
}
