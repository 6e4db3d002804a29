import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { RmqContext } from '@nestjs/microservices';
import { FastifyRequest } from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import { Observable, tap } from 'rxjs';
import { APPLICATIONS, ErrorCode, PROPERTIES, ServiceError } from '@app/contracts';
import { SpanKind } from '@opentelemetry/api';
import { messagesHandled } from '../metrics/metrics';
import { withinRequestTrace } from '../tracing/server-span';
import { startSpan, withinCarriedTrace } from '../tracing/trace-context';
import { REQUEST_ID_HEADER, requestIdFrom, withRequestId } from './request-context';

/** Readiness pings arrive every few seconds: a line at debug is enough for them. */
const PINGS = new Set<string>([PROPERTIES.PING, APPLICATIONS.PING]);

/** What became of a message: `ok`, the code of the ServiceError it ended in, or `error`. */
export type MessageOutcome = 'ok' | ErrorCode | 'error';

/**
 * Runs each HTTP request and each message in the context of its request id, so that every line
 * logged while serving it carries the id and every message sent on its behalf passes it on
 * (see sendRpc). Over HTTP the id is the one Fastify gave the request (REQUEST_ID_OPTIONS); for
 * a message, its X-Request-Id header, or a new one for a message sent without it. A service also
 * logs one line per message it handled, with its pattern, outcome and duration, and counts it.
 * Each message is handled in a span named by its pattern, in the trace its headers carry.
 */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  constructor(private readonly logger: PinoLogger) {
    logger.setContext('Messages');
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const { id, raw } = context.switchToHttp().getRequest<FastifyRequest>();
      // In the request's trace: its server span, or no span when its trace is not sampled.
      return new Observable((subscriber) =>
        withinRequestTrace(raw, () => this.within(id, () => next.handle()).subscribe(subscriber)),
      );
    }
    if (context.getType() === 'rpc') return this.handleMessage(context.switchToRpc().getContext<RmqContext>(), next);
    return next.handle();
  }

  private handleMessage(rmq: RmqContext, next: CallHandler): Observable<unknown> {
    const message = rmq.getMessage() as
      { properties?: { headers?: Record<string, unknown>; correlationId?: string } } | undefined;
    const headers = message?.properties?.headers;
    const pattern = rmq.getPattern();
    // In the trace the message carries (its sender's), subscribed inside the span: the handler's
    // work, which runs on subscription, is its child.
    return new Observable((subscriber) =>
      withinCarriedTrace(headers, () => {
        const started = performance.now();
        const span = startSpan(pattern, SpanKind.SERVER, {
          'messaging.system': 'rabbitmq',
          'messaging.rabbitmq.pattern': pattern,
          ...(message?.properties?.correlationId ? { 'messaging.conversation_id': message.properties.correlationId } : {}),
        });
        const handled = (outcome: MessageOutcome) => {
          span.span.setAttribute('outcome', outcome);
          span.end(outcome === 'ok' ? undefined : outcome);
          messagesHandled.inc({ pattern, outcome });
          const durationMs = Math.round(performance.now() - started);
          this.logger[levelOf(pattern, outcome)]({ pattern, outcome, duration_ms: durationMs }, 'message handled');
        };
        const handling = this.within(requestIdFrom(headers?.[REQUEST_ID_HEADER]), () =>
          next.handle().pipe(tap({ complete: () => handled('ok'), error: (error: unknown) => handled(outcomeOf(error)) })),
        );
        return span.within(() => handling.subscribe(subscriber));
      }),
    );
  }

  /**
   * Subscribes to the handler inside the request's context, so all it does runs there. Log lines
   * written there carry the id: over HTTP from the request's logger, which pino-http bound to it;
   * for a message, from the logger's mixin (see requestIdLogField), as nestjs-pino opens no
   * logging context for one and a second store would cost every promise the message makes.
   */
  private within(requestId: string, handle: () => Observable<unknown>): Observable<unknown> {
    return new Observable((subscriber) => withRequestId(requestId, () => handle().subscribe(subscriber)));
  }
}

function outcomeOf(error: unknown): MessageOutcome {
  return error instanceof ServiceError ? error.code : 'error';
}

function levelOf(pattern: string, outcome: MessageOutcome): 'debug' | 'info' | 'warn' | 'error' {
  if (outcome === 'error' || outcome === ErrorCode.INTERNAL) return 'error';
  if (outcome === ErrorCode.SERVICE_UNAVAILABLE) return 'warn';
  return outcome === 'ok' && PINGS.has(pattern) ? 'debug' : 'info';
}
