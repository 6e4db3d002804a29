import { Measurement } from './measure';
import { NEST_ECHO } from './references';

export interface Run extends Measurement {
  /** Highest RSS of each process during the measured run, in MB. */
  peakRssMb: Record<string, number | null>;
  /**
   * CPU time each process used during the run, per request served, in ms. Less disturbed by
   * other work on the machine than req/s and latency, so it shows what a change saved.
   */
  cpuMsPerRequest: Record<string, number | null>;
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
}

export const RSS_LIMIT_MB = 200;
/** Growth over the soak, as a share of the starting RSS, above which memory is said to grow. */
export const SOAK_GROWTH_LIMIT_PERCENT = 10;

// Three significant digits: a scenario hundreds of times slower than a reference keeps a ratio above 0.
const divide = (a: number, b: number) => (b > 0 ? Number((a / b).toPrecision(3)) : null);

export function ratios(run: Measurement, reference: Measurement | undefined): Ratios | null {
  if (!reference) return null;
  return { rps: divide(run.rps, reference.rps), p50: divide(run.p50, reference.p50), p99: divide(run.p99, reference.p99) };
}

/** The targets, as ratios to the plain NestJS echo measured in the same run. */
const RATIO_TARGETS: Array<{ scenario: string; connections: number; metric: keyof Ratios; at: 'least' | 'most'; limit: number }> =
  [
    { scenario: 'get-property', connections: 32, metric: 'rps', at: 'least', limit: 2.0 },
    { scenario: 'get-property', connections: 32, metric: 'p99', at: 'most', limit: 0.5 },
    { scenario: 'create-application', connections: 32, metric: 'rps', at: 'least', limit: 1.0 },
    { scenario: 'get-property', connections: 1, metric: 'p50', at: 'most', limit: 0.5 },
    { scenario: 'create-application', connections: 1, metric: 'p50', at: 'most', limit: 1.0 },
  ];

export function checkTargets(
  scenarios: Result<ScenarioRun>[],
  peakRssMb: Record<string, number | null>,
  soak: SoakResult | null,
): TargetCheck[] {
  const checks: TargetCheck[] = RATIO_TARGETS.map(({ scenario, connections, metric, at, limit }) => {
    const run = scenarios.find((s) => s.name === scenario)?.runs.find((r) => r.connections === connections);
    const actual = run?.ratios[NEST_ECHO]?.[metric] ?? null;
    const met = actual === null ? null : at === 'least' ? actual >= limit : actual <= limit;
    return { target: `${scenario} x${connections}: ${metric} at ${at} ${limit}x the nest echo's`, actual, limit, met };
  });
  const peaks = Object.values(peakRssMb).filter((mb): mb is number => mb !== null);
  const highest = peaks.length > 0 ? Math.max(...peaks) : null;
  checks.push({
    target: `every stack process at most ${RSS_LIMIT_MB} MB RSS`,
    actual: highest,
    limit: RSS_LIMIT_MB,
    met: highest === null ? null : highest <= RSS_LIMIT_MB,
  });
  if (soak) {
    const growths = Object.values(soak.growthPercent).filter((p): p is number => p !== null);
    const largest = growths.length > 0 ? Math.max(...growths) : null;
    checks.push({
      target: `RSS growth over a ${soak.durationS} s mix at most ${SOAK_GROWTH_LIMIT_PERCENT}%`,
      actual: largest,
      limit: SOAK_GROWTH_LIMIT_PERCENT,
      met: largest === null ? null : largest <= SOAK_GROWTH_LIMIT_PERCENT,
    });
  }
  return checks;
}

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
  const targets = table(
    ['target', 'actual', 'met'],
    report.targets.map((t) => [t.target, t.actual ?? '-', t.met === null ? 'not measured' : t.met ? 'yes' : 'NO']),
  );
  const parts = [
    `Measured (latencies of 2xx answers):\n${measured}`,
    `Each process of the stack: peak RSS during the run, and CPU time per request:\n${perProcess(report.scenarios)}`,
    `Each process of the references:\n${perProcess(report.references)}`,
    `Ratios to the references at the same concurrency (req/s: higher is better; p50, p99: lower is better):\n${compared}`,
    `Targets:\n${targets}`,
  ];
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
