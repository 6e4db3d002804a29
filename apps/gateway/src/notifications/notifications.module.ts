import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { BackendsModule } from '../backends/backends.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ApplicantMessagesHttpController } from './applicant-messages.http.controller';
import { MessagePreviewsHttpController } from './message-previews.http.controller';
import { NotificationSettingsHttpController } from './notification-settings.http.controller';
import { SuppressionsHttpController } from './suppressions.http.controller';

@Module({
  imports: [AuthModule, RateLimitModule, BackendsModule],
  controllers: [
    NotificationSettingsHttpController,
    ApplicantMessagesHttpController,
    MessagePreviewsHttpController,
    SuppressionsHttpController,
  ],
})
export class NotificationsModule {}
