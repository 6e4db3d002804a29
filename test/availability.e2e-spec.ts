import { api, Api, expectErrorBody } from './support/http';
import { Stack } from '../tools/stack';

const RPC_TIMEOUT_MS = 1500;
const LOOKUP_TIMEOUT_MS = 700;

describe('a service that does not answer', () => {
  let stack: Stack;
  let client: Api;

  beforeAll(async () => {
    stack = await Stack.start({
      env: { RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS), PROPERTY_LOOKUP_TIMEOUT_MS: String(LOOKUP_TIMEOUT_MS) },
    });
    client = api(stack.url);
  });

  afterAll(() => stack?.stop());

  it('gives 503 with Retry-After within the timeout, and nothing is done behind the caller’s back', async () => {
    const existing = (await client.post('/api/v2/properties', { property: { name: 'Before' } })).body.property;
    await stack.stopApp('properties');

    const timed = async (request: () => Promise<any>) => {
      const started = Date.now();
      const answer = await request();
      return { answer, elapsed: Date.now() - started };
    };
    const outcomes = [
      await timed(() => client.get(`/api/v2/properties/${existing.id}`)),
      await timed(() => client.post('/api/v2/properties', { property: { name: 'During the outage' } })),
      await timed(() =>
        client.post('/api/v2/applications', {
          application: {
            property_id: existing.id,
            applicant: { first_name: 'Wait', last_name: 'Ing', email: 'wait@example.com' },
          },
        }),
      ),
    ];
    for (const { answer, elapsed } of outcomes) {
      expect(answer.status).toBe(503);
      expectErrorBody(answer);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(elapsed).toBeLessThan(RPC_TIMEOUT_MS + 1000);
    }

    // The requests expired in the queue: the service that comes back does not create the
    // property the caller was told could not be created. It serves a request sent after them,
    // so it has taken them from the queue by then.
    await stack.startApp('properties');
    const next = (await client.post('/api/v2/properties', { property: { name: 'After' } })).body.property;
    expect(next.id).toBeGreaterThan(existing.id);
    const db = await stack.database('properties');
    try {
      expect(await db.collection('properties').countDocuments({ name: 'During the outage' })).toBe(0);
    } finally {
      await db.close();
    }
    expect((await client.get(`/api/v2/properties/${existing.id}`)).status).toBe(200);
  });

  it('gives 503 when the applications service is down, and serves again once it is back', async () => {
    const property = (await client.post('/api/v2/properties', { property: { name: 'Open' } })).body.property;
    const application = { property_id: property.id, applicant: { first_name: 'A', last_name: 'B', email: 'a@example.com' } };
    await stack.stopApp('applications');

    const down = await client.post('/api/v2/applications', { application });
    expect(down.status).toBe(503);
    expectErrorBody(down);

    await stack.startApp('applications');
    const up = await client.post('/api/v2/applications', { application });
    expect(up.status).toBe(201);
  });
});
