import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The @opentelemetry modules a fresh process holds after calling startTracing with `env`. */
function modulesLoadedWith(env: Record<string, string>): string[] {
  const script = `
    const { startTracing } = require(${JSON.stringify(join(__dirname, 'tracing'))});
    startTracing('properties', ${JSON.stringify(env)});
    const loaded = Object.keys(require.cache).filter((path) => path.includes('@opentelemetry'));
    process.stdout.write(JSON.stringify(loaded.map((path) => path.split('@opentelemetry/')[1].split('/')[0])));
    process.exit(0);`;
  const child = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return [...new Set(JSON.parse(child.stdout) as string[])];
}

describe('startTracing', () => {
  it('loads no SDK and no instrumentation when no OTLP endpoint is set: tracing off costs nothing', () => {
    expect(modulesLoadedWith({})).toEqual(['api']);
  }, 60_000);

  it('starts the Node SDK with its instrumentations once an endpoint is set', () => {
    const loaded = modulesLoadedWith({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(loaded).toEqual(
      expect.arrayContaining(['sdk-node', 'instrumentation-http', 'instrumentation-mongodb', 'instrumentation-ioredis']),
    );
  }, 60_000);

  it('decides on a request before its server span, as the sampler would: a request sampled has a span that records, one not has none', () => {
    // Half of new traces sampled, by trace id: a server span given another trace id than the one
    // decided on would be dropped half the time, and a request taken for sampled have a span
    // that does not record.
    const script = `
      const { startTracing } = require(${JSON.stringify(join(__dirname, 'tracing'))});
      startTracing('gateway');
      const { trace } = require('@opentelemetry/api');
      const http = require('node:http');
      const server = http.createServer((request, response) => {
        const span = trace.getActiveSpan();
        response.end(JSON.stringify(span === undefined ? 'none' : span.isRecording() ? 'recording' : 'not recording'));
      });
      server.listen(0, '127.0.0.1', async () => {
        const seen = [];
        for (let i = 0; i < 200; i++) {
          const answer = await fetch('http://127.0.0.1:' + server.address().port + '/api/v2/properties');
          seen.push(await answer.json());
        }
        process.stdout.write(JSON.stringify(seen));
        process.exit(0);
      });`;
    const child = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
      encoding: 'utf8',
      env: {
        ...process.env,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.5',
      },
    });
    if (child.status !== 0) throw new Error(child.stderr);
    const seen = JSON.parse(child.stdout) as string[];
    const count = (kind: string) => seen.filter((each) => each === kind).length;
    expect(count('not recording')).toBe(0);
    // Each about half of 200; outside 50..150 once in about 10^12 runs.
    expect(count('recording')).toBeGreaterThan(50);
    expect(count('none')).toBeGreaterThan(50);
  }, 60_000);
});
