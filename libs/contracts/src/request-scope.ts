import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a process knows of the request it is serving, wherever it is in that request's work: its
 * id (for log lines and the messages sent on its behalf), its deadline (for its database
 * operations and the requests it makes) and, when tracing is on, its trace's context. One store
 * for all three: on Node 20 every AsyncLocalStorage in use adds its own step to every promise
 * the process creates, and a request creates hundreds.
 */
export interface RequestScope {
  requestId?: string;
  /** ms since the epoch, this process's clock. */
  deadline?: number;
  /** OpenTelemetry's context, kept here by the tracing's context manager (RequestScopeContextManager). */
  traceContext?: unknown;
}

const current = new AsyncLocalStorage<RequestScope>();

const OUTSIDE: RequestScope = Object.freeze({});

/** Runs `work`, and everything it starts, in the current scope with `fields` changed. */
export function withinScope<T>(fields: RequestScope, work: () => T): T {
  return current.run({ ...current.getStore(), ...fields }, work);
}

/**
 * Changes `fields` of the current scope for the rest of the current synchronous work and what it
 * starts, until the returned function is called; for a caller that cannot wrap its work.
 */
export function enterScope(fields: RequestScope): () => void {
  const before = current.getStore();
  current.enterWith({ ...before, ...fields });
  return () => current.enterWith(before ?? OUTSIDE);
}

/** The scope of the work under way; empty outside any request. */
export function currentScope(): RequestScope {
  return current.getStore() ?? OUTSIDE;
}
