import { once } from 'node:events';
import { connect, Socket } from 'node:net';
import { api, expectErrorBody } from './support/http';
import { eventually } from './support/wait';
import { freePort, KEYS, RunningProcess, Stack } from '../tools/stack';

/** A raw connection to `baseUrl`, collecting what the server sends and whether it closed. */
async function rawConnection(baseUrl: string): Promise<{ socket: Socket; received: () => string; closed: () => boolean }> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  let received = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  await once(socket, 'connect');
  return { socket, received: () => received, closed: () => closed };
}

/** What a caller without a valid API key can make the gateway do: as little as possible. */
describe('unauthenticated traffic', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ env: { RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: '1', RATE_LIMIT_UNAUTHENTICATED_BURST: '3' } });
  });

  afterAll(() => stack?.stop());

  it('is refused before its body is read', async () => {
    const connection = await rawConnection(stack.url);
    try {
      // A body announced and never sent: the gateway would wait for it before any route ran.
      connection.socket.write(
        'POST /api/v2/properties HTTP/1.1\r\nHost: api\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"pro',
      );
      const answer = await eventually('an answer while the body is still unsent', () =>
        connection.received().includes('\r\n\r\n'),
      );
      expect(answer).toBe(true);
      expect(connection.received()).toMatch(/^HTTP\/1\.1 401 /);
    } finally {
      connection.socket.destroy();
    }
  });

  it('is limited per client address, apart from the keys’ limits', async () => {
    const client = api(stack.url);
    const statuses: number[] = [];
    let limited;
    for (let i = 0; i < 8; i++) {
      const answer = await client.get('/api/v2/properties/1', { key: 'not-a-key-at-all' });
      statuses.push(answer.status);
      if (answer.status === 429) limited = answer;
    }
    // A burst of 3 (less what the test before spent), then 429s; at most one token refills meanwhile.
    expect(statuses[0]).toBe(401);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(4);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
    expectErrorBody(limited!, /^rate limit exceeded/);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    // A caller with a key is not held back by the address's limit.
    expect((await client.get('/api/v2/properties/1', { key: KEYS.clientOne })).status).toBe(404);
  });

  describe('connections', () => {
    let gateway: RunningProcess;

    beforeAll(async () => {
      gateway = await stack.startApp('gateway', { PORT: String(await freePort()), MAX_CONNECTIONS: '2' });
    });

    it('are capped: one more than MAX_CONNECTIONS is closed unanswered, and one is served again once another ends', async () => {
      const held = [await rawConnection(gateway.httpUrl), await rawConnection(gateway.httpUrl)];
      const extra = await rawConnection(gateway.httpUrl);
      extra.socket.write('GET /api/v2/properties/1 HTTP/1.1\r\nHost: api\r\n\r\n');
      await eventually('the connection over the cap to be closed', () => extra.closed());
      expect(extra.received()).toBe('');

      held[0].socket.destroy();
      await eventually('a connection to be served once below the cap', async () => {
        const next = await rawConnection(gateway.httpUrl);
        next.socket.write('GET /api/v2/properties/1 HTTP/1.1\r\nHost: api\r\nConnection: close\r\n\r\n');
        await eventually('the answer or the close', () => next.closed() || next.received().includes('\r\n\r\n'));
        next.socket.destroy();
        return next.received().startsWith('HTTP/1.1 401');
      });
      held[1].socket.destroy();
    });
  });

  it('stops a gateway from starting when API_KEYS lists a key twice, naming the variable', async () => {
    const failure = await stack
      .startApp('gateway', { PORT: String(await freePort()), API_KEYS: 'twice-listed-key:1,other-key-0002:2,twice-listed-key:1' })
      .catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(String(failure)).toMatch(/exited with 1 before it started/);
    expect(String(failure)).toContain('API_KEYS: entries 1 and 3 are the same key');
    expect(String(failure)).not.toMatch(/twice-listed-key/);
  });
});
