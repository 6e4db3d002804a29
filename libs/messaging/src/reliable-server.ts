import { MessageHandler, OutgoingResponse, RmqContext, ServerRMQ } from '@nestjs/microservices';
import { countDeadLettered, watchQueue } from '@app/observability';
import { queueStateOf } from './broker-channel';
import { assertDeadLetterRoute, DeclaringChannel, rmqServerOptions } from './rmq-options';
import { Settlement } from './settlement';

/** Starts with a character no JSON text starts with (JSON.parse would throw). */
const NOT_JSON = /^[^\s{["\d\-tfn]/;

interface ConsumerChannel extends DeclaringChannel {
  cancel(consumerTag: string): Promise<unknown>;
}

/**
 * The RMQ transport with two additions: the dead-letter exchange and queue are declared before
 * consuming, so that nothing worth keeping is dropped for want of them, and `drain` stops taking messages and
 * waits for those taken to be settled, so that a stopping instance finishes its work.
 */
export class ReliableServerRMQ extends ServerRMQ {
  private consumerChannel?: ConsumerChannel;

  constructor(
    private readonly settings: ReturnType<typeof rmqServerOptions>,
    private readonly settlement: Settlement,
  ) {
    super(settings);
  }

  override async setupChannel(channel: ConsumerChannel, callback: () => void): Promise<void> {
    const { queue } = this.settings;
    await assertDeadLetterRoute(channel, queue);
    this.consumerChannel = channel;
    const { prefetchCount } = this.settings;
    watchQueue(queue, async () => ({
      ...(await queueStateOf((this.server as { connection?: Parameters<typeof queueStateOf>[0] } | null)?.connection, queue)),
      utilization: this.settlement.inFlight / prefetchCount,
    }));
    return super.setupChannel(channel, callback);
  }

  /**
   * Nest first tries each incoming pattern as JSON, and a plain pattern such as
   * `properties.get` fails to parse: a SyntaxError, with its stack, per message, which was
   * 2.5% of the properties service's CPU under load. A pattern that cannot start a JSON text is
   * taken as it is; any other goes through Nest's own reading, so every pattern routes as before.
   */
  protected override getRouteFromPattern(pattern: string): string {
    return NOT_JSON.test(pattern) ? this.normalizePattern(pattern) : super.getRouteFromPattern(pattern);
  }

  /**
   * Nest dead-letters a message no handler takes (an unknown pattern, or no readable pattern at
   * all) itself, after asking here; it is counted with the other dead letters.
   */
  override getHandlerByPattern(pattern: string): MessageHandler | null {
    const handler = super.getHandlerByPattern(pattern);
    if (!handler) countDeadLettered(this.settings.queue, 'unroutable');
    return handler;
  }

  /**
   * Sends a reply as Nest does, but hears how it ends. Nest drops the promise of the publish; when
   * the connection is lost before the broker confirmed it (heartbeats missed across a partition),
   * its rejection went unhandled and ended the process. The reply is lost either way (its caller
   * is answered 503 at its deadline, and a retry finds what was stored): it is logged instead.
   */
  override sendMessage<T = unknown>(message: T, replyTo: string, correlationId: string, context: RmqContext): void {
    const { options, ...outgoing } = this.serializer.serialize(message as OutgoingResponse) as { options?: object };
    this.onProcessingEndHook?.(this.transportId!, context);
    this.channel!.sendToQueue(replyTo, Buffer.from(JSON.stringify(outgoing)), { correlationId, ...options }).catch(
      (error: unknown) => this.logger.warn(`a reply was not confirmed by the broker, and is lost: ${String(error)}`),
    );
  }

  /** Stops the consumer and waits up to `timeoutMs` for the messages in hand; true if all settled. */
  async drain(timeoutMs: number): Promise<boolean> {
    await this.consumerChannel?.cancel(this.settings.consumerTag).catch(() => undefined);
    return this.settlement.whenIdle(timeoutMs);
  }
}
