import { api, Api } from './support/http';
import { scrape, Sample, valueOf } from './support/metrics';
import { AppName, Stack } from '../tools/stack';
import { eventually } from './support/wait';

/** GET /metrics on each app's operations port, moving with the traffic. */
const RPC_TIMEOUT_MS = 1500;

describe('metrics of the running stack', () => {
  let stack: Stack;
  let client: Api;

  const metricsOf = (app: AppName) => scrape(stack.process(app).operationsUrl);

  beforeAll(async () => {
    stack = await Stack.start({ env: { RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS) } });
    client = api(stack.url);
  });

  afterAll(() => stack?.stop());

  it('serves the process defaults and every metric of its own, labelled with the app', async () => {
    for (const app of ['gateway', 'properties', 'applications'] as const) {
      const response = await fetch(`${stack.process(app).operationsUrl}/metrics`);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await response.text();
      for (const name of [
        'http_request_duration_seconds',
        'rpc_duration_seconds',
        'messages_handled_total',
        'messages_dead_lettered_total',
      ]) {
        expect(text).toContain(`# TYPE ${name} `);
      }
      const samples = await metricsOf(app);
      expect(valueOf(samples, 'process_cpu_user_seconds_total', { service: app })).toBeGreaterThan(0);
      expect(valueOf(samples, 'nodejs_heap_size_used_bytes', { service: app })).toBeGreaterThan(0);
    }
  });

  it('counts HTTP requests by route and status, RPCs by pattern and outcome, and handled messages', async () => {
    const before = {
      gateway: await metricsOf('gateway'),
      properties: await metricsOf('properties'),
      applications: await metricsOf('applications'),
    };
    const created = [];
    for (const name of ['One', 'Two', 'Three']) {
      created.push((await client.post('/api/v2/properties', { property: { name } })).body.property);
    }
    expect((await client.get('/api/v2/properties/999999')).status).toBe(404);
    expect((await client.get('/api/v2/properties/abc')).status).toBe(404);
    expect((await client.get('/nowhere')).status).toBe(404);
    const applicant = { first_name: 'Mo', last_name: 'Trics', email: 'mo@example.com' };
    expect((await client.post('/api/v2/applications', { application: { property_id: created[0].id, applicant } })).status).toBe(
      201,
    );

    const delta = (samples: Sample[], old: Sample[], name: string, labels: Record<string, string>) =>
      valueOf(samples, name, labels) - valueOf(old, name, labels);
    const gateway = await metricsOf('gateway');
    const http = 'http_request_duration_seconds_count';
    expect(delta(gateway, before.gateway, http, { method: 'POST', route: '/api/v2/properties', status_code: '201' })).toBe(3);
    expect(delta(gateway, before.gateway, http, { method: 'GET', route: '/api/v2/properties/:id', status_code: '404' })).toBe(2);
    expect(delta(gateway, before.gateway, http, { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(delta(gateway, before.gateway, http, { method: 'POST', route: '/api/v2/applications', status_code: '201' })).toBe(1);
    const rpc = 'rpc_duration_seconds_count';
    expect(delta(gateway, before.gateway, rpc, { pattern: 'properties.create', outcome: 'ok' })).toBe(3);
    // Only one of the two 404s asked the service: "abc" names no property at all.
    expect(delta(gateway, before.gateway, rpc, { pattern: 'properties.get', outcome: 'PROPERTY_NOT_FOUND' })).toBe(1);
    expect(delta(gateway, before.gateway, rpc, { pattern: 'applications.create', outcome: 'ok' })).toBe(1);

    const handled = 'messages_handled_total';
    // A create application looks its property up once: a property's DELETE fences the creates
    // under way instead of a second lookup after the insert.
    await eventually('the properties service to count its messages', async () => {
      const properties = await metricsOf('properties');
      return (
        delta(properties, before.properties, handled, { pattern: 'properties.create', outcome: 'ok' }) === 3 &&
        delta(properties, before.properties, handled, { pattern: 'properties.get', outcome: 'PROPERTY_NOT_FOUND' }) === 1 &&
        delta(properties, before.properties, handled, { pattern: 'properties.lookup', outcome: 'ok' }) === 1
      );
    });
    await eventually('the applications service to count its message and its lookup', async () => {
      const applications = await metricsOf('applications');
      return (
        delta(applications, before.applications, handled, { pattern: 'applications.create', outcome: 'ok' }) === 1 &&
        delta(applications, before.applications, rpc, { pattern: 'properties.lookup', outcome: 'ok' }) === 1
      );
    });
  });

  it('measures an RPC nobody answers as SERVICE_UNAVAILABLE, for as long as the caller waited', async () => {
    const before = await metricsOf('gateway');
    await stack.stopApp('applications');
    const applicant = { first_name: 'No', last_name: 'Body', email: 'nobody@example.com' };
    expect((await client.post('/api/v2/applications', { application: { property_id: 1, applicant } })).status).toBe(503);
    await stack.startApp('applications');

    const after = await metricsOf('gateway');
    const labels = { pattern: 'applications.create', outcome: 'SERVICE_UNAVAILABLE' };
    expect(valueOf(after, 'rpc_duration_seconds_count', labels) - valueOf(before, 'rpc_duration_seconds_count', labels)).toBe(1);
    const waited = valueOf(after, 'rpc_duration_seconds_sum', labels) - valueOf(before, 'rpc_duration_seconds_sum', labels);
    expect(waited).toBeGreaterThanOrEqual((RPC_TIMEOUT_MS - 10) / 1000);
  });
});
