import { Module } from '@nestjs/common';
import { EnvironmentModule } from '@app/config';
import { ObservabilityModule } from '@app/observability';
import { ApplicationsModule } from './applications/applications.module';
import { GatewayEnvironment } from './config/gateway.environment';
import { HealthModule } from './health/health.module';
import { IndexController } from './openapi/index.controller';
import { PropertiesModule } from './properties/properties.module';

@Module({
  imports: [
    EnvironmentModule.forRoot(GatewayEnvironment),
    ObservabilityModule.forApp('gateway'),
    PropertiesModule,
    ApplicationsModule,
    HealthModule,
  ],
  controllers: [IndexController],
})
export class AppModule {}
