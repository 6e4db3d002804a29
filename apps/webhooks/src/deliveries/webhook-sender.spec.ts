import { once } from 'node:events';
import { createServer, RequestListener, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { MAX_RESPONSE_BYTES, sendWebhook } from './webhook-sender';

describe('sendWebhook', () => {
  let server: Server;
  let url: string;
  let handler: RequestListener;
  let requests: number;

  beforeEach(async () => {
    requests = 0;
    server = createServer((request, response) => {
      requests++;
      handler(request, response);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });

  afterEach(async () => {
    server.closeAllConnections();
    server.close();
  });

  it('counts a 2xx as success and anything else as a failure with its status', async () => {
    handler = (_request, response) => response.writeHead(204).end();
    await expect(sendWebhook(url, '{}', {}, true)).resolves.toMatchObject({ success: true, response_status: 204, error: null });
    handler = (_request, response) => response.writeHead(503).end();
    await expect(sendWebhook(url, '{}', {}, true)).resolves.toMatchObject({ success: false, response_status: 503 });
  });

  it('never follows a redirect', async () => {
    let redirected = 0;
    handler = (request, response) => {
      if (request.url === '/elsewhere') redirected++;
      response.writeHead(302, { location: '/elsewhere' }).end();
    };
    await expect(sendWebhook(url, '{}', {}, true)).resolves.toMatchObject({ success: false, response_status: 302 });
    expect(redirected).toBe(0);
  });

  it('reads at most 64 KiB of an answer, then hangs up', async () => {
    handler = (_request, response) => {
      response.writeHead(200);
      // An endless answer: the sender must stop reading it.
      const chunk = Buffer.alloc(16 * 1024, 97);
      const write = () => {
        while (response.write(chunk));
        response.once('drain', write);
      };
      response.on('error', () => undefined);
      write();
    };
    const outcome = await sendWebhook(url, '{}', {}, true);
    expect(outcome).toMatchObject({ success: true, response_status: 200 });
    expect(MAX_RESPONSE_BYTES).toBe(65536);
  });

  it('refuses a loopback target without connecting, unless private URLs are allowed', async () => {
    handler = (_request, response) => response.writeHead(204).end();
    const refused = await sendWebhook(url, '{}', {}, false);
    expect(refused).toMatchObject({ success: false, response_status: null, error: expect.stringMatching(/^refused: URL/) });
    expect(requests).toBe(0);
  });
});
