/** A sustained rate and the burst a client may spend at once, in requests. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export interface RateDecision {
  allowed: boolean;
  /** When refused: how long until one request would be allowed. */
  retryAfterMs: number;
  /** Whole requests the bucket allows now, after this one. */
  remaining: number;
}

/** What a Retry-After header says for a refusal: whole seconds, at least one. */
export function retryAfterSeconds(decision: RateDecision): number {
  return Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
}

/** `count` requests a minute: as many at once, then one every 60/count seconds. */
export function perMinute(count: number): RateLimit {
  return { perSecond: count / 60, burst: count };
}

/** Takes one request's token from a client's bucket, or says how long to wait for one. */
export abstract class RateLimiter {
  abstract take(bucket: string, limit: RateLimit): Promise<RateDecision>;
}

interface Bucket {
  tokens: number;
  at: number;
  /** When it is full again, and so no different from having no bucket at all. */
  fullAt: number;
}

/** Buckets examined for eviction on each take: enough to keep up, bounded per request. */
const EVICTION_CHECKS = 4;
/**
 * Buckets kept at most (about 300 bytes each). Past it the least recently examined goes even if
 * not full again: it gives that address or key a fresh burst, which beats running out of heap.
 */
const MAX_BUCKETS = 50_000;

/**
 * Token buckets in this process's memory: each starts full (`burst` tokens) and refills at
 * `perSecond`. The limit holds per instance; RedisTokenBuckets shares it between them.
 * The same arithmetic runs in RedisTokenBuckets' script.
 */
export class LocalTokenBuckets extends RateLimiter {
  /** In the order last taken from or examined: the front is where idle buckets are found. */
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
    const bucket = this.buckets.get(name) ?? { tokens: burst, at: now, fullAt: now };
    const tokens = Math.min(burst, bucket.tokens + (Math.max(0, now - bucket.at) * perSecond) / 1000);
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    this.buckets.delete(name);
    this.buckets.set(name, { tokens: left, at: now, fullAt: now + ((burst - left) * 1000) / perSecond });
    this.evict(now);
    return { allowed, retryAfterMs: allowed ? 0 : Math.ceil(((1 - tokens) * 1000) / perSecond), remaining: Math.floor(left) };
  }

  /** How many buckets are held: every client and address seen, less those evicted. */
  get size(): number {
    return this.buckets.size;
  }

  /**
   * Forgets buckets that are full again: each address that ever called would otherwise stay in
   * memory for good. A few of the oldest per take; one not full yet goes to the back.
   */
  private evict(now: number): void {
    for (let checked = 0; checked < EVICTION_CHECKS && this.buckets.size > 1; checked++) {
      const [name, bucket] = this.buckets.entries().next().value as [string, Bucket];
      this.buckets.delete(name);
      if (bucket.fullAt > now && this.buckets.size < MAX_BUCKETS) this.buckets.set(name, bucket);
    }
  }
}
