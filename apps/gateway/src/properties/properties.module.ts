import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { BackendsModule } from '../backends/backends.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { FloorPlansHttpController } from './floor-plans.http.controller';
import { InvitationsHttpController } from './invitations.http.controller';
import { PropertiesHttpController } from './properties.http.controller';

@Module({
  imports: [AuthModule, RateLimitModule, BackendsModule],
  controllers: [PropertiesHttpController, FloorPlansHttpController, InvitationsHttpController],
})
export class PropertiesModule {}
