import { Logger } from '@nestjs/common';
import amqp, { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import { SpanKind } from '@opentelemetry/api';
import { inSpan, QueueState, traceHeaders, watchQueue, withinCarriedTrace } from '@app/observability';
import { SOCKET_OPTIONS } from './rmq-options';
import { brokerUserOf, UntrustedSender } from './senders';

/** A publish the broker has not confirmed within this long is failed, to be tried again later. */
export const PUBLISH_TIMEOUT_MS = 5000;

/**
 * A broker connection with one confirm channel, reconnecting by itself (amqp-connection-manager):
 * `setup` runs on every (re)connect to declare what the channel uses (and to consume), and every
 * publish resolves only once the broker confirmed it, so a caller that marks a message sent
 * after the publish never marks one the broker did not take. Every message is stamped with the
 * broker user as its `user_id`, which the broker checks, so its consumers can tell who sent it.
 */
export class BrokerChannel {
  private readonly connection: AmqpConnectionManager;
  readonly channel: ChannelWrapper;
  /** The broker user this connects as. */
  readonly user: string;

  private readonly logger: Logger;

  constructor(url: string, name: string, setup: (channel: ConfirmChannel, broker: BrokerChannel) => Promise<unknown>) {
    this.user = brokerUserOf(url);
    this.connection = amqp.connect([url], SOCKET_OPTIONS);
    this.channel = this.connection.createChannel({
      name,
      confirm: true,
      publishTimeout: PUBLISH_TIMEOUT_MS,
      setup: (channel: ConfirmChannel) => setup(channel, this),
    });
    const logger = (this.logger = new Logger(name));
    this.connection.on('disconnect', ({ err }) => logger.warn(`broker connection lost, reconnecting: ${String(err)}`));
    this.channel.on('connect', () => logger.log('broker channel ready'));
    this.channel.on('error', (error: unknown) => logger.warn(`broker channel failed: ${String(error)}`));
  }

  /**
   * Publishes a persistent JSON message; resolves once the broker confirmed it. It carries the
   * current trace context in its headers, taken now: the channel may publish it later, on
   * reconnect, in another context.
   */
  async publish(exchange: string, routingKey: string, body: unknown, options: { messageId?: string } = {}): Promise<void> {
    await inSpan(
      `${routingKey} publish`,
      () =>
        this.channel.publish(exchange, routingKey, Buffer.from(JSON.stringify(body)), {
          persistent: true,
          contentType: 'application/json',
          userId: this.user,
          headers: traceHeaders(),
          ...options,
        }),
      { kind: SpanKind.PRODUCER, attributes: messagingAttributes('send', exchange, routingKey, options.messageId) },
    );
  }

  /**
   * Publishes `message` again to `queue` (through the default exchange): its body, id, content
   * type and headers, less the broker's delivery count. Its user id becomes this one's, as the
   * broker checks it against the publisher's own: check the sender before moving a message.
   */
  async republish(message: ConsumeMessage, queue: string): Promise<void> {
    const { contentType, messageId, headers = {} } = message.properties;
    const { 'x-delivery-count': _count, ...kept } = headers as Record<string, unknown>;
    await this.channel.publish('', queue, message.content, {
      persistent: true,
      contentType,
      messageId,
      headers: kept,
      userId: this.user,
    });
  }

  /**
   * Declares a queue or an exchange with `declare` on a channel of its own, so that a refusal
   * closes that channel only: a broker that holds it from an earlier version, with other
   * arguments, refuses the declaration (PRECONDITION_FAILED). Then it is kept as it is, with a
   * warning, and the service starts all the same; docs/operators/upgrades.md ("Upgrading queues") says how to give it
   * the new arguments (a policy, or a delete once empty). Resolves false when it was kept.
   */
  async declareOrKeep(what: string, declare: (channel: Channel) => Promise<unknown>): Promise<boolean> {
    const channel = await this.connection.connection!.createChannel();
    channel.on('error', () => undefined);
    try {
      await declare(channel);
      await channel.close();
      return true;
    } catch (error) {
      if (!/PRECONDITION_FAILED/.test(String(error))) throw error;
      this.logger.warn(`${what} exists with other arguments, from an earlier version; kept as it is: ${String(error)}`);
      return false;
    }
  }

  /**
   * Has the metrics read `queue` at each scrape (messages ready, consumers), on a channel of its
   * own: a queue gone closes that channel only.
   */
  watchQueue(queue: string): void {
    watchQueue(queue, () => queueStateOf(this.connection.connection, queue));
  }

  async close(): Promise<void> {
    await this.channel.close().catch(() => undefined);
    await this.connection.close().catch(() => undefined);
  }
}

/** Messages ready in `queue` and its consumers, asked on a channel of `connection` opened for it. */
export async function queueStateOf(
  connection: { createChannel(): Promise<Channel> } | undefined,
  queue: string,
): Promise<QueueState> {
  if (!connection) throw new Error('not connected');
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  try {
    const { messageCount, consumerCount } = await channel.checkQueue(queue);
    return { ready: messageCount, consumers: consumerCount };
  } finally {
    await channel.close().catch(() => undefined);
  }
}

/** Thrown by a handler for a message it can never work: not JSON, or not of the shape it takes. */
export class UnreadableMessage extends Error {
  constructor(reason: string) {
    super(`unreadable message: ${reason}`);
  }
}

/** Reads a message's body as JSON of the shape `isShape` accepts, or throws UnreadableMessage. */
export function readMessage<T>(message: ConsumeMessage, isShape: (body: unknown) => body is T, shape: string): T {
  let body: unknown;
  try {
    body = JSON.parse(message.content.toString());
  } catch {
    throw new UnreadableMessage('not JSON');
  }
  if (!isShape(body)) throw new UnreadableMessage(`not ${shape}`);
  return body;
}

/**
 * What to do with a message whose work failed for a while only (the database out of reach, say):
 * `backOff` hands it to a delay queue that brings it back later, so that it neither spins nor
 * uses up the queue's delivery limit while the outage lasts.
 */
export interface TransientFailures {
  isTransient: (error: unknown) => boolean;
  backOff: (message: ConsumeMessage) => Promise<void>;
}

/**
 * Acknowledges `message` once `work` is done. Otherwise: an unreadable one, or one from an
 * untrusted sender, is rejected at once (its queue's dead-letter route keeps it, see
 * deadLetterExchange; a queue without one drops it); one that failed for a while
 * only is backed off, when `transient` says so; any other is handed back, to be taken again (a
 * queue's delivery limit dead-letters one that fails every time).
 */
export async function ackWhenDone(
  channel: ConfirmChannel,
  message: ConsumeMessage,
  work: () => Promise<void>,
  logger: Logger,
  transient?: TransientFailures,
): Promise<void> {
  try {
    await consumedInCarriedTrace(message, work);
    channel.ack(message);
    return;
  } catch (error) {
    if (error instanceof UnreadableMessage) {
      logger.warn(`dead-lettering a message: ${error.message}`);
      return settle(() => channel.nack(message, false, false));
    }
    // Logged and counted by SenderCheck; dead-lettered where the queue has a route, else dropped.
    if (error instanceof UntrustedSender) return settle(() => channel.nack(message, false, false));
    if (transient?.isTransient(error)) {
      logger.warn(`will try again later: ${String(error)}`);
      const backedOff = await transient.backOff(message).then(
        () => true,
        () => false,
      );
      if (backedOff) return settle(() => channel.ack(message));
    } else {
      logger.warn(`will try again: ${String(error)}`);
    }
    settle(() => channel.nack(message, false, true));
  }
}

/**
 * Runs a consumed message's work in the trace its headers carry, in a span named by its routing
 * key (the event, or the work queue); nothing is traced outside a sampled trace.
 */
function consumedInCarriedTrace(message: ConsumeMessage, work: () => Promise<void>): Promise<void> {
  const { exchange, routingKey } = message.fields;
  return withinCarriedTrace(message.properties.headers, () =>
    inSpan(`${routingKey} process`, work, {
      kind: SpanKind.CONSUMER,
      attributes: messagingAttributes('process', exchange, routingKey, message.properties.messageId),
    }),
  );
}

/** A publish's or a consume's span attributes, in OpenTelemetry's messaging conventions. */
function messagingAttributes(operation: 'send' | 'process', exchange: string, routingKey: string, messageId?: unknown) {
  return {
    'messaging.system': 'rabbitmq',
    'messaging.operation.type': operation,
    'messaging.destination.name': exchange,
    'messaging.rabbitmq.destination.routing_key': routingKey,
    ...(messageId ? { 'messaging.message.id': String(messageId) } : {}),
  };
}

function settle(acknowledge: () => void): void {
  try {
    acknowledge();
  } catch {
    // The channel is gone: the broker hands the message out again anyway.
  }
}
