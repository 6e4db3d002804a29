import { api, Api } from './support/http';
import { Stack } from '../tools/stack';

const CONCURRENT = 200;

function expectDistinct(ids: number[]): void {
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(Number.isSafeInteger(id) && id > 0).toBe(true);
}

describe('ids under concurrent creation, with two instances of each service on one queue', () => {
  let stack: Stack;
  let client: Api;

  beforeAll(async () => {
    // This suite is about ids, not latency: a burst of 200 on a loaded 2-core machine may queue
    // for seconds, so the deadlines are generous.
    stack = await Stack.start({
      instances: { properties: 2, applications: 2 },
      env: { RPC_TIMEOUT_MS: '30000', PROPERTY_LOOKUP_TIMEOUT_MS: '25000' },
    });
    client = api(stack.url);
  });

  afterAll(() => stack?.stop());

  it(`gives ${CONCURRENT} concurrent property creates ${CONCURRENT} distinct ids`, async () => {
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) => client.post('/api/v2/properties', { property: { name: `P${i}` } })),
    );

    expect(answers.map((a) => a.status)).toEqual(Array(CONCURRENT).fill(201));
    const properties = answers.map((a) => a.body.property);
    expectDistinct(properties.map((p) => p.id));
    expectDistinct(properties.map((p) => p.floor_plans[0].id));
    // Every one of them was stored under the id it was given.
    const stored = await Promise.all(properties.map((p) => client.get(`/api/v2/properties/${p.id}`)));
    expect(stored.map((s) => s.body.property.name)).toEqual(properties.map((p) => p.name));
  });

  it(`gives ${CONCURRENT} concurrent applications ${CONCURRENT} distinct ids`, async () => {
    const property = (await client.post('/api/v2/properties', { property: { name: 'Busy' } })).body.property;
    const applicant = { first_name: 'Many', last_name: 'Applicants', email: 'many@example.com' };

    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, () =>
        client.post('/api/v2/applications', { application: { property_id: property.id, applicant } }),
      ),
    );

    expect(answers.map((a) => a.status)).toEqual(Array(CONCURRENT).fill(201));
    expectDistinct(answers.map((a) => a.body.application.id));
    expectDistinct(answers.map((a) => a.body.application.applicants[0].id));
    const db = await stack.database('applications');
    try {
      expect(await db.collection('applications').countDocuments({ property_id: property.id })).toBe(CONCURRENT);
    } finally {
      await db.close();
    }
  });

  it('has both instances of each service consuming the one queue, and keeps serving with one', async () => {
    expect(await stack.consumerCount('properties')).toBe(2);
    expect(await stack.consumerCount('applications')).toBe(2);

    const [first] = stack.processes.filter((p) => p.app === 'properties');
    first.child.kill('SIGTERM');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(await stack.consumerCount('properties')).toBe(1);

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.post('/api/v2/properties', { property: { name: `After ${i}` } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
  });
});
