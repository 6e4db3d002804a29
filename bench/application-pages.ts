/**
 * `npm run build && node dist/bench/bench/application-pages.js [--large 10000] [--small 100]`:
 * how the time of a list page, and of reading one application or applicant, grows with the
 * number of applications stored. One stack, one database: a small client with `--small`
 * applications, timed once only they are stored, then a large one with `--large`, made through
 * the API, and both timed again. Each read is timed over `--samples` sequential requests. For contrast it also times, on the database directly, the
 * query a list would make without its own index: the newest 25 of a client by `client_id` and
 * `id`, which FerretDB answers by reading the whole collection.
 */
import { performance } from 'node:perf_hooks';
import { KEYS, Stack } from '../tools/stack';
import { applicationBody } from './scenarios';
import { readIntegerOptions } from './options';
import { hundredths } from './stats';

type Options = {
  large: number;
  small: number;
  samples: number;
  concurrency: number;
};

function readOptions(argv: string[]): Options {
  return readIntegerOptions<Options>(argv, { large: 10_000, small: 100, samples: 10, concurrency: 16 });
}

interface Timing {
  p50: number;
  p90: number;
  p99: number;
  mean: number;
}

function summarize(ms: number[]): Timing {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    p50: hundredths(at(0.5)),
    p90: hundredths(at(0.9)),
    p99: hundredths(at(0.99)),
    mean: hundredths(ms.reduce((a, b) => a + b, 0) / ms.length),
  };
}

interface Created {
  id: number;
  applicants: Array<{ api_url: string }>;
}

interface Answer {
  status: number;
  body: { next_cursor?: string | null; property?: { id: number }; application?: Created };
}

async function call(url: string, key: string, method = 'GET', body?: unknown): Promise<Answer> {
  const answer = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: answer.status, body: (await answer.json()) as Answer['body'] };
}

interface Seeded {
  propertyId: number;
  last: Created;
}

async function seed(stack: Stack, key: string, count: number, concurrency: number): Promise<Seeded> {
  const property = await call(`${stack.url}/api/v2/properties`, key, 'POST', { property: { name: 'Bench Court' } });
  const propertyId = property.body.property!.id;
  let made = 0;
  let last: Created | null = null;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (made < count) {
        made++;
        const answer = await call(`${stack.url}/api/v2/applications`, key, 'POST', applicationBody(propertyId));
        if (answer.status !== 201) throw new Error(`create answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        last = answer.body.application!;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(`  ${count} applications in ${seconds.toFixed(1)} s (${Math.round(count / seconds)}/s)\n`);
  return { propertyId, last: last! };
}

async function time(samples: number, request: () => Promise<{ status: number }>): Promise<Timing> {
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const { status } = await request();
    ms.push(performance.now() - started);
    if (status !== 200) throw new Error(`a timed request answered ${status}`);
  }
  return summarize(ms);
}

/** The reads timed for one client: list pages, one application, one applicant. */
async function timeReads(stack: Stack, key: string, seeded: Seeded, samples: number): Promise<Record<string, Timing>> {
  const api = `${stack.url}/api/v2/applications`;
  const firstPage = await call(`${api}?limit=25`, key);
  const secondPage = await call(`${api}?limit=25&cursor=${firstPage.body.next_cursor}`, key);
  const applicantPath = new URL(seeded.last.applicants[0].api_url).pathname;
  return {
    'first page, limit 25': await time(samples, () => call(`${api}?limit=25`, key)),
    'third page, limit 25': await time(samples, () => call(`${api}?limit=25&cursor=${secondPage.body.next_cursor}`, key)),
    'first page of a property, limit 25': await time(samples, () =>
      call(`${api}?property_id=${seeded.propertyId}&limit=25`, key),
    ),
    'get the newest application': await time(samples, () => call(`${api}/${seeded.last.id}`, key)),
    'get its applicant': await time(samples, () => call(`${stack.url}${applicantPath}`, key)),
  };
}

async function timeScan(stack: Stack, clientId: number, samples: number): Promise<Timing> {
  const db = await stack.database('applications');
  try {
    return await time(samples, async () => {
      await db.collection('applications').find({ client_id: clientId }).sort({ id: -1 }).limit(25).toArray();
      return { status: 200 };
    });
  } finally {
    await db.close();
  }
}

function print(title: string, rows: Record<string, Timing>): void {
  process.stdout.write(`\n${title}: milliseconds, p50 / p90 / p99 / mean\n`);
  for (const [request, t] of Object.entries(rows)) {
    process.stdout.write(`| ${request} | ${t.p50} / ${t.p90} / ${t.p99} / ${t.mean} |\n`);
  }
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const stack = await Stack.start({ env: { RPC_TIMEOUT_MS: '120000', PROPERTY_LOOKUP_TIMEOUT_MS: '60000' } });
  const scan = 'contrast: find({client_id}).sort({id: -1}).limit(25) on the database';
  try {
    process.stderr.write(`seeding ${options.small} applications of client 1\n`);
    const small = await seed(stack, KEYS.clientOne, options.small, options.concurrency);
    print(`${options.small} applications stored, client 1 (${options.small})`, {
      ...(await timeReads(stack, KEYS.clientOne, small, options.samples)),
      [scan]: await timeScan(stack, 1, options.samples),
    });
    process.stderr.write(`seeding ${options.large} applications of client 2\n`);
    const large = await seed(stack, KEYS.clientTwo, options.large, options.concurrency);
    const stored = options.small + options.large;
    print(`${stored} applications stored, client 1 (${options.small}, stored first)`, {
      ...(await timeReads(stack, KEYS.clientOne, small, options.samples)),
      [scan]: await timeScan(stack, 1, options.samples),
    });
    print(`${stored} applications stored, client 2 (${options.large}, stored last)`, {
      ...(await timeReads(stack, KEYS.clientTwo, large, options.samples)),
      [scan]: await timeScan(stack, 2, options.samples),
    });
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
