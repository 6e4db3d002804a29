import { randomUUID } from 'node:crypto';
import { api, Api } from './support/http';
import { freePort, KEYS, LogRecord, RunningProcess, Stack } from '../tools/stack';
import { eventually } from './support/wait';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The lines `process` logged for one request. */
function linesOf(process: RunningProcess, requestId: string): LogRecord[] {
  return process.logs.filter((record) => record.request_id === requestId);
}

function awaitLine(process: RunningProcess, requestId: string, expected: Record<string, unknown>): Promise<LogRecord> {
  return eventually(`${process.app} to log ${JSON.stringify(expected)} for ${requestId}`, () =>
    linesOf(process, requestId).find((record) => Object.entries(expected).every(([key, value]) => record[key] === value)),
  );
}

/**
 * JSON logs of the three processes, at the most verbose level so that anything that could leak
 * would: one line per request and per handled message, joined by one request id.
 */
describe('logs of the running stack', () => {
  let stack: Stack;
  let client: Api;
  let propertyId: number;

  beforeAll(async () => {
    stack = await Stack.start({ env: { LOG_LEVEL: 'trace' } });
    client = api(stack.url);
    propertyId = (await client.post('/api/v2/properties', { property: { name: 'Logged Court' } })).body.property.id;
  });

  afterAll(() => stack?.stop());

  it('finds one request id in the lines of the gateway, the applications service and its properties lookup', async () => {
    const requestId = `e2e-${randomUUID()}`;
    const answer = await client.post(
      '/api/v2/applications',
      {
        application: { property_id: propertyId, applicant: { first_name: 'Ida', last_name: 'Tracer', email: 'ida@example.com' } },
      },
      { headers: { 'x-request-id': requestId } },
    );

    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-request-id')).toBe(requestId);
    const gateway = await awaitLine(stack.process('gateway'), requestId, { msg: 'request completed' });
    expect(gateway).toMatchObject({
      level: 'info',
      service: 'gateway',
      method: 'POST',
      route: '/api/v2/applications',
      status_code: 201,
      duration_ms: expect.any(Number),
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const applications = await awaitLine(stack.process('applications'), requestId, { msg: 'message handled' });
    expect(applications).toMatchObject({ service: 'applications', pattern: 'applications.create', outcome: 'ok' });
    const lookup = await awaitLine(stack.process('properties'), requestId, { msg: 'message handled' });
    expect(lookup).toMatchObject({ service: 'properties', pattern: 'properties.lookup', outcome: 'ok' });
  });

  it('logs one line per request and per message, with the outcome of a refused one', async () => {
    const requestId = `e2e-${randomUUID()}`;
    const answer = await client.get('/api/v2/properties/987654', { headers: { 'x-request-id': requestId } });
    expect(answer.status).toBe(404);

    const gateway = await awaitLine(stack.process('gateway'), requestId, { msg: 'request completed' });
    expect(gateway).toMatchObject({ status_code: 404, route: '/api/v2/properties/:id' });
    const handled = await awaitLine(stack.process('properties'), requestId, { msg: 'message handled' });
    expect(handled).toMatchObject({ pattern: 'properties.get', outcome: 'PROPERTY_NOT_FOUND' });
    // A later request's line proves these were all the lines of this one.
    await client.get('/', { headers: { 'x-request-id': `${requestId}-next` } });
    await awaitLine(stack.process('gateway'), `${requestId}-next`, { msg: 'request completed' });
    expect(linesOf(stack.process('gateway'), requestId).filter((r) => r.msg === 'request completed')).toHaveLength(1);
    expect(linesOf(stack.process('properties'), requestId).filter((r) => r.msg === 'message handled')).toHaveLength(1);
  });

  it.each([
    ['no X-Request-Id', {}],
    ['an X-Request-Id with spaces', { 'x-request-id': 'not a good id' }],
    ['an X-Request-Id of 129 characters', { 'x-request-id': 'a'.repeat(129) }],
  ])('makes up a request id for a request with %s, returns it and logs it', async (_case, headers: Record<string, string>) => {
    const answer = await client.get('/api/v2/properties/1', { headers });

    const requestId = answer.headers.get('x-request-id');
    expect(requestId).toMatch(UUID);
    await awaitLine(stack.process('gateway'), requestId!, { msg: 'request completed', status_code: answer.status });
  });

  it('returns the request id on refusals made before any route runs', async () => {
    for (const answer of [
      await client.get('/no/such/route', { headers: { 'x-request-id': 'refused-404' } }),
      await client.post('/api/v2/properties', undefined, {
        raw: 'x',
        headers: { 'content-type': 'text/plain', 'x-request-id': 'refused-415' },
      }),
      await client.get('/api/v2/properties/1', { key: null, headers: { 'x-request-id': 'refused-401' } }),
    ]) {
      expect(answer.headers.get('x-request-id')).toBe(`refused-${answer.status}`);
    }
  });

  it('never logs an applicant’s personal data or an API key, in any of the processes', async () => {
    const secrets = {
      id_number: '219-09-9999',
      dob: '1961-04-12',
      email: 'grace.secret@example.com',
      phone: '5550199876',
      first_name: 'Gracielle',
      last_name: 'Hopperstein',
      custom_data: { favourite: 'mauve-ocelot' },
    };
    const extraKey = 'x-api-key-value-never-logged';
    const refused = await client.post(
      '/api/v2/applications',
      { application: { property_id: propertyId, applicant: { ...secrets, email: 'not-an-email mauve-ocelot' } } },
      { headers: { 'x-api-key': extraKey, 'x-request-id': 'secrets-refused' } },
    );
    const created = await client.post(
      '/api/v2/applications',
      { application: { property_id: propertyId, applicant: secrets } },
      { headers: { 'x-api-key': extraKey, 'x-request-id': 'secrets-created' } },
    );
    expect(refused.status).toBe(422);
    expect(created.status).toBe(201);
    await awaitLine(stack.process('gateway'), 'secrets-created', { msg: 'request completed' });
    await awaitLine(stack.process('applications'), 'secrets-created', { msg: 'message handled' });

    const everything = stack.processes.flatMap((p) => p.output).join('');
    expect(everything).toContain('secrets-created');
    for (const secret of [
      '219-09-9999',
      '219099999',
      '1961-04-12',
      'grace.secret@example.com',
      '5550199876',
      'Gracielle',
      'Hopperstein',
      'mauve-ocelot',
      KEYS.clientOne,
      extraKey,
    ]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('logs at LOG_LEVEL: probes are logged at debug, so an info gateway leaves them out', async () => {
    const quiet = await stack.startApp('gateway', { PORT: String(await freePort()), LOG_LEVEL: 'info' });
    const verbose = stack.processes.find((p) => p.app === 'gateway' && p !== quiet)!;
    for (const gateway of [quiet, verbose]) {
      await fetch(`${gateway.operationsUrl}/health/live`, { headers: { 'x-request-id': `probe-${gateway.child.pid}` } });
      await fetch(`${gateway.httpUrl}/api/v2/properties/1`, { headers: { 'x-request-id': `after-${gateway.child.pid}` } });
      await awaitLine(gateway, `after-${gateway.child.pid}`, { msg: 'request completed', level: 'info' });
    }

    // Each process wrote the probe's line, if at all, before the line of the request after it.
    expect(linesOf(verbose, `probe-${verbose.child.pid}`)).toEqual([
      expect.objectContaining({ level: 'debug', msg: 'request completed', route: '/health/live' }),
    ]);
    expect(linesOf(quiet, `probe-${quiet.child.pid}`)).toEqual([]);
    expect(quiet.logs.filter((r) => r.level === 'debug' || r.level === 'trace')).toEqual([]);
  });
});
