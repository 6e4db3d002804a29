import { Module } from '@nestjs/common';
import { GatewayEnvironment } from '../config/gateway.environment';
import { RateLimitGuard, WebhookSendLimitGuard } from './rate-limit.guard';
import { RedisTokenBuckets } from './redis-token-buckets';
import { LocalTokenBuckets, RateLimiter } from './token-bucket';

/** How long the gateway waits for Redis at boot before it starts limiting on its own. */
const REDIS_READY_TIMEOUT_MS = 3000;

/** Each API key's token bucket: per gateway, or shared by every gateway through REDIS_URL. */
@Module({
  providers: [
    {
      provide: RateLimiter,
      inject: [GatewayEnvironment],
      useFactory: async (env: GatewayEnvironment): Promise<RateLimiter> => {
        if (!env.REDIS_URL) return new LocalTokenBuckets();
        const shared = new RedisTokenBuckets(env.REDIS_URL, env.NAMESPACE);
        await shared.ready(REDIS_READY_TIMEOUT_MS);
        return shared;
      },
    },
    RateLimitGuard,
    WebhookSendLimitGuard,
  ],
  exports: [RateLimiter, RateLimitGuard, WebhookSendLimitGuard],
})
export class RateLimitModule {}
