import fc, { Arbitrary } from 'fast-check';
import {
  addApplicantRequest,
  getApplicantRequest,
  getApplicationRequest,
  listApplicationsRequest,
  updateApplicationRequest,
} from './support/fuzz-application-requests';
import { Answer, checkAnswerShape, describeRequest, FuzzRequest } from './support/fuzz-requests';
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
  [/^PATCH \/api\/v2\/applications\//, 'application'],
];

/** No 5xx; an error in the documented body; a success in the route's wrapper, with no SSN or date of birth. */
function check(request: FuzzRequest, answer: Answer): void {
  const { body, fail } = checkAnswerShape(request, answer);
  if (answer.status >= 400) return;
  const route = `${request.method} ${request.path}`;
  const expected = SUCCESS_KEYS.find(([pattern]) => pattern.test(route))?.[1];
  if (expected === undefined || Object.keys(body ?? {}).join() !== expected) fail(`a success without {${expected}}`);
  if (/"(id_number|dob)"/.test(answer.text)) fail('an applicant’s id_number or dob in an answer');
}

describe('fuzzing the application routes of the running stack', () => {
  let stack: Stack;
  let client: Api;
  const sent = new Map<string, number>();
  const applicationIds: number[] = [];
  const applicantIds: number[] = [];
  const cursors: string[] = [];
  const floorPlanIds: number[] = [];
  const tags: string[] = [];
  let propertyIds: number[] = [];
  let coApplicantsAdded = 0;
  let patched = 0;
  let applicantsBefore = 0;

  const send = async (request: FuzzRequest): Promise<Answer> => {
    const endpoint = request.path.includes('/applicants') ? `${request.method} applicants` : `${request.method} applications`;
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
      text: await response.text(),
    };
    if (answer.status === 201 && request.method === 'POST') coApplicantsAdded++;
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
    stack = await Stack.start({ env: { RPC_TIMEOUT_MS: '30000', PROPERTY_LOOKUP_TIMEOUT_MS: '25000' } });
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

  it(
    `PATCH /api/v2/applications/:id: ${REQUESTS_PER_ENDPOINT} generated requests, no 5xx, every answer as documented`,
    async () => {
      await fuzz(updateApplicationRequest(applicationIds, floorPlanIds, tags), 5105);
      expect(sent.get('PATCH applications')).toBeGreaterThanOrEqual(REQUESTS_PER_ENDPOINT);
      expect(patched).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS + 30_000,
  );

  it('leaves every process alive, exactly the co-applicants that were answered 201 added, nothing unexpected logged', async () => {
    for (const { app, child } of stack.processes) {
      expect({ app, exitCode: child.exitCode, signal: child.signalCode }).toEqual({ app, exitCode: null, signal: null });
    }
    let applicants = 0;
    for (const id of applicationIds) {
      const key = applicationIds.indexOf(id) >= 4 ? KEYS.clientTwo : KEYS.clientOne;
      applicants += (await client.get(`/api/v2/applications/${id}`, { key })).body.application.applicants.length;
    }
    expect(applicants).toBe(applicantsBefore + coApplicantsAdded);

    const errors = stack.logLines().filter((line) => /\bERROR\b/.test(line));
    expect(errors).toEqual([]);
  });
});
