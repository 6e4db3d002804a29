import { traceServedRequests } from './server-span';

/** How long a stopping process waits for its last spans to be exported. */
const FLUSH_DEADLINE_MS = 3000;

/** The SDK this process started, if tracing is on. */
let started: { shutdown(): Promise<void> } | undefined;

/** What stands for a URL that is not recorded. */
const NOT_RECORDED = 'not recorded';

/**
 * Starts OpenTelemetry tracing in this process, configured only by the standard OTEL_*
 * variables, when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT, or its traces-only
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); otherwise it does nothing, and no SDK is even loaded.
 * Each app's `tracing.ts` calls it, and its `main.ts` imports that first: the instrumentations
 * patch HTTP and ioredis as they load, so they must be in place before anything requires them.
 * A served HTTP request's span (server-span.ts), the broker's hops (trace-context.ts: the
 * sender's, sendRpc and BrokerChannel.publish, and the handler's, in the trace the message's
 * headers carry) and the database's commands (database-spans.ts) are this project's own spans,
 * made only in sampled traces: the instrumentations' cost something for every request and
 * message, sampled or not. The trace's context is kept in the request's scope, the one
 * AsyncLocalStorage of the process (RequestScopeContextManager). The SDK reads the rest itself:
 * OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf by default, http/json, grpc), OTEL_TRACES_SAMPLER
 * (parent-based, so that a trace is kept or dropped whole), OTEL_BSP_*, OTEL_RESOURCE_ATTRIBUTES;
 * OTEL_SERVICE_NAME defaults to the app's name. One setting is the project's own:
 * TRACE_TRUSTED_CALLERS, the callers whose `traceparent` a served request continues (server-span.ts);
 * anyone else's starts a trace of its own, or any caller could force tracing. Traces only: metrics are Prometheus' (GET
 * /metrics), logs go to stdout as JSON lines carrying the trace id.
 */
export function startTracing(app: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { RequestScopeContextManager } = require('./scope-context-manager') as typeof import('./scope-context-manager');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || app,
    metricReaders: [],
    logRecordProcessors: [],
    contextManager: new RequestScopeContextManager(),
    instrumentations: [
      new HttpInstrumentation({
        // A served request's span is this project's own (openServerSpan): the instrumentation's,
        // even on the path it takes for a request it ignores, binds the request's and the
        // response's emitters to a context, for every request, sampled or not.
        disableIncomingRequestInstrumentation: true,
        // A receiver's key may be in its webhook URL: a webhook's request keeps only the
        // receiver's host and port. Both the stable attribute names and the older ones.
        startOutgoingSpanHook: () => ({ 'url.full': NOT_RECORDED, 'http.url': NOT_RECORDED, 'http.target': NOT_RECORDED }),
        // A webhook's request is traced in its event's trace when that is sampled, never alone.
        requireParentforOutgoingSpans: true,
      }),
      // Background work outside any trace (rate limits' housekeeping) would otherwise start a
      // trace of its own for every command; and in a trace not sampled there is no span either
      // (see withinRequestTrace), so it does nothing there. MongoDB's commands are traced by
      // traceDatabaseCommands, in the services that have a database. A command's span names the
      // command alone: its key and arguments hold the client's address (a rate limit's bucket).
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  started = sdk;
  traceServedRequests(env.TRACE_TRUSTED_CALLERS);
  return true;
}

/** Whether startTracing has started the SDK in this process. */
export function tracingOn(): boolean {
  return started !== undefined;
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
