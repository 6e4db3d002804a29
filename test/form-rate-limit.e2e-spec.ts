import http from 'node:http';
import Redis from 'ioredis';
import { OtlpReceiver } from './support/otlp-receiver';
import { connectRedis, keysUnder, REDIS_URL, removeKeysUnder } from './support/redis';
import { eventually } from './support/wait';
import { freePort, Stack } from '../tools/stack';

const PER_MINUTE = 3;
/** The load balancer in front of the forms: the tests' own address. */
const PROXY = '127.0.0.1';
/** Another host on the loopback network, which no form trusts. */
const STRANGER = '127.0.0.2';

/**
 * GETs a page no route serves (the rate limit counts it before any route runs, and no service
 * is asked for it), from `from`, with an X-Forwarded-For when given; resolves with the status.
 */
function visit(baseUrl: string, from: string, forwardedFor?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
    const request = http.get(`${baseUrl}/no-such-page`, { localAddress: from, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    request.on('error', reject);
  });
}

/** POSTs an e-mail's one-click unsubscription (RFC 8058) for `token` from `from`, forwarded for `forwardedFor`; the status. */
async function oneClick(baseUrl: string, token: string, from: string, forwardedFor: string): Promise<number> {
  const body = 'List-Unsubscribe=One-Click';
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}/mail/unsubscribe/${token}`,
      {
        method: 'POST',
        localAddress: from,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          'x-forwarded-for': forwardedFor,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function visits(baseUrls: string[], count: number, from: string, forwardedFor?: (i: number) => string) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push(await visit(baseUrls[i % baseUrls.length], from, forwardedFor?.(i)));
  return statuses;
}

describe('the form rate limit behind a load balancer, two instances sharing Redis', () => {
  let stack: Stack;
  let redis: Redis;
  let secondForm: string;
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    redis = await connectRedis();
    receiver = await OtlpReceiver.start();
    stack = await Stack.start({
      form: true,
      instances: { notifications: 1 },
      env: {
        REDIS_URL,
        TRUSTED_PROXIES: `${PROXY},10.0.0.0/8`,
        FORM_REQUEST_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
        FORM_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    });
    const port = await freePort();
    await stack.startApp('form', { FORM_PORT: String(port) });
    secondForm = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await stack?.stop();
    if (stack) await removeKeysUnder(redis, stack.namespace);
    redis?.disconnect();
    await receiver?.close();
  });

  it('lets one applicant make its requests a minute across both instances, not that many per instance', async () => {
    const applicant = () => '198.51.100.10';
    // Alone, each instance would let three through: six in all.
    expect(await visits([stack.formUrl, secondForm], 6, PROXY, applicant)).toEqual([404, 404, 404, 429, 429, 429]);
    const keys = await keysUnder(redis, stack.namespace);
    expect(keys).toContain(`${stack.namespace}rate:form-request:address:198.51.100.10`);
  });

  it('counts each applicant a trusted proxy forwards alone, by the address it forwards', async () => {
    expect(await visits([stack.formUrl], 4, PROXY, () => '198.51.100.21')).toEqual([404, 404, 404, 429]);
    expect(await visits([secondForm], 1, PROXY, () => '198.51.100.22')).toEqual([404]);
    // Proxies it trusts are skipped: the client is the last address none of them added.
    expect(await visits([stack.formUrl], 1, PROXY, () => '198.51.100.21, 10.1.2.3')).toEqual([429]);
    expect(await visits([stack.formUrl], 1, PROXY, () => '198.51.100.21, 198.51.100.23')).toEqual([404]);
  });

  it('counts the /64 networks of one IPv6 /48 together too: a fresh /64 on each request earns at most 8 limits in all', async () => {
    // 65,536 /64s make up a /48: alone, each would be let through three times.
    const statuses = await visits(
      [stack.formUrl, secondForm],
      8 * PER_MINUTE + 2,
      PROXY,
      (i) => `2001:db8:48:${i.toString(16)}::1`,
    );
    expect(statuses).toEqual([...Array<number>(8 * PER_MINUTE).fill(404), 429, 429]);
    expect(await visits([stack.formUrl], 1, PROXY, () => '2001:db8:49::1')).toEqual([404]);
  });

  it('ignores the X-Forwarded-For of a sender it does not trust: a new one on each request earns no new bucket', async () => {
    const statuses = await visits([stack.formUrl, secondForm], 5, STRANGER, (i) => `203.0.113.${i + 1}`);
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
    expect(await keysUnder(redis, `${stack.namespace}rate:form-request:address:203.0.113.`)).toEqual([]);
    expect(await keysUnder(redis, `${stack.namespace}rate:form-request:address:${STRANGER}`)).toHaveLength(1);
  });

  it('never counts a mail provider’s one-click unsubscriptions against its address: each reaches its link', async () => {
    const provider = '198.51.100.40';
    const tokens = Array.from({ length: PER_MINUTE * 3 }, (_, i) => `${'u'.repeat(42)}${i}`);
    const statuses: number[] = [];
    for (const token of tokens) statuses.push(await oneClick(stack.formUrl, token, PROXY, provider));
    // Links no e-mail carried: each was looked up, none refused for its sender's rate.
    expect(statuses).toEqual(tokens.map(() => 404));
    expect(await visits([stack.formUrl], 1, PROXY, () => provider)).toEqual([404]);
  });

  it('records no client address in the spans of the rate limit’s Redis commands', async () => {
    const applicant = '198.51.100.50';
    await visits([stack.formUrl], 1, PROXY, () => applicant);
    const redisSpans = () => receiver.spans.filter((span) => span.attributes['db.system.name'] === 'redis');
    await eventually('the Redis commands’ spans exported', () => redisSpans().some((span) => span.service === 'form'));
    expect(JSON.stringify(redisSpans())).not.toMatch(/198\.51\.100\.|203\.0\.113\.|127\.0\.0\.2/);
  });
});
