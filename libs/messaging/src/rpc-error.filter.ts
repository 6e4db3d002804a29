import { ArgumentsHost, Catch, Logger, RpcExceptionFilter } from '@nestjs/common';
import { RmqContext } from '@nestjs/microservices';
import { NEVER, Observable, throwError } from 'rxjs';
import { ErrorCode, ErrorPayload, ServiceError } from '@app/contracts';
import { countDeadLettered } from '@app/observability';
import { MAX_DELIVERIES, requestQueueOf } from './rmq-options';
import { SERVICE_UNAVAILABLE_MESSAGE } from './rpc';
import { deliveryAttempt, Settlement } from './settlement';

/**
 * Tells a failure of something the service depends on that the same request may get past a
 * moment later (a database out of reach, or an operation of it cut at its time limit) from an
 * unexpected one. The service's database layer knows its driver's errors and supplies it.
 */
export type UnavailableClassifier = (error: unknown) => boolean;

const INTERNAL: ErrorPayload = { code: ErrorCode.INTERNAL, message: 'internal error', details: null };

/**
 * Each service's one exception filter. It answers the caller with `{code, message, details}`
 * and decides what becomes of the message:
 * - a refusal (invalid input, unknown property, busy key) is the answer: acknowledged;
 * - a database or downstream service out of reach: answered 503 and acknowledged;
 * - a message that can never be handled (no client id): answered and dead-lettered;
 * - anything unexpected: handed back to the queue without an answer, so that another try (maybe
 *   on another instance) answers the same caller; after MAX_DELIVERIES tries, or once the caller
 *   has stopped waiting, it is answered with a bare "internal error" and dead-lettered.
 * No internals reach a caller; unexpected errors are logged here.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrorFilter');

  constructor(
    private readonly settlement: Settlement,
    private readonly isUnavailable: UnavailableClassifier,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    const rmq = host.switchToRpc().getContext<RmqContext>();
    if (exception instanceof ServiceError) {
      if (exception.code === ErrorCode.INTERNAL) this.deadLetter(rmq, 'malformed');
      else this.settlement.settle(rmq, 'ack');
      return throwError(() => exception.toPayload());
    }
    if (this.isUnavailable(exception)) {
      this.logger.warn(`database unavailable: ${exception instanceof Error ? exception.name : typeof exception}`);
      this.settlement.settle(rmq, 'ack');
      return throwError(() => ServiceError.unavailable(SERVICE_UNAVAILABLE_MESSAGE).toPayload());
    }
    const message = rmq.getMessage();
    const attempt = deliveryAttempt(message);
    const detail = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
    if (attempt < MAX_DELIVERIES && !this.settlement.deadlinePassed(rmq)) {
      this.logger.warn(`${rmq.getPattern()} failed on delivery ${attempt} of ${MAX_DELIVERIES}, handing it back: ${detail}`);
      this.settlement.settle(rmq, 'retry');
      return NEVER;
    }
    this.logger.error(`${rmq.getPattern()} failed on delivery ${attempt}, dead-lettering it: ${detail}`);
    this.deadLetter(rmq, 'failed');
    return throwError(() => INTERNAL);
  }

  private deadLetter(rmq: RmqContext, reason: 'malformed' | 'failed'): void {
    this.settlement.settle(rmq, 'dead-letter');
    countDeadLettered(requestQueueOf(rmq.getMessage().fields), reason);
  }
}
