import { RmqContext } from '@nestjs/microservices';
import { SENT_AT_HEADER, TIME_REMAINING_HEADER } from '@app/contracts';

/** What becomes of a message once its handler is done with it. */
export type Outcome = 'ack' | 'retry' | 'dead-letter';

/** The part of an AMQP delivery read here (RmqContext types it loosely). */
type AmqpMessage = { properties?: { headers?: Record<string, unknown>; correlationId?: unknown } };

/**
 * Keeps count of the messages a service has taken and not yet settled, and settles each exactly
 * once: acknowledged, handed back to the queue for another try, or dead-lettered. A service
 * stopping waits here until what it took is settled.
 */
export class Settlement {
  private readonly unsettled = new Set<object>();
  private readonly settled = new WeakSet<object>();
  private readonly deadlines = new WeakMap<object, number | null>();
  private idleWaiters: Array<() => void> = [];

  take(context: RmqContext): void {
    const message = context.getMessage();
    if (!this.settled.has(message)) this.unsettled.add(message);
    this.deadlineOf(context);
  }

  /**
   * When the message's caller stops waiting, by this process's clock, measured from when it was
   * first taken (null when it carries no deadline).
   */
  deadlineOf(context: RmqContext): number | null {
    const message = context.getMessage();
    if (!this.deadlines.has(message)) this.deadlines.set(message, deadlineOf(message));
    return this.deadlines.get(message)!;
  }

  /** True once the caller that sent the message has stopped waiting for the answer. */
  deadlinePassed(context: RmqContext, now = Date.now()): boolean {
    const deadline = this.deadlineOf(context);
    return deadline !== null && now > deadline;
  }

  settle(context: RmqContext, outcome: Outcome): void {
    const message = context.getMessage();
    if (this.settled.has(message)) return;
    this.settled.add(message);
    this.unsettled.delete(message);
    const channel = context.getChannelRef();
    try {
      if (outcome === 'ack') channel.ack(message);
      else channel.nack(message, false, outcome === 'retry');
    } catch {
      // The channel is gone: the broker hands the message out again, which is what we want.
    }
    if (this.unsettled.size === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
  }

  get inFlight(): number {
    return this.unsettled.size;
  }

  /** Resolves once nothing is in flight, or after `timeoutMs`; true if it got there. */
  whenIdle(timeoutMs: number): Promise<boolean> {
    if (this.unsettled.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/** Which delivery of this message this is: 1 the first time. */
export function deliveryAttempt(message: AmqpMessage): number {
  const count = Number(message.properties?.headers?.['x-delivery-count'] ?? 0);
  return (Number.isFinite(count) ? count : 0) + 1;
}

/**
 * How far the sender's clock may be off this one's and still be believed. Beyond it the time the
 * message waited in its queue cannot be told apart from the difference of the clocks.
 */
export const CLOCK_SKEW_TOLERANCE_MS = 1000;

/**
 * When the caller of `message` stops waiting, by this process's clock: the time it had left
 * when it sent the message, counted from `receivedAt`, less the time the message waited in its
 * queue. That wait is read from the sender's clock only when what it implies is possible: the
 * broker expires a message that waited longer than its time left, so a message that seems to
 * have waited longer (or to come from the future) comes from a clock that is off, and then the
 * whole time left is granted. Null for a message without a deadline.
 */
export function deadlineOf(message: AmqpMessage, receivedAt = Date.now()): number | null {
  const headers = message.properties?.headers;
  const remaining = Number(headers?.[TIME_REMAINING_HEADER]);
  if (!Number.isFinite(remaining) || remaining <= 0) return null;
  const elapsed = receivedAt - Number(headers?.[SENT_AT_HEADER]);
  const believable = elapsed >= -CLOCK_SKEW_TOLERANCE_MS && elapsed <= remaining + CLOCK_SKEW_TOLERANCE_MS;
  const waited = believable ? Math.min(Math.max(elapsed, 0), remaining) : 0;
  return receivedAt + remaining - waited;
}

/** The id the caller gave this request: the same on every delivery of it. */
export function messageIdOf(message: AmqpMessage): string {
  return String(message.properties?.correlationId ?? '');
}
