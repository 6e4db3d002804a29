import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { EnvironmentModule } from '@app/config';
import { ObservabilityModule } from '@app/observability';
import { ApplicationsModule } from './applications/applications.module';
import { GatewayEnvironment } from './config/gateway.environment';
import { DocumentsModule } from './documents/documents.module';
import { FormPresetsModule } from './form-presets/form-presets.module';
import { HealthModule } from './health/health.module';
import { HttpErrorFilter } from './http/http-error.filter';
import { NotificationsModule } from './notifications/notifications.module';
import { IndexController } from './openapi/index.controller';
import { PropertiesModule } from './properties/properties.module';
import { RetentionModule } from './retention/retention.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({
  imports: [
    EnvironmentModule.forRoot(GatewayEnvironment),
    ObservabilityModule.forApp('gateway'),
    PropertiesModule,
    ApplicationsModule,
    DocumentsModule,
    FormPresetsModule,
    WebhooksModule,
    NotificationsModule,
    RetentionModule,
    HealthModule,
  ],
  controllers: [IndexController],
  // Also what Fastify refuses before a route runs (413, malformed JSON, the 415 hook): Nest
  // hands those to the global filters too.
  providers: [{ provide: APP_FILTER, useClass: HttpErrorFilter }],
})
export class AppModule {}
