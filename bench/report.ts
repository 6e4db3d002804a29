import { Measurement } from './measure';
import { Counts } from './counted';
import { Structure } from './structure';

export interface Run extends Measurement {
  /** Highest RSS of each process during the measured run, in MB. */
  peakRssMb: Record<string, number | null>;
  /**
   * CPU time each process used during the run, per request served, in ms. Less disturbed by
   * other work on the machine than req/s and latency, so it shows what a change saved.
   */
  cpuMsPerRequest: Record<string, number | null>;
  /**
   * Database commands the services sent per request, by command name, with their total as `all`
   * (`--db-commands`); null when not counted.
   */
  dbCommandsPerRequest: Record<string, number> | null;
  /** What the webhook receiver got of the events the run published (event-publish only, else null). */
  deliveries: Deliveries | null;
}

/**
 * The events a run published (one per create answered 2xx) against what the receiver got: they
 * lag behind the creates by the relay's publishing and the webhooks service's deliveries.
 */
export interface Deliveries {
  /** Creates answered 2xx during the measured run: one `property.created` event each. */
  published: number;
  /** Of those events, how many the receiver got while the load ran (each counted once). */
  duringRun: number;
  /** Of those events, how many it had once it had them all or the deadline passed. */
  total: number;
  /** ms from the load's end until every event had arrived; null when the deadline passed first. */
  catchUpMs: number | null;
}

/** What `--targets` counts of a tree rather than times (tree-figures.ts). */
export interface TreeFigures extends Counts {
  /** apps/applications' layering; null when the tree has no such app. */
  structure: Structure | null;
  longSourceFiles: number;
}

/** A scenario's numbers divided by a reference's at the same concurrency. */
export interface Ratios {
  /** Above 1: more requests per second than the reference. */
  rps: number | null;
  /** Below 1: faster than the reference. */
  p50: number | null;
  p99: number | null;
}

export interface ScenarioRun extends Run {
  ratios: Record<string, Ratios | null>;
}

export interface Result<R extends Run = Run> {
  name: string;
  description: string;
  runs: R[];
}

export interface TargetCheck {
  target: string;
  actual: number | null;
  limit: number;
  /** The same measure on the baseline tree (BENCH_BASELINE_ROOT) in the same run, where it has one. */
  baseline?: number | null;
  /** null when this run did not measure what the target is about. */
  met: boolean | null;
}

export interface SoakResult {
  connections: number;
  durationS: number;
  measurement: Measurement;
  /** RSS of each process in MB, sampled from the end of the warmup on. */
  samples: Array<{ atS: number; rssMb: Record<string, number | null> }>;
  /** Mean of the last tenth of the samples minus the mean of the first tenth, per process. */
  growthMb: Record<string, number | null>;
  growthPercent: Record<string, number | null>;
}

/** How the stack traced in a `--tracing` run (see tracing-cost.ts). */
export type TracingModeName = 'off' | 'every trace' | '10% of traces';

/** One scenario at one concurrency with tracing in one mode, in one round. */
export interface TracedRun {
  mode: TracingModeName;
  scenario: string;
  connections: number;
  round: number;
  rps: number;
  p99: number;
  /** Of the stack's Node processes (gateway, properties, applications), summed. */
  nodeCpuMsPerRequest: number | null;
  /** What the OTLP sink received while the run was measured, per request: 0 with tracing off. */
  exportedBytesPerRequest: number;
}

/** Each mode's medians over the rounds, with the CPU per request as a multiple of tracing off's. */
export interface TracingCostRow {
  mode: TracingModeName;
  scenario: string;
  connections: number;
  rounds: number;
  rps: number;
  p99: number;
  nodeCpuMsPerRequest: number | null;
  cpuToOff: number | null;
  exportedBytesPerRequest: number;
}

export interface TracingCost {
  runs: TracedRun[];
  rows: TracingCostRow[];
}

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  command: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    os: string;
    node: string;
    /** 1-minute load average when the run started and ended: how busy the machine was. */
    loadAverage: { start: number; end: number };
  };
  config: { durationS: number; warmupS: number; connections: number[]; target: string };
  references: Result[];
  scenarios: Result<ScenarioRun>[];
  /** Highest RSS of each stack process over every run, in MB. */
  peakRssMb: Record<string, number | null>;
  targets: TargetCheck[];
  soak: SoakResult | null;
  /** What tracing costs (`--tracing`), else null. */
  tracing: TracingCost | null;
  /**
   * `--targets`: how many rounds `scenarios` and `references` are the medians of (each round's
   * runs are in `rounds`), with the baseline's scenarios among `scenarios`; else null.
   */
  targetRounds: {
    rounds: number;
    baselineRoot: string | null;
    runs: Result[];
    /** What was counted of this tree and the baseline's (tree-figures.ts). */
    trees: { current: TreeFigures; baseline: TreeFigures | null };
  } | null;
}

/** a / b to three significant digits (a scenario hundreds of times slower than a reference keeps a ratio above 0); null when either is unknown. */
export const divide = (a: number | null, b: number | null) =>
  a === null || b === null || b <= 0 ? null : Number((a / b).toPrecision(3));

export function ratios(run: Measurement, reference: Measurement | undefined): Ratios | null {
  if (!reference) return null;
  return { rps: divide(run.rps, reference.rps), p50: divide(run.p50, reference.p50), p99: divide(run.p99, reference.p99) };
}

/** The stack's own Node processes, whose CPU per request the targets compare with the echo's. */
export const STACK_NODE_PROCESSES = ['gateway', 'properties', 'applications'];
/** Highest of each process over a set of runs (or samples). */
export function highest(runs: Array<Pick<Run, 'peakRssMb'>>): Record<string, number | null> {
  const peaks: Record<string, number | null> = {};
  for (const run of runs) {
    for (const [name, mb] of Object.entries(run.peakRssMb)) {
      peaks[name] = mb === null ? (peaks[name] ?? null) : Math.max(peaks[name] ?? 0, mb);
    }
  }
  return peaks;
}

/** The report as text tables, for a terminal and for docs/benchmarks.md. */
export function renderTables(report: BenchReport): string {
  const referenceNames = report.references.map((r) => r.name);
  const results = [...report.references, ...report.scenarios];
  const measured = table(
    ['scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors'],
    results.flatMap(({ name, runs }) =>
      runs.map((run) => [name, run.connections, run.rps, run.p50, run.p99, run.max, run.non2xx, run.errors]),
    ),
  );
  const perProcess = (all: Result[]) => {
    const group = all.filter(({ runs }) => runs.some((run) => Object.keys(run.peakRssMb).length > 0));
    const names = [...new Set(group.flatMap(({ runs }) => runs.flatMap((run) => Object.keys(run.peakRssMb))))];
    return table(
      ['scenario', 'conns', ...names.flatMap((p) => [`${p} MB`, `${p} CPU ms/req`])],
      group.flatMap(({ name, runs }) =>
        runs.map((run) => [
          name,
          run.connections,
          ...names.flatMap((p) => [run.peakRssMb[p] ?? '', run.cpuMsPerRequest[p] ?? '']),
        ]),
      ),
    );
  };
  const compared = table(
    ['scenario', 'conns', ...referenceNames.flatMap((r) => [`${r} req/s`, `p50`, `p99`])],
    report.scenarios.flatMap(({ name, runs }) =>
      runs.map((run) => [
        name,
        run.connections,
        ...referenceNames.flatMap((r) => {
          const ratio = run.ratios[r];
          return [times(ratio?.rps), times(ratio?.p50), times(ratio?.p99)];
        }),
      ]),
    ),
  );
  const counted = report.scenarios.filter(({ runs }) => runs.some((run) => run.dbCommandsPerRequest !== null));
  const commandNames = [
    ...new Set(counted.flatMap(({ runs }) => runs.flatMap((run) => Object.keys(run.dbCommandsPerRequest ?? {})))),
  ];
  const commands = table(
    ['scenario', 'conns', ...commandNames],
    counted.flatMap(({ name, runs }) =>
      runs.map((run) => [name, run.connections, ...commandNames.map((c) => run.dbCommandsPerRequest?.[c] ?? '')]),
    ),
  );
  const delivering = report.scenarios.filter(({ runs }) => runs.some((run) => run.deliveries !== null));
  const deliveries = table(
    ['scenario', 'conns', 'published', 'delivered during run', 'delivered in all', 'caught up after ms', 'webhooks CPU ms/req'],
    delivering.flatMap(({ name, runs }) =>
      runs.map((run) => [
        name,
        run.connections,
        run.deliveries?.published ?? '',
        run.deliveries?.duringRun ?? '',
        run.deliveries?.total ?? '',
        run.deliveries?.catchUpMs ?? 'not by the deadline',
        run.cpuMsPerRequest.webhooks ?? '',
      ]),
    ),
  );
  const targets = table(
    ['target', 'actual', 'baseline', 'met'],
    report.targets.map((t) => [
      t.target,
      t.actual ?? '-',
      t.baseline ?? '-',
      t.met === null ? 'not measured' : t.met ? 'yes' : 'NO',
    ]),
  );
  if (report.tracing) {
    const tracing = table(
      ['scenario', 'conns', 'tracing', 'rounds', 'req/s', 'p99 ms', 'Node CPU ms/req', 'to off', 'exported bytes/req'],
      report.tracing.rows.map((row) => [
        row.scenario,
        row.connections,
        row.mode,
        row.rounds,
        row.rps,
        row.p99,
        row.nodeCpuMsPerRequest ?? '-',
        times(row.cpuToOff),
        row.exportedBytesPerRequest,
      ]),
    );
    return [
      `What tracing costs (medians over the rounds; Node CPU: gateway, properties and applications):\n${tracing}`,
      `Targets:\n${targets}`,
    ].join('\n\n');
  }
  const rounds = report.targetRounds
    ? ` The medians of ${report.targetRounds.rounds} rounds; "baseline" is ${report.targetRounds.baselineRoot ?? 'not measured'}.`
    : '';
  const parts = [
    `Measured (latencies of 2xx answers, and of the 303s a form answers; form-submission: a page and its POST as one).${rounds}\n${measured}`,
    `Each process of the stack: peak RSS during the run, and CPU time per request:\n${perProcess(report.scenarios)}`,
    `Each process of the references:\n${perProcess(report.references)}`,
    `Ratios to the references at the same concurrency (req/s: higher is better; p50, p99: lower is better):\n${compared}`,
  ];
  if (delivering.length > 0) {
    parts.push(`Webhook deliveries: events published (creates answered 2xx) and what the receiver got:\n${deliveries}`);
  }
  if (counted.length > 0) parts.push(`Database commands the services sent per request, by name (all: their total):\n${commands}`);
  parts.push(`Targets:\n${targets}`);
  if (report.soak) {
    const soak = report.soak;
    parts.push(
      `Soak: mix at ${soak.connections} connections for ${soak.durationS} s, ${soak.measurement.rps} req/s, ` +
        `${soak.measurement.non2xx} non-2xx, ${soak.measurement.errors} errors\n` +
        table(
          ['process', 'first MB', 'last MB', 'growth MB', 'growth %'],
          Object.keys(soak.growthMb).map((p) => [
            p,
            soak.samples[0]?.rssMb[p] ?? '-',
            soak.samples[soak.samples.length - 1]?.rssMb[p] ?? '-',
            soak.growthMb[p] ?? '-',
            soak.growthPercent[p] ?? '-',
          ]),
        ),
    );
  }
  return parts.join('\n\n');
}

function times(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : `${value.toFixed(2)}x`;
}

/** A Markdown table, readable as plain text too. */
function table(header: string[], rows: Array<Array<string | number>>): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [line(cells[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}
