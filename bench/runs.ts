/**
 * What every part of the bench measures with: a warmed-up, measured run of a load on a stack, its
 * ratios to the references, and the soak. Progress goes to stderr.
 */
import { driveHttp, Measurement } from './measure';
import { commandsSent, perRequest } from './db-commands';
import { BenchOptions } from './options';
import { Deliveries, ratios, Result, Run, ScenarioRun, SoakResult } from './report';
import { measureCpu, rssNow, sampleRss, Watched } from './procfs';
import { Scenario } from './scenarios';
import { SideMeasurement } from './side-scenarios';
import { namedPids, Target } from './target';

const SOAK_SAMPLE_EVERY_MS = 5000;

export const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** What a part of the bench measured, and on what. */
export interface Measured {
  references: Result[];
  scenarios: Result<ScenarioRun>[];
  soak: SoakResult | null;
  /** The stack processes its runs watched. */
  processes: Watched[];
  /** What each stack it measured was. */
  targets: string[];
}

export const measuredNothing = (): Measured => ({ references: [], scenarios: [], soak: null, processes: [], targets: [] });

/** A run's ratios to each reference's run at the same concurrency. */
export function ratiosAt(run: Run, references: Result[], connections: number): ScenarioRun['ratios'] {
  const sameConcurrency = (r: Result) => r.runs.find((run) => run.connections === connections);
  return Object.fromEntries(references.map((r) => [r.name, ratios(run, sameConcurrency(r))]));
}

/** BENCH_WATCH: `name=pid,...` of other processes to report on beside the stack's (the database, say). */
export const alsoWatched = () => namedPids(process.env.BENCH_WATCH);

export function driveScenario(target: Target, scenario: Scenario, connections: number, durationS: number): Promise<Measurement> {
  return driveHttp({
    url: target.url,
    connections,
    durationS,
    headers: { authorization: `Bearer ${target.apiKey}` },
    requests: scenario.requests(),
  });
}

/** Warms up with the same load, then measures while sampling the RSS of `processes`. */
export async function measured(
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
export async function runSoak(target: Target, mix: Scenario, connections: number, options: BenchOptions): Promise<SoakResult> {
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
