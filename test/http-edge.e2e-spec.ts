import { api, Api, expectErrorBody } from './support/http';
import { Stack } from '../tools/stack';

describe('the HTTP edge: authentication, content types, sizes and routes', () => {
  let stack: Stack;
  let client: Api;

  beforeAll(async () => {
    stack = await Stack.start();
    client = api(stack.url);
  });

  afterAll(() => stack?.stop());

  it.each([
    ['no Authorization header', null, {}],
    ['an unknown key', 'not-a-configured-key', {}],
    ['a key that is not a Bearer token', null, { authorization: 'Basic dGVzdC1rZXk=' }],
    ['an empty Bearer token', null, { authorization: 'Bearer ' }],
  ])('answers 401 with the error body for %s', async (_case, key, headers) => {
    for (const answer of [
      await client.get('/api/v2/properties/1', { key, headers }),
      await client.delete('/api/v2/properties/1', { key, headers }),
      await client.post('/api/v2/properties', { property: { name: 'X' } }, { key, headers }),
      await client.post('/api/v2/applications', { application: {} }, { key, headers }),
    ]) {
      expect(answer.status).toBe(401);
      expectErrorBody(answer);
      expect(answer.body.error.details).toBeNull();
    }
  });

  it('creates nothing for an unauthenticated request', async () => {
    const before = (await client.post('/api/v2/properties', { property: { name: 'Before' } })).body.property.id;
    await client.post('/api/v2/properties', { property: { name: 'Sneaky' } }, { key: null });
    const after = (await client.post('/api/v2/properties', { property: { name: 'After' } })).body.property.id;
    expect(after).toBe(before + 1);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'answers 415 to a POST sent as %s',
    async (type) => {
      const answer = await client.post('/api/v2/properties', undefined, {
        raw: '{"property":{"name":"X"}}',
        headers: { 'content-type': type },
      });
      expect(answer.status).toBe(415);
      expectErrorBody(answer, 'Content-Type must be application/json');
    },
  );

  it('accepts application/json with a charset parameter', async () => {
    const answer = await client.post('/api/v2/properties', undefined, {
      raw: '{"property":{"name":"Charset"}}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(answer.status).toBe(201);
  });

  it('answers 413 to a body over 64 KiB and accepts one just under', async () => {
    const padding = (size: number) => 'x'.repeat(size);
    const tooBig = await client.post('/api/v2/properties', undefined, {
      raw: JSON.stringify({ property: { name: 'Big', street: padding(64 * 1024) } }),
    });
    const fits = await client.post('/api/v2/applications', undefined, {
      raw: JSON.stringify({
        application: { property_id: 'x', applicant: { custom_data: { pad: padding(60 * 1024) } } },
      }),
    });

    expect(tooBig.status).toBe(413);
    expectErrorBody(tooBig);
    expect(fits.status).toBe(422);
  });

  it.each([
    ['truncated JSON', '{"property": {"name": "X"'],
    ['not JSON at all', 'name=X'],
    ['an empty body', ''],
    ['a prototype-polluting key', '{"property":{"name":"X"},"__proto__":{"admin":true}}'],
  ])('answers 400 with the error body to %s', async (_case, raw) => {
    const answer = await client.post('/api/v2/properties', undefined, { raw, headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(400);
    expectErrorBody(answer);
  });

  it.each([
    ['a JSON array', '[]'],
    ['a JSON string', '"property"'],
    ['JSON null', 'null'],
  ])('answers 422 to %s as the body', async (_case, raw) => {
    const answer = await client.post('/api/v2/properties', undefined, { raw });
    expect(answer.status).toBe(422);
    expectErrorBody(answer);
  });

  it.each([
    ['GET', '/api'],
    ['GET', '/api/v2/applicants'],
    ['GET', '/api/v2/properties/1/units'],
    ['PUT', '/api/v2/properties/1/units'],
    ['GET', '/api/v1/properties/1'],
  ])('answers 404 with the error body to %s %s', async (method, path) => {
    const answer = await client.call(method, path, method === 'PUT' ? {} : undefined);
    expect(answer.status).toBe(404);
    expectErrorBody(answer);
  });

  it.each([
    ['PUT', '/api/v2/properties/1', 'GET, HEAD, PATCH, DELETE'],
    ['POST', '/api/v2/properties/1', 'GET, HEAD, PATCH, DELETE'],
    ['DELETE', '/api/v2/properties', 'GET, HEAD, POST'],
    ['PATCH', '/api/v2/webhooks/1', 'GET, HEAD, DELETE'],
    ['GET', '/api/v2/webhooks/1/test', 'POST'],
  ])('answers 405 with Allow and the error body to %s %s, before asking for a key', async (method, path, allow) => {
    const answer = await client.call(method, path, ['GET', 'DELETE'].includes(method) ? undefined : {}, { key: null });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe(allow);
    expectErrorBody(answer, `${method} is not allowed here; this path allows ${allow}`);
  });

  it('accepts a DELETE that says its body is JSON and sends none', async () => {
    const created = await client.post('/api/v2/properties', { property: { name: 'Header Happy' } });
    const answer = await client.delete(`/api/v2/properties/${created.body.property.id}`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.property.name).toBe('Header Happy');
  });
});
