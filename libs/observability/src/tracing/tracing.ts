import { IncomingMessage } from 'node:http';
import { propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { UNMATCHED_ROUTE } from '../logging/route-pattern';
import { markNotSampled } from './trace-context';

/** How long a stopping process waits for its last spans to be exported. */
const FLUSH_DEADLINE_MS = 3000;

/** The SDK this process started, if tracing is on. */
let started: { shutdown(): Promise<void> } | undefined;

/** What stands for a path, query or URL that is not recorded. */
const NOT_RECORDED = 'not recorded';

/** Probes and scrapers every few seconds: a trace each would bury the requests. */
const OPERATIONS_PATH = /^\/(health(\/|$)|metrics(\?|$))/;

/**
 * Starts OpenTelemetry tracing in this process, configured only by the standard OTEL_*
 * variables, when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT, or its traces-only
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); otherwise it does nothing, and no SDK is even loaded.
 * Each app's `tracing.ts` calls it, and its `main.ts` imports that first: the instrumentations
 * patch HTTP, the MongoDB driver and ioredis as they load, so they must be in place before
 * anything requires them. The broker's hops are this project's own spans (trace-context.ts: the
 * sender's, sendRpc and BrokerChannel.publish, and the handler's, in the trace the message's
 * headers carry), made only in sampled traces: amqplib's instrumentation made two spans per
 * message for every trace, sampled or not. The SDK reads the rest itself: OTEL_EXPORTER_OTLP_PROTOCOL
 * (http/protobuf by default, http/json, grpc), OTEL_TRACES_SAMPLER (parent-based, so that a
 * trace is kept or dropped whole), OTEL_BSP_*, OTEL_RESOURCE_ATTRIBUTES; OTEL_SERVICE_NAME
 * defaults to the app's name. Traces only: metrics are Prometheus' (GET /metrics), logs go to
 * stdout as JSON lines carrying the trace id.
 */
export function startTracing(app: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { MongoDBInstrumentation } =
    require('@opentelemetry/instrumentation-mongodb') as typeof import('@opentelemetry/instrumentation-mongodb');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const { RandomIdGenerator } = (require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node')).node;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const door = new DoorSampling(new RandomIdGenerator());
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || app,
    metricReaders: [],
    logRecordProcessors: [],
    idGenerator: door.ids,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => OPERATIONS_PATH.test(request.url ?? '') || !door.sampled(request),
        // A path or query may hold a secret (an applicant's form link token, a receiver's key in
        // its webhook URL): none is recorded; a served request's span gets its route pattern
        // once routed (nameHttpSpan), a webhook's request keeps the receiver's host and port.
        // Both the stable attribute names and the older ones the instrumentation may write instead.
        startIncomingSpanHook: (request) => ({
          'url.path': UNMATCHED_ROUTE,
          'http.target': UNMATCHED_ROUTE,
          'http.url': NOT_RECORDED,
          ...(request.url?.includes('?') ? { 'url.query': NOT_RECORDED } : {}),
        }),
        startOutgoingSpanHook: () => ({ 'url.full': NOT_RECORDED, 'http.url': NOT_RECORDED, 'http.target': NOT_RECORDED }),
        // A webhook's request is traced in its event's trace when that is sampled, never alone.
        requireParentforOutgoingSpans: true,
      }),
      // Background work outside any trace (the relay's passes, purges, index checks) would
      // otherwise start a trace of its own for every command; and in a trace not sampled there is
      // no span either (see sampledTraceOnly), so they do nothing there.
      new MongoDBInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  started = sdk;
  return true;
}

/**
 * The sampler's decision on an incoming request, taken before the HTTP instrumentation makes its
 * server span: a request whose trace is not sampled (nine in ten at 10%) takes the
 * instrumentation's ignored path, which makes no span, binds no listener and computes no
 * attribute; its handling carries the trace's context, flagged not sampled (markNotSampled). The
 * decision is the SDK's own: a span started and never ended (so never exported), whose trace id,
 * for a new trace, the id generator hands to the server span started next, synchronously, in the
 * same call of the instrumentation, so that a sampler deciding by trace id decides the same.
 */
class DoorSampling {
  private next: string | undefined;
  readonly ids: { generateTraceId(): string; generateSpanId(): string };

  constructor(random: { generateTraceId(): string; generateSpanId(): string }) {
    this.ids = {
      generateTraceId: () => {
        const id = this.next ?? random.generateTraceId();
        this.next = undefined;
        return id;
      },
      generateSpanId: () => random.generateSpanId(),
    };
  }

  sampled(request: IncomingMessage): boolean {
    const carried = propagation.extract(ROOT_CONTEXT, request.headers);
    const decided = trace.getTracer('rental-applications').startSpan('incoming request', { kind: SpanKind.SERVER }, carried);
    if (!decided.isRecording()) {
      markNotSampled(request, decided.spanContext());
      return false;
    }
    if (trace.getSpanContext(carried) === undefined) this.next = decided.spanContext().traceId;
    return true;
  }
}

/**
 * Exports the spans still batched and stops the SDK: a stopping process calls it last, or the
 * spans of its final seconds (its drain included) would be lost with it. Bounded, so that an
 * unreachable collector cannot hold up the exit; nothing to do when tracing is off.
 */
export async function stopTracing(): Promise<void> {
  const sdk = started;
  if (!sdk) return;
  started = undefined;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_DEADLINE_MS)));
  await Promise.race([sdk.shutdown().catch(() => undefined), deadline]);
  clearTimeout(timer);
}
