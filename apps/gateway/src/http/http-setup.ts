import { UnsupportedMediaTypeException } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_OPTIONS, returnRequestId } from '@app/common';
import { HttpErrorFilter } from './http-error.filter';

export const BODY_LIMIT_BYTES = 64 * 1024;

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Fastify options: the body limit, JSON that tries to reach a prototype is refused, and the
 * request id comes from X-Request-Id.
 */
export const FASTIFY_OPTIONS = {
  ...REQUEST_ID_OPTIONS,
  bodyLimit: BODY_LIMIT_BYTES,
  onProtoPoisoning: 'error',
  onConstructorPoisoning: 'error',
} as const;

/**
 * JSON only, the documented error body for everything that goes wrong, and every response
 * names its request id. Nest hands what
 * Fastify refuses before a route runs (413, malformed JSON, this hook's 415) to the same filter.
 */
export function configureHttp(app: NestFastifyApplication): void {
  returnRequestId(app);
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
