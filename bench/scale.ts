/**
 * `npm run build && node dist/bench/bench/scale.js [--applications 10000] [--connections 32]
 * [--samples 50] [--seconds 10]`: the data issue's figures at scale, on the database at
 * MONGODB_URI. One stack with a webhooks service; a webhook of each client subscribed to
 * `application.created`, delivered to a receiver on 127.0.0.1 that notes when each arrives.
 *
 * 1. Creates `--applications` through the API at `--connections`: four properties of client 1,
 *    one in ten applications client 2's. Prints creates per second and their latency.
 * 2. Webhook lag, from each create's 201 to its delivery, p50 and p99; and deliveries per second
 *    in each successive thousand, to show whether they slow as deliveries accumulate.
 * 3. Sequential reads, `--samples` each, p50: the first page of client 1, the first page of one
 *    property, a page 3,000 positions deep, and getting one application.
 * 4. First pages of client 1's list at `--connections` for `--seconds`: pages per second, and
 *    every answer that was not a 200.
 *
 * Prints a JSON object at the end. It measures; it judges nothing (no targets here). Needs
 * MONGODB_URI and AMQP_URL, as the tests do.
 */
import { performance } from 'node:perf_hooks';
import { KEYS, Stack } from '../tools/stack';
import { applicationBody } from './scenarios';
import { WebhookReceiver } from './webhook-receiver';
import { readIntegerOptions } from './options';
import { hundredths, median } from './stats';

type Options = {
  applications: number;
  connections: number;
  samples: number;
  seconds: number;
};

function readOptions(argv: string[]): Options {
  return readIntegerOptions<Options>(argv, { applications: 10_000, connections: 32, samples: 50, seconds: 10 });
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return hundredths(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN);
}

/** The parts of an answer read here. */
interface Answer {
  status: number;
  body?: { property?: { id: number }; application?: { id: number }; next_cursor?: string | null };
}

async function call(url: string, key: string, method = 'GET', body?: unknown): Promise<Answer> {
  const answer = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await answer.text();
  return { status: answer.status, body: text ? (JSON.parse(text) as Answer['body']) : undefined };
}

async function timed(samples: number, request: () => Promise<{ status: number }>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const { status } = await request();
    ms.push(performance.now() - started);
    if (status !== 200) throw new Error(`a timed read answered ${status}`);
  }
  return hundredths(median(ms));
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const stack = await Stack.start({
    instances: { webhooks: 1 },
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', RPC_TIMEOUT_MS: '60000', PROPERTY_LOOKUP_TIMEOUT_MS: '30000' },
  });
  const receiver = await WebhookReceiver.start('application_id');
  const log = (line: string) => process.stderr.write(`${line}\n`);
  try {
    const api = `${stack.url}/api/v2`;
    for (const key of [KEYS.clientOne, KEYS.clientTwo]) {
      const subscribed = await call(`${api}/webhooks`, key, 'POST', {
        webhook: { url: receiver.url, events: ['application.created'] },
      });
      if (subscribed.status !== 201) throw new Error(`subscribing answered ${subscribed.status}`);
    }
    const property = async (key: string) =>
      (await call(`${api}/properties`, key, 'POST', { property: { name: 'Scale' } })).body!.property!.id;
    const ones = [
      await property(KEYS.clientOne),
      await property(KEYS.clientOne),
      await property(KEYS.clientOne),
      await property(KEYS.clientOne),
    ];
    const two = await property(KEYS.clientTwo);

    log(`creating ${options.applications} applications at ${options.connections} connections`);
    const answeredAt = new Map<number, number>();
    const createMs: number[] = [];
    let next = 0;
    let newestOfOne = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (next < options.applications) {
          const i = next++;
          const [key, propertyId] = i % 10 === 9 ? [KEYS.clientTwo, two] : [KEYS.clientOne, ones[i % 4]];
          const sent = performance.now();
          const answer = await call(`${api}/applications`, key, 'POST', applicationBody(propertyId));
          const at = performance.now();
          if (answer.status !== 201) throw new Error(`create answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          createMs.push(at - sent);
          answeredAt.set(answer.body!.application!.id, at);
          if (key === KEYS.clientOne) newestOfOne = Math.max(newestOfOne, answer.body!.application!.id);
          if (i % 1000 === 999) log(`  ${i + 1} created`);
        }
      }),
    );
    const createSeconds = (performance.now() - started) / 1000;

    log('waiting for every webhook');
    await receiver.until([...answeredAt.keys()], 600_000);
    const lags = [...answeredAt].flatMap(([id, at]) => {
      const arrived = receiver.arrivals.get(id);
      return arrived === undefined ? [] : [arrived - at];
    });
    const arrivals = [...receiver.arrivals.values()].sort((a, b) => a - b);
    const perThousand: number[] = [];
    for (let end = 1000; end <= arrivals.length; end += 1000) {
      const seconds = (arrivals[end - 1] - arrivals[end - 1000]) / 1000;
      perThousand.push(hundredths(999 / Math.max(seconds, 0.001)));
    }

    log('timing reads');
    const one = KEYS.clientOne;
    // The cursor 3,000 applications down client 1's list (or as deep as it goes), paged to.
    let deepCursor = '';
    for (let skipped = 0; skipped < 3000; skipped += 100) {
      const page = await call(`${api}/applications?limit=100${deepCursor ? `&cursor=${deepCursor}` : ''}`, one);
      if (!page.body?.next_cursor) break;
      deepCursor = page.body.next_cursor;
    }
    const reads = {
      firstPageMs: await timed(options.samples, () => call(`${api}/applications?limit=25`, one)),
      propertyPageMs: await timed(options.samples, () => call(`${api}/applications?property_id=${ones[0]}&limit=25`, one)),
      deepPageMs: await timed(options.samples, () =>
        call(`${api}/applications?limit=25${deepCursor ? `&cursor=${deepCursor}` : ''}`, one),
      ),
      getApplicationMs: await timed(options.samples, () => call(`${api}/applications/${newestOfOne}`, one)),
    };

    log(`first pages at ${options.connections} connections for ${options.seconds} s`);
    let pages = 0;
    const failures: Record<string, number> = {};
    const until = performance.now() + options.seconds * 1000;
    const listStarted = performance.now();
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (performance.now() < until) {
          const { status } = await call(`${api}/applications?limit=25`, one);
          if (status === 200) pages++;
          else failures[status] = (failures[status] ?? 0) + 1;
        }
      }),
    );
    const listSeconds = (performance.now() - listStarted) / 1000;

    const result = {
      applications: options.applications,
      connections: options.connections,
      createsPerSecond: hundredths(options.applications / createSeconds),
      createP50Ms: percentile(createMs, 0.5),
      createP99Ms: percentile(createMs, 0.99),
      webhooksDelivered: lags.length,
      webhookLagP50Ms: percentile(lags, 0.5),
      webhookLagP99Ms: percentile(lags, 0.99),
      deliveriesPerSecondByThousand: perThousand,
      ...reads,
      listPagesPerSecond: hundredths(pages / listSeconds),
      listFailures: failures,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await receiver.stop();
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
