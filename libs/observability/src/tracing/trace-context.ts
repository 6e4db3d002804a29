import { Attributes, context, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * The trace context of the current operation, for the code that carries it where the
 * instrumentations do not see: message headers written at send time, the outbox, log lines.
 * Through the OpenTelemetry API alone, which does nothing (and costs next to nothing) when
 * tracing is off (see startTracing).
 */
const tracer = trace.getTracer('rental-applications');

/**
 * The W3C `traceparent` (and `tracestate`) of the current span, as message headers: none outside
 * a trace, or when tracing is off.
 */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** `trace_id` and `span_id` of the current span, for every log line written inside one. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpanContext(context.active());
  return span === undefined ? {} : { trace_id: span.traceId, span_id: span.spanId };
}

/**
 * Names the current HTTP server span by its route pattern (`GET /applicants/:token`), never its
 * path, whose segments may be secrets (see startTracing, which records no path at first).
 */
export function nameHttpSpan(method: string, route: string): void {
  const span = trace.getSpan(context.active());
  span?.updateName(`${method} ${route}`);
  span?.setAttributes({ 'http.route': route, 'url.path': route, 'http.target': route });
}

/**
 * Runs `work` in a span of its own named `name`, a child of the current one: it ends when the
 * work settles, marked failed when it rejects.
 */
export async function inSpan<T>(
  name: string,
  work: (span: Span) => Promise<T>,
  { kind = SpanKind.INTERNAL, attributes }: { kind?: SpanKind; attributes?: Attributes } = {},
): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Starts a span, a child of the current one, that the caller ends; `within` runs code inside it. */
export function startSpan(name: string, kind = SpanKind.INTERNAL, attributes?: Attributes) {
  const span = tracer.startSpan(name, { kind, attributes });
  const spanContext = trace.setSpan(context.active(), span);
  return {
    span,
    within: <T>(work: () => T): T => context.with(spanContext, work),
    end: (error?: unknown) => {
      if (error !== undefined) failSpan(span, error);
      span.end();
    },
  };
}

function failSpan(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * Runs `work` in the trace that `headers` carry (a `traceparent` stored with an outbox record,
 * say), or outside any trace when they carry none: work done later, on behalf of the operation
 * that wrote them, stays in its trace. A malformed `traceparent` counts as none.
 */
export function withinCarriedTrace<T>(headers: Record<string, unknown> | undefined, work: () => T): T {
  return context.with(propagation.extract(ROOT_CONTEXT, headers ?? {}), work);
}

/**
 * The `traceparent` of the current span, to be stored with a record whose later use should lead
 * back to the operation that made it (see linkToTrace); undefined outside a trace.
 */
export function currentTraceparent(): string | undefined {
  return traceHeaders().traceparent;
}

/**
 * Links the current span to the trace a stored `traceparent` names: work that a record set going
 * long before (an applicant's form steps, days after the request that issued the link) is its
 * own trace, and leads to the one that caused it. Nothing outside a span, or for a missing or
 * malformed `traceparent`.
 */
export function linkToTrace(traceparent: string | null | undefined): void {
  if (!traceparent) return;
  const cause = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }));
  if (cause) trace.getActiveSpan()?.addLink({ context: cause });
}

/** Runs `work` outside any trace: background work that a request merely set going is not part of it. */
export function outsideTraces<T>(work: () => T): T {
  return context.with(ROOT_CONTEXT, work);
}
