import fc, { Arbitrary } from 'fast-check';
import { Answer, checkAnswerShape, describeRequest } from './support/fuzz-answers';
import { FuzzRequest } from './support/fuzz-request-parts';
import {
  createApplicationRequest,
  createFloorPlanRequest,
  createPropertyRequest,
  deletePropertyRequest,
  getPropertyRequest,
  listPropertiesRequest,
  updateFloorPlanRequest,
  updatePropertyRequest,
} from './support/fuzz-requests';
import { api, Api } from './support/http';
import { KEYS, Stack } from '../tools/stack';

const REQUESTS_PER_ENDPOINT = 5000;
/** Requests in flight at once: enough to keep the stack busy, few enough for 2 shared cores. */
const CONCURRENCY = 8;
const TIME_LIMIT_MS = 240_000;

/** What the fuzzing did, to compare with what the stack stored afterwards. */
const tally = {
  sent: new Map<string, number>(),
  propertiesCreated: 0,
  applicationsCreated: 0,
  propertiesDeleted: new Set<number>(),
};

/**
 * Whatever the request, the answer is no 5xx and, if an error, the documented body; a success
 * has the documented wrapper.
 */
function check(request: FuzzRequest, answer: Answer): void {
  const { body, fail } = checkAnswerShape(request, answer);
  if (answer.status >= 400) return;
  if (endpointOf(request).endsWith('(list)')) {
    if (Object.keys(body ?? {}).join() !== 'properties,next_cursor' || !Array.isArray(body.properties)) {
      fail('a list without {"properties": [...], "next_cursor": ...}');
    }
    return;
  }
  const expected = request.path.startsWith('/api/v2/applications')
    ? 'application'
    : request.path.includes('/floor_plans')
      ? 'floor_plan'
      : 'property';
  if (Object.keys(body ?? {}).join() !== expected || typeof body[expected]?.id !== 'number')
    fail(`a success without {"${expected}": ...}`);
  if (expected === 'application' && /"(id_number|dob)"/.test(answer.text)) fail('an applicant’s id_number or dob in an answer');
}

/** `POST /api/v2/properties`, `GET /api/v2/properties (list)`, `PATCH /api/v2/properties/:pid/floor_plans`, ... */
function endpointOf(request: FuzzRequest): string {
  const segments = request.path.split('?')[0].split('/');
  const base = `${request.method} ${segments.slice(0, 4).join('/')}`;
  if (segments[5] === 'floor_plans') return `${base}/:pid/floor_plans`;
  return request.method === 'GET' && segments.length === 4 ? `${base} (list)` : base;
}

describe('fuzzing every endpoint of the running stack', () => {
  let stack: Stack;
  let client: Api;
  const ownProperties: number[] = [];
  let foreignProperty: number;

  const send = async (request: FuzzRequest): Promise<Answer> => {
    const endpoint = endpointOf(request);
    tally.sent.set(endpoint, (tally.sent.get(endpoint) ?? 0) + 1);
    const response = await fetch(`${stack.url}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    }).catch((error: unknown) => {
      throw new Error(`no answer (${String(error)}) to ${describeRequest(request)}`);
    });
    const answer = {
      status: response.status,
      contentType: response.headers.get('content-type'),
      nosniff: response.headers.get('x-content-type-options'),
      text: await response.text(),
    };
    if (answer.status === 201 && request.path === '/api/v2/properties') tally.propertiesCreated++;
    if (answer.status === 201 && request.path === '/api/v2/applications') tally.applicationsCreated++;
    // Two DELETEs of one property at once may both answer 200 on FerretDB, whose findAndModify
    // is not atomic; what counts here is which properties were deleted.
    if (answer.status === 200 && request.method === 'DELETE') tally.propertiesDeleted.add(JSON.parse(answer.text).property.id);
    return answer;
  };

  /** Sends REQUESTS_PER_ENDPOINT generated requests, CONCURRENCY at a time, checking each answer. */
  const fuzz = async (requests: Arbitrary<FuzzRequest>, seed: number) => {
    const batch = fc.array(requests, { minLength: CONCURRENCY, maxLength: CONCURRENCY });
    await fc.assert(
      fc.asyncProperty(batch, async (sent) => {
        const answers = await Promise.all(sent.map(send));
        sent.forEach((request, i) => check(request, answers[i]));
      }),
      {
        numRuns: REQUESTS_PER_ENDPOINT / CONCURRENCY,
        seed,
        interruptAfterTimeLimit: TIME_LIMIT_MS,
        markInterruptAsFailure: true,
      },
    );
  };

  beforeAll(async () => {
    // Deadlines generous enough that a loaded machine answers late rather than 503.
    stack = await Stack.start({ env: { RPC_TIMEOUT_MS: '30000', PROPERTY_LOOKUP_TIMEOUT_MS: '25000' } });
    client = api(stack.url);
    for (const name of ['Fuzz One', 'Fuzz Two', 'Fuzz Three']) {
      ownProperties.push((await client.post('/api/v2/properties', { property: { name } })).body.property.id);
    }
    foreignProperty = (await client.post('/api/v2/properties', { property: { name: 'Theirs' } }, { key: KEYS.clientTwo })).body
      .property.id;
  });

  afterAll(() => stack?.stop());

  // A fixed seed per endpoint makes a failure reproducible; fast-check prints it with the case.
  it(
    `POST /api/v2/properties: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every error in the documented body`,
    async () => {
      await fuzz(createPropertyRequest(), 4101);
      expect(tally.sent.get('POST /api/v2/properties')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
      expect(tally.propertiesCreated).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it(
    `POST /api/v2/applications: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every error in the documented body`,
    async () => {
      await fuzz(createApplicationRequest([...ownProperties, foreignProperty]), 4102);
      expect(tally.sent.get('POST /api/v2/applications')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
      expect(tally.applicationsCreated).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it(
    `GET /api/v2/properties/:id: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every error in the documented body`,
    async () => {
      await fuzz(getPropertyRequest([...ownProperties, foreignProperty]), 4103);
      expect(tally.sent.get('GET /api/v2/properties')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it(
    `GET /api/v2/properties: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every error in the documented body`,
    async () => {
      await fuzz(listPropertiesRequest(), 4105);
      expect(tally.sent.get('GET /api/v2/properties (list)')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it(
    `PATCH /api/v2/properties/:id: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every error in the documented body`,
    async () => {
      await fuzz(updatePropertyRequest([...ownProperties, foreignProperty]), 4106);
      expect(tally.sent.get('PATCH /api/v2/properties')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it(
    `POST /api/v2/properties/:pid/floor_plans: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every error in the documented body`,
    async () => {
      await fuzz(createFloorPlanRequest([...ownProperties, foreignProperty]), 4107);
      expect(tally.sent.get('POST /api/v2/properties/:pid/floor_plans')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it(
    `PATCH /api/v2/properties/:pid/floor_plans/:id: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every error in the documented body`,
    async () => {
      const plans = await Promise.all(
        [...ownProperties, foreignProperty].map(async (id) => {
          const key = id === foreignProperty ? KEYS.clientTwo : undefined;
          return ((await client.get(`/api/v2/properties/${id}`, { key })).body.property.floor_plans as { id: number }[]).map(
            (p) => p.id,
          );
        }),
      );
      await fuzz(updateFloorPlanRequest([...ownProperties, foreignProperty], plans.flat().slice(0, 20)), 4108);
      expect(tally.sent.get('PATCH /api/v2/properties/:pid/floor_plans')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it(
    `DELETE /api/v2/properties/:id: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every error in the documented body`,
    async () => {
      await fuzz(deletePropertyRequest([...ownProperties, foreignProperty, ownProperties[2] + 1, ownProperties[2] + 2]), 4104);
      expect(tally.sent.get('DELETE /api/v2/properties')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
      expect(tally.propertiesDeleted.size).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it('leaves every process alive, nothing created or deleted by a refused request, and nothing unexpected logged', async () => {
    for (const { app, child } of stack.processes) {
      expect({ app, exitCode: child.exitCode, signal: child.signalCode }).toEqual({ app, exitCode: null, signal: null });
    }

    const properties = await stack.database('properties');
    const applications = await stack.database('applications');
    try {
      const setUp = ownProperties.length + 1;
      expect(await properties.collection('properties').countDocuments()).toBe(setUp + tally.propertiesCreated);
      const deleted = await properties
        .collection('properties')
        .find({ deleted_at: { $ne: null } })
        .toArray();
      expect(deleted.map((p) => p.id).sort((a, b) => a - b)).toEqual([...tally.propertiesDeleted].sort((a, b) => a - b));
      expect(await applications.collection('applications').countDocuments()).toBe(tally.applicationsCreated);
    } finally {
      await properties.close();
      await applications.close();
    }

    // Still serving, end to end.
    const property = await client.post('/api/v2/properties', { property: { name: 'After the storm' } });
    expect(property.status).toBe(201);
    const application = await client.post('/api/v2/applications', {
      application: {
        property_id: property.body.property.id,
        applicant: { first_name: 'Still', last_name: 'Here', email: 'still@example.com' },
      },
    });
    expect(application.status).toBe(201);

    // An unexpected exception is logged at ERROR level; a refused request never is.
    const errors = stack.logLines().filter((line) => /\bERROR\b/.test(line));
    expect(errors).toEqual([]);
  });
});
