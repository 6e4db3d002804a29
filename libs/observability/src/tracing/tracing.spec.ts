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
    expect(modulesLoadedWith({})).toEqual([]);
  }, 60_000);

  it('starts the Node SDK with its instrumentations once an endpoint is set', () => {
    const loaded = modulesLoadedWith({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(loaded).toEqual(
      expect.arrayContaining([
        'sdk-node',
        'instrumentation-http',
        'instrumentation-mongodb',
        'instrumentation-ioredis',
      ]),
    );
  }, 60_000);
});
