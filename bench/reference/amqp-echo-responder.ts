/**
 * Reference: what a broker round trip costs. A bare amqplib consumer that answers each message
 * with its body through direct reply-to, Nagle's algorithm off; the requester is the bench
 * itself (bench/references.ts). With REFERENCE_DURABLE=1 the queue is a durable quorum queue
 * and each message is acknowledged after the reply, as the stack's services do with theirs
 * (persistent messages): the least the stack's delivery guarantees cost. Otherwise the queue is
 * transient and the consumer auto-acknowledges: the least a round trip can cost at all.
 */
import { connect } from 'amqplib';
import { READY_LINE, referenceSettings } from './settings';

async function main(): Promise<void> {
  const { amqpUrl, queue } = referenceSettings();
  const durable = process.env.REFERENCE_DURABLE === '1';
  const connection = await connect(amqpUrl, { noDelay: true });
  const channel = await connection.createChannel();
  await channel.assertQueue(queue, durable ? { durable: true, arguments: { 'x-queue-type': 'quorum' } } : { durable: false });
  if (durable) await channel.prefetch(32);
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      const { replyTo, correlationId } = message.properties;
      channel.sendToQueue(replyTo, message.content, { correlationId });
      if (durable) channel.ack(message);
    },
    { noAck: !durable },
  );
  console.log(READY_LINE);
}

void main();
