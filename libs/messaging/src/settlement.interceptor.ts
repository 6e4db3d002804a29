import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { RmqContext } from '@nestjs/microservices';
import { catchError, EMPTY, Observable, tap, throwError, timeout } from 'rxjs';
import { ErrorCode, ServiceError, withDeadline } from '@app/contracts';
import { UnavailableClassifier } from './rpc-error.filter';
import { SERVICE_UNAVAILABLE_MESSAGE } from './rpc';
import { PatternSenders, senderOf } from './senders';
import { Settlement } from './settlement';

const unavailable = () => ServiceError.unavailable(SERVICE_UNAVAILABLE_MESSAGE);

/**
 * Takes each message into the settlement count and acknowledges it once its handler has
 * finished, with the work stored. Failures are settled by RpcErrorFilter. A message whose
 * caller has already stopped waiting is acknowledged without being worked on: the caller was
 * told 503, and doing the work now would do it behind their back. A handler still at work when
 * the deadline passes (a stalled database, say) is given up on there, answered 503 and its
 * message acknowledged, so that it cannot hold a prefetch slot for longer than its caller waits;
 * what it does runs against that deadline (`withDeadline`), which bounds its database operations.
 * With trusted senders, a message whose `user_id` names none of them, or one whose role does not
 * send its pattern (see PATTERN_SENDERS), is refused unworked.
 */
@Injectable()
export class SettlementInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Messages');

  /** `isUnavailable`: failures answered 503 (see RpcErrorFilter); `senders`: who may send which pattern. */
  constructor(
    private readonly settlement: Settlement,
    private readonly isUnavailable: UnavailableClassifier,
    private readonly senders = new PatternSenders([]),
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const rmq = context.switchToRpc().getContext<RmqContext>();
    this.settlement.take(rmq);
    const sender = senderOf(rmq.getMessage());
    if (!this.senders.allows(rmq.getPattern(), sender)) {
      // Refused before any handler runs; the error filter dead-letters it.
      return throwError(() => new ServiceError(ErrorCode.INTERNAL, `a message from an untrusted sender (${sender ?? 'none'})`));
    }
    if (this.settlement.deadlinePassed(rmq)) {
      this.logger.warn(`dropped ${rmq.getPattern()}: its caller stopped waiting before it was taken`);
      this.settlement.settle(rmq, 'ack');
      return EMPTY;
    }
    const deadline = this.settlement.deadlineOf(rmq);
    const settled = (handled: Observable<unknown>) => handled.pipe(tap({ next: () => this.settlement.settle(rmq, 'ack') }));
    if (deadline === null) return settled(next.handle());
    return settled(
      new Observable((subscriber) => withDeadline(deadline, () => next.handle().subscribe(subscriber))).pipe(
        timeout({ first: Math.max(0, deadline - Date.now()), with: () => throwError(unavailable) }),
        // Whichever comes first at the deadline, this or the database operation's own timeout.
        catchError((error: unknown) => throwError(() => (this.isUnavailable(error) ? unavailable() : error))),
      ),
    );
  }
}
