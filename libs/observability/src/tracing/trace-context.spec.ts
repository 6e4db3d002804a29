import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AlwaysOnSampler,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { RequestScopeContextManager } from './scope-context-manager';
import { inSpan, startSpan, traceHeaders, traceLogFields, withinCarriedTrace } from './trace-context';

/**
 * The helpers under the Node SDK's own tracer provider, context manager and W3C propagator, parent-based
 * sampling, every span kept in memory: what the services do with a trace that is sampled and with
 * one that is not.
 */
describe('trace context helpers', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const parentId = '00f067aa0ba902b7';

  beforeAll(() => registerGlobally(provider));
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });
  beforeEach(() => exporter.reset());

  it('in a trace not sampled, makes no span and leaves none current, but passes the trace on and logs it', async () => {
    const carried = { traceparent: `00-${traceId}-${parentId}-00` };
    const seen = await withinCarriedTrace(carried, () =>
      inSpan('properties.lookup', async () => ({
        // What an instrumentation told to require a parent reads: nothing, so it does nothing.
        current: trace.getSpan(context.active()),
        headers: traceHeaders(),
        logged: traceLogFields(),
      })),
    );
    const handler = withinCarriedTrace(carried, () => startSpan('applications.create'));
    handler.within(() => expect(trace.getSpan(context.active())).toBeUndefined());
    handler.end();

    expect(seen).toEqual({ current: undefined, headers: carried, logged: { trace_id: traceId, span_id: parentId } });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('in a sampled trace, makes each span a child of the one before, and passes its own on', async () => {
    const carried = { traceparent: `00-${traceId}-${parentId}-01` };
    const headers = await withinCarriedTrace(carried, () => inSpan('properties.lookup', async () => traceHeaders()));
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('properties.lookup');
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext?.spanId).toBe(parentId);
    expect(headers).toEqual({ traceparent: `00-${traceId}-${span.spanContext().spanId}-01` });
  });

  it('starts a trace of its own for a message that carries none, or a malformed one', async () => {
    for (const carried of [undefined, {}, { traceparent: 'garbage' }]) {
      await withinCarriedTrace(carried, () => inSpan('properties.ping', async () => undefined));
    }
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(3);
    for (const span of spans) expect(span.parentSpanContext).toBeUndefined();
  });
});

/** What the SDK sets up globally when it starts: the tracer provider, the apps' context manager, W3C propagation. */
function registerGlobally(provider: TracerProvider): void {
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new RequestScopeContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}
