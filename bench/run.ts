/**
 * `npm run bench`: drives the built stack with autocannon, scenario by scenario, at each
 * concurrency, and measures in the same run the references its numbers are divided by (see
 * docs/benchmarks.md). Progress goes to stderr; the tables, or JSON with --json, to stdout.
 */
import { mkdirSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { resolve } from 'node:path';
import { driveHttp, Measurement } from './measure';
import { commandsSent, perRequest } from './db-commands';
import { BenchOptions, parseOptions } from './options';
import { renderProfiles, summarizeProfiles } from './profile';
import { References, startReferences } from './references';
import {
  BenchReport,
  Deliveries,
  highest,
  ratios,
  renderTables,
  Result,
  Run,
  ScenarioRun,
  SoakResult,
  TracedRun,
  TracingCost,
} from './report';
import { measureCpu, rssNow, sampleRss, Watched } from './procfs';
import { createFixtures, Scenario, scenarios } from './scenarios';
import { SideMeasurement, sideScenarios } from './side-scenarios';
import { namedPids, startTarget, Target } from './target';
import { BASELINE_PREFIX, checkTargets, medianResults, TARGET_REFERENCES, TARGET_SCENARIOS } from './targets';
import {
  OtlpSink,
  startOtlpSink,
  summarizeTracing,
  TRACED_SCENARIOS,
  tracedRun,
  TracingMode,
  tracingTargets,
  TRACING_MODES,
} from './tracing-cost';

const DEFAULT_AMQP_URL = 'amqp://guest:guest@localhost:5672';
const DEFAULT_MONGODB_URI = 'mongodb://localhost:27017';
const SOAK_SAMPLE_EVERY_MS = 5000;

const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  process.env.AMQP_URL ||= DEFAULT_AMQP_URL;
  process.env.MONGODB_URI ||= DEFAULT_MONGODB_URI;
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg()[0];
  if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });
  const profileDir = options.profileDir && resolve(options.profileDir);

  const sideNames = sideScenarios().map((s) => s.name);
  // Asked for side scenarios alone, the bench starts no main stack: nothing would run on it.
  const mainWanted = options.only === null || options.soakS !== null || options.only.some((name) => !sideNames.includes(name));
  const tracing = options.tracing ? await runTracingCost(options, profileDir) : null;
  const targetRounds = options.targets ? await runTargets(options, profileDir) : null;
  const main = targetRounds?.medians ?? (mainWanted && !tracing ? await runMain(options, profileDir) : measuredNothing());
  const side =
    main.soak === null && !tracing && !targetRounds
      ? await runSideScenarios(options, profileDir, main.references)
      : measuredNothing();
  const scenarioResults = [...main.scenarios, ...side.scenarios];
  const stackProcesses = [...main.processes, ...side.processes];
  const stackNames = new Set(stackProcesses.map((p) => p.name));
  // A soak's memory is sampled as it goes; every other run keeps its own peaks.
  const peaks = main.soak
    ? main.soak.samples.map((sample) => ({ peakRssMb: sample.rssMb }))
    : scenarioResults.flatMap((s) => s.runs);
  const peakRssMb = Object.fromEntries(Object.entries(highest(peaks)).filter(([name]) => stackNames.has(name)));
  const baseline = scenarioResults.filter((s) => s.name.startsWith(BASELINE_PREFIX));
  const measuredTargets = { scenarios: scenarioResults, references: main.references, baseline, peakRssMb, soak: main.soak };
  const report: BenchReport = {
    startedAt,
    finishedAt: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(totalmem() / 2 ** 30),
      os: `${type()} ${release()}`,
      node: process.version,
      loadAverage: { start: loadAtStart, end: loadavg()[0] },
    },
    config: {
      durationS: options.durationS,
      warmupS: options.warmupS,
      connections: options.connections,
      target: [...main.targets, ...side.targets].join('; '),
    },
    references: main.references,
    scenarios: scenarioResults,
    peakRssMb,
    targets: tracing ? tracingTargets(tracing) : checkTargets(measuredTargets, options.connections),
    soak: main.soak,
    tracing,
    targetRounds: targetRounds && { rounds: options.rounds, baselineRoot: targetRounds.baselineRoot, runs: targetRounds.runs },
  };
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `${renderTables(report)}\n`);
  if (profileDir) {
    const names = new Map(stackProcesses.map((p) => [p.pid, p.name]));
    process.stderr.write(`\nCPU profiles in ${profileDir}:\n\n${renderProfiles(summarizeProfiles(profileDir, names))}\n`);
  }
}

/** What a part of the bench measured, and on what. */
interface Measured {
  references: Result[];
  scenarios: Result<ScenarioRun>[];
  soak: SoakResult | null;
  /** The stack processes its runs watched. */
  processes: Watched[];
  /** What each stack it measured was. */
  targets: string[];
}

const measuredNothing = (): Measured => ({ references: [], scenarios: [], soak: null, processes: [], targets: [] });

/**
 * The main stack (or BENCH_URL's gateway) with its fixtures, and the references: concurrency by
 * concurrency, the references, then the main scenarios; or the soak alone. Both are stopped before
 * it returns, so that nothing of theirs runs beside the side scenarios.
 */
async function runMain(options: BenchOptions, profileDir: string | null): Promise<Measured> {
  progress(process.env.BENCH_URL ? `using ${process.env.BENCH_URL}` : 'starting the stack');
  const target = await startTarget(profileDir, options.nodeArgs, options.dbCommands);
  const result: Measured = { ...measuredNothing(), processes: [...target.processes], targets: [target.description] };
  let started: References | null = null;
  try {
    const fixtures = await createFixtures(target);
    const all = scenarios(fixtures).filter((s) => options.only === null || options.only.includes(s.name));
    result.scenarios = all.map(({ name, description }) => ({ name, description, runs: [] }));
    if (options.soakS !== null) {
      result.soak = await runSoak(
        target,
        all.find((s) => s.name === 'mix')!,
        Math.max(...options.connections),
        options,
      );
      return result;
    }
    progress('starting the references');
    started = await startReferences(options.only);
    result.references = started.list.map(({ name, description }) => ({ name, description, runs: [] }));
    // Concurrency by concurrency, references first, so that what is compared ran close in time.
    for (const connections of options.connections) {
      for (const [i, reference] of started.list.entries()) {
        const drive = (durationS: number) => reference.drive(connections, durationS);
        result.references[i].runs.push(await measured(reference.name, connections, reference.processes, drive, options));
      }
      for (const [i, scenario] of all.entries()) {
        const drive = (durationS: number) => driveScenario(target, scenario, connections, durationS);
        const counted = options.dbCommands ? target.metricsUrls : [];
        const run = await measured(scenario.name, connections, [...target.processes, ...alsoWatched()], drive, options, counted);
        result.scenarios[i].runs.push({ ...run, ratios: ratiosAt(run, result.references, connections) });
      }
    }
    return result;
  } finally {
    progress('stopping');
    await started?.stop();
    await target.stop();
  }
}

/** A run's ratios to each reference's run at the same concurrency. */
function ratiosAt(run: Run, references: Result[], connections: number): ScenarioRun['ratios'] {
  const sameConcurrency = (r: Result) => r.runs.find((run) => run.connections === connections);
  return Object.fromEntries(references.map((r) => [r.name, ratios(run, sameConcurrency(r))]));
}

/**
 * The side scenarios selected (see side-scenarios.ts), each on a stack of its own started now,
 * after the main stack stopped, at every concurrency in turn, compared with the references'
 * runs measured before.
 */
async function runSideScenarios(options: BenchOptions, profileDir: string | null, references: Result[]): Promise<Measured> {
  const selected = sideScenarios().filter((s) => options.only === null || options.only.includes(s.name));
  const measuredSide = measuredNothing();
  if (selected.length > 0 && process.env.BENCH_URL) {
    progress(`skipping ${selected.map((s) => s.name).join(', ')}: they start apps of their own, not BENCH_URL's`);
    return measuredSide;
  }
  for (const scenario of selected) {
    progress(`starting a stack of its own for ${scenario.name}`);
    const target = await startTarget(profileDir, options.nodeArgs, options.dbCommands, scenario.apps);
    measuredSide.processes.push(...target.processes);
    measuredSide.targets.push(`for ${scenario.name}, ${target.description}`);
    const result: Result<ScenarioRun> = { name: scenario.name, description: scenario.description, runs: [] };
    try {
      const load = await scenario.prepare(target);
      try {
        for (const connections of options.connections) {
          const drive = (durationS: number) => load.drive(connections, durationS);
          const watched = [...target.processes, ...alsoWatched()];
          const counted = options.dbCommands ? target.metricsUrls : [];
          const run = await measured(scenario.name, connections, watched, drive, options, counted);
          result.runs.push({ ...run, ratios: ratiosAt(run, references, connections) });
        }
      } finally {
        await load.stop();
      }
    } finally {
      await target.stop();
    }
    measuredSide.scenarios.push(result);
  }
  return measuredSide;
}

/**
 * `--tracing`: a stack with tracing off, one exporting every trace and one exporting 10% of them
 * (to an OTLP/HTTP sink of the bench's own), all three started at the outset and running side by
 * side; then round after round each is driven in turn through the traced scenarios at every
 * concurrency, each round starting one mode further on (off, every, 10%; then every, 10%, off;
 * ...). Stacks started one after another, each measured for a minute, differed by as much as
 * what tracing costs: the database and the broker were not in the same state for each, and a
 * stack paid for some of the work the one before it left. Side by side, the three share the
 * machine's state, and each figure is the median of runs interleaved with the others'.
 */
async function runTracingCost(options: BenchOptions, profileDir: string | null): Promise<TracingCost> {
  if (process.env.BENCH_URL) throw new Error('--tracing starts stacks of its own: it cannot measure BENCH_URL');
  const runs: TracedRun[] = [];
  // A sink each: a stack's last batch of spans may arrive while another is measured.
  const sinks: OtlpSink[] = [];
  const stacks: Array<{ mode: TracingMode; sink: OtlpSink; target: Target; traced: Scenario[] }> = [];
  try {
    for (const mode of TRACING_MODES) {
      progress(`tracing: starting the stack with ${mode.name}`);
      const sink = await startOtlpSink();
      sinks.push(sink);
      const env = mode.traced ? { ...mode.env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } : {};
      const stack = {
        mode,
        sink,
        target: await startTarget(profileDir, options.nodeArgs, false, { env }),
        traced: [] as Scenario[],
      };
      stacks.push(stack);
      stack.traced = scenarios(await createFixtures(stack.target)).filter((s) => TRACED_SCENARIOS.includes(s.name));
    }
    for (let round = 1; round <= options.rounds; round++) {
      const first = (round - 1) % stacks.length;
      for (const { mode, sink, target, traced } of [...stacks.slice(first), ...stacks.slice(0, first)]) {
        progress(`tracing round ${round} of ${options.rounds}: ${mode.name}`);
        for (const connections of options.connections) {
          for (const scenario of traced) {
            const drive = (durationS: number) => driveScenario(target, scenario, connections, durationS);
            const bytesBefore = sink.bytes();
            const run = await measured(`${scenario.name} (${mode.name})`, connections, target.processes, drive, options);
            runs.push(tracedRun(mode, scenario.name, round, run, sink.bytes() - bytesBefore));
          }
        }
      }
    }
  } finally {
    await Promise.all(stacks.map(({ target }) => target.stop()));
    await Promise.all(sinks.map((sink) => sink.stop()));
  }
  return summarizeTracing(runs);
}

/**
 * `--targets`: round after round, this tree's stack and the baseline's (BENCH_BASELINE_ROOT, when
 * set), alternately first, each started afresh and driven through the targets' scenarios at the
 * highest concurrency, then the two references the targets name; then the soak on this tree's
 * stack. The references come last in a round: the broker is still busy with their thousands of
 * messages a second for a while after them, and whichever stack came next paid for it (this tree
 * spent up to 1.5x the baseline's CPU per create when it ran right after them, the same as the
 * baseline's when it ran second). Returns the medians of the rounds (the baseline's scenarios named
 * `baseline <scenario>`) and every round's runs.
 */
async function runTargets(
  options: BenchOptions,
  profileDir: string | null,
): Promise<{ medians: Measured; runs: Result[]; baselineRoot: string | null }> {
  if (process.env.BENCH_URL) throw new Error('--targets starts stacks of its own: it cannot measure BENCH_URL');
  const baselineRoot = process.env.BENCH_BASELINE_ROOT || null;
  const baselineNode = process.env.BENCH_BASELINE_NODE || undefined;
  if (baselineNode && !baselineRoot)
    throw new Error('BENCH_BASELINE_NODE needs BENCH_BASELINE_ROOT (this tree, to compare two runtimes)');
  const connections = Math.max(...options.connections);
  const runs = new Map<string, Result<ScenarioRun>>();
  const record = (name: string, description: string, run: ScenarioRun) => {
    if (!runs.has(name)) runs.set(name, { name, description, runs: [] });
    runs.get(name)!.runs.push(run);
  };
  const stacks: Array<[string, string | undefined]> = [
    ['', undefined],
    ...(baselineRoot ? [[BASELINE_PREFIX, baselineRoot] as [string, string]] : []),
  ];
  const processes: Watched[] = [];
  const descriptions: string[] = [];
  const references = await startReferences(TARGET_REFERENCES);
  try {
    for (let round = 1; round <= options.rounds; round++) {
      progress(`targets round ${round} of ${options.rounds}`);
      for (const [prefix, root] of round % 2 === 1 ? stacks : [...stacks].reverse()) {
        const target = await startTarget(profileDir, options.nodeArgs, false, { root, node: root ? baselineNode : undefined });
        if (round === 1) descriptions.push(target.description);
        try {
          const all = scenarios(await createFixtures(target)).filter((s) => TARGET_SCENARIOS.includes(s.name));
          for (const scenario of all) {
            const drive = (durationS: number) => driveScenario(target, scenario, connections, durationS);
            const run = await measured(prefix + scenario.name, connections, target.processes, drive, options);
            record(prefix + scenario.name, scenario.description, { ...run, ratios: {} });
          }
          if (!root) processes.push(...target.processes);
        } finally {
          await target.stop();
        }
      }
      for (const reference of references.list) {
        const drive = (durationS: number) => reference.drive(connections, durationS);
        record(reference.name, reference.description, {
          ...(await measured(reference.name, connections, reference.processes, drive, options)),
          ratios: {},
        });
      }
    }
  } finally {
    await references.stop();
  }
  const referenceNames = new Set(references.list.map((r) => r.name));
  const all = [...runs.values()];
  const medianReferences = medianResults(all.filter((r) => referenceNames.has(r.name)));
  const medianScenarios = medianResults(all.filter((r) => !referenceNames.has(r.name))).map((result) => ({
    ...result,
    runs: result.runs.map((run) => ({ ...run, ratios: ratiosAt(run, medianReferences, run.connections) })),
  }));
  progress('targets: the soak, on a stack of its own');
  const target = await startTarget(profileDir, options.nodeArgs, false);
  let soak: SoakResult;
  try {
    const mix = scenarios(await createFixtures(target)).find((s) => s.name === 'mix')!;
    soak = await runSoak(target, mix, connections, { ...options, soakS: options.soakS ?? 300 });
  } finally {
    await target.stop();
  }
  return {
    medians: {
      references: medianReferences,
      scenarios: medianScenarios,
      soak,
      processes: [...processes, ...target.processes],
      targets: descriptions,
    },
    runs: all,
    baselineRoot,
  };
}

/** BENCH_WATCH: `name=pid,...` of other processes to report on beside the stack's (the database, say). */
const alsoWatched = () => namedPids(process.env.BENCH_WATCH);

function driveScenario(target: Target, scenario: Scenario, connections: number, durationS: number): Promise<Measurement> {
  return driveHttp({
    url: target.url,
    connections,
    durationS,
    headers: { authorization: `Bearer ${target.apiKey}` },
    requests: scenario.requests(),
  });
}

/** Warms up with the same load, then measures while sampling the RSS of `processes`. */
async function measured(
  name: string,
  connections: number,
  processes: Watched[],
  drive: (durationS: number) => Promise<SideMeasurement>,
  options: BenchOptions,
  metricsUrls: string[] = [],
): Promise<Run> {
  if (options.warmupS > 0) await drive(options.warmupS);
  const commandsBefore = metricsUrls.length > 0 ? await commandsSent(metricsUrls) : null;
  const rss = sampleRss(processes);
  const cpu = measureCpu(processes);
  const measurement = await drive(options.durationS);
  const { deliveries, ...numbers } = measurement;
  const run: Run = {
    ...numbers,
    peakRssMb: rss.stop(),
    cpuMsPerRequest: cpu.stop(measurement.requests),
    dbCommandsPerRequest: null,
    deliveries: deliveries ?? null,
  };
  if (commandsBefore)
    run.dbCommandsPerRequest = perRequest(commandsBefore, await commandsSent(metricsUrls), measurement.requests);
  progress(
    `${name} x${connections}: ${run.rps} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, non-2xx ${run.non2xx}, errors ${run.errors}` +
      (deliveries ? `; ${describeDeliveries(deliveries)}` : ''),
  );
  return run;
}

function describeDeliveries({ published, duringRun, total, catchUpMs }: Deliveries): string {
  const after = catchUpMs === null ? `${total} by the deadline` : `all ${total} ${catchUpMs} ms after the load ended`;
  return `${published} events published, ${duringRun} delivered during the run, ${after}`;
}

/** The mix for `soakS` seconds after a warmup, with the RSS of each process sampled as it goes. */
async function runSoak(target: Target, mix: Scenario, connections: number, options: BenchOptions): Promise<SoakResult> {
  const durationS = options.soakS!;
  progress(`soak: warming up, then the mix at ${connections} connections for ${durationS} s`);
  if (options.warmupS > 0) await driveScenario(target, mix, connections, options.warmupS);
  const started = Date.now();
  const samples: SoakResult['samples'] = [];
  const sample = () => samples.push({ atS: Math.round((Date.now() - started) / 1000), rssMb: rssNow(target.processes) });
  sample();
  const timer = setInterval(sample, SOAK_SAMPLE_EVERY_MS);
  const measurement = await driveScenario(target, mix, connections, durationS);
  clearInterval(timer);
  sample();
  const tenth = Math.max(1, Math.floor(samples.length / 10));
  const mean = (rows: typeof samples, name: string) => {
    const values = rows.map((s) => s.rssMb[name]).filter((mb): mb is number => mb !== null);
    return values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : null;
  };
  const growthMb: Record<string, number | null> = {};
  const growthPercent: Record<string, number | null> = {};
  for (const { name } of target.processes) {
    const first = mean(samples.slice(0, tenth), name);
    const last = mean(samples.slice(-tenth), name);
    growthMb[name] = first === null || last === null ? null : Math.round((last - first) * 10) / 10;
    growthPercent[name] = first === null || last === null ? null : Math.round((1000 * (last - first)) / first) / 10;
  }
  progress(`soak: ${measurement.rps} req/s; growth ${JSON.stringify(growthMb)} MB`);
  return { connections, durationS, measurement, samples, growthMb, growthPercent };
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
