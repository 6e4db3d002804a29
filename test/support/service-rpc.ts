import { Channel, connect, ConsumeMessage } from 'amqplib';

/** A service's answer to a message: its response, or the error it was refused with. */
export interface ServiceAnswer {
  err?: { code: string };
  response?: any;
}

/**
 * Sends `pattern` with `data` straight onto `queue`, as an app's client would (under
 * `correlationId`, which sealed envelopes are bound to), on a connection of its own, and
 * resolves with the answer.
 */
export async function askQueue(queue: string, pattern: string, data: unknown, correlationId: string): Promise<ServiceAnswer> {
  const connection = await connect(process.env.AMQP_URL!);
  try {
    const channel = await connection.createChannel();
    const { queue: replyTo } = await channel.assertQueue('', { exclusive: true });
    const reply = new Promise<ServiceAnswer>((resolve) =>
      channel.consume(replyTo, (message) => message && resolve(JSON.parse(message.content.toString())), { noAck: true }),
    );
    const body = JSON.stringify({ pattern, data, id: correlationId });
    channel.sendToQueue(queue, Buffer.from(body), { replyTo, correlationId });
    const answer = await reply;
    await channel.close();
    return answer;
  } finally {
    await connection.close();
  }
}

/** Answers `message`, a request taken off a service's queue, with `response`, as that service would. */
export function answerAsService(channel: Channel, message: ConsumeMessage, response: unknown): void {
  const packet = JSON.parse(message.content.toString());
  channel.sendToQueue(message.properties.replyTo, Buffer.from(JSON.stringify({ id: packet.id, response, isDisposed: true })), {
    correlationId: message.properties.correlationId,
  });
}
