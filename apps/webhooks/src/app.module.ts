import { Module } from '@nestjs/common';
import { EnvironmentModule } from '@app/config';
import { QUEUES, WEBHOOKS } from '@app/contracts';
import { fieldCipherProvider } from '@app/crypto';
import { DatabaseModule } from '@app/persistence';
import { ServiceOperationsModule } from '@app/runtime';
import { WebhooksEnvironment } from './config/webhooks.environment';
import { DeliveryRetention } from './deliveries/delivery-retention';
import { DeliveryStore } from './deliveries/delivery-store';
import { DeliveryWorker } from './deliveries/delivery-worker';
import { SubscriptionStore } from './subscriptions/subscription-store';
import { WebhooksMessageController } from './subscriptions/webhooks.message.controller';
import { WebhookSecrets } from './subscriptions/webhook-secrets';
import { WebhooksService } from './subscriptions/webhooks.service';

@Module({
  imports: [
    EnvironmentModule.forRoot(WebhooksEnvironment),
    DatabaseModule.forService(QUEUES.WEBHOOKS),
    ServiceOperationsModule.forService(QUEUES.WEBHOOKS, WEBHOOKS.PING),
  ],
  controllers: [WebhooksMessageController],
  providers: [
    fieldCipherProvider(WebhooksEnvironment),
    WebhookSecrets,
    SubscriptionStore,
    DeliveryStore,
    DeliveryWorker,
    DeliveryRetention,
    WebhooksService,
  ],
})
export class AppModule {}
