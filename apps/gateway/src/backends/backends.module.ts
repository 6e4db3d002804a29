import { Module } from '@nestjs/common';
import { QUEUES } from '@app/contracts';
import { queueClients } from '@app/messaging';
import { Backends } from './backends';

/** The services behind the gateway, reached over their queues. */
@Module({
  imports: [queueClients(QUEUES.PROPERTIES, QUEUES.APPLICATIONS, QUEUES.WEBHOOKS, QUEUES.NOTIFICATIONS)],
  providers: [Backends],
  exports: [Backends],
})
export class BackendsModule {}
