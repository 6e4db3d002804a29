import { once } from 'node:events';
import { connect, createServer, Socket } from 'node:net';
import { answerUnreadableRequest } from './http-setup';

/** What a client reads after the server side of a real connection is answered for `error`. */
async function answerTo(error: Error & { code?: string }): Promise<string> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const accepted = once(server, 'connection') as Promise<[Socket]>;
    const client = connect((server.address() as { port: number }).port, '127.0.0.1');
    const [serverSide] = await accepted;
    let received = '';
    client.on('data', (chunk) => (received += chunk.toString()));
    answerUnreadableRequest(error, serverSide);
    // Whatever was (or was not) written, the server side is gone once it is handled.
    serverSide.destroySoon();
    await once(client, 'close');
    client.destroy();
    return received;
  } finally {
    server.close();
  }
}

const withCode = (code: string) => Object.assign(new Error(code), { code });

describe('answerUnreadableRequest', () => {
  it.each([
    ['a request that did not arrive in time', 'ERR_HTTP_REQUEST_TIMEOUT', '408 Request Timeout'],
    ['headers over the limit', 'HPE_HEADER_OVERFLOW', '431 Request Header Fields Too Large'],
    ['anything else the parser refuses', 'HPE_INVALID_METHOD', '400 Bad Request'],
  ])('answers %s with its status and the documented error body, then closes', async (_label, code, statusLine) => {
    const answer = await answerTo(withCode(code));
    const [head, body] = answer.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe(`HTTP/1.1 ${statusLine}`);
    expect(head).toContain('Connection: close');
    expect(head).toContain('Content-Type: application/json; charset=utf-8');
    expect(head).toContain("Content-Security-Policy: default-src 'none';frame-ancestors 'none'");
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body)).toEqual({ error: { message: 'the request cannot be read', details: null } });
  });

  it('writes nothing to a connection the client reset', async () => {
    expect(await answerTo(withCode('ECONNRESET'))).toBe('');
  });
});
