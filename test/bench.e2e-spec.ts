import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { driveHttp } from '../bench/measure';
import { BenchReport as Report, Run } from '../bench/report';
import { cpuOf, ECHO_PROCESSES, GET_PROCESSES } from '../bench/targets';

const BENCH = join(__dirname, '..', 'dist', 'bench', 'bench', 'run.js');
const DB_WRITE_PROBE = join(__dirname, '..', 'dist', 'bench', 'bench', 'db-write-probe.js');
const SCENARIOS = [
  'create-property',
  'get-property',
  'create-application',
  'create-application-keyed',
  'mix',
  'list-properties',
  'list-applications',
  'get-application',
  'get-applicant',
  // On stacks of their own, after the others.
  'form-submission',
  'event-publish',
];
const REFERENCES = [
  'nest-rmq-echo',
  'amqp-rpc',
  'amqp-rpc-quorum',
  'db-insert',
  'nest-get-property',
  'db-find-by-id',
  'amqp-quorum-read',
];
const STACK_PROCESSES = ['gateway', 'properties', 'applications'];
/** What the side scenarios' stacks run beside the main stack's processes. */
const EXTRA_PROCESSES: Record<string, string[]> = { 'form-submission': ['form'], 'event-publish': ['webhooks'] };
const CONNECTIONS = 2;
/**
 * The regression guard: a get property's Node CPU (gateway and properties) per request, to the
 * plain echo's two processes', in the same run. Measured 2.0x to 4.1x in this configuration
 * (docs/benchmarks.md); a get twice as costly as at the top of that range fails it.
 */
const GET_CPU_TO_ECHO_GUARD = 8;

/** Runs a built script with this test's environment; what it printed, and how it exited. */
async function runNode(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe('npm run bench, in a smoke configuration (shape only: no speed is asserted)', () => {
  let report: Report;

  beforeAll(async () => {
    if (!existsSync(BENCH)) throw new Error(`${BENCH} is missing: run \`npm run build\` first`);
    const options = ['--duration', '1', '--warmup', '0.3', '--connections', String(CONNECTIONS), '--json', '--db-commands'];
    const { code, stdout, stderr } = await runNode(BENCH, options);
    if (code !== 0) throw new Error(`the bench exited with ${code}:\n${stderr}`);
    report = JSON.parse(stdout) as Report;
  }, 180_000);

  const isRun = (run: Run) => {
    expect(run.connections).toBe(CONNECTIONS);
    expect(run.requests).toBeGreaterThan(0);
    expect(run.rps).toBeGreaterThan(0);
    expect(run.p50).toBeGreaterThan(0);
    expect(run.p99).toBeGreaterThanOrEqual(run.p50);
    expect(run.max).toBeGreaterThanOrEqual(run.p99);
    // The bench's own requests are valid and the stack is healthy: any non-2xx is a defect here.
    expect(run.non2xx).toBe(0);
    expect(run.errors).toBe(0);
  };

  it('describes the machine and the configuration it ran with', () => {
    expect(report.machine.cpus).toBeGreaterThan(0);
    expect(report.machine.node).toBe(process.version);
    expect(report.config).toMatchObject({ durationS: 1, connections: [CONNECTIONS] });
    expect(report.soak).toBeNull();
    expect(report.tracing).toBeNull();
  });

  it('measures each scenario with the peak RSS of every stack process', () => {
    expect(report.scenarios.map((s) => s.name)).toEqual(SCENARIOS);
    for (const scenario of report.scenarios) {
      expect(scenario.runs).toHaveLength(1);
      isRun(scenario.runs[0]);
      const processes = [...STACK_PROCESSES, ...(EXTRA_PROCESSES[scenario.name] ?? [])];
      expect(Object.keys(scenario.runs[0].peakRssMb).sort()).toEqual(processes.sort());
      for (const mb of Object.values(scenario.runs[0].peakRssMb)) expect(mb).toBeGreaterThan(0);
    }
    const everyProcess = [...STACK_PROCESSES, ...Object.values(EXTRA_PROCESSES).flat()];
    expect(Object.keys(report.peakRssMb).sort()).toEqual(everyProcess.sort());
  });

  it('submits the form: every unit a page and its POST answered 303, the form process’s CPU reported', () => {
    const [run] = report.scenarios.find((s) => s.name === 'form-submission')!.runs;
    // isRun checked that no unit had an answer other than 200 or 303: no CSRF refusal, no throttling.
    expect(run.non2xx).toBe(0);
    expect(run.cpuMsPerRequest.form).toBeGreaterThan(0);
    expect(run.dbCommandsPerRequest!.insert).toBeGreaterThanOrEqual(1);
    expect(run.deliveries).toBeNull();
  });

  it('publishes an event per property created, every one of them delivered to the bench’s receiver', () => {
    const [run] = report.scenarios.find((s) => s.name === 'event-publish')!.runs;
    expect(run.non2xx).toBe(0);
    expect(run.cpuMsPerRequest.webhooks).toBeGreaterThan(0);
    expect(run.deliveries).toEqual({
      published: run.requests,
      duringRun: expect.any(Number),
      total: run.requests,
      catchUpMs: expect.any(Number),
    });
    expect(run.deliveries!.total).toBeGreaterThanOrEqual(1);
    expect(run.deliveries!.duringRun).toBeLessThanOrEqual(run.deliveries!.total);
    for (const { name, runs } of report.scenarios) {
      if (name !== 'event-publish') expect(runs[0].deliveries).toBeNull();
    }
  });

  it('measures the references and gives every scenario its ratios to each', () => {
    expect(report.references.map((r) => r.name)).toEqual(REFERENCES);
    for (const reference of report.references) isRun(reference.runs[0]);
    for (const { runs } of report.scenarios) {
      expect(Object.keys(runs[0].ratios)).toEqual(REFERENCES);
      for (const ratio of Object.values(runs[0].ratios)) {
        for (const metric of ['rps', 'p50', 'p99'] as const) expect(ratio?.[metric]).toBeGreaterThan(0);
      }
    }
  });

  it('counts the database commands the services send per request, by name', () => {
    const perRequest = (name: string) => report.scenarios.find((s) => s.name === name)!.runs[0].dbCommandsPerRequest!;
    for (const { runs } of report.scenarios) {
      const { all, ...byName } = runs[0].dbCommandsPerRequest!;
      expect(all).toBeGreaterThan(0);
      expect(all).toBeCloseTo(
        Object.values(byName).reduce((a, b) => a + b, 0),
        0,
      );
    }
    // A get reads and inserts nothing; a create inserts.
    expect(perRequest('get-property').find).toBeGreaterThanOrEqual(1);
    expect(perRequest('get-property')).not.toHaveProperty('insert');
    expect(perRequest('create-application').insert).toBeGreaterThanOrEqual(1);
    for (const reference of report.references) expect(reference.runs[0].dbCommandsPerRequest).toBeNull();
  });

  it('checks the targets it can at this concurrency and says which it could not', () => {
    const byLabel = (pattern: RegExp) => report.targets.filter((t) => pattern.test(t.target));
    const measured = byLabel(/^get-property x2: (req\/s|p99|Node CPU).* to the plain /);
    expect(measured.map((t) => t.target)).toEqual([
      expect.stringMatching(/^get-property x2: req\/s.* at least 1.2x$/),
      expect.stringMatching(/^get-property x2: p99.* at most 0.8x$/),
      expect.stringMatching(/^get-property x2: Node CPU .* at most 2.5x$/),
      expect.stringMatching(/^get-property x2: req\/s.* at least 1x$/),
    ]);
    for (const target of measured) expect(target).toMatchObject({ actual: expect.any(Number), met: expect.any(Boolean) });
    // Against the baseline: a --targets run with BENCH_BASELINE_ROOT measures them, this one not.
    const againstBaseline = byLabel(/to the baseline's/);
    expect(againstBaseline.map((t) => t.target)).toEqual([
      expect.stringMatching(/^create-application x2: .* at most 0.5x$/),
      expect.stringMatching(/^get-application x2: .* at most 0.7x$/),
      expect.stringMatching(/^list-applications x2: .* at most 0.7x$/),
      expect.stringMatching(/^create-application x2: Node CPU per request, all the stack's processes, .* at most 0.6x$/),
    ]);
    for (const target of againstBaseline) expect(target).toMatchObject({ actual: null, met: null });
    // The counts of a tree (issue 50's figures) come with --targets only.
    expect(byLabel(/per create application|floors|source files/)).toEqual([]);
    expect(byLabel(/RSS/)).toEqual([
      expect.objectContaining({ limit: 150, actual: expect.any(Number), met: expect.any(Boolean) }),
    ]);
  });

  it('guards against a get property twice as costly: its Node CPU per request within a bound of the echo’s, in this run', () => {
    const get = report.scenarios.find((s) => s.name === 'get-property')!.runs[0];
    const echo = report.references.find((r) => r.name === 'nest-rmq-echo')!.runs[0];
    const ratio = cpuOf(get, GET_PROCESSES)! / cpuOf(echo, ECHO_PROCESSES)!;
    expect(ratio).toBeGreaterThan(0);
    expect(ratio).toBeLessThan(GET_CPU_TO_ECHO_GUARD);
  });
});

describe('npm run bench -- --targets, in a smoke configuration (shape only: no speed is asserted)', () => {
  let report: Report;

  beforeAll(async () => {
    const options = [
      '--targets',
      '--rounds',
      '2',
      '--duration',
      '1',
      '--warmup',
      '0',
      '--connections',
      '2',
      '--soak',
      '2',
      '--json',
    ];
    // This tree is its own baseline here: the point is the shape, not the figures.
    const { code, stdout, stderr } = await runNode(BENCH, options, { BENCH_BASELINE_ROOT: join(__dirname, '..') });
    if (code !== 0) throw new Error(`the bench exited with ${code}:\n${stderr}`);
    report = JSON.parse(stdout) as Report;
  }, 300_000);

  it('runs the references, the stack and the baseline each round, and reports the medians of the rounds', () => {
    const names = ['get-property', 'create-application', 'get-application', 'list-applications'];
    expect(report.targetRounds).toMatchObject({ rounds: 2, baselineRoot: join(__dirname, '..') });
    const runsOf = (name: string) => report.targetRounds!.runs.find((r) => r.name === name)!.runs;
    for (const name of ['nest-rmq-echo', 'nest-get-property', ...names, ...names.map((n) => `baseline ${n}`)]) {
      expect(runsOf(name)).toHaveLength(2);
    }
    expect(report.references.map((r) => r.name)).toEqual(['nest-rmq-echo', 'nest-get-property']);
    expect(report.scenarios.map((s) => s.name).sort()).toEqual([...names, ...names.map((n) => `baseline ${n}`)].sort());
    for (const result of [...report.references, ...report.scenarios]) {
      expect(result.runs).toHaveLength(1);
      const rounds = runsOf(result.name)
        .map((run) => run.rps)
        .sort((a, b) => a - b);
      expect(result.runs[0].rps).toBeCloseTo((rounds[0] + rounds[1]) / 2, 1);
      expect(result.runs[0].non2xx).toBe(0);
    }
  });

  it('prints every target measured, the soak’s RSS among them', () => {
    expect(report.soak).toMatchObject({ durationS: 2, connections: 2 });
    expect(report.targets.map((t) => t.target)).toEqual([
      expect.stringMatching(/^get-property x2: req\/s.* at least 1.2x$/),
      expect.stringMatching(/^get-property x2: p99.* at most 0.8x$/),
      expect.stringMatching(/^get-property x2: Node CPU .* at most 2.5x$/),
      expect.stringMatching(/^create-application x2: .* at most 0.5x$/),
      expect.stringMatching(/^get-application x2: .* at most 0.7x$/),
      expect.stringMatching(/^list-applications x2: .* at most 0.7x$/),
      expect.stringMatching(/^create-application x2: Node CPU per request, all the stack's processes, .* at most 0.6x$/),
      expect.stringMatching(/^get-property x2: req\/s.* at least 1x$/),
      'database commands per create application at most 6',
      'broker messages per create application (requests and their answers) at most 4',
      'events published per create application (no more than its two) at most 2',
      'database commands per form section save, the page it redirects to included at most 8',
      'service calls the form makes for the POST of one section step at most 3',
      'apps/applications floors (folders layered by their imports) at most 6',
      'apps/applications upward arrows (folder pairs inside an import cycle) at most 1',
      'source files over 400 lines (specs and generated code apart) at most 0',
      'every stack process at most 150 MB RSS after the 2 s soak',
      'RSS growth over a 2 s mix at most 10%',
    ]);
    for (const target of report.targets) expect(target).toMatchObject({ actual: expect.any(Number), met: expect.any(Boolean) });
  });
});

describe('npm run bench -- --tracing, in a smoke configuration (shape only: no speed is asserted)', () => {
  let report: Report;

  beforeAll(async () => {
    const options = ['--tracing', '--rounds', '1', '--duration', '1', '--warmup', '0', '--connections', '1', '--json'];
    // Spans exported every 50 ms instead of every 5 s, so that a one-second run sees its own.
    const { code, stdout, stderr } = await runNode(BENCH, options, { OTEL_BSP_SCHEDULE_DELAY: '50' });
    if (code !== 0) throw new Error(`the bench exited with ${code}:\n${stderr}`);
    report = JSON.parse(stdout) as Report;
  }, 180_000);

  it('measures get property and create application with tracing off, every trace sampled and 10% sampled', () => {
    expect(report.scenarios).toEqual([]);
    expect(report.references).toEqual([]);
    const rows = report.tracing!.rows;
    expect(rows.map(({ scenario, mode }) => `${scenario} ${mode}`)).toEqual([
      'get-property off',
      'get-property every trace',
      'get-property 10% of traces',
      'create-application off',
      'create-application every trace',
      'create-application 10% of traces',
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ connections: 1, rounds: 1 });
      expect(row.nodeCpuMsPerRequest).toBeGreaterThan(0);
      expect(row.cpuToOff).toBeGreaterThan(0);
    }
  });

  it('exports spans only with tracing on: nothing from the stack with it off, every request traced with all sampled', () => {
    const bytes = (mode: string) =>
      report.tracing!.rows.filter((row) => row.mode === mode).map((row) => row.exportedBytesPerRequest);
    expect(bytes('off')).toEqual([0, 0]);
    for (const perRequest of bytes('every trace')) expect(perRequest).toBeGreaterThan(0);
    for (const [i, perRequest] of bytes('10% of traces').entries()) expect(perRequest).toBeLessThan(bytes('every trace')[i]);
  });

  it('checks the 10% target against tracing off, per scenario', () => {
    expect(report.targets.map((t) => t.target)).toEqual([
      expect.stringMatching(/^get-property x1: .*10% of traces.*at most 1.1x$/),
      expect.stringMatching(/^create-application x1: .*10% of traces.*at most 1.1x$/),
    ]);
    for (const target of report.targets) expect(target.met).toEqual(expect.any(Boolean));
  });
});

describe('the bench load driver', () => {
  let server: Server;
  let url: string;

  /** POSTs to /form answered so far. */
  let posts = 0;
  /** How long each answer on /form is held: a unit of a GET and a POST takes twice as long at least. */
  const FORM_DELAY_MS = 6;

  beforeAll(async () => {
    let served = 0;
    server = createServer((request, response) => {
      if (request.url === '/form') {
        // A page, then its POST: 303, except every third POST, a 409.
        const status = request.method === 'GET' ? 200 : ++posts % 3 === 0 ? 409 : 303;
        setTimeout(() => response.writeHead(status).end(), FORM_DELAY_MS);
        return;
      }
      // Every third answer is a 503: the bench must count them, not drop them.
      response.statusCode = ++served % 3 === 0 ? 503 : 200;
      response.end('{}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('counts every non-2xx answer among the requests it reports', async () => {
    const run = await driveHttp({ url, connections: 1, durationS: 0.5, requests: [{ method: 'GET', path: '/' }] });

    expect(run.requests).toBeGreaterThan(10);
    expect(run.non2xx).toBeGreaterThanOrEqual(Math.floor(run.requests / 3) - 1);
    expect(run.non2xx).toBeLessThanOrEqual(Math.ceil(run.requests / 3) + 1);
  });

  it('counts a page and its POST as one unit, the redirect expected as success, its latency their sum', async () => {
    const run = await driveHttp({
      url,
      connections: 1,
      durationS: 0.5,
      requests: [
        { method: 'GET', path: '/form' },
        { method: 'POST', path: '/form' },
      ],
      alsoSucceeded: [303],
      sequenceIsUnit: true,
    });

    // The run may end after a page whose POST it never sent, or while the last POST is answered.
    expect(run.requests).toBeGreaterThan(5);
    expect(run.requests).toBeGreaterThanOrEqual(posts - 1);
    expect(run.requests).toBeLessThanOrEqual(posts);
    expect(run.non2xx).toBeGreaterThanOrEqual(Math.floor(run.requests / 3) - 1);
    expect(run.non2xx).toBeLessThanOrEqual(Math.ceil(run.requests / 3) + 1);
    expect(run.p50).toBeGreaterThanOrEqual(2 * FORM_DELAY_MS - 2);
  });
});

describe('the database write probe', () => {
  it('times one insert, three at once, and a read and an update among stored documents, leaving no database behind', async () => {
    const { code, stdout, stderr } = await runNode(DB_WRITE_PROBE, ['5', '50']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });

    const result = JSON.parse(stdout) as Record<string, number>;
    expect(result).toMatchObject({ rounds: 5, stored: 50 });
    for (const name of ['oneInsertMs', 'threeInsertsAtOnceMs', 'threeToOne', 'readNewestMs', 'updateNewestMs']) {
      expect(result[name]).toBeGreaterThan(0);
    }
    expect(result.threeToOne).toBeCloseTo(result.threeInsertsAtOnceMs / result.oneInsertMs, 1);
    const client = await MongoClient.connect(process.env.MONGODB_URI!);
    try {
      const { databases } = await client.db().admin().listDatabases({ nameOnly: true });
      expect(databases.map(({ name }) => name).filter((name) => name.startsWith('db_write_probe_'))).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
