import { IncomingHttpHeaders } from 'node:http';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';
import { openServerSpan } from '../tracing/server-span';
import { recordRoutePattern, routePatternOf } from './route-pattern';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-context';

/**
 * Fastify options: each request's id is the caller's X-Request-Id when it is a sensible one,
 * a new UUID otherwise. The request logger and the request context read it from there.
 */
export const REQUEST_ID_OPTIONS = {
  requestIdHeader: false,
  genReqId: (request: { headers: IncomingHttpHeaders }): string => requestIdFrom(request.headers[REQUEST_ID_HEADER]),
} as const;

/**
 * Every response, refusals before a route runs included, names its request in X-Request-Id; and
 * the request's line in the access log and its span name its route pattern (see recordRoutePattern).
 * Registered before any other hook that does I/O, so that the rest of the request runs in its
 * span (openServerSpan).
 */
export function returnRequestId(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      recordRoutePattern(request.raw, request.routeOptions.url);
      openServerSpan(request.raw, reply.raw, request.method, routePatternOf(request.raw), done);
    });
}
