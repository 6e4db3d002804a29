/**
 * `npm run build && node dist/bench/bench/summary-pdf.js [--seconds 20] [--connections 8] [--pdfs 2] [--rounds 2]`:
 * what laying out summary PDFs adds to the latency of the gateway's other requests. Each stack (the
 * form with it) gets the largest application there can be (tools/maximal-application.ts), then:
 *
 * 1. `alone`: its summary.pdf fetched `--pdfs` times, one after another, once a first one (which
 *    starts what a first one starts) is done: how long each takes, and the CPU time of the gateway
 *    per PDF, all of it and its main thread's (the one whose event loop serves the API);
 * 2. `quiet`: GET /api/v2/properties/:id by `--connections` autocannon connections for `--seconds`;
 * 3. `pdfs`: the same while `--pdfs` loops fetch that summary.pdf back to back.
 *
 * Each reports the gateway's event-loop delay over it (its /metrics, read before and after:
 * prom-client resets its histogram on every read), the last two the GETs' p50, p99 and max. With
 * BENCH_BASELINE_ROOT (the root of another built tree: `git archive <commit> | tar -x -C <dir>`, a
 * node_modules link, `npm run build`), that release is measured too, round by round alternately
 * with this tree, so that the two are compared on the same machine's state. Prints JSON; it
 * measures and judges nothing. Needs MONGODB_URI and AMQP_URL, as the tests do.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { KEYS, ROOT, Stack } from '../tools/stack';
import { makeMaximalApplication } from '../tools/maximal-application';
import { driveHttp, Latencies, Measurement } from './measure';
import { readIntegerOptions } from './options';
import { cpuMs, sampleRss } from './procfs';
import { hundredths, median } from './stats';

type Options = { seconds: number; connections: number; pdfs: number; rounds: number };

const READER_KEY = 'bench-key-summary-pdf-reader';
const WARMUP_S = 3;

const log = (line: string) => process.stderr.write(`[summary-pdf] ${line}\n`);

/** The summary PDFs fetched during a run. */
interface Pdfs {
  made: number;
  refused: number;
  p50Ms: number;
  maxMs: number;
}

interface Phase {
  gets: Measurement;
  /** The gateway's event-loop delay over the run, as its /metrics gives it. */
  eventLoopDelay: { p99Ms: number; maxMs: number };
  gatewayPeakRssMb: number | null;
  pdfs?: Pdfs;
}

/** Summaries fetched one after another, nothing else asked meanwhile. */
interface Alone {
  p50Ms: number;
  megabytes: number;
  gatewayCpuMsPerPdf: number;
  mainThreadCpuMsPerPdf: number;
  eventLoopDelay: Phase['eventLoopDelay'];
}

interface Run {
  release: string;
  round: number;
  alone: Alone;
  quiet: Phase;
  pdfs: Phase;
}

/** The event loop's delay the gateway saw since its metrics were last read. */
async function eventLoopDelay(operationsUrl: string): Promise<Phase['eventLoopDelay']> {
  const text = await (await fetch(`${operationsUrl}/metrics`)).text();
  const seconds = (name: string) => Number(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[2] ?? NaN);
  return {
    p99Ms: hundredths(seconds('nodejs_eventloop_lag_p99_seconds') * 1000),
    maxMs: hundredths(seconds('nodejs_eventloop_lag_max_seconds') * 1000),
  };
}

/** Fetches `url` back to back on `loops` loops until `stop()`; what they got. */
function fetchInLoops(url: string, loops: number): { stop(): Promise<Pdfs> } {
  let stopping = false;
  let refused = 0;
  const latencies = new Latencies();
  const loop = async () => {
    while (!stopping) {
      const started = performance.now();
      const answer = await fetch(url, { headers: { authorization: `Bearer ${READER_KEY}` } });
      await answer.arrayBuffer();
      if (answer.status === 200) latencies.add(performance.now() - started);
      else if (answer.status === 503) refused++;
      else throw new Error(`summary.pdf answered ${answer.status}`);
    }
  };
  const running = Promise.all(Array.from({ length: loops }, loop));
  return {
    stop: async () => {
      stopping = true;
      await running;
      const { p50, max } = latencies.summary();
      return { made: latencies.size, refused, p50Ms: p50, maxMs: max };
    },
  };
}

async function measureRelease(release: string, root: string, round: number, options: Options): Promise<Run> {
  log(`round ${round}: ${release}: starting a stack from ${root}`);
  const stack = await Stack.start({
    root,
    form: true,
    env: {
      API_KEYS: `${KEYS.clientOne}:1,${READER_KEY}:1`,
      API_KEY_SCOPES: `${READER_KEY}:sensitive_data`,
      FORM_RATE_LIMIT_PER_MINUTE: '1000000',
      FORM_REQUEST_RATE_LIMIT_PER_MINUTE: '1000000',
      // 400 uploads, all from 127.0.0.1.
      FORM_UPLOADS_PER_HOUR: '1000000',
    },
  });
  try {
    const gateway = stack.processes.find(({ app }) => app === 'gateway')!;
    log(`round ${round}: ${release}: making the maximal application`);
    const { applicationId, propertyId } = await makeMaximalApplication({ ...stack, apiKey: KEYS.clientOne });
    const pdfUrl = `${stack.url}/api/v2/applications/${applicationId}/summary.pdf`;
    const fetchPdf = async () => {
      const started = performance.now();
      const answer = await fetch(pdfUrl, { headers: { authorization: `Bearer ${READER_KEY}` } });
      const bytes = (await answer.arrayBuffer()).byteLength;
      if (answer.status !== 200) throw new Error(`summary.pdf answered ${answer.status}`);
      return { ms: performance.now() - started, bytes };
    };
    await fetchPdf();
    const pid = gateway.child.pid!;
    await eventLoopDelay(gateway.operationsUrl);
    const [gatewayBefore, mainBefore] = [cpuMs(pid)!, cpuMs(pid, pid)!];
    const fetched: Array<{ ms: number; bytes: number }> = [];
    for (let i = 0; i < options.pdfs; i++) fetched.push(await fetchPdf());
    const perPdf = (before: number, now: number) => hundredths((now - before) / options.pdfs);
    const alone: Alone = {
      p50Ms: hundredths(median(fetched.map(({ ms }) => ms))),
      megabytes: hundredths(fetched[0].bytes / 2 ** 20),
      gatewayCpuMsPerPdf: perPdf(gatewayBefore, cpuMs(pid)!),
      mainThreadCpuMsPerPdf: perPdf(mainBefore, cpuMs(pid, pid)!),
      eventLoopDelay: await eventLoopDelay(gateway.operationsUrl),
    };
    log(
      `round ${round}: ${release}: alone: ${alone.p50Ms} ms a PDF, CPU ${alone.gatewayCpuMsPerPdf} ms of which ` +
        `${alone.mainThreadCpuMsPerPdf} ms on the main thread; event loop max ${alone.eventLoopDelay.maxMs} ms`,
    );

    const drive = (durationS: number) =>
      driveHttp({
        url: stack.url,
        connections: options.connections,
        durationS,
        headers: { authorization: `Bearer ${KEYS.clientOne}` },
        requests: [{ method: 'GET', path: `/api/v2/properties/${propertyId}` }],
      });
    const phase = async (withPdfs: boolean): Promise<Phase> => {
      const loops = withPdfs ? fetchInLoops(pdfUrl, options.pdfs) : null;
      await drive(WARMUP_S);
      await eventLoopDelay(gateway.operationsUrl);
      const rss = sampleRss([{ name: 'gateway', pid: gateway.child.pid! }]);
      const gets = await drive(options.seconds);
      const delay = await eventLoopDelay(gateway.operationsUrl);
      const gatewayPeakRssMb = rss.stop().gateway;
      const pdfs = await loops?.stop();
      log(
        `round ${round}: ${release}: ${withPdfs ? 'pdfs' : 'quiet'}: GET p50 ${gets.p50} ms, p99 ${gets.p99} ms, max ${gets.max} ms; ` +
          `event loop p99 ${delay.p99Ms} ms, max ${delay.maxMs} ms` +
          (pdfs ? `; ${pdfs.made} PDFs (p50 ${pdfs.p50Ms} ms), ${pdfs.refused} refused` : ''),
      );
      return { gets, eventLoopDelay: delay, gatewayPeakRssMb, ...(pdfs ? { pdfs } : {}) };
    };
    const quiet = await phase(false);
    const pdfs = await phase(true);
    return { release, round, alone, quiet, pdfs };
  } finally {
    await stack.stop();
  }
}

/** Per release, the median over its rounds of each figure compared. */
function summarize(runs: Run[]): Record<string, Record<string, number>> {
  const releases = [...new Set(runs.map((run) => run.release))];
  return Object.fromEntries(
    releases.map((release) => {
      const of = runs.filter((run) => run.release === release);
      const m = (pick: (run: Run) => number) => hundredths(median(of.map(pick)));
      return [
        release,
        {
          aloneMsPerPdf: m((run) => run.alone.p50Ms),
          aloneGatewayCpuMsPerPdf: m((run) => run.alone.gatewayCpuMsPerPdf),
          aloneMainThreadCpuMsPerPdf: m((run) => run.alone.mainThreadCpuMsPerPdf),
          aloneEventLoopMaxMs: m((run) => run.alone.eventLoopDelay.maxMs),
          quietGetP50Ms: m((run) => run.quiet.gets.p50),
          quietGetP99Ms: m((run) => run.quiet.gets.p99),
          pdfsGetP50Ms: m((run) => run.pdfs.gets.p50),
          pdfsGetP99Ms: m((run) => run.pdfs.gets.p99),
          pdfsGetMaxMs: m((run) => run.pdfs.gets.max),
          quietEventLoopMaxMs: m((run) => run.quiet.eventLoopDelay.maxMs),
          pdfsEventLoopP99Ms: m((run) => run.pdfs.eventLoopDelay.p99Ms),
          pdfsEventLoopMaxMs: m((run) => run.pdfs.eventLoopDelay.maxMs),
          getP99Added: m((run) => run.pdfs.gets.p99 / run.quiet.gets.p99),
          pdfsMadePerRun: m((run) => run.pdfs.pdfs!.made),
          quietGatewayPeakRssMb: m((run) => run.quiet.gatewayPeakRssMb ?? NaN),
          pdfsGatewayPeakRssMb: m((run) => run.pdfs.gatewayPeakRssMb ?? NaN),
        },
      ];
    }),
  );
}

async function main(): Promise<void> {
  const options = readIntegerOptions<Options>(process.argv.slice(2), { seconds: 20, connections: 8, pdfs: 2, rounds: 2 });
  const baseline = process.env.BENCH_BASELINE_ROOT;
  const releases: Array<[string, string]> = [
    ['this tree', ROOT],
    ...(baseline ? [['baseline', baseline] as [string, string]] : []),
  ];
  const loadAtStart = loadavg();
  const runs: Run[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    // Alternately first, so that neither always runs on the machine the other left.
    const order = round % 2 === 1 ? releases : [...releases].reverse();
    for (const [release, root] of order) runs.push(await measureRelease(release, root, round, options));
  }
  const report = {
    options,
    baselineRoot: baseline ?? null,
    loadAverage: { start: loadAtStart, end: loadavg() },
    summary: summarize(runs),
    runs,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
