import { ClientProxy, ReadPacket, RmqRecord, WritePacket } from '@nestjs/microservices';
import { firstValueFrom, NEVER, timeout, TimeoutError } from 'rxjs';
import { ErrorCode, ServiceError } from '@app/contracts';
import { metricsRegistry, withRequestId } from '@app/observability';
import { SERVICE_UNAVAILABLE_MESSAGE, sendRpc, toServiceError } from './rpc';

describe('toServiceError', () => {
  it('passes a ServiceError through unchanged', () => {
    const error = ServiceError.propertyNotFound(5);
    expect(toServiceError(error)).toBe(error);
  });

  it('rebuilds the error payload a service sent back', () => {
    const details = [{ field: 'property.name', message: 'is required' }];
    const error = toServiceError({ code: 'VALIDATION_FAILED', message: 'property.name is required', details });
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.toPayload()).toEqual({ code: ErrorCode.VALIDATION_FAILED, message: 'property.name is required', details });
  });

  it.each([
    [{ code: 'PROPERTY_NOT_FOUND', message: 'property 9 cannot be found', details: null }],
    [{ code: 'PROPERTY_ID_INVALID', message: 'property_id is invalid or cannot be found', details: null }],
    [{ code: 'INTERNAL', message: 'internal error', details: null }],
    [{ code: 'SERVICE_UNAVAILABLE', message: SERVICE_UNAVAILABLE_MESSAGE, details: null }],
  ])('keeps the code and message of %j', (payload) => {
    expect(toServiceError(payload).toPayload()).toEqual(payload);
  });

  it('gives null details when the payload has none', () => {
    const error = toServiceError({ code: 'INTERNAL', message: 'internal error' });
    expect(error.code).toBe(ErrorCode.INTERNAL);
    expect(error.details).toBeNull();
  });

  it('turns a timeout into SERVICE_UNAVAILABLE', async () => {
    const timedOut = await firstValueFrom(NEVER.pipe(timeout(1))).catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    const error = toServiceError(timedOut);
    expect(error.toPayload()).toEqual({
      code: ErrorCode.SERVICE_UNAVAILABLE,
      message: SERVICE_UNAVAILABLE_MESSAGE,
      details: null,
    });
  });

  it.each([
    ['a connection error', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5672'), { code: 'ECONNREFUSED' })],
    ['a closed channel', new Error('Channel closed')],
    ['a thrown string', 'Disconnected from RMQ. Trying to reconnect.'],
    ['an object that is no error payload', { err: 'socket hang up' }],
    ['a payload with an unknown code', { code: 'TEAPOT', message: 'short and stout' }],
    ['undefined', undefined],
  ])('turns %s into SERVICE_UNAVAILABLE without its text', (_label, failure) => {
    const error = toServiceError(failure);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.toPayload()).toEqual({
      code: ErrorCode.SERVICE_UNAVAILABLE,
      message: SERVICE_UNAVAILABLE_MESSAGE,
      details: null,
    });
  });
});

type Responder = (pattern: string, record: RmqRecord) => WritePacket | undefined;

/**
 * A ClientProxy that answers in process, asynchronously as a broker would; a responder that
 * returns undefined never answers.
 */
class InProcessClient extends ClientProxy {
  constructor(
    private readonly respond: Responder,
    private readonly reachable = true,
  ) {
    super();
  }

  async connect(): Promise<void> {
    if (!this.reachable) throw new Error('connect ECONNREFUSED 127.0.0.1:5672');
  }

  close(): void {}

  unwrap<T>(): T {
    throw new Error('an in-process client has no underlying connection');
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const answer = this.respond(packet.pattern, packet.data as RmqRecord);
    const pending = answer ? setTimeout(() => callback(answer), 0) : undefined;
    return () => clearTimeout(pending);
  }

  protected async dispatchEvent<T>(): Promise<T> {
    throw new Error('events are not used');
  }
}

describe('sendRpc', () => {
  it('resolves with the answer to the message it sent', async () => {
    const client = new InProcessClient((pattern, record) => ({
      response: { pattern, data: record.data },
      isDisposed: true,
    }));
    const answer = await sendRpc(client, 'properties.get', { client_id: 7, id: 3 }, 500);
    expect(answer).toEqual({ pattern: 'properties.get', data: { client_id: 7, id: 3 } });
  });

  it('gives the message the deadline as its expiration, so an unread request dies in the queue', async () => {
    const client = new InProcessClient((_pattern, record) => ({ response: record.options, isDisposed: true }));
    const options = await sendRpc<{ expiration?: string }>(client, 'properties.get', {}, 750);
    expect(options.expiration).toBe('750');
  });

  it('carries the current request id in the message headers', async () => {
    const client = new InProcessClient((_pattern, record) => ({ response: record.options, isDisposed: true }));
    const options = await withRequestId('req-77', () =>
      sendRpc<{ headers?: Record<string, string> }>(client, 'properties.get', {}, 500),
    );
    expect(options.headers?.['x-request-id']).toBe('req-77');
  });

  it('sends no request id outside a request', async () => {
    const client = new InProcessClient((_pattern, record) => ({ response: record.options, isDisposed: true }));
    const options = await sendRpc<{ headers?: Record<string, string> }>(client, 'properties.get', {}, 500);
    expect(options.headers).not.toHaveProperty('x-request-id');
  });

  it('tells the service how long the caller waits and when it sent the request, and marks pings transient', async () => {
    const client = new InProcessClient((_pattern, record) => ({ response: record.options, isDisposed: true }));
    const before = Date.now();
    type Options = { headers?: Record<string, string>; persistent?: boolean; expiration?: string };
    const options = await sendRpc<Options>(client, 'properties.get', {}, 500);
    expect(options.headers?.['x-time-remaining-ms']).toBe('500');
    expect(Number(options.headers?.['x-sent-at'])).toBeGreaterThanOrEqual(before);
    expect(Number(options.headers?.['x-sent-at'])).toBeLessThanOrEqual(Date.now());
    expect(options).toMatchObject({ expiration: '500', persistent: true, userId: 'guest' });
    const ping = await sendRpc<Options>(client, 'properties.ping', {}, 500, { persistent: false });
    expect(ping).toMatchObject({ expiration: '500', persistent: false });
  });

  it('measures each request by pattern and outcome', async () => {
    const count = async (pattern: string, outcome: string) => {
      const { values } = await metricsRegistry.getSingleMetric('rpc_duration_seconds')!.get();
      const sample = values.find(
        (v) =>
          (v as { metricName?: string }).metricName === 'rpc_duration_seconds_count' &&
          v.labels.pattern === pattern &&
          v.labels.outcome === outcome,
      );
      return sample?.value ?? 0;
    };
    const answering = new InProcessClient(() => ({ response: 'yes', isDisposed: true }));
    const refusing = new InProcessClient(() => ({ err: { code: 'PROPERTY_NOT_FOUND', message: 'property 1 cannot be found' } }));

    await sendRpc(answering, 'measured.pattern', {}, 500);
    await sendRpc(answering, 'measured.pattern', {}, 500);
    await sendRpc(refusing, 'measured.pattern', {}, 500).catch(() => undefined);

    expect(await count('measured.pattern', 'ok')).toBe(2);
    expect(await count('measured.pattern', 'PROPERTY_NOT_FOUND')).toBe(1);
  });

  it('rejects with the ServiceError a service answered with', async () => {
    const client = new InProcessClient(() => ({
      err: { code: 'PROPERTY_NOT_FOUND', message: 'property 3 cannot be found', details: null },
    }));
    const failure = await sendRpc(client, 'properties.get', { client_id: 7, id: 3 }, 500).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ServiceError);
    expect((failure as ServiceError).toPayload()).toEqual({
      code: ErrorCode.PROPERTY_NOT_FOUND,
      message: 'property 3 cannot be found',
      details: null,
    });
  });

  it('rejects with SERVICE_UNAVAILABLE once the deadline passes without an answer', async () => {
    const client = new InProcessClient(() => undefined);
    const started = Date.now();
    const failure = await sendRpc(client, 'properties.get', {}, 60).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(failure).toBeInstanceOf(ServiceError);
    expect((failure as ServiceError).code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
    expect((failure as ServiceError).message).toBe(SERVICE_UNAVAILABLE_MESSAGE);
  });

  it('rejects with SERVICE_UNAVAILABLE when the broker cannot be reached', async () => {
    const client = new InProcessClient(() => ({ response: 'never sent', isDisposed: true }), false);
    const failure = await sendRpc(client, 'properties.get', {}, 500).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ServiceError);
    expect((failure as ServiceError).code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
  });

  it('rejects with SERVICE_UNAVAILABLE when the transport fails mid-request', async () => {
    const client = new InProcessClient(() => ({ err: new Error('Channel closed by server: 320 (CONNECTION-FORCED)') }));
    const failure = await sendRpc(client, 'properties.get', {}, 500).catch((e: unknown) => e);
    expect((failure as ServiceError).toPayload()).toEqual({
      code: ErrorCode.SERVICE_UNAVAILABLE,
      message: SERVICE_UNAVAILABLE_MESSAGE,
      details: null,
    });
  });
});
