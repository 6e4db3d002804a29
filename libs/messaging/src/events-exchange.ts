import type { ConfirmChannel } from 'amqplib';
import { EVENTS_EXCHANGE, queueName } from '@app/contracts';
import { BrokerChannel } from './broker-channel';
import { DEAD_LETTER_QUEUE_OPTIONS } from './rmq-options';

/** The events exchange of a namespace. */
export function eventsExchange(namespace: string): string {
  return queueName(namespace, EVENTS_EXCHANGE);
}

/**
 * The alternate exchange of the events exchange, and the queue bound to it: an event that no
 * queue is bound for (published before the webhooks service first ran, say) is kept there
 * instead of being dropped. Bounded as a dead-letter queue is, for a deployment that never runs
 * a consumer of them.
 */
export function unroutedEvents(exchange: string): string {
  return `${exchange}.unrouted`;
}

/** The events exchange's arguments: every declarer (publishers and consumers) must state the same. */
export function eventsExchangeOptions(exchange: string) {
  return { durable: true, arguments: { 'alternate-exchange': unroutedEvents(exchange) } };
}

/**
 * Declares the durable topic exchange the events go to, with the queue keeping what it cannot
 * route. An exchange an earlier version declared without its alternate exchange is kept as it
 * is (see BrokerChannel.declareOrKeep).
 */
export async function assertEventsExchange(channel: ConfirmChannel, broker: BrokerChannel, exchange: string): Promise<void> {
  const unrouted = unroutedEvents(exchange);
  await channel.assertExchange(unrouted, 'fanout', { durable: true });
  await channel.assertQueue(unrouted, DEAD_LETTER_QUEUE_OPTIONS);
  await channel.bindQueue(unrouted, unrouted, '');
  await broker.declareOrKeep(`exchange ${exchange}`, (probe) =>
    probe.assertExchange(exchange, 'topic', eventsExchangeOptions(exchange)),
  );
}
