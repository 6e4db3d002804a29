/** What a fuzz suite checks of every answer, whatever the route, and how it quotes a request that broke it. */
import { FuzzRequest } from './fuzz-request-parts';

/** What a fuzz suite keeps of an answer. */
export interface Answer {
  status: number;
  contentType: string | null;
  nosniff: string | null;
  /** Only some suites look at it. */
  cacheControl?: string | null;
  text: string;
}

export function describeRequest(request: FuzzRequest): string {
  const body = request.body === null ? '' : ` body(${request.body.length}): ${request.body.slice(0, 300)}`;
  return `${request.method} ${request.path.slice(0, 200)} ${JSON.stringify(request.headers)}${body}`;
}

/**
 * What every answer to a fuzzed request must be, whatever the route: no 5xx, no 304 nobody asked
 * for, JSON with the security headers and, for an error, the documented body without a stack
 * trace. Returns the parsed body and the way to fail with the request and answer quoted, for the
 * suite's own checks of a success.
 */
export function checkAnswerShape(request: FuzzRequest, answer: Answer): { body: any; fail: (why: string) => never } {
  const fail = (why: string): never => {
    throw new Error(`${why}\n  request: ${describeRequest(request)}\n  answer: ${answer.status} ${answer.text.slice(0, 500)}`);
  };
  if (answer.status >= 500) fail('a server error');
  if (answer.status === 304) fail('a 304 nobody asked for');
  if (!answer.contentType?.startsWith('application/json')) fail('an answer that is not JSON');
  if (answer.nosniff !== 'nosniff') fail('an answer without the security headers');
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    fail('an answer body that does not parse');
  }
  if (answer.status >= 400) {
    const error = body?.error;
    const wellFormed =
      Object.keys(body ?? {}).join() === 'error' &&
      Object.keys(error ?? {}).join() === 'message,details' &&
      typeof error.message === 'string' &&
      error.message.length > 0 &&
      (error.details === null ||
        (Array.isArray(error.details) &&
          error.details.every(
            (d: any) => Object.keys(d).join() === 'field,message' && typeof d.field === 'string' && typeof d.message === 'string',
          )));
    if (!wellFormed) fail('an error without the documented body');
    if (/\bat .+\.(js|ts):\d+/.test(answer.text)) fail('a stack trace in an answer');
  }
  return { body, fail };
}
