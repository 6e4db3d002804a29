import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a process knows of the request it is serving, wherever it is in that request's work: its
 * id (for log lines and the messages sent on its behalf) and its deadline (for its database
 * operations and the requests it makes). One store for both: on Node 20 every AsyncLocalStorage
 * in use adds its own step to every promise the process creates, and a request creates hundreds.
 */
export interface RequestScope {
  requestId?: string;
  /** ms since the epoch, this process's clock. */
  deadline?: number;
}

const current = new AsyncLocalStorage<RequestScope>();

/** Runs `work`, and everything it starts, in the current scope with `fields` changed. */
export function withinScope<T>(fields: RequestScope, work: () => T): T {
  return current.run({ ...current.getStore(), ...fields }, work);
}

/** The scope of the work under way; empty outside any request. */
export function currentScope(): RequestScope {
  return current.getStore() ?? {};
}
