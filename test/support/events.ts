import { Channel, ChannelModel, connect } from 'amqplib';
import type { DomainEvent } from '@app/contracts';
import { eventsExchangeOptions } from '@app/messaging';

/**
 * Listens on a stack's events exchange, as any consumer would: a queue of its own bound to
 * every routing key, collecting each message published from the moment it is open.
 */
export class EventTap {
  readonly received: DomainEvent[] = [];
  readonly routingKeys: string[] = [];

  private constructor(
    private readonly connection: ChannelModel,
    private readonly channel: Channel,
  ) {}

  static async open(namespace: string): Promise<EventTap> {
    const connection = await connect(process.env.AMQP_URL!);
    const channel = await connection.createChannel();
    const exchange = `${namespace}events`;
    await channel.assertExchange(exchange, 'topic', eventsExchangeOptions(exchange));
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    await channel.bindQueue(queue, exchange, '#');
    const tap = new EventTap(connection, channel);
    await channel.consume(
      queue,
      (message) => {
        if (!message) return;
        tap.routingKeys.push(message.fields.routingKey);
        tap.received.push(JSON.parse(message.content.toString()) as DomainEvent);
      },
      { noAck: true },
    );
    return tap;
  }

  /** The events received so far with this name, each id once (an event may be published twice). */
  named(name: string): DomainEvent[] {
    const seen = new Map<string, DomainEvent>();
    for (const event of this.received) if (event.event === name && !seen.has(event.id)) seen.set(event.id, event);
    return [...seen.values()];
  }

  async close(): Promise<void> {
    await this.channel.close().catch(() => undefined);
    await this.connection.close().catch(() => undefined);
  }
}
