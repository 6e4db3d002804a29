import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Header of every request message: how long (ms) its caller was going to wait for the answer
 * when it sent it. A duration rather than a moment, so that the receiver measures it on its own
 * clock and two machines' clocks need not agree.
 */
export const TIME_REMAINING_HEADER = 'x-time-remaining-ms';

/** Header of every request message: when it was sent, by the sender's clock (ms since the epoch). */
export const SENT_AT_HEADER = 'x-sent-at';

const current = new AsyncLocalStorage<number>();

/** Runs `work`, and everything it starts, against `deadline` (ms since the epoch, this process's clock). */
export function withDeadline<T>(deadline: number, work: () => T): T {
  return current.run(deadline, work);
}

/** How long the request being served has left (at least 0), or undefined outside one. */
export function timeRemainingMs(now = Date.now()): number | undefined {
  const deadline = current.getStore();
  return deadline === undefined ? undefined : Math.max(0, deadline - now);
}
