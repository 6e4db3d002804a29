import { Module } from '@nestjs/common';
import { fieldCipherProviders } from '@app/crypto';
import { AuthModule } from '../auth/auth.module';
import { BackendsModule } from '../backends/backends.module';
import { GatewayEnvironment } from '../config/gateway.environment';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { AuditEventsHttpController } from '../audit/audit-events.http.controller';
import { ApplicantsHttpController } from './applicants.http.controller';
import { ApplicationsHttpController } from './applications.http.controller';
import { DecisionsHttpController } from './decisions.http.controller';

@Module({
  imports: [AuthModule, RateLimitModule, BackendsModule],
  controllers: [ApplicationsHttpController, DecisionsHttpController, ApplicantsHttpController, AuditEventsHttpController],
  providers: fieldCipherProviders(GatewayEnvironment),
})
export class ApplicationsModule {}
