import {
  Attributes,
  Context,
  context,
  createContextKey,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from '@opentelemetry/api';

/**
 * The trace context of the current operation, for the code that carries it where the
 * instrumentations do not see: message headers written at send time, the outbox, log lines.
 * Through the OpenTelemetry API alone, which does nothing (and costs next to nothing) when
 * tracing is off (see startTracing).
 */
const tracer = trace.getTracer('rental-applications');

/**
 * Where an operation of a trace that is not sampled keeps that trace's context, in place of a
 * span: with no span in the context, the instrumentations (told to require a parent) and the
 * helpers here do nothing at all, and most operations are of traces not sampled. The context is
 * still passed on (traceHeaders) and logged (traceLogFields), so the next hop drops the trace too.
 */
const UNSAMPLED = createContextKey('rental-applications trace not sampled');

/** A span that records nothing, for work run outside a sampled trace. */
const NOT_RECORDED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** `ctx` with the span of a trace not sampled put aside (see UNSAMPLED); as it is otherwise. */
export function sampledOnly(ctx: Context): Context {
  const span = trace.getSpanContext(ctx);
  if (span === undefined || span.traceFlags & TraceFlags.SAMPLED) return ctx;
  return trace.deleteSpan(ctx).setValue(UNSAMPLED, span);
}

/** The trace of the current operation: its span's, or the one not sampled that it carries. */
function currentSpanContext(): SpanContext | undefined {
  const active = context.active();
  return trace.getSpanContext(active) ?? (active.getValue(UNSAMPLED) as SpanContext | undefined);
}

function notSampled(): boolean {
  return context.active().getValue(UNSAMPLED) !== undefined;
}

/**
 * The context of an operation in a trace not sampled, `span`'s: no span, the trace kept aside;
 * what else `from` holds (the caller's trace, see withCallerTrace) kept.
 */
export function notSampledContext(span: SpanContext, from: Context = ROOT_CONTEXT): Context {
  return trace.deleteSpan(from).setValue(UNSAMPLED, span);
}

/**
 * Where a request that started a trace of its own keeps the trace its caller sent but is not
 * trusted to decide (see openServerSpan): logged with each line, never passed on.
 */
const CALLER_TRACE = createContextKey('rental-applications caller trace');

/** `ctx` remembering `caller`, the trace an untrusted caller sent, for the log lines. */
export function withCallerTrace(ctx: Context, caller: SpanContext): Context {
  return ctx.setValue(CALLER_TRACE, caller);
}

/**
 * The W3C `traceparent` (and `tracestate`) of the current span, as message headers: none outside
 * a trace, or when tracing is off.
 */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  const unsampled = context.active().getValue(UNSAMPLED) as SpanContext | undefined;
  propagation.inject(unsampled ? trace.setSpanContext(context.active(), unsampled) : context.active(), carrier);
  return carrier;
}

/**
 * `trace_id` and `span_id` of the current span, for every log line written inside one, and
 * `caller_trace_id`, the trace an untrusted caller sent, when the request started its own.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string; caller_trace_id?: string } {
  const span = currentSpanContext();
  if (span === undefined) return {};
  const caller = context.active().getValue(CALLER_TRACE) as SpanContext | undefined;
  return { trace_id: span.traceId, span_id: span.spanId, ...(caller ? { caller_trace_id: caller.traceId } : {}) };
}

/**
 * Runs `work` in a span of its own named `name`, a child of the current one: it ends when the
 * work settles, marked failed when it rejects. In a trace not sampled, no span: just the work.
 */
export async function inSpan<T>(
  name: string,
  work: (span: Span) => Promise<T>,
  { kind = SpanKind.INTERNAL, attributes }: { kind?: SpanKind; attributes?: Attributes } = {},
): Promise<T> {
  if (notSampled()) return work(NOT_RECORDED);
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

/**
 * Starts a span, a child of the current one, that the caller ends; `within` runs code inside it.
 * In a trace not sampled, a span that records nothing, and `within` runs code where it is.
 */
export function startSpan(name: string, kind = SpanKind.INTERNAL, attributes?: Attributes) {
  if (notSampled()) {
    return { span: NOT_RECORDED, within: <T>(work: () => T): T => work(), end: (_error?: unknown) => undefined };
  }
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
 * that wrote them, stays in its trace. A malformed `traceparent` counts as none; one of a trace
 * not sampled is passed on and logged, but no span is made in it (see UNSAMPLED).
 */
export function withinCarriedTrace<T>(headers: Record<string, unknown> | undefined, work: () => T): T {
  return context.with(sampledOnly(propagation.extract(ROOT_CONTEXT, headers ?? {})), work);
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
