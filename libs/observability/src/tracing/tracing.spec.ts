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
  const child = spawnSync(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', '-e', script],
    { encoding: 'utf8' },
  );
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
      expect.arrayContaining(['sdk-node', 'context-async-hooks', 'instrumentation-http', 'instrumentation-ioredis']),
    );
  }, 60_000);

  it("opens served requests' spans, sampled as OTEL_TRACES_SAMPLER says: a request sampled has a span that records, one not has none", () => {
    const script = `
      const { startTracing } = require(${JSON.stringify(join(__dirname, 'tracing'))});
      startTracing('gateway');
      const { trace } = require('@opentelemetry/api');
      const { openServerSpan, withinRequestTrace } = require(${JSON.stringify(join(__dirname, 'server-span'))});
      const server = require('fastify')();
      server.addHook('onRequest', (request, reply, done) => openServerSpan(request.raw, reply.raw, request.method, request.routeOptions.url, done));
      server.get('/api/v2/properties', async (request) => withinRequestTrace(request.raw, () => {
        const span = trace.getActiveSpan();
        return span === undefined ? 'none' : span.isRecording() ? 'recording' : 'not recording';
      }));
      server.listen({ port: 0, host: '127.0.0.1' }).then(async (url) => {
        const seen = [];
        for (let i = 0; i < 200; i++) seen.push(await (await fetch(url + '/api/v2/properties')).text());
        process.stdout.write(JSON.stringify(seen));
        process.exit(0);
      });`;
    const child = spawnSync(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', '-e', script],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: '0.5',
        },
      },
    );
    if (child.status !== 0) throw new Error(child.stderr);
    const seen = JSON.parse(child.stdout) as string[];
    const count = (kind: string) => seen.filter((each) => each === kind).length;
    expect(count('not recording')).toBe(0);
    // Each about half of 200; outside 50..150 once in about 10^12 runs.
    expect(count('recording')).toBeGreaterThan(50);
    expect(count('none')).toBeGreaterThan(50);
  }, 60_000);
});
