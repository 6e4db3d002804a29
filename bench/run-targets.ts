import { BenchOptions } from './options';
import { startReferences } from './references';
import { Result, ScenarioRun, SoakResult, TreeFigures } from './report';
import { Watched } from './procfs';
import { driveScenario, measured, Measured, progress, ratiosAt, runSoak } from './runs';
import { createFixtures, scenarios } from './scenarios';
import { startTarget } from './target';
import { BASELINE_PREFIX, medianResults, TARGET_REFERENCES, TARGET_SCENARIOS } from './targets';
import { measureTree } from './tree-figures';

/** What `--targets` counted of this tree and of the baseline's (null without one). */
export interface TargetTrees {
  current: TreeFigures;
  baseline: TreeFigures | null;
}

/**
 * `--targets`: round after round, this tree's stack and the baseline's (BENCH_BASELINE_ROOT, when
 * set), alternately first, each started afresh and driven through the targets' scenarios at the
 * highest concurrency, then the two references the targets name; then each tree's counts
 * (tree-figures.ts) on a stack of its own; then the soak on this tree's stack. The references
 * come last in a round: the broker is still busy with their thousands of messages a second for a
 * while after them, and whichever stack came next paid for it (this tree spent up to 1.5x the
 * baseline's CPU per create when it ran right after them, the same as the baseline's when it ran
 * second). Returns the medians of the rounds (the baseline's scenarios named `baseline
 * <scenario>`), every round's runs and the counts.
 */
export async function runTargets(
  options: BenchOptions,
  profileDir: string | null,
): Promise<{ medians: Measured; runs: Result[]; baselineRoot: string | null; trees: TargetTrees }> {
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
  const trees: TargetTrees = {
    current: await measureTree(options, profileDir),
    baseline: baselineRoot ? await measureTree(options, profileDir, baselineRoot, baselineNode) : null,
  };
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
    trees,
  };
}
