import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Options, pinoHttp } from 'pino-http';
import { LineFormat, lineFormat, loggerParams, prettyLines } from './logger-params';
import { REDACTED } from './redact';
import { recordRoutePattern } from './route-pattern';

// eslint-disable-next-line no-control-regex
const ANSI_COLOUR = /\x1b\[[0-9;]*m/g;

/**
 * A real HTTP server logging through the params' pino-http: each line written is kept in `text`,
 * and in `lines` parsed, in the JSON format. The pretty format gets a pretty stream of its own
 * writing there instead of to stdout.
 */
/** The routes of the server under test, by path, as its router would match them. */
const ROUTES: Record<string, string> = {
  '/api/v2/properties': '/api/v2/properties',
  '/api/v2/properties/1': '/api/v2/properties/:id',
  '/applicants/secret-token-in-path': '/applicants/:token',
  '/x': '/x',
  '/health/live': '/health/live',
  '/health/ready': '/health/ready',
  '/metrics': '/metrics',
  '/healthy': '/healthy',
  '/boom': '/boom',
};

async function serve(
  level: Parameters<typeof loggerParams>[1],
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  format: LineFormat = 'json',
) {
  const text: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        // Colours, where the test runner passes them on, are not what is tested.
        text.push(line.replace(ANSI_COLOUR, ''));
        if (format === 'json') lines.push(JSON.parse(line));
      }
      done();
    },
  });
  const params = loggerParams('tester', level, format).pinoHttp;
  const options = (Array.isArray(params) ? params[0] : params) as Options;
  const logRequest = pinoHttp(options, format === 'pretty' ? prettyLines(sink) : sink);
  let nextId = 0;
  const server: Server = createServer((req, res) => {
    // The HTTP server names each request and its route; here, as Fastify does at the gateway.
    (req as IncomingMessage & { id: string }).id = `request-${++nextId}`;
    recordRoutePattern(req, ROUTES[(req.url ?? '').split('?')[0]]);
    logRequest(req, res);
    handle(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    await (await fetch(`${base}${path}`, { headers })).text();
    // The line is written when the response finishes, which the client may see first.
    for (let i = 0; i < 100 && text.filter((l) => /request (completed|failed)/.test(l)).length < nextId; i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { text, lines, get, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('lineFormat', () => {
  it('is pretty at a terminal and JSON into a pipe or a file when LOG_FORMAT is auto', () => {
    expect(lineFormat('auto', true)).toBe('pretty');
    expect(lineFormat('auto', false)).toBe('json');
  });

  it('is what LOG_FORMAT says otherwise, wherever stdout goes', () => {
    expect(lineFormat('json', true)).toBe('json');
    expect(lineFormat('pretty', false)).toBe('pretty');
  });
});

describe('loggerParams', () => {
  it('logs one JSON line per request: app, level name, ISO time, request id, method, route pattern, status and duration', async () => {
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
        route: '/api/v2/properties',
        status_code: 201,
        duration_ms: expect.any(Number),
        msg: 'request completed',
      },
    ]);
  });

  it('redacts credentials and personal data from what a request logs in its headers and body', async () => {
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

  it('logs a request or a response as its method, route pattern and status, never its headers or query', async () => {
    const http = await serve('info', (req, res) => {
      const log = (req as IncomingMessage & { log: { info(o: object, m: string): void } }).log;
      log.info({ req, res }, 'with the request');
      res.end();
    });
    await http.get('/x?api_key=in-query', { authorization: 'Bearer the-key' });
    await http.close();

    const line = http.lines.find((l) => l.msg === 'with the request') as any;
    expect(line.req).toEqual({ method: 'GET', route: '/x' });
    expect(Object.keys(line.res)).toEqual(['status_code']);
    expect(JSON.stringify(http.lines)).not.toMatch(/the-key|in-query/);
  });

  it('logs the route pattern of a request, never a path whose segments are secrets, nor the path of an unmatched one', async () => {
    const http = await serve('info', (_req, res) => res.writeHead(200).end());
    await http.get('/applicants/secret-token-in-path');
    await http.get('/applicants/secret-token-in-path/unknown');
    await http.close();

    expect(http.lines.map((line) => line.route)).toEqual(['/applicants/:token', 'unmatched']);
    expect(JSON.stringify(http.lines)).not.toContain('secret-token-in-path');
  });

  it('logs probes and scrapes at debug, and failures at error', async () => {
    const http = await serve('debug', (req, res) => res.writeHead(req.url === '/boom' ? 500 : 200).end());
    for (const path of ['/health/live', '/health/ready', '/metrics', '/healthy', '/boom']) await http.get(path);
    await http.close();

    expect(http.lines.map((line) => [line.route, line.level, line.msg])).toEqual([
      ['/health/live', 'debug', 'request completed'],
      ['/health/ready', 'debug', 'request completed'],
      ['/metrics', 'debug', 'request completed'],
      ['/healthy', 'info', 'request completed'],
      ['/boom', 'error', 'request failed'],
    ]);
  });

  it('logs a readiness probe answered "not ready" at debug, without a made-up error', async () => {
    const http = await serve('debug', (_req, res) => res.writeHead(503).end());
    await http.get('/health/ready');
    await http.get('/api/v2/properties');
    await http.close();

    expect(http.lines.map((line) => [line.route, line.level, 'err' in line])).toEqual([
      ['/health/ready', 'debug', false],
      ['/api/v2/properties', 'error', true],
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

describe('loggerParams in the pretty format', () => {
  it('writes through a stream of its own, and JSON straight to stdout otherwise', () => {
    expect(Array.isArray(loggerParams('tester', 'info', 'pretty').pinoHttp)).toBe(true);
    expect(Array.isArray(loggerParams('tester', 'info', 'json').pinoHttp)).toBe(false);
  });

  it('prints one readable line per request: time, level, message, then the other fields', async () => {
    const http = await serve('info', (_req, res) => res.writeHead(201).end('{}'), 'pretty');
    await http.get('/api/v2/properties?api_key=secret-in-query');
    await http.close();

    expect(http.text).toHaveLength(1);
    expect(http.text[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: request completed \{.*\}$/);
    expect(http.text[0]).toContain('"request_id":"request-1"');
    expect(http.text[0]).toContain('"route":"/api/v2/properties"');
    expect(http.text[0]).toContain('"status_code":201');
    expect(http.text[0]).not.toContain('secret-in-query');
  });

  it('redacts credentials and personal data as the JSON format does', async () => {
    const http = await serve(
      'info',
      (req, res) => {
        (req as IncomingMessage & { log: { info(o: object, m: string): void } }).log.info(
          { headers: req.headers, body: { application: { applicant: { id_number: '123456789', dob: '1985-12-10' } } } },
          'looking inside',
        );
        res.end();
      },
      'pretty',
    );
    await http.get('/x', { authorization: 'Bearer the-key', 'x-api-key': 'other-key' });
    await http.close();

    const inside = http.text.find((line) => line.includes('looking inside'));
    expect(inside).toContain(`"authorization":"${REDACTED}"`);
    expect(inside).toContain(`"id_number":"${REDACTED}"`);
    expect(http.text.join('\n')).not.toMatch(/the-key|other-key|123456789|1985-12-10/);
  });
});
