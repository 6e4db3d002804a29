import { IncomingMessage, ServerResponse } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { Context, context, Link, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { notSampledContext, sampledOnly, traceLogFields, withCallerTrace } from './trace-context';

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

/** The callers whose sampling decision a request's trace follows (TRACE_TRUSTED_CALLERS). */
let trustedCallers = new BlockList();

/**
 * Called by startTracing once the SDK is started: from then on, requests are traced. `trusted`
 * is TRACE_TRUSTED_CALLERS: addresses and CIDR networks, comma separated, whose `traceparent` a
 * request's trace continues; empty, no caller's.
 */
export function traceServedRequests(trusted = ''): void {
  on = true;
  trustedCallers = new BlockList();
  for (const entry of trusted
    .split(',')
    .map((each) => each.trim())
    .filter(Boolean)) {
    const [address, prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) trustedCallers.addAddress(address, family);
    else trustedCallers.addSubnet(address, Number(prefix), family);
  }
}

/** Whether the peer that sent `request` is a trusted caller, an IPv4 one reached over IPv6 included. */
function fromTrustedCaller(request: IncomingMessage): boolean {
  const peer = request.socket.remoteAddress?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (!peer) return false;
  return trustedCallers.check(peer, isIP(peer) === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The context a request's trace starts from, and the links of its span. A trusted caller's trace
 * (TRACE_TRUSTED_CALLERS) is continued, sampled or not as it decided. Anyone else's `traceparent`
 * decides nothing: a sampled one would otherwise force a whole trace through every app under the
 * parent-based sampler, one not sampled suppress it. The request starts a trace of its own, which
 * the sampler decides as any new one, linked to the caller's and logged with its id
 * (caller_trace_id), so that the two can still be put together.
 */
function startingPoint(request: IncomingMessage): { parent: Context; links: Link[] } {
  const carried = propagation.extract(ROOT_CONTEXT, request.headers);
  const caller = trace.getSpanContext(carried);
  if (caller === undefined || fromTrustedCaller(request)) return { parent: carried, links: [] };
  return { parent: withCallerTrace(ROOT_CONTEXT, caller), links: [{ context: caller }] };
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
  const { parent, links } = startingPoint(request);
  const span = tracer.startSpan(`${method} ${route}`, { kind: SpanKind.SERVER, links }, parent);
  if (!span.isRecording()) {
    (request as TracedRequest)[REQUEST_TRACE] = notSampledContext(span.spanContext(), parent);
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
  const served = trace.setSpan(parent, span);
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

/**
 * The trace fields of a request's line in the access log (traceLogFields, in its trace), written
 * once it has ended, outside its handling: the caller's trace id among them when the request
 * started its own (caller_trace_id), so that a caller's trace leads to the request.
 */
export function requestTraceLogFields(request: object): ReturnType<typeof traceLogFields> {
  return withinRequestTrace(request, traceLogFields);
}
