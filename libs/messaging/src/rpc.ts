import { ClientProxy, RmqRecordBuilder } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { ErrorCode, isErrorPayload, SENT_AT_HEADER, ServiceError, TIME_REMAINING_HEADER } from '@app/contracts';
import { SpanKind } from '@opentelemetry/api';
import { inSpan, requestIdHeaders, rpcTimer, traceHeaders } from '@app/observability';
import { brokerUserOf } from './senders';

export const SERVICE_UNAVAILABLE_MESSAGE = 'the service is temporarily unavailable, retry later';

/**
 * The one way to ask another service something. @nestjs/microservices waits forever by
 * default; here every request has a deadline. A request nobody picked up by then expires in
 * the queue, and one taken late (held by a reconnecting channel, say) carries the time its caller
 * had left and when it was sent in its headers, so the service drops it instead of doing the work
 * behind the caller's back (see deadlineOf: the clocks of the two need not agree). The
 * message also carries the current request's id and trace context (`traceparent`, written now,
 * not when the channel gets to publish it) in its headers, and the time to its answer is measured
 * and traced, as a span named by its pattern.
 * Resolves with the answer or rejects with a ServiceError, never anything else.
 */
export async function sendRpc<TResult>(
  client: ClientProxy,
  pattern: string,
  data: unknown,
  timeoutMs: number,
  { persistent = true }: { persistent?: boolean } = {},
): Promise<TResult> {
  return inSpan(pattern, () => ask<TResult>(client, pattern, data, timeoutMs, persistent), { kind: SpanKind.CLIENT });
}

async function ask<TResult>(
  client: ClientProxy,
  pattern: string,
  data: unknown,
  timeoutMs: number,
  persistent: boolean,
): Promise<TResult> {
  const record = new RmqRecordBuilder(data)
    .setOptions({
      expiration: String(timeoutMs),
      persistent,
      userId: brokerUserOfClient(client),
      headers: {
        ...requestIdHeaders(),
        ...traceHeaders(),
        [TIME_REMAINING_HEADER]: String(timeoutMs),
        [SENT_AT_HEADER]: String(Date.now()),
      },
    })
    .build();
  const timer = rpcTimer(pattern);
  try {
    return timer.answered(await firstValueFrom(client.send<TResult>(pattern, record).pipe(timeout(timeoutMs))));
  } catch (error: unknown) {
    throw timer.failed(toServiceError(error));
  }
}

/**
 * The broker user `client` connects as, stamped on each message as its `user_id`: RabbitMQ
 * refuses a message whose user_id is not the publisher's, so a service can tell who sent it
 * (TRUSTED_SENDERS).
 */
function brokerUserOfClient(client: ClientProxy): string {
  const url = (client as { options?: { urls?: unknown[] } }).options?.urls?.[0];
  return typeof url === 'string' ? brokerUserOf(url) : 'guest';
}

export function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  if (isErrorPayload(error)) return new ServiceError(error.code, error.message, error.details ?? null);
  if (error instanceof TimeoutError) return ServiceError.unavailable(SERVICE_UNAVAILABLE_MESSAGE);
  // Anything else is the transport failing (broker gone, connection lost, channel closed).
  return new ServiceError(ErrorCode.SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE_MESSAGE);
}
