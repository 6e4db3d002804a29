import { IncomingMessage, ServerResponse } from 'node:http';
import { Context, context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { notSampledContext, sampledOnly } from './trace-context';

/** What stands for a query that is not recorded. */
const NOT_RECORDED = 'not recorded';

/** Probes and scrapers every few seconds: a trace each would bury the requests. */
const OPERATIONS_PATH = /^\/(health(\/|$)|metrics(\?|$))/;

/** Where an incoming request keeps the context its handling runs in (see withinRequestTrace). */
const REQUEST_TRACE = Symbol('request trace');

type TracedRequest = IncomingMessage & { [REQUEST_TRACE]?: Context };

const tracer = trace.getTracer('rental-applications');

/** Whether startTracing has started the SDK in this process (see startTracing). */
let on = false;

/** Called by startTracing once the SDK is started: from then on, requests are traced. */
export function traceServedRequests(): void {
  on = true;
}

/**
 * Opens an HTTP request's server span, named by its route pattern (`GET /applicants/:token`),
 * never its path, whose segments may be secrets; then runs `next`, the rest of the request's
 * hooks, in it. Called from the first hook of every request, once its route is known. The
 * sampler decides as the span starts: a request whose trace is not sampled (nine in ten at 10%)
 * gets no span, no listener and no context bound to its emitters, only its trace's context kept
 * for its handling (withinRequestTrace), so that the instrumentations and the helpers make no
 * span in it and the trace is dropped whole by the next hop too. Nothing at all with tracing off.
 */
export function openServerSpan(
  request: IncomingMessage,
  response: ServerResponse,
  method: string,
  route: string,
  next: () => void,
): void {
  if (!on || OPERATIONS_PATH.test(request.url ?? '')) return next();
  const carried = propagation.extract(ROOT_CONTEXT, request.headers);
  const span = tracer.startSpan(`${method} ${route}`, { kind: SpanKind.SERVER }, carried);
  if (!span.isRecording()) {
    (request as TracedRequest)[REQUEST_TRACE] = notSampledContext(span.spanContext());
    return next();
  }
  // Only now: the sampler decides by trace alone, and most requests are not sampled.
  span.setAttributes({
    'http.request.method': method,
    'http.route': route,
    'url.path': route,
    'url.scheme': 'http',
    ...(request.url?.includes('?') ? { 'url.query': NOT_RECORDED } : {}),
    'network.protocol.version': request.httpVersion,
    ...(request.headers['user-agent'] ? { 'user_agent.original': request.headers['user-agent'] } : {}),
  });
  const served = trace.setSpan(carried, span);
  (request as TracedRequest)[REQUEST_TRACE] = served;
  response.once('close', () => {
    span.setAttribute('http.response.status_code', response.statusCode);
    if (!response.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR, message: 'aborted' });
    else if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  // The rest of the request runs in it: Fastify parses a body in an AsyncResource made here.
  context.with(served, next);
}

/**
 * Runs `work`, an HTTP request's handling, in the request's trace (see openServerSpan): in its
 * server span when sampled, otherwise with no span and the trace's context kept aside; as it is
 * for a request not traced, with a span not sampled put aside all the same.
 */
export function withinRequestTrace<T>(request: object, work: () => T): T {
  return context.with((request as TracedRequest)[REQUEST_TRACE] ?? sampledOnly(context.active()), work);
}
