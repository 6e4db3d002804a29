import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';
import { httpRequestDuration } from './metrics';

/**
 * Times every response the app sends, refusals before a route runs included (401, 404, 413,
 * 415), labelled with the route's pattern rather than its path so that ids do not multiply the
 * series; a path no route matches counts as `unmatched`.
 */
export function instrumentHttp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
