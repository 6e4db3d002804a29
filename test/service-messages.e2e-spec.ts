import { randomUUID } from 'node:crypto';
import { Channel, ChannelModel, connect, ConsumeMessage } from 'amqplib';
import { PROPERTIES } from '@app/contracts';
import { Stack } from '../tools/stack';

const PREFETCH = 2;

/**
 * Messages that reach a service without passing the gateway: the service validates them with
 * the same contract, answers with an error payload, and acknowledges them, so that refused
 * messages never pile up unacknowledged and stall the consumer at its prefetch limit.
 */
describe('a service answering messages sent straight to its queue', () => {
  let stack: Stack;
  let connection: ChannelModel;
  let channel: Channel;
  const replies = new Map<string, (body: any) => void>();

  const ask = (pattern: string, data: unknown): Promise<any> => {
    const id = randomUUID();
    const reply = new Promise((resolve) => replies.set(id, resolve));
    channel.sendToQueue(`${stack.namespace}properties`, Buffer.from(JSON.stringify({ pattern, data, id })), {
      replyTo: 'amq.rabbitmq.reply-to',
      correlationId: id,
      persistent: true,
    });
    return reply;
  };

  beforeAll(async () => {
    stack = await Stack.start({ env: { RMQ_PREFETCH: String(PREFETCH) } });
    connection = await connect(process.env.AMQP_URL!);
    channel = await connection.createChannel();
    await channel.consume(
      'amq.rabbitmq.reply-to',
      (message: ConsumeMessage | null) => {
        if (!message) return;
        const body = JSON.parse(message.content.toString());
        replies.get(message.properties.correlationId)?.(body);
      },
      { noAck: true },
    );
  });

  afterAll(async () => {
    await connection?.close();
    await stack?.stop();
  });

  it('refuses invalid requests with the validation error, and keeps consuming past its prefetch', async () => {
    const refused = await Promise.all(
      Array.from({ length: PREFETCH * 3 }, () =>
        ask(PROPERTIES.CREATE, { client_id: 1, request: { property: { name: '', extra: true } } }),
      ),
    );
    for (const reply of refused) {
      expect(reply.err).toEqual({
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining('property.name'),
        details: [
          { field: 'property.name', message: expect.any(String) },
          { field: 'property.extra', message: 'is not a known field' },
        ],
      });
    }

    const accepted = await ask(PROPERTIES.CREATE, { client_id: 1, request: { property: { name: 'Direct' } } });
    expect(accepted.err).toBeFalsy();
    expect(accepted.response.property).toMatchObject({ name: 'Direct', available: true });
  });

  it('refuses messages without a client id, and unknown patterns, without stalling', async () => {
    const anonymous = await Promise.all(Array.from({ length: PREFETCH * 2 }, () => ask(PROPERTIES.GET, { id: 1 })));
    for (const reply of anonymous) expect(reply.err).toMatchObject({ code: 'INTERNAL' });

    const unknown = await Promise.all(Array.from({ length: PREFETCH * 2 }, () => ask('properties.nothing', {})));
    for (const reply of unknown) expect(reply.err).toBeTruthy();

    const lookup = await ask(PROPERTIES.LOOKUP, { client_id: 1, id: 999999 });
    expect(lookup.err).toBeFalsy();
    expect(lookup.response).toBeNull();
  });
});
