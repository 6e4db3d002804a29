import { RedisTokenBuckets } from './redis-token-buckets';
import { LocalTokenBuckets, RateLimiter } from './token-bucket';

/** How long an app waits for Redis at boot before it starts limiting on its own. */
const REDIS_READY_TIMEOUT_MS = 3000;

/**
 * Token buckets per instance, or shared by every instance through `redisUrl` under the keys
 * `<prefix>rate:<bucket>` (prefix: the namespace, so that stacks sharing one Redis stay apart).
 */
export async function rateLimiter(redisUrl: string | undefined, prefix: string): Promise<RateLimiter> {
  if (!redisUrl) return new LocalTokenBuckets();
  const shared = new RedisTokenBuckets(redisUrl, prefix);
  await shared.ready(REDIS_READY_TIMEOUT_MS);
  return shared;
}
