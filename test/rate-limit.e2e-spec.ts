import Redis from 'ioredis';
import { api, Answer, expectErrorBody } from './support/http';
import { connectRedis, keysUnder, REDIS_URL, removeKeysUnder } from './support/redis';
import { freePort, KEYS, Stack } from '../tools/stack';

const LIMITED_KEY = 'test-key-rate-limited';
const PER_SECOND = 2;
const BURST = 5;

/** A request the gateway answers itself (404 for an id that is no integer), after its guards. */
const probe = (baseUrl: string, key: string) => api(baseUrl).get('/api/v2/properties/not-an-id', { key });

const limitedKeys = (perSecond: number, burst: number) =>
  `${KEYS.clientOne}:1,${KEYS.clientTwo}:2,${LIMITED_KEY}:3:${perSecond}:${burst}`;

/** Sends `count` probes at once and says how many passed, and within how many seconds. */
async function burst(urls: string[], count: number, key = LIMITED_KEY) {
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => probe(urls[i % urls.length], key)));
  const seconds = (Date.now() - started) / 1000;
  return { answers, passed: answers.filter((a) => a.status === 404).length, seconds };
}

function expectRateLimited(answer: Answer): void {
  expect(answer.status).toBe(429);
  expectErrorBody(answer, /^rate limit exceeded/);
  expect(answer.body.error.details).toBeNull();
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

describe('the rate limit of one gateway', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ env: { API_KEYS: limitedKeys(PER_SECOND, BURST) } });
  });

  afterAll(() => stack?.stop());

  it(`lets a burst of ${BURST} through, answers 429 with Retry-After beyond it, and lets one through after that wait`, async () => {
    const { answers, passed, seconds } = await burst([stack.url], 20);

    // Tokens refill at PER_SECOND while the burst is under way.
    expect(passed).toBeGreaterThanOrEqual(BURST);
    expect(passed).toBeLessThanOrEqual(BURST + Math.ceil(seconds * PER_SECOND));
    const refused = answers.filter((a) => a.status !== 404);
    expect(refused.length).toBe(20 - passed);
    refused.forEach(expectRateLimited);

    const retryAfter = Number(refused[refused.length - 1].headers.get('retry-after'));
    expect(retryAfter).toBe(Math.ceil(1 / PER_SECOND));
    // Every answer says what is left of the limit (the IETF draft's fields): a burst counting down, then none.
    const policy = `"default";q=${BURST};w=${Math.ceil(BURST / PER_SECOND)}`;
    expect(answers.map((a) => a.headers.get('ratelimit-policy'))).toEqual(answers.map(() => policy));
    expect(answers.map((a) => a.headers.get('ratelimit'))).toContain(`"default";r=${BURST - 1};t=0`);
    expect(refused[refused.length - 1].headers.get('ratelimit')).toBe(`"default";r=0;t=${retryAfter}`);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await probe(stack.url, LIMITED_KEY)).status).toBe(404);
  });

  it('limits each key on its own: another client is served meanwhile', async () => {
    await burst([stack.url], 20);
    expect((await probe(stack.url, KEYS.clientTwo)).status).toBe(404);
  });

  it('uses the default limit for keys without one of their own', async () => {
    const defaults = await Stack.start({ env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '3' } });
    try {
      const { answers, passed, seconds } = await burst([defaults.url], 10, KEYS.clientOne);
      expect(passed).toBeGreaterThanOrEqual(3);
      expect(passed).toBeLessThanOrEqual(3 + Math.ceil(seconds));
      answers.filter((a) => a.status !== 404).forEach(expectRateLimited);
    } finally {
      await defaults.stop();
    }
  });
});

describe('the rate limit shared by two gateways through Redis', () => {
  let stack: Stack;
  let redis: Redis;
  let secondGateway: string;

  beforeAll(async () => {
    redis = await connectRedis();
    stack = await Stack.start({ env: { API_KEYS: limitedKeys(1, 6), REDIS_URL } });
    const port = await freePort();
    await stack.startApp('gateway', { PORT: String(port) });
    secondGateway = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await stack?.stop();
    if (redis) {
      await removeKeysUnder(redis, stack.namespace);
      redis.disconnect();
    }
  });

  it('lets one burst through across both gateways, not one per gateway', async () => {
    const { answers, passed, seconds } = await burst([stack.url, secondGateway], 24);

    // Alone, each gateway would let 6 through: 12 in all.
    expect(passed).toBeGreaterThanOrEqual(6);
    expect(passed).toBeLessThanOrEqual(6 + Math.ceil(seconds));
    expect(passed).toBeLessThan(12);
    answers.filter((a) => a.status !== 404).forEach(expectRateLimited);
    for (const url of [stack.url, secondGateway]) {
      expect((await probe(url, LIMITED_KEY)).status).toBe(429);
    }
  });

  it('keeps its buckets under the stack namespace, named without the key', async () => {
    const keys = await keysUnder(redis, stack.namespace);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).toMatch(new RegExp(`^${stack.namespace}rate:3\\.[0-9a-f]{16}$`));
      expect(await redis.pttl(key)).toBeGreaterThan(0);
    }
    expect(keys.join()).not.toContain(LIMITED_KEY);
  });
});

describe('a gateway whose Redis is down', () => {
  it('still serves, limiting on its own', async () => {
    const closedPort = await freePort();
    const stack = await Stack.start({
      env: { API_KEYS: limitedKeys(1, 3), REDIS_URL: `redis://127.0.0.1:${closedPort}` },
    });
    try {
      const { answers, passed, seconds } = await burst([stack.url], 8);
      expect(passed).toBeGreaterThanOrEqual(3);
      expect(passed).toBeLessThanOrEqual(3 + Math.ceil(seconds));
      answers.filter((a) => a.status !== 404).forEach(expectRateLimited);
      expect(stack.processes.find((p) => p.app === 'gateway')!.output.join('')).toContain('Redis unavailable');
    } finally {
      await stack.stop();
    }
  });
});
