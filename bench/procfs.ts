import { readFileSync } from 'node:fs';

/** A process whose memory and CPU time are watched, by the name it is reported under. */
export interface Watched {
  name: string;
  pid: number;
}

const SAMPLE_EVERY_MS = 100;

/** Resident set size of a process in MB, from /proc; null once it is gone (or off Linux). */
export function rssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 102.4) / 10 : null;
  } catch {
    return null;
  }
}

/**
 * Samples the RSS of each process every 100 ms while it runs; `stop` returns the highest
 * sample of each (null for a process that could not be read).
 */
export function sampleRss(processes: Watched[]): { stop(): Record<string, number | null> } {
  const peaks: Record<string, number | null> = Object.fromEntries(processes.map((p) => [p.name, null]));
  const sample = () => {
    for (const { name, pid } of processes) {
      const mb = rssMb(pid);
      if (mb !== null) peaks[name] = Math.max(peaks[name] ?? 0, mb);
    }
  };
  sample();
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { ...peaks };
    },
  };
}

/** Current RSS of each process, by name. */
export function rssNow(processes: Watched[]): Record<string, number | null> {
  return Object.fromEntries(processes.map(({ name, pid }) => [name, rssMb(pid)]));
}

/**
 * CPU time (user and system) a process has used so far, in ms, or one of its threads (the main
 * thread's id is the process's); null once it is gone.
 */
export function cpuMs(pid: number, thread?: number): number | null {
  try {
    // After the command name (which may hold spaces) come the fields from `state` on; utime and
    // stime are the 14th and 15th fields of the line, in clock ticks (100 a second on Linux).
    const fields = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** CPU time of each process from now until `stop`, in ms per request served meanwhile. */
export function measureCpu(processes: Watched[]): { stop(requests: number): Record<string, number | null> } {
  const before = processes.map(({ pid }) => cpuMs(pid));
  return {
    stop(requests) {
      return Object.fromEntries(
        processes.map(({ name, pid }, i) => {
          const now = cpuMs(pid);
          const start = before[i];
          const perRequest = now === null || start === null || requests === 0 ? null : (now - start) / requests;
          return [name, perRequest === null ? null : Math.round(perRequest * 1000) / 1000];
        }),
      );
    },
  };
}
