/**
 * `npm run build && node dist/bench/bench/application-pages.js [--large 10000] [--small 100]`:
 * how the time of a list page, and of reading one application or applicant, grows with the
 * number of applications stored. One stack, one database: a small client with `--small`
 * applications and a large one with `--large`, made through the API. Each read is timed over
 * `--samples` sequential requests. For contrast it also times, on the database directly, the
 * query a list would make without its own index: the newest 25 of a client by `client_id` and
 * `id`, which FerretDB answers by reading the whole collection.
 */
import { performance } from 'node:perf_hooks';
import { KEYS, Stack } from '../tools/stack';
import { applicationBody } from './scenarios';

interface Options {
  large: number;
  small: number;
  samples: number;
  concurrency: number;
}

function readOptions(argv: string[]): Options {
  const options: Options = { large: 10_000, small: 100, samples: 200, concurrency: 16 };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '') as keyof Options;
    const value = Number(argv[i + 1]);
    if (!(name in options) || !Number.isInteger(value) || value < 1) throw new Error(`bad option ${argv[i]} ${argv[i + 1]}`);
    options[name] = value;
  }
  return options;
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
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    p50: round(at(0.5)),
    p90: round(at(0.9)),
    p99: round(at(0.99)),
    mean: round(ms.reduce((a, b) => a + b, 0) / ms.length),
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

async function seed(
  stack: Stack,
  key: string,
  count: number,
  concurrency: number,
): Promise<{ propertyId: number; last: Created }> {
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

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const stack = await Stack.start({ env: { RPC_TIMEOUT_MS: '30000', PROPERTY_LOOKUP_TIMEOUT_MS: '25000' } });
  try {
    const clients = [
      { name: `client with ${options.small}`, key: KEYS.clientOne, count: options.small, clientId: 1 },
      { name: `client with ${options.large}`, key: KEYS.clientTwo, count: options.large, clientId: 2 },
    ];
    const rows: Record<string, Record<string, Timing>> = {};
    const seeded = [];
    for (const client of clients) {
      process.stderr.write(`seeding the ${client.name}\n`);
      seeded.push(await seed(stack, client.key, client.count, options.concurrency));
    }
    for (const [i, client] of clients.entries()) {
      const { propertyId, last } = seeded[i];
      const api = `${stack.url}/api/v2/applications`;
      const firstPage = await call(`${api}?limit=25`, client.key);
      const secondPage = await call(`${api}?limit=100&cursor=${firstPage.body.next_cursor}`, client.key);
      // Past the first 125 where there are that many, else past the first 25.
      const deepCursor = secondPage.body.next_cursor ?? firstPage.body.next_cursor;
      const applicantPath = new URL(last.applicants[0].api_url).pathname;
      process.stderr.write(`timing the ${client.name}\n`);
      rows[client.name] = {
        'first page, limit 25': await time(options.samples, () => call(`${api}?limit=25`, client.key)),
        'page after a cursor, limit 25': await time(options.samples, () =>
          call(`${api}?limit=25&cursor=${deepCursor}`, client.key),
        ),
        'first page of a property, limit 25': await time(options.samples, () =>
          call(`${api}?property_id=${propertyId}&limit=25`, client.key),
        ),
        'first page, limit 100': await time(options.samples, () => call(`${api}?limit=100`, client.key)),
        'get application': await time(options.samples, () => call(`${api}/${last.id}`, client.key)),
        'get applicant': await time(options.samples, () => call(`${stack.url}${applicantPath}`, client.key)),
      };
    }
    const db = await stack.database('applications');
    try {
      for (const client of clients) {
        rows[client.name]['contrast: find({client_id}).sort({id: -1}).limit(25) on the database'] = await time(
          Math.min(options.samples, 20),
          async () => {
            await db.collection('applications').find({ client_id: client.clientId }).sort({ id: -1 }).limit(25).toArray();
            return { status: 200 };
          },
        );
      }
    } finally {
      await db.close();
    }
    const stored = options.small + options.large;
    process.stdout.write(
      `\n${stored} applications stored; milliseconds per request, ${options.samples} sequential requests each\n\n`,
    );
    process.stdout.write(`| request | ${clients.map((c) => `${c.name}: p50 / p90 / p99`).join(' | ')} |\n`);
    process.stdout.write(`|---|${clients.map(() => '---').join('|')}|\n`);
    for (const request of Object.keys(rows[clients[0].name])) {
      const cells = clients.map((c) => {
        const t = rows[c.name][request];
        return `${t.p50} / ${t.p90} / ${t.p99}`;
      });
      process.stdout.write(`| ${request} | ${cells.join(' | ')} |\n`);
    }
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
