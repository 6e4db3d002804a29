import { ArgumentsHost, Catch, Logger, RpcExceptionFilter } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';
import { ErrorCode, ErrorPayload, ServiceError } from '@app/contracts';
import { SERVICE_UNAVAILABLE_MESSAGE } from './rpc';

const DATABASE_UNAVAILABLE = /^Mongo(ServerSelection|Network|NotConnected|Topology)/;

/**
 * Each service's one exception filter: whatever a handler throws goes back over the broker as
 * `{code, message, details}`. Unexpected errors are logged here and leave only a generic
 * message, so no internals reach a client.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => this.toPayload(exception));
  }

  private toPayload(exception: unknown): ErrorPayload {
    if (exception instanceof ServiceError) return exception.toPayload();
    const name = exception instanceof Error ? exception.name : typeof exception;
    if (DATABASE_UNAVAILABLE.test(name)) {
      this.logger.warn(`database unavailable: ${name}`);
      return { code: ErrorCode.SERVICE_UNAVAILABLE, message: SERVICE_UNAVAILABLE_MESSAGE, details: null };
    }
    this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    return { code: ErrorCode.INTERNAL, message: 'internal error', details: null };
  }
}
