import { NEST_ECHO, NEST_GET_PROPERTY } from './references';
import { divide, Result, Run, SoakResult, STACK_NODE_PROCESSES, TargetCheck, TreeFigures } from './report';
import { hundredths, median } from './stats';
import { LONG_FILE_LINES } from './source-files';

/**
 * The performance targets (see docs/benchmarks.md): ratios to the references and to the
 * baseline (another built tree, BENCH_BASELINE_ROOT) measured in the same run, at the highest
 * concurrency measured (32 by default), and the stack's memory.
 */

/** What `--targets` drives on the stack, and on the baseline for targets 3 and 4. */
export const TARGET_SCENARIOS = ['get-property', 'create-application', 'get-application', 'list-applications'];
export const TARGET_REFERENCES = [NEST_ECHO, NEST_GET_PROPERTY];
/** The baseline's results are named `baseline <scenario>`. */
export const BASELINE_PREFIX = 'baseline ';
export const RSS_TARGET_MB = 150;
/** Growth over the soak, as a share of the starting RSS, above which memory is said to grow. */
export const SOAK_GROWTH_LIMIT_PERCENT = 10;

/** The processes a get property passes through, and the echo's, whose CPU per request are compared. */
export const GET_PROCESSES = ['gateway', 'properties'];
export const ECHO_PROCESSES = ['nest-echo-gateway', 'nest-echo-service'];

/** CPU ms per request summed over `names`; null unless every one was measured. */
export function cpuOf(run: Run | undefined, names: string[]): number | null {
  const values = names.map((name) => run?.cpuMsPerRequest[name]);
  return values.every((v): v is number => typeof v === 'number') ? values.reduce((a, b) => a + b, 0) : null;
}

interface Measured {
  scenarios: Result[];
  references: Result[];
  /** The same scenarios on the baseline, named BASELINE_PREFIX + scenario; empty without one. */
  baseline: Result[];
  peakRssMb: Record<string, number | null>;
  soak: SoakResult | null;
  /** What `--targets` counted of this tree and the baseline's; absent elsewhere. */
  trees?: { current: TreeFigures; baseline: TreeFigures | null };
}

interface Target {
  label: string;
  at: 'least' | 'most';
  limit: number;
  actual(runAt: (name: string) => Run | undefined): number | null;
  /** The same on the baseline tree, where it has a value of its own. */
  baseline?(runAt: (name: string) => Run | undefined): number | null;
}

/** CPU ms per request of every process a run watched. */
const allCpu = (run: Run | undefined) => cpuOf(run, Object.keys(run?.cpuMsPerRequest ?? {}));

/** The targets of the figures counted of each tree (see tree-figures.ts). */
function treeTargets(trees: NonNullable<Measured['trees']>): Target[] {
  const counted = (label: string, limit: number, figure: (tree: TreeFigures) => number | null): Target => ({
    label,
    at: 'most',
    limit,
    actual: () => figure(trees.current),
    baseline: () => (trees.baseline ? figure(trees.baseline) : null),
  });
  return [
    counted('database commands per create application', 6, (t) => t.dbCommandsPerCreate),
    counted('broker messages per create application (requests and their answers)', 4, (t) => t.brokerMessagesPerCreate),
    counted('events published per create application (no more than its two)', 2, (t) => t.eventsPerCreate),
    counted('database commands per form section save, the page it redirects to included', 8, (t) => t.dbCommandsPerSectionSave),
    counted('service calls the form makes for the POST of one section step', 3, (t) => t.serviceCallsPerFormStep),
    counted('apps/applications floors (folders layered by their imports)', 6, (t) => t.structure?.floors ?? null),
    counted('apps/applications upward arrows (folder pairs inside an import cycle)', 1, (t) => t.structure?.upwardArrows ?? null),
    counted(`source files over ${LONG_FILE_LINES} lines (specs and generated code apart)`, 0, (t) => t.longSourceFiles),
  ];
}

function targets(connections: number): Target[] {
  const get = `get-property x${connections}`;
  const toBaseline = (scenario: string, limit: number): Target => ({
    label: `${scenario} x${connections}: Node CPU per request (gateway, properties, applications), to the baseline's`,
    at: 'most',
    limit,
    actual: (runAt) =>
      divide(cpuOf(runAt(scenario), STACK_NODE_PROCESSES), cpuOf(runAt(BASELINE_PREFIX + scenario), STACK_NODE_PROCESSES)),
  });
  return [
    {
      label: `${get}: req/s, to the plain NestJS get property's (${NEST_GET_PROPERTY})`,
      at: 'least',
      limit: 1.2,
      actual: (runAt) => divide(runAt('get-property')?.rps ?? null, runAt(NEST_GET_PROPERTY)?.rps ?? null),
    },
    {
      label: `${get}: p99, to the plain NestJS get property's (${NEST_GET_PROPERTY})`,
      at: 'most',
      limit: 0.8,
      actual: (runAt) => divide(runAt('get-property')?.p99 ?? null, runAt(NEST_GET_PROPERTY)?.p99 ?? null),
    },
    {
      label: `${get}: Node CPU per request (gateway, properties), to the plain echo's two processes (${NEST_ECHO})`,
      at: 'most',
      limit: 2.5,
      actual: (runAt) => divide(cpuOf(runAt('get-property'), GET_PROCESSES), cpuOf(runAt(NEST_ECHO), ECHO_PROCESSES)),
    },
    toBaseline('create-application', 0.5),
    toBaseline('get-application', 0.7),
    toBaseline('list-applications', 0.7),
    {
      label: `create-application x${connections}: Node CPU per request, all the stack's processes, to the baseline's`,
      at: 'most',
      limit: 0.6,
      actual: (runAt) => divide(allCpu(runAt('create-application')), allCpu(runAt(`${BASELINE_PREFIX}create-application`))),
    },
    {
      label: `${get}: req/s, to the plain NestJS get property's (${NEST_GET_PROPERTY})`,
      at: 'least',
      limit: 1.0,
      actual: (runAt) => divide(runAt('get-property')?.rps ?? null, runAt(NEST_GET_PROPERTY)?.rps ?? null),
      baseline: (runAt) => divide(runAt(`${BASELINE_PREFIX}get-property`)?.rps ?? null, runAt(NEST_GET_PROPERTY)?.rps ?? null),
    },
  ];
}

/**
 * The targets against what was measured at the highest concurrency: the ratios of the runs
 * given (one per scenario and reference, the medians of the rounds in a `--targets` run), and
 * the stack's RSS at the end of the soak, or its peak over the runs when no soak ran.
 */
export function checkTargets(measured: Measured, connections: number[]): TargetCheck[] {
  const highest = Math.max(...connections);
  const runAt = (name: string) =>
    [...measured.scenarios, ...measured.references, ...measured.baseline]
      .find((result) => result.name === name)
      ?.runs.find((run) => run.connections === highest);
  const ratioChecks = targets(highest).map((target) => ({
    ...target,
    label: `${target.label} at ${target.at} ${target.limit}x`,
  }));
  const countChecks = (measured.trees ? treeTargets(measured.trees) : []).map((target) => ({
    ...target,
    label: `${target.label} at ${target.at} ${target.limit}`,
  }));
  const checks: TargetCheck[] = [...ratioChecks, ...countChecks].map(({ label, at, limit, actual, baseline }) => {
    const value = actual(runAt);
    return {
      target: label,
      actual: value,
      baseline: baseline?.(runAt) ?? null,
      limit,
      met: value === null ? null : at === 'least' ? value >= limit : value <= limit,
    };
  });
  const { soak } = measured;
  const lastSample = soak?.samples.at(-1)?.rssMb;
  const rss = Object.values(lastSample ?? measured.peakRssMb).filter((mb): mb is number => mb !== null);
  const largest = rss.length > 0 ? Math.max(...rss) : null;
  checks.push({
    target: `every stack process at most ${RSS_TARGET_MB} MB RSS ${soak ? `after the ${soak.durationS} s soak` : 'at its peak'}`,
    actual: largest,
    limit: RSS_TARGET_MB,
    met: largest === null ? null : largest <= RSS_TARGET_MB,
  });
  if (soak) {
    const growths = Object.values(soak.growthPercent).filter((p): p is number => p !== null);
    const growth = growths.length > 0 ? Math.max(...growths) : null;
    checks.push({
      target: `RSS growth over a ${soak.durationS} s mix at most ${SOAK_GROWTH_LIMIT_PERCENT}%`,
      actual: growth,
      limit: SOAK_GROWTH_LIMIT_PERCENT,
      met: growth === null ? null : growth <= SOAK_GROWTH_LIMIT_PERCENT,
    });
  }
  return checks;
}

/**
 * One run standing for several rounds of the same scenario at the same concurrency: the median
 * of each number (each process's CPU and RSS apart), so that one disturbed round moves nothing.
 */
export function medianRun<R extends Run>(runs: R[]): R {
  const of = (pick: (run: R) => number) => hundredths(median(runs.map(pick)));
  const perProcess = (pick: (run: R) => Record<string, number | null>) => {
    const names = [...new Set(runs.flatMap((run) => Object.keys(pick(run))))];
    return Object.fromEntries(
      names.map((name) => {
        const values = runs.map((run) => pick(run)[name]).filter((v): v is number => typeof v === 'number');
        return [name, values.length === runs.length ? Math.round(median(values) * 1000) / 1000 : null];
      }),
    );
  };
  return {
    ...runs[0],
    requests: of((run) => run.requests),
    rps: of((run) => run.rps),
    p50: of((run) => run.p50),
    p99: of((run) => run.p99),
    max: of((run) => run.max),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    peakRssMb: perProcess((run) => run.peakRssMb),
    cpuMsPerRequest: perProcess((run) => run.cpuMsPerRequest),
  };
}

/** Each result's runs of every round, as one median run per concurrency. */
export function medianResults<R extends Run>(results: Array<Result<R>>): Array<Result<R>> {
  return results.map((result) => {
    const concurrencies = [...new Set(result.runs.map((run) => run.connections))];
    return { ...result, runs: concurrencies.map((c) => medianRun(result.runs.filter((run) => run.connections === c))) };
  });
}
