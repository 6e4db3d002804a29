/**
 * Reference: what a broker round trip costs. A bare amqplib consumer that answers each message
 * with its body through direct reply-to, Nagle's algorithm off; the requester is the bench
 * itself (bench/references.ts). With REFERENCE_DURABLE=1 the queue is a durable quorum queue
 * and each message is acknowledged after the reply, as the stack's services do with theirs
 * (persistent messages): the least the stack's delivery guarantees cost. Otherwise the queue is
 * transient and the consumer auto-acknowledges: the least a round trip can cost at all.
 * With REFERENCE_DB set as well, each message is a property id, read with the driver by `_id`
 * and answered with the document, acknowledged after the read: the floor of a get property.
 */
import { connect } from 'amqplib';
import mongoose from 'mongoose';
import { READY_LINE, REFERENCE_COLLECTION, referenceDatabase, referenceSettings } from './settings';

async function main(): Promise<void> {
  const { amqpUrl, queue } = referenceSettings();
  const durable = process.env.REFERENCE_DURABLE === '1';
  const read = process.env.REFERENCE_DB ? await propertyReader() : null;
  const connection = await connect(amqpUrl, { noDelay: true });
  const channel = await connection.createChannel();
  await channel.assertQueue(queue, durable ? { durable: true, arguments: { 'x-queue-type': 'quorum' } } : { durable: false });
  if (durable) await channel.prefetch(32);
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      const reply = (content: Buffer) => {
        const { replyTo, correlationId } = message.properties;
        channel.sendToQueue(replyTo, content, { correlationId });
        if (durable) channel.ack(message);
      };
      if (read) void read(message.content).then(reply);
      else reply(message.content);
    },
    { noAck: !durable },
  );
  console.log(READY_LINE);
}

/** Reads the property whose id a message holds, by `_id`, and answers with it as JSON. */
async function propertyReader(): Promise<(content: Buffer) => Promise<Buffer>> {
  const { uri, dbName } = referenceDatabase();
  const connection = await mongoose.createConnection(uri, { dbName }).asPromise();
  const properties = connection.db!.collection<{ _id: string }>(REFERENCE_COLLECTION);
  return async (content) => Buffer.from(JSON.stringify(await properties.findOne({ _id: content.toString() })));
}

void main();
