import { Logger } from '@nestjs/common';
import amqp, { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { SOCKET_OPTIONS } from './rmq-options';

/** A publish the broker has not confirmed within this long is failed, to be tried again later. */
export const PUBLISH_TIMEOUT_MS = 5000;

/**
 * A broker connection with one confirm channel, reconnecting by itself (amqp-connection-manager):
 * `setup` runs on every (re)connect to declare what the channel uses (and to consume), and every
 * publish resolves only once the broker confirmed it, so a caller that marks a message sent
 * after the publish never marks one the broker did not take.
 */
export class BrokerChannel {
  private readonly connection: AmqpConnectionManager;
  readonly channel: ChannelWrapper;

  constructor(url: string, name: string, setup: (channel: ConfirmChannel) => Promise<unknown>) {
    this.connection = amqp.connect([url], SOCKET_OPTIONS);
    this.channel = this.connection.createChannel({ name, confirm: true, publishTimeout: PUBLISH_TIMEOUT_MS, setup });
    const logger = new Logger(name);
    this.connection.on('disconnect', ({ err }) => logger.warn(`broker connection lost, reconnecting: ${String(err)}`));
    this.channel.on('connect', () => logger.log('broker channel ready'));
    this.channel.on('error', (error: unknown) => logger.warn(`broker channel failed: ${String(error)}`));
  }

  /** Publishes a persistent JSON message; resolves once the broker confirmed it. */
  async publish(exchange: string, routingKey: string, body: unknown, options: { messageId?: string } = {}): Promise<void> {
    await this.channel.publish(exchange, routingKey, Buffer.from(JSON.stringify(body)), {
      persistent: true,
      contentType: 'application/json',
      ...options,
    });
  }

  async close(): Promise<void> {
    await this.channel.close().catch(() => undefined);
    await this.connection.close().catch(() => undefined);
  }
}

/**
 * Acknowledges `message` once `work` is done; otherwise hands it back, to be taken again (a
 * queue's delivery limit dead-letters one that fails every time).
 */
export async function ackWhenDone(
  channel: ConfirmChannel,
  message: ConsumeMessage,
  work: () => Promise<void>,
  logger: Logger,
): Promise<void> {
  try {
    await work();
    channel.ack(message);
  } catch (error) {
    logger.warn(`will try again: ${String(error)}`);
    try {
      channel.nack(message, false, true);
    } catch {
      // The channel is gone: the broker hands the message out again anyway.
    }
  }
}
