import Redis from 'ioredis';

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** A connection to the Redis the suites share, or an error saying how to start one. */
export async function connectRedis(): Promise<Redis> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 3000,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (error) {
    redis.disconnect();
    throw new Error(
      `Redis is not reachable at ${REDIS_URL} (${String(error)}); the rate-limit suites need one.\n` +
        'Start one, e.g. `redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no`, ' +
        'or set REDIS_URL.',
      { cause: error },
    );
  }
}

/** The keys under `prefix` (a stack's namespace): every suite removes what it wrote. */
export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

export async function removeKeysUnder(redis: Redis, prefix: string): Promise<void> {
  const keys = await keysUnder(redis, prefix);
  if (keys.length > 0) await redis.del(...keys);
}
