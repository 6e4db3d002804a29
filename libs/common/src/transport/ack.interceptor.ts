import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { RmqContext } from '@nestjs/microservices';
import { Observable, tap } from 'rxjs';

/**
 * Acknowledges a message once its handler has finished, stored or refused the work. The server
 * runs with `noAck: false`, so a process that dies mid-handler leaves the message on the queue
 * for another instance. A handler that failed has already answered the caller with an error,
 * so its message is acknowledged too rather than retried behind the caller's back.
 */
@Injectable()
export class AckInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const rmq = context.switchToRpc().getContext<RmqContext>();
    const ack = () => rmq.getChannelRef().ack(rmq.getMessage());
    return next.handle().pipe(tap({ next: ack, error: ack }));
  }
}
