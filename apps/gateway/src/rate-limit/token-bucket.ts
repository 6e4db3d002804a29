/** A sustained rate and the burst a client may spend at once, in requests. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export interface RateDecision {
  allowed: boolean;
  /** When refused: how long until one request would be allowed. */
  retryAfterMs: number;
}

/** Takes one request's token from a client's bucket, or says how long to wait for one. */
export abstract class RateLimiter {
  abstract take(bucket: string, limit: RateLimit): Promise<RateDecision>;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets in this process's memory: each starts full (`burst` tokens) and refills at
 * `perSecond`. The limit holds per gateway instance; RedisTokenBuckets shares it between them.
 * The same arithmetic runs in RedisTokenBuckets' script.
 */
export class LocalTokenBuckets extends RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** `now` in milliseconds, monotonic. */
  constructor(private readonly now: () => number = () => performance.now()) {
    super();
  }

  async take(name: string, limit: RateLimit): Promise<RateDecision> {
    return this.takeNow(name, limit);
  }

  takeNow(name: string, { perSecond, burst }: RateLimit): RateDecision {
    const now = this.now();
    const bucket = this.buckets.get(name) ?? { tokens: burst, at: now };
    const tokens = Math.min(burst, bucket.tokens + (Math.max(0, now - bucket.at) * perSecond) / 1000);
    const allowed = tokens >= 1;
    this.buckets.set(name, { tokens: allowed ? tokens - 1 : tokens, at: now });
    return { allowed, retryAfterMs: allowed ? 0 : Math.ceil(((1 - tokens) * 1000) / perSecond) };
  }
}
