import fc, { Arbitrary } from 'fast-check';
import {
  addApplicantRequest,
  getApplicantIncludingRequest,
  getApplicantRequest,
  getApplicationRequest,
  listApplicationsRequest,
  listAuditEventsRequest,
  removeApplicantRequest,
  updateApplicantRequest,
  updateApplicationRequest,
} from './support/fuzz-application-requests';
import { Answer, checkAnswerShape, describeRequest } from './support/fuzz-answers';
import { FuzzRequest } from './support/fuzz-request-parts';
import { api, Api } from './support/http';
import { KEYS, Stack } from '../tools/stack';

const REQUESTS_PER_ENDPOINT = 5000;
/** Requests in flight at once: enough to keep the stack busy, few enough for 2 shared cores. */
const CONCURRENCY = 8;
const TIME_LIMIT_MS = 300_000;

/** The wrapper keys of each route's success. */
const SUCCESS_KEYS: Array<[RegExp, string]> = [
  [/^GET \/api\/v2\/applications(\?|$)/, 'applications,next_cursor'],
  [/^GET \/api\/v2\/applications\/[^/?]+\/applicants\//, 'applicant'],
  [/^GET \/api\/v2\/applications\//, 'application'],
  [/^POST \/api\/v2\/applications\/[^/?]+\/applicants/, 'applicant'],
  [/^(PATCH|DELETE) \/api\/v2\/applications\/[^/?]+\/applicants\//, 'applicant'],
  [/^GET \/api\/v2\/audit_events(\?|$)/, 'audit_events,next_cursor'],
  [/^PATCH \/api\/v2\/applications\//, 'application'],
];
/** The one request whose success may carry an applicant's dob and id_number: asked, by a key with the scope. */
const SENSITIVE_READ = /^GET \/api\/v2\/applications\/[^/?]+\/applicants\/[^/?]+\?include=sensitive_data$/;

/** No 5xx; an error in the documented body; a success in the route's wrapper, with no SSN or date of birth. */
function check(request: FuzzRequest, answer: Answer): void {
  const { body, fail } = checkAnswerShape(request, answer);
  if (answer.status >= 400) return;
  const route = `${request.method} ${request.path}`;
  const expected = SUCCESS_KEYS.find(([pattern]) => pattern.test(route))?.[1];
  if (expected === undefined || Object.keys(body ?? {}).join() !== expected) fail(`a success without {${expected}}`);
  if (!SENSITIVE_READ.test(route) && /"(id_number|dob)"/.test(answer.text)) fail('an applicant’s id_number or dob in an answer');
  if (SENSITIVE_READ.test(route) && answer.cacheControl !== 'no-store') fail('sensitive data without Cache-Control: no-store');
}

describe('fuzzing the application routes of the running stack', () => {
  let stack: Stack;
  let client: Api;
  const sent = new Map<string, number>();
  /** Per endpoint, the answers in 2xx. */
  const succeeded = new Map<string, number>();
  const applicationIds: number[] = [];
  const applicantIds: number[] = [];
  const cursors: string[] = [];
  const auditCursors: string[] = [];
  const floorPlanIds: number[] = [];
  const tags: string[] = [];
  let propertyIds: number[] = [];
  let coApplicantsAdded = 0;
  let applicantsRemoved = 0;
  let patched = 0;
  let applicantsBefore = 0;

  const send = async (request: FuzzRequest): Promise<Answer> => {
    const resource = request.path.startsWith('/api/v2/audit_events')
      ? 'audit_events'
      : request.path.includes('/applicants')
        ? 'applicants'
        : 'applications';
    const endpoint = `${request.method} ${resource}`;
    sent.set(endpoint, (sent.get(endpoint) ?? 0) + 1);
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
      cacheControl: response.headers.get('cache-control'),
      text: await response.text(),
    };
    if (answer.status >= 200 && answer.status < 300) succeeded.set(endpoint, (succeeded.get(endpoint) ?? 0) + 1);
    if (answer.status === 201 && request.method === 'POST') coApplicantsAdded++;
    if (answer.status === 200 && request.method === 'DELETE') applicantsRemoved++;
    if (answer.status === 200 && request.method === 'PATCH') patched++;
    return answer;
  };

  const fuzz = async (requests: Arbitrary<FuzzRequest>, seed: number) => {
    const batch = fc.array(requests, { minLength: CONCURRENCY, maxLength: CONCURRENCY });
    await fc.assert(
      fc.asyncProperty(batch, async (requestsSent) => {
        const answers = await Promise.all(requestsSent.map(send));
        requestsSent.forEach((request, i) => check(request, answers[i]));
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
    stack = await Stack.start({
      env: {
        RPC_TIMEOUT_MS: '30000',
        PROPERTY_LOOKUP_TIMEOUT_MS: '25000',
        API_KEY_SCOPES: `${KEYS.clientOne}:sensitive_data`,
      },
    });
    client = api(stack.url);
    const applicant = { first_name: 'Fuzz', last_name: 'Target', email: 'fuzz@example.com', id_number: '123456789' };
    for (const key of [KEYS.clientOne, KEYS.clientOne, KEYS.clientTwo]) {
      const created = (await client.post('/api/v2/properties', { property: { name: 'Fuzzed' } }, { key })).body.property;
      const property = created.id;
      propertyIds.push(property);
      floorPlanIds.push(created.floor_plans[0].id);
      for (let i = 0; i < 2; i++) {
        const application = (
          await client.post('/api/v2/applications', { application: { property_id: property, applicant } }, { key })
        ).body.application;
        applicationIds.push(application.id);
        tags.push((await client.get(`/api/v2/applications/${application.id}`, { key })).headers.get('etag')!);
        applicantIds.push(application.applicants[0].id);
        applicantsBefore++;
      }
    }
    propertyIds = [...propertyIds, propertyIds[2] + 1000];
    for (const query of ['limit=1', `property_id=${propertyIds[0]}&limit=1`, 'limit=2']) {
      cursors.push((await client.get(`/api/v2/applications?${query}`)).body.next_cursor);
    }
    // Reads of client one's sensitive data, so that audit event lists have pages.
    for (const id of applicantIds.slice(0, 2)) {
      for (let i = 0; i < 2; i++)
        await client.get(`/api/v2/applications/${applicationIds[0]}/applicants/${id}?include=sensitive_data`);
    }
    for (const query of ['limit=1', `applicant_id=${applicantIds[0]}&limit=1`]) {
      auditCursors.push((await client.get(`/api/v2/audit_events?${query}`)).body.next_cursor);
    }
  });

  afterAll(() => stack?.stop());

  it(
    `GET /api/v2/applications: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every answer as documented`,
    async () => {
      await fuzz(listApplicationsRequest(propertyIds, cursors), 5101);
      expect(sent.get('GET applications')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it(
    `GET /api/v2/applications/:id: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every answer as documented`,
    async () => {
      const before = sent.get('GET applications')!;
      await fuzz(getApplicationRequest(applicationIds), 5102);
      expect(sent.get('GET applications')! - before).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it(
    `POST /api/v2/applications/:aid/applicants: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every answer as documented`,
    async () => {
      await fuzz(addApplicantRequest(applicationIds), 5103);
      expect(sent.get('POST applicants')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
      expect(coApplicantsAdded).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it(
    `GET /api/v2/applications/:aid/applicants/:id: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every answer as documented`,
    async () => {
      await fuzz(getApplicantRequest(applicationIds, applicantIds), 5104);
      expect(sent.get('GET applicants')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
    },
    TIME_LIMIT_MS + 30_000,
  );

  /**
   * One more endpoint fuzzed: `counter` counts its requests (which may share it with another
   * endpoint's) and its successes, of which there must be some, so the generator reaches past
   * validation. `requests` is made when the test runs, from what earlier tests left.
   */
  const fuzzEndpoint = (title: string, counter: string, requests: () => Promise<Arbitrary<FuzzRequest>>, seed: number) =>
    it(
      `${title}: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every answer as documented, some successes`,
      async () => {
        const [before, succeededBefore] = [sent.get(counter) ?? 0, succeeded.get(counter) ?? 0];
        await fuzz(await requests(), seed);
        expect(sent.get(counter)! - before).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
        expect((succeeded.get(counter) ?? 0) - succeededBefore).toBeGreaterThan(0);
      },
      TIME_LIMIT_MS + 30_000,
    );

  fuzzEndpoint(
    'GET /api/v2/applications/:aid/applicants/:id?include=',
    'GET applicants',
    async () => getApplicantIncludingRequest(applicationIds, applicantIds),
    5105,
  );
  fuzzEndpoint(
    'GET /api/v2/audit_events',
    'GET audit_events',
    async () => listAuditEventsRequest(applicantIds, auditCursors),
    5106,
  );
  fuzzEndpoint(
    'PATCH /api/v2/applications/:aid/applicants/:id',
    'PATCH applicants',
    async () => updateApplicantRequest(applicationIds, applicantIds),
    5107,
  );
  // The co-applicants the POSTs added, as well as the primary applicants.
  fuzzEndpoint(
    'DELETE /api/v2/applications/:aid/applicants/:id',
    'DELETE applicants',
    async () => {
      const listed = await Promise.all(
        applicationIds
          .slice(0, 4)
          .map(async (id) => (await client.get(`/api/v2/applications/${id}`)).body.application.applicants),
      );
      return removeApplicantRequest(applicationIds, [
        ...new Set([...applicantIds, ...listed.flat().map((a: { id: number }) => a.id)]),
      ]);
    },
    5108,
  );

  it(
    `PATCH /api/v2/applications/:id: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every answer as documented`,
    async () => {
      await fuzz(updateApplicationRequest(applicationIds, floorPlanIds, tags), 5109);
      expect(sent.get('PATCH applications')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
      expect(patched).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it('leaves every process alive, exactly the co-applicants that were answered 201 added and 200 removed, nothing unexpected logged', async () => {
    for (const { app, child } of stack.processes) {
      expect({ app, exitCode: child.exitCode, signal: child.signalCode }).toEqual({ app, exitCode: null, signal: null });
    }
    let applicants = 0;
    for (const id of applicationIds) {
      const key = applicationIds.indexOf(id) >= 4 ? KEYS.clientTwo : KEYS.clientOne;
      applicants += (await client.get(`/api/v2/applications/${id}`, { key })).body.application.applicants.length;
    }
    expect(applicants).toBe(applicantsBefore + coApplicantsAdded - applicantsRemoved);

    const errors = stack.logLines().filter((line) => /\bERROR\b/.test(line));
    expect(errors).toEqual([]);
  });
});
