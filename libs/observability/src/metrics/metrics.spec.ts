import { countDeadLettered, metricsRegistry, rpcTimer } from './metrics';

/** A sample's value: `name` is the metric's, or for a histogram its `_count` or `_sum`. */
async function sampleValue(name: string, labels: Record<string, string>): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric(name.replace(/_(count|sum)$/, ''))!.get();
  const sample = metric.values.find(
    (value) =>
      ((value as { metricName?: string }).metricName ?? metric.name) === name &&
      Object.entries(labels).every(([key, expected]) => String(value.labels[key]) === expected),
  );
  return sample?.value ?? 0;
}

describe('countDeadLettered', () => {
  it('counts each dead-lettered message by queue and reason', async () => {
    countDeadLettered('properties', 'rejected');
    countDeadLettered('properties', 'rejected');
    countDeadLettered('applications', 'expired');

    expect(await sampleValue('messages_dead_lettered_total', { queue: 'properties', reason: 'rejected' })).toBe(2);
    expect(await sampleValue('messages_dead_lettered_total', { queue: 'applications', reason: 'expired' })).toBe(1);
  });
});

describe('rpcTimer', () => {
  it('records the time to an answer under outcome ok, and passes the answer on', async () => {
    const timer = rpcTimer('test.answered');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(timer.answered({ id: 1 })).toEqual({ id: 1 });

    expect(await sampleValue('rpc_duration_seconds_count', { pattern: 'test.answered', outcome: 'ok' })).toBe(1);
    expect(await sampleValue('rpc_duration_seconds_sum', { pattern: 'test.answered', outcome: 'ok' })).toBeGreaterThanOrEqual(
      0.015,
    );
  });

  it('records a failure under its error code, and passes the error on', async () => {
    const error = { code: 'PROPERTY_NOT_FOUND' };
    expect(rpcTimer('test.failed').failed(error)).toBe(error);

    expect(await sampleValue('rpc_duration_seconds_count', { pattern: 'test.failed', outcome: 'PROPERTY_NOT_FOUND' })).toBe(1);
    expect(await sampleValue('rpc_duration_seconds_count', { pattern: 'test.failed', outcome: 'ok' })).toBe(0);
  });
});
