import { once } from 'node:events';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Run, STACK_NODE_PROCESSES, TargetCheck, TracedRun, TracingCost, TracingCostRow, TracingModeName } from './report';
import { hundredths, median } from './stats';
import { cpuOf } from './targets';

/**
 * What `--tracing` measures: the scenarios of the main stack that tracing costs most on, each
 * on a stack started with tracing off, on with every trace sampled, and on with 10% of traces.
 */
export const TRACED_SCENARIOS = ['get-property', 'create-application'];

export interface TracingMode {
  name: TracingModeName;
  /** OTEL_* variables of the stack's processes, beside the exporter's endpoint. */
  env: Record<string, string>;
  traced: boolean;
}

export const TRACING_MODES: TracingMode[] = [
  { name: 'off', env: {}, traced: false },
  { name: 'every trace', env: { OTEL_TRACES_SAMPLER: 'parentbased_always_on' }, traced: true },
  {
    name: '10% of traces',
    env: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
    traced: true,
  },
];

/** At 10% of traces sampled, the stack's Node CPU per request is at most this multiple of tracing off. */
export const SAMPLED_CPU_LIMIT = 1.1;

export function tracedRun(mode: TracingMode, scenario: string, round: number, run: Run, exportedBytes: number): TracedRun {
  const cpu = cpuOf(run, STACK_NODE_PROCESSES);
  return {
    mode: mode.name,
    scenario,
    connections: run.connections,
    round,
    rps: run.rps,
    p99: run.p99,
    nodeCpuMsPerRequest: cpu === null ? null : hundredths(cpu),
    exportedBytesPerRequest: run.requests > 0 ? Math.round(exportedBytes / run.requests) : 0,
  };
}

/** The medians of each mode, scenario and concurrency over the rounds, each against tracing off's. */
export function summarizeTracing(runs: TracedRun[]): TracingCost {
  const groups = new Map<string, TracedRun[]>();
  for (const run of runs) {
    const key = `${run.mode}\n${run.scenario}\n${run.connections}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const medianOf = (group: TracedRun[], pick: (run: TracedRun) => number | null) => {
    const values = group.map(pick).filter((v): v is number => v !== null);
    return values.length === group.length ? hundredths(median(values)) : null;
  };
  const rows: TracingCostRow[] = [...groups.values()].map((group) => {
    const { mode, scenario, connections } = group[0];
    return {
      mode,
      scenario,
      connections,
      rounds: group.length,
      rps: hundredths(median(group.map((run) => run.rps))),
      p99: hundredths(median(group.map((run) => run.p99))),
      nodeCpuMsPerRequest: medianOf(group, (run) => run.nodeCpuMsPerRequest),
      cpuToOff: null,
      exportedBytesPerRequest: Math.round(median(group.map((run) => run.exportedBytesPerRequest))),
    };
  });
  const modeOrder = (row: TracingCostRow) => TRACING_MODES.findIndex((mode) => mode.name === row.mode);
  rows.sort(
    (a, b) =>
      TRACED_SCENARIOS.indexOf(a.scenario) - TRACED_SCENARIOS.indexOf(b.scenario) ||
      a.connections - b.connections ||
      modeOrder(a) - modeOrder(b),
  );
  for (const row of rows) {
    const off = rows.find((r) => r.mode === 'off' && r.scenario === row.scenario && r.connections === row.connections);
    const offCpu = off?.nodeCpuMsPerRequest;
    row.cpuToOff = offCpu && row.nodeCpuMsPerRequest !== null ? Number((row.nodeCpuMsPerRequest / offCpu).toPrecision(3)) : null;
  }
  return { runs, rows };
}

/** The limit on sampled tracing, one check per scenario and concurrency. */
export function tracingTargets(cost: TracingCost): TargetCheck[] {
  return cost.rows
    .filter((row) => row.mode === '10% of traces')
    .map((row) => ({
      target: `${row.scenario} x${row.connections}: Node CPU per request with 10% of traces sampled, to tracing off's, at most ${SAMPLED_CPU_LIMIT}x`,
      actual: row.cpuToOff,
      limit: SAMPLED_CPU_LIMIT,
      met: row.cpuToOff === null ? null : row.cpuToOff <= SAMPLED_CPU_LIMIT,
    }));
}

/**
 * An OTLP/HTTP endpoint that takes every export and keeps only its size: the stack's processes
 * pay for building, encoding and sending their spans as they would to a collector.
 */
export interface OtlpSink {
  url: string;
  /** Bytes of export bodies received so far. */
  bytes(): number;
  stop(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let received = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (received += chunk.length));
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: () => received,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
