import { randomUUID } from 'node:crypto';
import { storage } from 'nestjs-pino/storage';
import { currentScope, withinScope } from '@app/contracts';

/**
 * The header that carries a request's id: on the HTTP request and response at the gateway, and
 * on every message sent on the request's behalf, so that one id finds its log lines in every
 * process it passed through.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

// Enough for a UUID, a trace id or a load balancer's id; nothing that could break a log line.
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id a caller sent, when it is a sensible one; otherwise a new one. */
export function requestIdFrom(candidate: unknown): string {
  return typeof candidate === 'string' && ACCEPTABLE_ID.test(candidate) ? candidate : randomUUID();
}

/** Runs `work`, and everything it starts, as part of the request `requestId`. */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return withinScope({ requestId }, work);
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return currentScope().requestId;
}

/** The message headers that carry the current request's id onward (none outside a request). */
export function requestIdHeaders(): Record<string, string> {
  const requestId = currentRequestId();
  return requestId === undefined ? {} : { [REQUEST_ID_HEADER]: requestId };
}

/**
 * The request id for a log line, unless the line's logger has it bound already: an HTTP request's
 * logger (pino-http binds the id to it, and nestjs-pino keeps it for the request) has; work on a
 * message has none, so the id comes from the request's scope.
 */
export function requestIdLogField(): { request_id?: string } {
  const requestId = currentRequestId();
  return requestId === undefined || storage.getStore() !== undefined ? {} : { request_id: requestId };
}
