import { IncomingMessage, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { Params } from 'nestjs-pino';
import { Options } from 'pino-http';
import { LogFormat, LogLevel } from '@app/config';
import { DestinationStream, stdSerializers, stdTimeFunctions } from 'pino';
import pretty from 'pino-pretty';
import { REDACT_PATHS, REDACTED, redactedError } from './redact';
import { requestIdLogField } from './request-context';
import { routePatternOf } from './route-pattern';
import { traceLogFields } from '../tracing/trace-context';
import { requestTraceLogFields } from '../tracing/server-span';

/** Polled by probes and scrapers every few seconds: worth a line at debug only. */
const OPERATIONS_PATH = /^\/(health(\/|$)|metrics$)/;

/**
 * A readiness probe answered 503 has done its job: "not ready" is its answer while an app starts
 * or a part it needs is away, not a failure of the request. The health controller logs each
 * change of readiness once; a line (and a stack) for every probe would bury that.
 */
const isNotReadyAnswer = (request: { url?: string }, response: { statusCode: number }) =>
  response.statusCode === 503 && OPERATIONS_PATH.test(pathOf(request.url));

/** The path of a request URL, to tell probes apart; never logged (see routePatternOf). */
function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0];
}

type HttpOptions = Options<IncomingMessage, ServerResponse>;

/**
 * A request or response wherever one is logged (pino-http binds the request to a logger for
 * every request): its method and route pattern, never its path, headers or query string, which
 * may hold credentials, an applicant's form link token or personal data.
 */
const requestFields = (request: { method?: string; raw?: object }) => ({
  method: request.method,
  // pino's request serializer is given a copy of the request; the pattern is on the original.
  route: routePatternOf(request.raw ?? request),
});
const responseFields = (response: { statusCode?: number }) => ({ status_code: response.statusCode });

const httpRequestLine: Pick<
  HttpOptions,
  'customLogLevel' | 'customSuccessMessage' | 'customErrorMessage' | 'customSuccessObject' | 'customErrorObject'
> = {
  customLogLevel: (request, response, error) => {
    if (!error && isNotReadyAnswer(request, response)) return 'debug';
    if (error || response.statusCode >= 500) return 'error';
    return OPERATIONS_PATH.test(pathOf(request.url)) ? 'debug' : 'info';
  },
  customSuccessMessage: () => 'request completed',
  customErrorMessage: () => 'request failed',
  customSuccessObject: (request, response, fields: Record<string, unknown>) => ({
    ...requestTraceLogFields(request),
    method: request.method,
    route: routePatternOf(request),
    status_code: response.statusCode,
    duration_ms: fields.duration_ms,
  }),
  customErrorObject: (request, response, error, fields: Record<string, unknown>) => ({
    ...requestTraceLogFields(request),
    method: request.method,
    route: routePatternOf(request),
    status_code: response.statusCode,
    duration_ms: fields.duration_ms,
    // pino-http makes up an error for every 5xx; for a probe's "not ready" it would only be a stack trace of itself.
    ...(isNotReadyAnswer(request, response) ? {} : { err: error }),
  }),
};

/** How lines are written: JSON for machines, or one readable line each for a person at a terminal. */
export type LineFormat = 'json' | 'pretty';

/** LOG_FORMAT resolved: `auto` is pretty when stdout is a terminal, JSON when it is a pipe or a file. */
export function lineFormat(setting: LogFormat, stdoutIsTerminal = process.stdout.isTTY === true): LineFormat {
  if (setting === 'auto') return stdoutIsTerminal ? 'pretty' : 'json';
  return setting;
}

/**
 * Readable lines, on stdout unless told otherwise: time, level, the logging class and the
 * message, the other fields as JSON on the same line. It receives each line after redaction, as
 * the JSON output does.
 */
export function prettyLines(destination: number | NodeJS.WritableStream = 1): DestinationStream {
  return pretty({
    destination,
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,context',
    messageFormat: '{if context}[{context}] {end}{msg}',
  });
}

/**
 * How every app logs: one JSON object a line on stdout, with the app's name, an ISO time and the
 * level by name; sensitive fields redacted by path, and errors at any depth (see redact.ts); one line per
 * HTTP request with its method, route pattern, status and duration, and its request id, which the HTTP
 * server has set (REQUEST_ID_OPTIONS). In the `pretty` format the same lines are printed readably.
 */
export function loggerParams(app: string, level: LogLevel, format: LineFormat = 'json'): Params {
  const options: HttpOptions = {
    level,
    base: { service: app, hostname: hostname(), pid: process.pid },
    // Every line written while a message is handled names its request (an HTTP request's logger
    // has its id bound), and every line written inside a traced operation leads to its trace:
    // trace_id and span_id.
    mixin: () => ({ ...requestIdLogField(), ...traceLogFields() }),
    timestamp: stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Applied to every line, bindings included, before it is serialized, whichever the format.
    redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    serializers: { err: redactedError(stdSerializers.err), req: requestFields, res: responseFields },
    // Lines logged while serving a request carry its id, and nothing else of it.
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'request_id', responseTime: 'duration_ms' },
    ...httpRequestLine,
  };
  return { pinoHttp: format === 'pretty' ? [options, prettyLines()] : options };
}
