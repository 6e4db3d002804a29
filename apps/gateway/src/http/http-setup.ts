import { UnsupportedMediaTypeException } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';
import { HttpErrorFilter } from './http-error.filter';

export const BODY_LIMIT_BYTES = 64 * 1024;

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** Fastify options: the body limit, and JSON that tries to reach a prototype is refused. */
export const FASTIFY_OPTIONS = {
  bodyLimit: BODY_LIMIT_BYTES,
  onProtoPoisoning: 'error',
  onConstructorPoisoning: 'error',
} as const;

/**
 * JSON only, and the documented error body for everything that goes wrong. Nest hands what
 * Fastify refuses before a route runs (413, malformed JSON, this hook's 415) to the same filter.
 */
export function configureHttp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    if (METHODS_WITH_BODY.has(request.method) && !isJson(request.headers['content-type'])) {
      done(new UnsupportedMediaTypeException('Content-Type must be application/json'));
      return;
    }
    done();
  });
  app.useGlobalFilters(new HttpErrorFilter());
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
