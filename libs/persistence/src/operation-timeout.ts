import { mongo } from 'mongoose';
import { timeRemainingMs } from '@app/contracts';

let installed = false;

/**
 * Bounds every database operation made while a message is handled by the time its caller has
 * left (the driver's client-side operation timeout, `timeoutMS`), so that a stalled database
 * fails the operation at the message's deadline instead of holding it, and its prefetch slot,
 * for as long as the stall lasts. An operation given its own `timeoutMS` keeps it; outside a
 * message (index setup at boot) the collection's own setting applies.
 *
 * The driver reads each operation's default from its collection's `timeoutMS`; this answers it
 * from the deadline of the message being handled, once for every collection of the process.
 */
export function boundOperationsByDeadline(): void {
  if (installed) return;
  installed = true;
  const configured = Object.getOwnPropertyDescriptor(mongo.Collection.prototype, 'timeoutMS')?.get;
  if (!configured) throw new Error('the MongoDB driver has no Collection.timeoutMS: operation timeouts cannot be set');
  Object.defineProperty(mongo.Collection.prototype, 'timeoutMS', {
    configurable: true,
    get(this: mongo.Collection): number | undefined {
      const remaining = timeRemainingMs();
      // 0 would mean "no limit" to the driver: a passed deadline still fails at once.
      return remaining === undefined ? configured.call(this) : Math.max(1, remaining);
    },
  });
}
