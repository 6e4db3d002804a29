/**
 * `npm run bench`: drives the built stack with autocannon, scenario by scenario, at each
 * concurrency, and measures in the same run the references its numbers are divided by (see
 * docs/benchmarks.md). Progress goes to stderr; the tables, or JSON with --json, to stdout.
 */
import { mkdirSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { resolve } from 'node:path';
import { BenchOptions, parseOptions } from './options';
import { renderProfiles, summarizeProfiles } from './profile';
import { References, startReferences } from './references';
import { BenchReport, highest, renderTables, Result, ScenarioRun, TracedRun, TracingCost } from './report';
import { runTargets } from './run-targets';
import { alsoWatched, driveScenario, measured, Measured, measuredNothing, progress, ratiosAt, runSoak } from './runs';
import { createFixtures, Scenario, scenarios } from './scenarios';
import { sideScenarios } from './side-scenarios';
import { startTarget, Target } from './target';
import { BASELINE_PREFIX, checkTargets } from './targets';
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
  const measuredTargets = {
    scenarios: scenarioResults,
    references: main.references,
    baseline,
    peakRssMb,
    soak: main.soak,
    trees: targetRounds?.trees,
  };
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
    targetRounds: targetRounds && {
      rounds: options.rounds,
      baselineRoot: targetRounds.baselineRoot,
      runs: targetRounds.runs,
      trees: targetRounds.trees,
    },
  };
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `${renderTables(report)}\n`);
  if (profileDir) {
    const names = new Map(stackProcesses.map((p) => [p.pid, p.name]));
    process.stderr.write(`\nCPU profiles in ${profileDir}:\n\n${renderProfiles(summarizeProfiles(profileDir, names))}\n`);
  }
}

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

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
