import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { RmqContext } from '@nestjs/microservices';
import { EMPTY, Observable, tap } from 'rxjs';
import { deadlinePassed, Settlement } from './settlement';

/**
 * Takes each message into the settlement count and acknowledges it once its handler has
 * finished, with the work stored. Failures are settled by RpcErrorFilter. A message whose
 * caller has already stopped waiting is acknowledged without being worked on: the caller was
 * told 503, and doing the work now would do it behind their back.
 */
@Injectable()
export class SettlementInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Messages');

  constructor(private readonly settlement: Settlement) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const rmq = context.switchToRpc().getContext<RmqContext>();
    this.settlement.take(rmq);
    if (deadlinePassed(rmq.getMessage())) {
      this.logger.warn(`dropped ${rmq.getPattern()}: its caller stopped waiting before it was taken`);
      this.settlement.settle(rmq, 'ack');
      return EMPTY;
    }
    return next.handle().pipe(tap({ next: () => this.settlement.settle(rmq, 'ack') }));
  }
}
