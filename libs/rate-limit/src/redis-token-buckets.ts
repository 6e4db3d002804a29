import { Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { LocalTokenBuckets, RateDecision, RateLimit, RateLimiter } from './token-bucket';

/**
 * The token bucket of LocalTokenBuckets as one atomic script, so that every instance sharing the
 * Redis shares each client's limit. Redis's clock is the only clock, so instances whose clocks
 * disagree still agree on a bucket. Returns {allowed (0/1), microseconds to wait, whole tokens left}.
 */
const TAKE_TOKEN = `
local per_second = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * per_second / 1000000)
local allowed = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = math.ceil((1 - tokens) * 1000000 / per_second)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / per_second) + 1000)
return {allowed, wait, math.floor(tokens)}
`;

/** How long a request may wait for Redis before this instance decides alone. */
const COMMAND_TIMEOUT_MS = 1000;

type WithTakeToken = Redis & {
  takeToken(key: string, perSecond: number, burst: number): Promise<[number, number, number]>;
};

/**
 * Token buckets kept in Redis under `<prefix>rate:<bucket>`, shared by every instance that uses
 * the same Redis and prefix. While Redis cannot be reached, each instance limits on its own
 * (LocalTokenBuckets) rather than refusing or waiting: a request never hangs on Redis.
 */
export class RedisTokenBuckets extends RateLimiter implements OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly redis: WithTakeToken;
  private readonly fallback = new LocalTokenBuckets();
  private degraded = false;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    super();
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
    }) as WithTakeToken;
    this.redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
    // The error's message names no password; the URL is never logged.
    this.redis.on('error', (error: Error) => this.degrade(error.message));
    this.redis.on('ready', () => {
      if (this.degraded) this.logger.log('Redis is back: the rate limit is shared again');
      this.degraded = false;
    });
  }

  async take(bucket: string, limit: RateLimit): Promise<RateDecision> {
    try {
      const [allowed, waitUs, remaining] = await this.redis.takeToken(
        `${this.prefix}rate:${bucket}`,
        limit.perSecond,
        limit.burst,
      );
      return { allowed: allowed === 1, retryAfterMs: Math.ceil(waitUs / 1000), remaining };
    } catch (error) {
      this.degrade((error as Error).message);
      return this.fallback.take(bucket, limit);
    }
  }

  /** Resolves once Redis answers, or after `timeoutMs`: the app serves either way. */
  async ready(timeoutMs: number): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.redis.once('ready', done);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis.disconnect();
  }

  private degrade(reason: string): void {
    if (this.degraded) return;
    this.degraded = true;
    this.logger.warn(`Redis unavailable (${reason}): each instance limits on its own until it is back`);
  }
}
