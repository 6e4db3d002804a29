import { connect } from 'node:net';
import { api, Answer, Api, expectErrorBody } from './support/http';
import { Stack } from '../tools/stack';

const ALLOWED_ORIGIN = 'https://app.example.com';

function expectSecurityHeaders(answer: Answer): void {
  const header = (name: string) => answer.headers.get(name);
  expect(header('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
  expect(header('strict-transport-security')).toMatch(/^max-age=\d+/);
  expect(header('x-content-type-options')).toBe('nosniff');
  expect(header('x-frame-options')).toBe('SAMEORIGIN');
  expect(header('referrer-policy')).toBe('no-referrer');
  expect(header('cross-origin-resource-policy')).toBe('same-origin');
  expect(header('x-powered-by')).toBeNull();
}

/** Writes `request` on a fresh connection and resolves with everything the gateway answered. */
function rawExchange(url: string, request: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let received = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('security headers, without CORS', () => {
  let stack: Stack;
  let client: Api;

  beforeAll(async () => {
    stack = await Stack.start();
    client = api(stack.url);
  });

  afterAll(() => stack?.stop());

  it('come with every kind of answer, and X-Powered-By never does', async () => {
    const created = await client.post('/api/v2/properties', { property: { name: 'Headers' } });
    const answers = [
      created,
      await client.get(`/api/v2/properties/${created.body.property.id}`),
      await client.get('/api/v2/properties/1', { key: null }),
      await client.get('/nowhere'),
      await client.post('/api/v2/properties', undefined, { raw: 'x', headers: { 'content-type': 'text/plain' } }),
      await client.post('/api/v2/properties', undefined, { raw: '{"property":' }),
      await client.post('/api/v2/properties', { property: { name: 'x'.repeat(70 * 1024) } }),
      await client.post('/api/v2/properties', { property: {} }),
      await client.get('/api/v2/properties/99999999'),
    ];
    expect(answers.map((a) => a.status)).toEqual([201, 200, 401, 404, 415, 400, 413, 422, 404]);
    answers.forEach(expectSecurityHeaders);
    answers.filter((a) => a.status >= 400).forEach((a) => expectErrorBody(a));
  });

  it('come with what the router refuses before any hook runs, in the documented error body', async () => {
    const longId = '7'.repeat(150);
    const tooLong = await client.get(`/api/v2/properties/${longId}`);
    const badEncoding = await client.get('/api/v2/properties/%E0%A4%A');

    expect(tooLong.status).toBe(404);
    expect(tooLong.body).toEqual({ error: { message: `property ${longId} cannot be found`, details: null } });
    expect(badEncoding.status).toBe(400);
    expect(badEncoding.body).toEqual({ error: { message: 'the request cannot be read', details: null } });
    [tooLong, badEncoding].forEach(expectSecurityHeaders);
  });

  it('allow no browser origin: no CORS header, and a preflight is an unknown route', async () => {
    const simple = await client.get('/api/v2/properties/1', { headers: { origin: ALLOWED_ORIGIN } });
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();

    const preflight = await client.call('OPTIONS', '/api/v2/properties', undefined, {
      key: null,
      headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(404);
    expectErrorBody(preflight);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expectSecurityHeaders(preflight);
  });

  it.each([
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400],
    [
      'headers over the size Node accepts',
      `GET /api/v2/properties/1 HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
    ],
    [
      'a body longer than its Content-Length, whose rest reads as a broken request',
      'POST /api/v2/properties HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}garbage\r\n\r\n',
      400,
    ],
  ])('answer %s with the error body, at the socket', async (_label, request, status) => {
    const answer = await rawExchange(stack.url, request);
    const [head, body] = answer.slice(answer.lastIndexOf('HTTP/1.1 ')).split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(head).toContain('X-Content-Type-Options: nosniff');
    expect(JSON.parse(body)).toEqual({ error: { message: 'the request cannot be read', details: null } });
  });
});

describe('CORS, when origins are configured', () => {
  let stack: Stack;
  let client: Api;

  beforeAll(async () => {
    stack = await Stack.start({ env: { CORS_ORIGINS: `${ALLOWED_ORIGIN},http://localhost:8080` } });
    client = api(stack.url);
  });

  afterAll(() => stack?.stop());

  it('answers a preflight from an allowed origin, for the API’s methods and headers', async () => {
    const preflight = await client.call('OPTIONS', '/api/v2/properties', undefined, {
      key: null,
      headers: {
        origin: ALLOWED_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, PATCH, DELETE');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, X-Request-Id',
    );
    expectSecurityHeaders(preflight);
  });

  it('names an allowed origin on an answer, and no other origin', async () => {
    const allowed = await client.get('/api/v2/properties/1', { headers: { origin: ALLOWED_ORIGIN } });
    const other = await client.get('/api/v2/properties/1', { headers: { origin: 'https://evil.example.net' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expectSecurityHeaders(allowed);
  });
});
