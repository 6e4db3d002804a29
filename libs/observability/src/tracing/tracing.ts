import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { UNMATCHED_ROUTE } from '../logging/route-pattern';

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
 * patch HTTP, amqplib, the MongoDB driver and ioredis as they load, so they must be in place
 * before anything requires them. The SDK reads the rest itself: OTEL_EXPORTER_OTLP_PROTOCOL
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
  const { AmqplibInstrumentation } =
    require('@opentelemetry/instrumentation-amqplib') as typeof import('@opentelemetry/instrumentation-amqplib');
  const { MongoDBInstrumentation } =
    require('@opentelemetry/instrumentation-mongodb') as typeof import('@opentelemetry/instrumentation-mongodb');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || app,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => OPERATIONS_PATH.test(request.url ?? ''),
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
      }),
      new AmqplibInstrumentation(),
      // Background work outside any trace (the relay's passes, purges, index checks) would
      // otherwise start a trace of its own for every command.
      new MongoDBInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  started = sdk;
  publishInCarriedTrace();
  return true;
}

/** amqplib's publish, and a confirm channel's, which takes a callback after the options. */
type PublishArguments = [
  exchange: string,
  routingKey: string,
  content: Buffer,
  options?: { headers?: object },
  confirmed?: unknown,
];
type Publish = (this: unknown, ...args: PublishArguments) => boolean;

/**
 * amqp-connection-manager queues what is sent while its channel is away or busy, and publishes
 * it later (on reconnect, or behind another caller's batch), in whatever context that is. The
 * senders (sendRpc, BrokerChannel.publish) write the sender's `traceparent` into the headers at
 * send time; here amqplib's publish runs inside the trace those headers name whenever the
 * current context belongs to another trace, so that the publish span and the context the
 * consumer receives stay in the sender's trace. Wrapped over the instrumentation's own patch.
 */
function publishInCarriedTrace(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Channel, ConfirmChannel } = require('amqplib/lib/channel_model') as Record<string, { prototype: { publish: Publish } }>;
  for (const prototype of [Channel.prototype, ConfirmChannel.prototype]) {
    const publish = prototype.publish;
    prototype.publish = function (this: unknown, ...args: PublishArguments) {
      const carried = propagation.extract(ROOT_CONTEXT, args[3]?.headers ?? {});
      const sender = trace.getSpanContext(carried);
      if (sender === undefined || trace.getSpanContext(context.active())?.traceId === sender.traceId) {
        return publish.apply(this, args);
      }
      return context.with(carried, () => publish.apply(this, args));
    };
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
