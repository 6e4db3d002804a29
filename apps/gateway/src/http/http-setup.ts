import { STATUS_CODES } from 'node:http';
import { Socket } from 'node:net';
import cors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { HelmetOptions } from 'helmet';
import { REQUEST_ID_OPTIONS, returnRequestId } from '@app/observability';
import { ServiceError } from '@app/contracts';
import { sendProblem, toHttpProblem } from './http-error.filter';

export const BODY_LIMIT_BYTES = 64 * 1024;

/** A request whose headers and body have not all arrived by then is cut off with 408. */
const REQUEST_TIMEOUT_MS = 15_000;

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

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
  fastify.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    if (METHODS_WITH_BODY.has(request.method) && !isJson(request.headers['content-type'])) {
      done(new UnsupportedMediaTypeException('Content-Type must be application/json'));
      return;
    }
    done();
  });
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0].trim().toLowerCase() === 'application/json';
}

/**
 * Makes a stopping gateway finish well: once the returned function is called, every response
 * carries `Connection: close`, so keep-alive clients hang up after their answer and closing the
 * server does not wait on their idle sockets. (Sockets already idle are closed by Fastify.)
 */
export function closeConnectionsWhenStopping(app: NestFastifyApplication): () => void {
  let stopping = false;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (e: null, p: unknown) => void) => {
      if (stopping) reply.header('connection', 'close');
      done(null, payload);
    });
  return () => {
    stopping = true;
  };
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
