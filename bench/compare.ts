/**
 * `node dist/bench/bench/compare.js before.json after.json [more.json ...]`: puts the runs of
 * bench reports (from `npm run bench -- --json`) side by side, scenario by scenario, so that a
 * change can be judged from runs done back to back. With more than two reports, each column is
 * the median of the reports given for it: `before1.json,before2.json after1.json,after2.json`.
 */
import { readFileSync } from 'node:fs';
import { BenchReport, STACK_NODE_PROCESSES } from './report';
import { hundredths, median } from './stats';

type Metric = 'rps' | 'p50' | 'p99';
/** CPU ms per request of every watched process, or of the stack's Node processes alone. */
type Cpu = 'cpu' | 'nodeCpu';

function main(): void {
  const columns = process.argv
    .slice(2)
    .map((arg) => arg.split(',').map((file) => JSON.parse(readFileSync(file, 'utf8')) as BenchReport));
  if (columns.length < 2) throw new Error('usage: compare.js before.json[,before2.json] after.json[,after2.json]');
  const value = (reports: BenchReport[], name: string, connections: number, metric: Metric | Cpu) => {
    const values = reports
      .map((report) =>
        [...report.references, ...report.scenarios]
          .find((r) => r.name === name)
          ?.runs.find((run) => run.connections === connections),
      )
      .filter((run) => run !== undefined)
      .map((run) => {
        if (metric === 'rps' || metric === 'p50' || metric === 'p99') return run[metric];
        const processes = Object.entries(run.cpuMsPerRequest).filter(
          ([name]) => metric === 'cpu' || STACK_NODE_PROCESSES.includes(name),
        );
        return processes.reduce<number>((sum, [, ms]) => sum + (ms ?? 0), 0);
      });
    return values.length > 0 ? hundredths(median(values)) : null;
  };
  const first = columns[0][0];
  const rows: string[][] = [];
  for (const { name, runs } of [...first.references, ...first.scenarios]) {
    for (const { connections } of runs) {
      const cells = (metric: Metric | Cpu) =>
        columns.map((reports) => String(value(reports, name, connections, metric) ?? '-')).join(' -> ');
      rows.push([name, String(connections), cells('rps'), cells('p50'), cells('p99'), cells('cpu'), cells('nodeCpu')]);
    }
  }
  const header = [
    'scenario',
    'conns',
    'req/s',
    'p50 ms',
    'p99 ms',
    'CPU ms/req (all watched processes)',
    'stack Node CPU ms/req',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  const loads = columns.map((reports) =>
    reports.map((r) => `${r.machine.loadAverage.start}-${r.machine.loadAverage.end}`).join(', '),
  );
  process.stdout.write(
    [
      `load average during each column's runs: ${loads.join(' | ')}`,
      '',
      line(header),
      `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
      ...rows.map(line),
    ].join('\n') + '\n',
  );
}

main();
