import { currentScope, withinScope } from './request-scope';

/**
 * Header of every request message: how long (ms) its caller was going to wait for the answer
 * when it sent it. A duration rather than a moment, so that the receiver measures it on its own
 * clock and two machines' clocks need not agree.
 */
export const TIME_REMAINING_HEADER = 'x-time-remaining-ms';

/** Header of every request message: when it was sent, by the sender's clock (ms since the epoch). */
export const SENT_AT_HEADER = 'x-sent-at';

/** Runs `work`, and everything it starts, against `deadline` (ms since the epoch, this process's clock). */
export function withDeadline<T>(deadline: number, work: () => T): T {
  return withinScope({ deadline }, work);
}

/** How long the request being served has left (at least 0), or undefined outside one. */
export function timeRemainingMs(now = Date.now()): number | undefined {
  const { deadline } = currentScope();
  return deadline === undefined ? undefined : Math.max(0, deadline - now);
}

/** The deadline of the request being served (ms since the epoch, this process's clock), or undefined outside one. */
export function currentDeadline(): number | undefined {
  return currentScope().deadline;
}

/**
 * Runs `work`, and everything it starts (timers included), outside any request: for background
 * work that a request merely set going, which must not inherit that request's deadline. A timer
 * keeps the context it was set in, so one set while a message was handled would otherwise give
 * every later operation of that work the message's long-passed deadline.
 */
export function outsideRequests<T>(work: () => T): T {
  return withinScope({ deadline: undefined }, work);
}

/**
 * Runs `work` for several requests at once (a batch of their claims): against the latest of
 * their deadlines, so that none is cut short by another's, or outside any deadline when one of
 * them has none.
 */
export function forRequests<T>(deadlines: Array<number | undefined>, work: () => T): T {
  if (deadlines.length === 0 || deadlines.some((deadline) => deadline === undefined)) return outsideRequests(work);
  return withDeadline(Math.max(...(deadlines as number[])), work);
}
