import autocannon from 'autocannon';

/** What one load run measured. Latencies are of successful requests, in milliseconds. */
export interface Measurement {
  connections: number;
  durationS: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers whose status was not 2xx: counted here, never dropped. */
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
    const at = (q: number) => (this.count === 0 ? 0 : round(sorted[Math.min(this.count - 1, Math.ceil(q * this.count) - 1)]));
    return { p50: at(0.5), p99: at(0.99), max: at(1) };
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

export interface HttpLoad {
  url: string;
  connections: number;
  durationS: number;
  headers?: Record<string, string>;
  /** Sent in turn by every connection, over and over. */
  requests: autocannon.Request[];
}

/** Drives an HTTP server with autocannon: `connections` clients, each one request at a time. */
export async function driveHttp(load: HttpLoad): Promise<Measurement> {
  const latencies = new Latencies();
  let non2xx = 0;
  const started = process.hrtime.bigint();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: load.url,
        connections: load.connections,
        duration: load.durationS,
        headers: load.headers,
        requests: load.requests,
        timeout: 10,
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status >= 200 && status < 300) latencies.add(ms);
      else non2xx++;
    });
  });
  const durationS = Number(process.hrtime.bigint() - started) / 1e9;
  const requests = latencies.size + non2xx;
  return {
    connections: load.connections,
    durationS: round(durationS),
    requests,
    rps: round(requests / durationS),
    ...latencies.summary(),
    non2xx,
    errors: result.errors + result.timeouts,
  };
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
    durationS: round(measuredS),
    requests: latencies.size,
    rps: round(latencies.size / measuredS),
    ...latencies.summary(),
    non2xx: 0,
    errors,
  };
}
