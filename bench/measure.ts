import autocannon from 'autocannon';
import { hundredths } from './stats';

/** What one load run measured. Latencies are of successful requests, in milliseconds. */
export interface Measurement {
  connections: number;
  durationS: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /**
   * Answers whose status was not 2xx (nor one of those the load expects, such as a form's 303),
   * counted here, never dropped; with `sequenceIsUnit`, the units that had such an answer.
   */
  non2xx: number;
  /** Requests that got no answer: connection errors and timeouts. */
  errors: number;
}

/** Latencies at full resolution (autocannon's own histogram rounds to whole milliseconds). */
export class Latencies {
  private values = new Float64Array(1 << 16);
  private count = 0;

  add(ms: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }

  get size(): number {
    return this.count;
  }

  /** Nearest-rank percentiles of what was recorded: `[p50, p99, max]`, rounded to 0.01 ms. */
  summary(): { p50: number; p99: number; max: number } {
    const sorted = this.values.slice(0, this.count).sort();
    const at = (q: number) =>
      this.count === 0 ? 0 : hundredths(sorted[Math.min(this.count - 1, Math.ceil(q * this.count) - 1)]);
    return { p50: at(0.5), p99: at(0.99), max: at(1) };
  }
}

export interface HttpLoad {
  url: string;
  connections: number;
  durationS: number;
  headers?: Record<string, string>;
  /** Sent in turn by every connection, over and over. */
  requests: autocannon.Request[];
  /** Statuses that count as success besides 2xx: a form answers a good POST with a 303. */
  alsoSucceeded?: number[];
  /**
   * Count each pass through `requests` as one unit (a form's page, then its POST) instead of each
   * request: its latency is the sum of its requests' (they follow each other on one connection),
   * and it succeeded only if every answer did.
   */
  sequenceIsUnit?: boolean;
}

/** A unit of load under way on one connection: what its answers so far took, and whether all succeeded. */
interface PendingUnit {
  ms: number;
  succeeded: boolean;
}

/** Drives an HTTP server with autocannon: `connections` clients, each one request at a time. */
export async function driveHttp(load: HttpLoad): Promise<Measurement> {
  const latencies = new Latencies();
  let non2xx = 0;
  const succeeded = (status: number) => (status >= 200 && status < 300) || (load.alsoSucceeded ?? []).includes(status);
  const record = (ok: boolean, ms: number) => (ok ? latencies.add(ms) : non2xx++);
  const { requests, answered } = load.sequenceIsUnit ? tagged(load.requests) : { requests: load.requests, answered: () => 0 };
  const pending = new Map<unknown, PendingUnit>();
  const last = load.requests.length - 1;
  const started = process.hrtime.bigint();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: load.url,
        connections: load.connections,
        duration: load.durationS,
        headers: load.headers,
        requests,
        timeout: 10,
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (client: unknown, status: number, _bytes: number, ms: number) => {
      if (!load.sequenceIsUnit) return record(succeeded(status), ms);
      // A unit starts at the first request: what a timeout left of an earlier one is dropped.
      const unit = answered() === 0 ? { ms: 0, succeeded: true } : (pending.get(client) ?? { ms: 0, succeeded: false });
      unit.ms += ms;
      unit.succeeded &&= succeeded(status);
      if (answered() < last) pending.set(client, unit);
      else {
        pending.delete(client);
        record(unit.succeeded, unit.ms);
      }
    });
  });
  const durationS = Number(process.hrtime.bigint() - started) / 1e9;
  const measured = latencies.size + non2xx;
  return {
    connections: load.connections,
    durationS: hundredths(durationS),
    requests: measured,
    rps: hundredths(measured / durationS),
    ...latencies.summary(),
    non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * The requests, each wrapped so that `answered()` says which of them (by index) the answer just
 * being counted was for: autocannon calls a request's onResponse right before it emits the
 * answer's response event, and that event does not say which request it answers.
 */
function tagged(requests: autocannon.Request[]): { requests: autocannon.Request[]; answered: () => number } {
  let index = 0;
  const wrapped = requests.map((request, i): autocannon.Request => ({
    ...request,
    onResponse: (status, body, context, headers) => {
      index = i;
      if (typeof request.onResponse === 'function') request.onResponse(status, body, context, headers);
    },
  }));
  return { requests: wrapped, answered: () => index };
}

/**
 * Drives anything that is not HTTP the way autocannon drives a server: `connections` loops,
 * each starting its next operation when the last one ends, for `durationS` seconds.
 */
export async function driveLoop(connections: number, durationS: number, operation: () => Promise<void>): Promise<Measurement> {
  const latencies = new Latencies();
  let errors = 0;
  const started = process.hrtime.bigint();
  const end = started + BigInt(Math.round(durationS * 1e9));
  const loop = async () => {
    while (process.hrtime.bigint() < end) {
      const begun = process.hrtime.bigint();
      try {
        await operation();
        latencies.add(Number(process.hrtime.bigint() - begun) / 1e6);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const measuredS = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    connections,
    durationS: hundredths(measuredS),
    requests: latencies.size,
    rps: hundredths(latencies.size / measuredS),
    ...latencies.summary(),
    non2xx: 0,
    errors,
  };
}
