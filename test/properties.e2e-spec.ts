import { api, Api, expectErrorBody } from './support/http';
import { KEYS, Stack } from '../tools/stack';

const PROPERTY_FIELDS = [
  'id',
  'available',
  'kind',
  'name',
  'street',
  'city',
  'state',
  'zip',
  'manager_name',
  'manager_email',
  'manager_phone',
  'invitation_only',
  'invitation_only_message',
  'application_url',
  'form_preset_id',
  'background_config_id',
  'floor_plans',
];
const FLOOR_PLAN_FIELDS = ['id', 'property_id', 'name', 'beds', 'baths', 'deposit', 'rent'];

describe('properties over HTTP, RabbitMQ and the database', () => {
  let stack: Stack;
  let client: Api;

  beforeAll(async () => {
    // Client 2 has its own form defaults; everyone else gets the configured fallback. Both name
    // shipped presets: a default must name a preset the client has.
    stack = await Stack.start({
      env: { DEFAULT_FORM_PRESET_ID: '2', DEFAULT_BACKGROUND_CONFIG_ID: '5', CLIENT_DEFAULTS: '2:1:8' },
    });
    client = api(stack.url);
  });

  afterAll(() => stack?.stop());

  const create = (property: Record<string, unknown>, key?: string) => client.post('/api/v2/properties', { property }, { key });

  it('creates a property with the documented defaults and one default floor plan', async () => {
    const answer = await create({ name: 'Maple Court' });

    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body)).toEqual(['property']);
    const property = answer.body.property;
    expect(Object.keys(property)).toEqual(PROPERTY_FIELDS);
    expect(property).toEqual({
      id: property.id,
      available: true,
      kind: 'multi_family',
      name: 'Maple Court',
      street: '',
      city: '',
      state: '',
      zip: '',
      manager_name: '',
      manager_email: '',
      manager_phone: '',
      invitation_only: false,
      invitation_only_message: '',
      application_url: `${stack.applyBaseUrl}/properties/${property.id}/apply`,
      form_preset_id: 2,
      background_config_id: 5,
      floor_plans: [
        {
          id: property.floor_plans[0].id,
          property_id: property.id,
          name: 'Maple Court',
          beds: null,
          baths: null,
          deposit: null,
          rent: null,
        },
      ],
    });
    expect(Number.isSafeInteger(property.id) && property.id > 0).toBe(true);
    expect(Object.keys(property.floor_plans[0])).toEqual(FLOOR_PLAN_FIELDS);
    expect(Number.isSafeInteger(property.floor_plans[0].id) && property.floor_plans[0].id > 0).toBe(true);
  });

  it('keeps every given field, trimmed, and uses the client’s own form defaults', async () => {
    const answer = await create(
      {
        name: '  Oak Terrace ',
        available: false,
        kind: 'single_family',
        street: ' 12 Oak St ',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        manager_name: ' Oak Lettings ',
        manager_email: 'office@oak.example',
        manager_phone: '+1 (217) 555-0134',
        invitation_only: true,
        invitation_only_message: 'Ask the office for an invitation.',
      },
      KEYS.clientTwo,
    );

    expect(answer.status).toBe(201);
    expect(answer.body.property).toMatchObject({
      available: false,
      kind: 'single_family',
      name: 'Oak Terrace',
      street: '12 Oak St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      manager_name: 'Oak Lettings',
      manager_email: 'office@oak.example',
      manager_phone: '12175550134',
      invitation_only: true,
      invitation_only_message: 'Ask the office for an invitation.',
      form_preset_id: 1,
      background_config_id: 8,
    });
    expect(answer.body.property.floor_plans[0].name).toBe('Oak Terrace');
  });

  it('accepts null for the optional strings and answers with ""', async () => {
    const answer = await create({ name: 'Null Street', street: null, invitation_only_message: null, kind: 'generic' });
    expect(answer.status).toBe(201);
    expect(answer.body.property).toMatchObject({ street: '', invitation_only_message: '', kind: 'generic' });
  });

  it('gives increasing ids that are never reused, not even after a delete', async () => {
    const first = (await create({ name: 'First' })).body.property;
    await client.delete(`/api/v2/properties/${first.id}`);
    const second = (await create({ name: 'Second' })).body.property;

    expect(second.id).toBeGreaterThan(first.id);
    expect(second.floor_plans[0].id).toBeGreaterThan(first.floor_plans[0].id);
  });

  it('gets a property exactly as it was created', async () => {
    const created = (await create({ name: 'Birch House', city: 'Salem' })).body.property;

    const answer = await client.get(`/api/v2/properties/${created.id}`);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ property: created });
    expect(Object.keys(answer.body.property)).toEqual(PROPERTY_FIELDS);
  });

  it('deletes a property, answering with the representation it had, and then forgets it', async () => {
    const created = (await create({ name: 'Cedar Flats' })).body.property;

    const deleted = await client.delete(`/api/v2/properties/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ property: created });

    for (const again of [
      await client.get(`/api/v2/properties/${created.id}`),
      await client.delete(`/api/v2/properties/${created.id}`),
    ]) {
      expect(again.status).toBe(404);
      expectErrorBody(again);
      expect(again.body.error).toEqual({ message: `property ${created.id} cannot be found`, details: null });
    }
  });

  it('answers exactly one of many concurrent deletes of a property with 200', async () => {
    for (let round = 0; round < 10; round++) {
      const doomed = (await create({ name: `Contested ${round}` })).body.property;
      const answers = await Promise.all(Array.from({ length: 20 }, () => client.delete(`/api/v2/properties/${doomed.id}`)));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([200, ...Array(19).fill(404)]);
      expect((await client.get(`/api/v2/properties/${doomed.id}`)).status).toBe(404);
    }
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999999999999', '999999999'])(
    'answers 404 with the documented message for property id %s',
    async (id) => {
      for (const answer of [await client.get(`/api/v2/properties/${id}`), await client.delete(`/api/v2/properties/${id}`)]) {
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ error: { message: `property ${id} cannot be found`, details: null } });
      }
    },
  );

  it('shows a client only its own properties', async () => {
    const mine = (await create({ name: 'Private Place' })).body.property;

    const seen = await client.get(`/api/v2/properties/${mine.id}`, { key: KEYS.clientTwo });
    const deleted = await client.delete(`/api/v2/properties/${mine.id}`, { key: KEYS.clientTwo });

    expect(seen.status).toBe(404);
    expect(seen.body.error.message).toBe(`property ${mine.id} cannot be found`);
    expect(deleted.status).toBe(404);
    expect((await client.get(`/api/v2/properties/${mine.id}`)).status).toBe(200);
  });

  it('refuses invalid input with 422, the first problem as message and every problem in details', async () => {
    const answer = await create({
      name: '   ',
      kind: 'castle',
      available: 'true',
      invitation_only: 1,
      zip: 'z'.repeat(256),
      manager_email: 'leasing at oak',
      manager_phone: '555-01',
      invitation_only_message: 'm'.repeat(2001),
      color: 'red',
    });

    expect(answer.status).toBe(422);
    expectErrorBody(answer);
    const fields = answer.body.error.details.map((d: { field: string }) => d.field);
    expect(fields.sort()).toEqual(
      [
        'property.name',
        'property.kind',
        'property.available',
        'property.invitation_only',
        'property.zip',
        'property.manager_email',
        'property.manager_phone',
        'property.invitation_only_message',
        'property.color',
      ].sort(),
    );
    for (const detail of answer.body.error.details) {
      expect(Object.keys(detail)).toEqual(['field', 'message']);
      expect(detail.message.length).toBeGreaterThan(0);
    }
    const first = answer.body.error.details[0];
    expect(answer.body.error.message).toBe(`${first.field} ${first.message}`);
  });

  it('accepts the longest allowed strings and refuses one character more', async () => {
    const longest = await create({ name: 'n'.repeat(255), street: 's'.repeat(255), invitation_only_message: 'm'.repeat(2000) });
    const tooLong = await create({ name: 'n'.repeat(256) });

    expect(longest.status).toBe(201);
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.error.details).toEqual([{ field: 'property.name', message: expect.any(String) }]);
  });

  it('refuses a body without property, and unknown top-level fields', async () => {
    const missing = await client.post('/api/v2/properties', {});
    const extra = await client.post('/api/v2/properties', { property: { name: 'X' }, admin: true });
    const notObject = await client.post('/api/v2/properties', { property: 'Maple' });

    expect(missing.status).toBe(422);
    expect(missing.body.error.details).toEqual([{ field: 'property', message: 'is required' }]);
    expect(extra.status).toBe(422);
    expect(extra.body.error.details).toEqual([{ field: 'admin', message: 'is not a known field' }]);
    expect(notObject.status).toBe(422);
    expect(notObject.body.error.details[0].field).toBe('property');
  });

  it('creates nothing when it refuses a request', async () => {
    const before = (await create({ name: 'Before' })).body.property;
    await create({ name: '' });
    await create({ name: 'Fine', kind: 'wrong' });
    const after = (await create({ name: 'After' })).body.property;

    expect(after.id).toBe(before.id + 1);
  });
});
