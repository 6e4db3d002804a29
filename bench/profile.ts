import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a V8 .cpuprofile (what `node --cpu-prof` writes) read here. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  process: string;
  totalMs: number;
  idlePercent: number;
  /** Loading the app's modules at start-up: left out of the percentages, which are of the rest. */
  loadingMs: number;
  /** Where the busy time went: functions by their own time, and by time including callees. */
  self: Array<{ name: string; percent: number }>;
  inclusive: Array<{ name: string; percent: number }>;
  /** Own time by package (node_modules/<name>), node internals, or this project's code. */
  byArea: Array<{ name: string; percent: number }>;
}

const IDLE = new Set(['(idle)', '(program)', '(root)']);
/** The frame under which a process loads its modules before it serves. */
const LOADING_URL = 'node:internal/main/run_main_module';

/** Summarizes every .cpuprofile in `dir`; `names` maps a pid to the process it was. */
export function summarizeProfiles(dir: string, names: Map<number, string>, top = 15): ProfileSummary[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => {
      const pid = Number(/^CPU\.\d+\.\d+\.(\d+)\./.exec(file)?.[1]);
      return summarize(join(dir, file), names.get(pid) ?? `pid ${pid}`, top);
    });
}

function summarize(file: string, processName: string, top: number): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let loading = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    total += us;
    const node = byId.get(id)!;
    const name = label(node.callFrame);
    if (IDLE.has(node.callFrame.functionName)) {
      idle += us;
      return;
    }
    const stack: string[] = [];
    let starting = false;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      starting ||= frame.url === LOADING_URL;
      stack.push(label(frame));
    }
    if (starting) {
      loading += us;
      return;
    }
    add(self, name, us);
    add(areas, area(node.callFrame.url, node.callFrame.functionName), us);
    for (const key of new Set(stack)) add(inclusive, key, us);
  });
  const busy = total - idle - loading;
  const ranked = (map: Map<string, number>) =>
    [...map]
      .filter(([name]) => !IDLE.has(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, percent: Math.round((1000 * us) / Math.max(busy, 1)) / 10 }));
  return {
    file,
    process: processName,
    totalMs: Math.round(total / 1000),
    idlePercent: Math.round((1000 * idle) / Math.max(total, 1)) / 10,
    loadingMs: Math.round(loading / 1000),
    self: ranked(self),
    inclusive: ranked(inclusive),
    byArea: ranked(areas),
  };
}

function add(map: Map<string, number>, key: string, us: number): void {
  map.set(key, (map.get(key) ?? 0) + us);
}

function label({ functionName, url, lineNumber }: CpuProfile['nodes'][number]['callFrame']): string {
  if (!url) return functionName || '(anonymous)';
  const short = url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/dist\//, 'dist/');
  return `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
}

function area(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return pkg ? pkg[1] : 'project code';
}

export function renderProfiles(summaries: ProfileSummary[]): string {
  return summaries
    .map((s) => {
      const list = (title: string, rows: ProfileSummary['self']) =>
        `  ${title}:\n${rows.map((r) => `    ${r.percent.toFixed(1).padStart(5)}%  ${r.name}`).join('\n')}`;
      return [
        `${s.process}: ${s.totalMs} ms profiled, ${s.idlePercent}% idle, ${s.loadingMs} ms loading modules (left out below) (${s.file})`,
        list('own time by area (% of busy time)', s.byArea.slice(0, 10)),
        list('own time by function', s.self),
        list('time including callees', s.inclusive),
      ].join('\n');
    })
    .join('\n\n');
}
