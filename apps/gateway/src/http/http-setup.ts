import { STATUS_CODES } from 'node:http';
import { Socket } from 'node:net';
import cors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import { BadRequestException, MethodNotAllowedException, UnsupportedMediaTypeException } from '@nestjs/common';
import { NestFastifyApplication, RouteConfig } from '@nestjs/platform-fastify';
import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { HelmetOptions } from 'helmet';
import { REQUEST_ID_OPTIONS, returnRequestId } from '@app/observability';
import { ServiceError } from '@app/contracts';
import { sendProblem, toHttpProblem } from './http-error.filter';

export const BODY_LIMIT_BYTES = 64 * 1024;

/** A request whose headers and body have not all arrived by then is cut off with 408. */
const REQUEST_TIMEOUT_MS = 15_000;

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The methods a path is probed for when the one asked for has no route there. OPTIONS is left
 * out: without CORS a preflight is an unknown route, and with CORS its plugin answers every path.
 */
const ROUTABLE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The route config key that ReadsNoBody sets. */
const READS_NO_BODY = 'readsNoBody';

/**
 * Marks a POST route that reads no body (`POST /webhooks/:id/test`, say): it is accepted with no
 * body at all, whatever its Content-Type says. A DELETE never reads one, and needs no mark.
 */
export const ReadsNoBody = () => RouteConfig({ [READS_NO_BODY]: true });

/** The API serves JSON only: nothing it answers may load, run or frame anything. */
const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
};
const CONTENT_SECURITY_POLICY = "default-src 'none';frame-ancestors 'none'";
const setSecurityHeaders = helmet(HELMET_OPTIONS);

/**
 * Fastify options: the body limit, JSON that tries to reach a prototype is refused, a deadline
 * for slow requests, the documented error body even for what Node's HTTP parser refuses, and
 * the request id taken from X-Request-Id.
 */
export const FASTIFY_OPTIONS = {
  ...REQUEST_ID_OPTIONS,
  bodyLimit: BODY_LIMIT_BYTES,
  onProtoPoisoning: 'error',
  onConstructorPoisoning: 'error',
  requestTimeout: REQUEST_TIMEOUT_MS,
  clientErrorHandler: answerUnreadableRequest,
  frameworkErrors: answerUnroutableRequest,
} as const;

export interface HttpSettings {
  /** Origins allowed to call from a browser; CORS stays off when there are none. */
  corsOrigins: string[];
}

/**
 * Security headers on every response (helmet), CORS only for configured origins, JSON only,
 * the documented error body for everything that goes wrong, and every response names its
 * request id. Nest hands what Fastify refuses before a route runs (413, malformed JSON, this
 * hook's 415) to the same filter.
 */
export async function configureHttp(app: NestFastifyApplication, settings: HttpSettings): Promise<void> {
  // Registered (and awaited) first, so that its hook runs before any hook that may answer or
  // refuse a request: CORS preflights and 415s carry the headers too.
  await app.register(fastifyHelmet, HELMET_OPTIONS);
  // Registered here rather than with app.enableCors(), whose hook would run before helmet's.
  if (settings.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: settings.corsOrigins,
      methods: ['GET', 'POST', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'X-Request-Id'],
      exposedHeaders: ['ETag', 'Retry-After', 'X-Request-Id'],
      maxAge: 600,
    });
  }
  returnRequestId(app);
  const fastify = app.getHttpAdapter().getInstance();
  answerMethodsAPathHasNot(fastify);
  fastify.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    if (
      METHODS_WITH_BODY.has(request.method) &&
      !isJson(request.headers['content-type']) &&
      !(readsNoBody(request) && carriesNoBody(request))
    ) {
      done(new UnsupportedMediaTypeException('Content-Type must be application/json'));
      return;
    }
    done();
  });
  acceptEmptyJsonWhereNoBodyIsRead(fastify);
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0].trim().toLowerCase() === 'application/json';
}

function readsNoBody(request: FastifyRequest): boolean {
  return (
    request.method === 'DELETE' || (request.routeOptions.config as unknown as Record<string, unknown>)?.[READS_NO_BODY] === true
  );
}

function carriesNoBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}

/**
 * A path that has routes, asked with a method it has none for, is answered 405 with `Allow`
 * (in the documented error body) rather than as an unknown route. The methods come from
 * Fastify's router, so every route registered, now or later, is covered.
 */
function answerMethodsAPathHasNot(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (!request.is404 || request.method === 'OPTIONS') {
      done();
      return;
    }
    const path = request.url.split('?')[0];
    const allowed = ROUTABLE_METHODS.filter((method) => fastify.findRoute({ method, url: path }) !== null);
    if (allowed.length === 0) {
      done();
      return;
    }
    reply.header('Allow', allowed.join(', '));
    done(new MethodNotAllowedException(`${request.method} is not allowed here; this path allows ${allowed.join(', ')}`));
  });
}

/**
 * The JSON parser, in place of Fastify's (the app is created with Nest's `bodyParser: false`).
 * Fastify refuses an empty body sent as application/json (400). A client that sets the header on
 * every request, a DELETE or a body-less POST included, sends just that; where no body is read it
 * is no body. Elsewhere an empty body stays the 400 that malformed JSON gets.
 */
function acceptEmptyJsonWhereNoBodyIsRead(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser(FASTIFY_OPTIONS.onProtoPoisoning, FASTIFY_OPTIONS.onConstructorPoisoning);
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && readsNoBody(request)) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}

/**
 * What Fastify's router refuses before any hook runs: a path segment longer than a route
 * parameter may be (only a property id is one, so the id names no property: 404) and a path
 * that is not valid percent-encoding (400). The security headers are set here, as no hook ran.
 */
export function answerUnroutableRequest(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  setSecurityHeaders(request.raw, reply.raw, () => undefined);
  const segment = request.url.split('?')[0].split('/').pop() ?? '';
  const exception =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? ServiceError.propertyNotFound(segment)
      : new BadRequestException('the request cannot be read');
  sendProblem(reply, toHttpProblem(exception));
}

/**
 * What Node's HTTP parser cannot read (a broken request line, headers too large, a body cut off
 * by the deadline) never reaches Fastify's routes; it is answered here, on the socket, with the
 * documented error body, and the connection is closed.
 */
export function answerUnreadableRequest(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ error: { message: 'the request cannot be read', details: null } });
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Connection: close',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `Content-Security-Policy: ${CONTENT_SECURITY_POLICY}`,
      'X-Content-Type-Options: nosniff',
      '',
      body,
    ].join('\r\n'),
  );
}
