import { RmqContext } from '@nestjs/microservices';
import { DEADLINE_HEADER } from '@app/contracts';

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
  private idleWaiters: Array<() => void> = [];

  take(context: RmqContext): void {
    const message = context.getMessage();
    if (!this.settled.has(message)) this.unsettled.add(message);
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

/** True once the caller that sent the message has stopped waiting for the answer. */
export function deadlinePassed(message: AmqpMessage, now = Date.now()): boolean {
  const deadline = Number(message.properties?.headers?.[DEADLINE_HEADER]);
  return Number.isFinite(deadline) && deadline > 0 && now > deadline;
}

/** The id the caller gave this request: the same on every delivery of it. */
export function messageIdOf(message: AmqpMessage): string {
  return String(message.properties?.correlationId ?? '');
}
