import { DynamicModule, Module } from '@nestjs/common';
import { ObservabilityModule } from './observability.module';
import { OperationsEndpoint } from './operations-endpoint';

/**
 * What makes a microservice operable: its logs and metrics, and its own HTTP listener for
 * metrics, which runService opens once the microservice consumes its queue.
 */
@Module({})
export class ServiceOperationsModule {
  static forService(service: string): DynamicModule {
    return {
      module: ServiceOperationsModule,
      imports: [ObservabilityModule.forApp(service)],
      providers: [OperationsEndpoint],
    };
  }
}
