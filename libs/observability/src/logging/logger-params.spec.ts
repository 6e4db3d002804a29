import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Options, pinoHttp } from 'pino-http';
import { loggerParams } from './logger-params';
import { REDACTED } from './redact';

/** A real HTTP server logging through the params' pino-http into `lines`. */
async function serve(level: Parameters<typeof loggerParams>[1], handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const options = loggerParams('tester', level).pinoHttp as Options;
  const logRequest = pinoHttp(options, sink);
  let nextId = 0;
  const server: Server = createServer((req, res) => {
    // The HTTP server names each request; here, as Fastify does at the gateway.
    (req as IncomingMessage & { id: string }).id = `request-${++nextId}`;
    logRequest(req, res);
    handle(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    await (await fetch(`${base}${path}`, { headers })).text();
    // The line is written when the response finishes, which the client may see first.
    for (let i = 0; i < 100 && lines.filter((l) => l.msg?.toString().startsWith('request')).length < nextId; i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { lines, get, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('loggerParams', () => {
  it('logs one JSON line per request: app, level name, ISO time, request id, method, path, status and duration', async () => {
    const http = await serve('info', (_req, res) => res.writeHead(201).end('{}'));
    await http.get('/api/v2/properties?api_key=secret-in-query');
    await http.close();

    expect(http.lines).toEqual([
      {
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        service: 'tester',
        hostname: expect.any(String),
        pid: process.pid,
        request_id: 'request-1',
        method: 'GET',
        path: '/api/v2/properties',
        status_code: 201,
        duration_ms: expect.any(Number),
        msg: 'request completed',
      },
    ]);
  });

  it('redacts credentials and personal data from whatever a request logs, at any depth', async () => {
    const http = await serve('info', (req, res) => {
      (req as IncomingMessage & { log: { info(o: object, m: string): void } }).log.info(
        { headers: req.headers, body: { application: { applicant: { id_number: '123456789', dob: '1985-12-10' } } } },
        'looking inside',
      );
      res.end();
    });
    await http.get('/x', { authorization: 'Bearer the-key', 'x-api-key': 'other-key' });
    await http.close();

    const inside = http.lines.find((line) => line.msg === 'looking inside') as any;
    expect(inside.request_id).toBe('request-1');
    expect(inside.headers.authorization).toBe(REDACTED);
    expect(inside.headers['x-api-key']).toBe(REDACTED);
    expect(inside.body.application.applicant).toEqual({ id_number: REDACTED, dob: REDACTED });
    expect(JSON.stringify(http.lines)).not.toMatch(/the-key|other-key|123456789|1985-12-10/);
  });

  it('logs probes and scrapes at debug, and failures at error', async () => {
    const http = await serve('debug', (req, res) => res.writeHead(req.url === '/boom' ? 500 : 200).end());
    for (const path of ['/health/live', '/health/ready', '/metrics', '/healthy', '/boom']) await http.get(path);
    await http.close();

    expect(http.lines.map((line) => [line.path, line.level, line.msg])).toEqual([
      ['/health/live', 'debug', 'request completed'],
      ['/health/ready', 'debug', 'request completed'],
      ['/metrics', 'debug', 'request completed'],
      ['/healthy', 'info', 'request completed'],
      ['/boom', 'error', 'request failed'],
    ]);
  });

  it('writes nothing below its level', async () => {
    const http = await serve('warn', (_req, res) => res.end());
    await http.get('/api/v2/properties/1');
    await http.get('/health/live');
    await http.close();

    expect(http.lines).toEqual([]);
  });
});
