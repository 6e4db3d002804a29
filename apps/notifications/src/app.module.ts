import { Module } from '@nestjs/common';
import { EnvironmentModule } from '@app/config';
import { NOTIFICATIONS, QUEUES } from '@app/contracts';
import { queueClients } from '@app/messaging';
import { DatabaseModule } from '@app/persistence';
import { ServiceOperationsModule } from '@app/runtime';
import { NotificationsEnvironment } from './config/notifications.environment';
import { AddressBook } from './addresses/address-book.repository';
import { ApplicantsClient } from './dispatch/applicants.client';
import { MessageComposer } from './dispatch/message-composer';
import { MessageSender } from './dispatch/message-sender';
import { NotificationQueues } from './dispatch/notification-queues';
import { NotificationWorker } from './dispatch/notification-worker';
import { Mailer } from './mail/mailer';
import { MessageStore } from './messages/message-store';
import { NotificationsMessageController } from './messages/notifications.message.controller';
import { SettingsStore } from './settings/settings-store';

@Module({
  imports: [
    EnvironmentModule.forRoot(NotificationsEnvironment),
    DatabaseModule.forService(QUEUES.NOTIFICATIONS),
    ServiceOperationsModule.forService(QUEUES.NOTIFICATIONS, NOTIFICATIONS.PING),
    queueClients(QUEUES.APPLICATIONS),
  ],
  controllers: [NotificationsMessageController],
  providers: [
    SettingsStore,
    MessageStore,
    AddressBook,
    Mailer,
    ApplicantsClient,
    NotificationQueues,
    MessageComposer,
    MessageSender,
    NotificationWorker,
  ],
})
export class AppModule {}
