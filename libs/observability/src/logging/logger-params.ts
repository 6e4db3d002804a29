import { IncomingMessage, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { Params } from 'nestjs-pino';
import { Options } from 'pino-http';
import { LogLevel } from '@app/config';
import { stdTimeFunctions } from 'pino';
import { redactLogLine } from './redact';

/** Polled by probes and scrapers every few seconds: worth a line at debug only. */
const OPERATIONS_PATH = /^\/(health(\/|$)|metrics$)/;

/** The path of a request URL: a query string may carry anything, so it is never logged. */
function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0];
}

type HttpOptions = Options<IncomingMessage, ServerResponse>;

const httpRequestLine: Pick<
  HttpOptions,
  'customLogLevel' | 'customSuccessMessage' | 'customErrorMessage' | 'customSuccessObject' | 'customErrorObject'
> = {
  customLogLevel: (request, response, error) => {
    if (error || response.statusCode >= 500) return 'error';
    return OPERATIONS_PATH.test(pathOf(request.url)) ? 'debug' : 'info';
  },
  customSuccessMessage: () => 'request completed',
  customErrorMessage: () => 'request failed',
  customSuccessObject: (request, response, fields: Record<string, unknown>) => ({
    method: request.method,
    path: pathOf(request.url),
    status_code: response.statusCode,
    duration_ms: fields.duration_ms,
  }),
  customErrorObject: (request, response, error, fields: Record<string, unknown>) => ({
    method: request.method,
    path: pathOf(request.url),
    status_code: response.statusCode,
    duration_ms: fields.duration_ms,
    err: error,
  }),
};

/**
 * How every app logs: one JSON object a line on stdout, with the app's name, an ISO time and the
 * level by name; sensitive fields redacted from the finished line (see redact.ts); one line per
 * HTTP request with its method, path, status and duration, and its request id, which the HTTP
 * server has set (REQUEST_ID_OPTIONS).
 */
export function loggerParams(app: string, level: LogLevel): Params {
  return {
    pinoHttp: {
      level,
      base: { service: app, hostname: hostname(), pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      hooks: { streamWrite: redactLogLine },
      // Lines logged while serving a request carry its id, and nothing else of it.
      quietReqLogger: true,
      quietResLogger: true,
      customAttributeKeys: { reqId: 'request_id', responseTime: 'duration_ms' },
      ...httpRequestLine,
    },
  };
}
