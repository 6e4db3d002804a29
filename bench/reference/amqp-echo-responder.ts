/**
 * Reference: the least a broker round trip can cost. A bare amqplib consumer on a transient
 * queue, auto-acknowledging, that answers each message with its body through direct reply-to;
 * Nagle's algorithm off. The requester is the bench itself (see bench/references.ts).
 */
import { connect } from 'amqplib';
import { READY_LINE, referenceSettings } from './settings';

async function main(): Promise<void> {
  const { amqpUrl, queue } = referenceSettings();
  const connection = await connect(amqpUrl, { noDelay: true });
  const channel = await connection.createChannel();
  await channel.assertQueue(queue, { durable: false });
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      const { replyTo, correlationId } = message.properties;
      channel.sendToQueue(replyTo, message.content, { correlationId });
    },
    { noAck: true },
  );
  console.log(READY_LINE);
}

void main();
