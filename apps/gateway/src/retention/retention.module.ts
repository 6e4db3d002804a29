import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { BackendsModule } from '../backends/backends.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { RetentionSettingsHttpController } from './retention-settings.http.controller';

@Module({
  imports: [AuthModule, RateLimitModule, BackendsModule],
  controllers: [RetentionSettingsHttpController],
})
export class RetentionModule {}
