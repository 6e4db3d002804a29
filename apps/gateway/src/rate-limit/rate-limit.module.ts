import { Module } from '@nestjs/common';
import { rateLimiter, RateLimiter } from '@app/rate-limit';
import { GatewayEnvironment } from '../config/gateway.environment';
import { RateLimitGuard, WebhookSendLimitGuard } from './rate-limit.guard';

/** Each API key's token bucket: per gateway, or shared by every gateway through REDIS_URL. */
@Module({
  providers: [
    {
      provide: RateLimiter,
      inject: [GatewayEnvironment],
      useFactory: (env: GatewayEnvironment): Promise<RateLimiter> => rateLimiter(env.REDIS_URL, env.NAMESPACE),
    },
    RateLimitGuard,
    WebhookSendLimitGuard,
  ],
  exports: [RateLimiter, RateLimitGuard, WebhookSendLimitGuard],
})
export class RateLimitModule {}
