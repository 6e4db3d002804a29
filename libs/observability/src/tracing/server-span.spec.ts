import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import Fastify, { FastifyInstance } from 'fastify';
import { request as httpRequest } from 'node:http';
import { openServerSpan, traceServedRequests, withinRequestTrace } from './server-span';
import { RequestScopeContextManager } from './scope-context-manager';
import { traceHeaders, traceLogFields } from './trace-context';

/**
 * A Fastify server whose first hook opens each request's span, as every app's does
 * (returnRequestId), under the Node SDK's own tracer provider and W3C propagator and the apps'
 * context manager, half of new traces sampled by trace id, every span kept in memory.
 */
describe('openServerSpan', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.5) }),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const parentId = '00f067aa0ba902b7';
  let server: FastifyInstance;
  let url: string;
  /** Resolved when a POST has gone through the hooks, its body not yet all sent. */
  let throughHooks: () => void = () => undefined;

  /** What a handler sees, in the context its request runs in (as RequestContextInterceptor does). */
  interface Seen {
    span: 'none' | 'recording' | 'not recording';
    headers: Record<string, string>;
    logged: { trace_id?: string; span_id?: string };
    /** Whether the span was already current in the hook after the first, before the body was read. */
    inHooks: boolean;
    /** Whether it was current where the handler starts, after the body was read. */
    inHandler: boolean;
  }

  beforeAll(async () => {
    registerGlobally(provider);
    server = Fastify();
    server.addHook('onRequest', (request, reply, done) =>
      openServerSpan(request.raw, reply.raw, request.method, request.routeOptions.url ?? 'unmatched', done),
    );
    server.addHook('onRequest', async (request) => {
      // Like the gateway's key check: I/O before the body is read, to be traced in the span.
      await new Promise((resolve) => setImmediate(resolve));
      (request as unknown as { inHooks: boolean }).inHooks = trace.getActiveSpan() !== undefined;
      if (request.method === 'POST') throughHooks();
    });
    const handle = (request: { raw: object; inHooks?: boolean }) => {
      const inHandler = trace.getActiveSpan() !== undefined;
      return withinRequestTrace(request.raw, (): Seen => {
        const span = trace.getActiveSpan();
        return {
          span: span === undefined ? 'none' : span.isRecording() ? 'recording' : 'not recording',
          headers: traceHeaders(),
          logged: traceLogFields(),
          inHooks: request.inHooks === true,
          inHandler,
        };
      });
    };
    server.get('/api/v2/properties/:id', async (request) => handle(request as never));
    server.post('/api/v2/applications', async (request, reply) => reply.code(503).send(handle(request as never)));
    server.get('/health', async (request) => handle(request as never));
    url = await server.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server.close();
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });
  beforeEach(() => exporter.reset());

  async function get(path: string, headers: Record<string, string> = {}): Promise<Seen> {
    return (await fetch(url + path, { headers })).json() as Promise<Seen>;
  }

  /** The spans exported so far, once `count` have ended (a span ends when its response closes). */
  async function exported(count: number) {
    while (exporter.getFinishedSpans().length < count) await new Promise((resolve) => setImmediate(resolve));
    return exporter.getFinishedSpans();
  }

  it('opens no span while tracing is not started in the process', async () => {
    const seen = await get('/api/v2/properties/1', { traceparent: `00-${traceId}-${parentId}-01` });
    expect(seen.span).toBe('none');
    expect(exporter.getFinishedSpans()).toEqual([]);
    // This test's own requests come from a trusted caller; another address is anyone else.
    traceServedRequests('192.0.2.1,127.0.0.0/8');
  });

  it('gives a request its sampler decides to keep a span that records, and one it drops none, never one that does not record', async () => {
    const seen: Seen[] = [];
    for (let i = 0; i < 200; i++) seen.push(await get('/api/v2/properties/7?view=full'));
    const count = (kind: Seen['span']) => seen.filter((each) => each.span === kind).length;
    expect(count('not recording')).toBe(0);
    // Each about half of 200; outside 50..150 once in about 10^12 runs.
    expect(count('recording')).toBeGreaterThan(50);
    expect(count('none')).toBeGreaterThan(50);
    // A request not sampled passes its trace on, flagged not sampled, and logs it.
    for (const dropped of seen.filter((each) => each.span === 'none')) {
      expect(dropped.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
      expect(dropped.logged.trace_id).toBe(dropped.headers.traceparent.split('-')[1]);
      expect(dropped.inHooks).toBe(false);
    }
    for (const kept of seen.filter((each) => each.span === 'recording'))
      expect(kept).toMatchObject({ inHooks: true, inHandler: true });
    const spans = await exported(count('recording'));
    expect(spans).toHaveLength(count('recording'));
    // Named by the route pattern, never the path or the query.
    expect(spans[0].name).toBe('GET /api/v2/properties/:id');
    expect(spans[0].attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/v2/properties/:id',
      'url.path': '/api/v2/properties/:id',
      'url.query': 'not recorded',
      'http.response.status_code': 200,
    });
    expect(JSON.stringify(spans.map((span) => [span.name, span.attributes]))).not.toContain('view=full');
  });

  it("follows the caller's decision: a span under its span when it sampled, none when it did not", async () => {
    const kept = await get('/api/v2/properties/1', { traceparent: `00-${traceId}-${parentId}-01` });
    const [span] = await exported(1);
    expect(kept.span).toBe('recording');
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext?.spanId).toBe(parentId);
    expect(kept.headers.traceparent).toBe(`00-${traceId}-${span.spanContext().spanId}-01`);

    exporter.reset();
    const dropped = await get('/api/v2/properties/1', { traceparent: `00-${traceId}-${parentId}-00` });
    expect(dropped).toMatchObject({ span: 'none', logged: { trace_id: traceId }, inHooks: false, inHandler: false });
    expect(dropped.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it("lets no caller but a trusted one decide: anyone else's traceparent, sampled or not, starts a trace the sampler decides, linked to it", async () => {
    traceServedRequests('192.0.2.1');
    try {
      const seen: Seen[] = [];
      for (let i = 0; i < 200; i++) {
        const flags = i % 2 === 0 ? '01' : '00';
        seen.push(await get('/api/v2/properties/1', { traceparent: `00-${traceId}-${parentId}-${flags}` }));
      }
      // Never in the caller's trace, but logged with it.
      for (const each of seen) {
        expect(each.logged.trace_id).not.toBe(traceId);
        expect(each.logged).toMatchObject({ caller_trace_id: traceId });
        expect(each.headers.traceparent).not.toContain(traceId);
      }
      // Half of them kept, as the sampler keeps new traces: neither all (the sampled ones
      // forced) nor none. Each count outside 50..150 once in about 10^12 runs.
      const recording = seen.filter((each) => each.span === 'recording').length;
      expect(recording).toBeGreaterThan(50);
      expect(recording).toBeLessThan(150);
      const spans = await exported(recording);
      for (const span of spans) {
        expect(span.parentSpanContext).toBeUndefined();
        expect(span.links.map((link) => [link.context.traceId, link.context.spanId])).toEqual([[traceId, parentId]]);
      }
    } finally {
      traceServedRequests('192.0.2.1,127.0.0.0/8');
    }
  });

  it('runs a request whose body comes later in its span, and marks the span failed when answered 5xx', async () => {
    // The rest of the body is sent once the hooks have run: the socket emits it, outside the span.
    const body = JSON.stringify({ application: { property_id: 1, note: 'x'.repeat(4096) } });
    const hooksDone = new Promise<void>((resolve) => (throughHooks = resolve));
    const answer = await new Promise<{ status: number; seen: Seen }>((resolve, reject) => {
      const sent = httpRequest(
        url + '/api/v2/applications',
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            traceparent: `00-${traceId}-${parentId}-01`,
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode!, seen: JSON.parse(text) as Seen }));
        },
      );
      sent.on('error', reject);
      sent.write(body.slice(0, 10));
      void hooksDone.then(() => sent.end(body.slice(10)));
    });
    expect(answer.status).toBe(503);
    expect(answer.seen).toMatchObject({ span: 'recording', inHooks: true, inHandler: true });
    const [span] = await exported(1);
    expect(span.name).toBe('POST /api/v2/applications');
    expect(span.attributes['http.response.status_code']).toBe(503);
    expect(span.status.code).toBe(2);
  });

  it('traces no probe or scrape', async () => {
    const seen = await get('/health', { traceparent: `00-${traceId}-${parentId}-01` });
    expect(seen.span).toBe('none');
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('keeps a request not traced as it is, a span not sampled put aside', () => {
    const dropped = trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext({ traceId, spanId: parentId, traceFlags: 0 }));
    context.with(dropped, () =>
      withinRequestTrace({}, () => {
        expect(trace.getSpan(context.active())).toBeUndefined();
        expect(traceHeaders()).toEqual({ traceparent: `00-${traceId}-${parentId}-00` });
      }),
    );
  });
});

/** What the SDK sets up globally when it starts: the tracer provider, the apps' context manager, W3C propagation. */
function registerGlobally(provider: TracerProvider): void {
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new RequestScopeContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}
