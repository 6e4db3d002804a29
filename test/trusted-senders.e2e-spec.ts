import { randomUUID } from 'node:crypto';
import { Channel, ChannelModel, connect, ConsumeMessage } from 'amqplib';
import { PROPERTIES } from '@app/contracts';
import { api } from './support/http';
import { eventually } from './support/wait';
import { Stack } from '../tools/stack';

/** The broker user the tests connect as, the apps included. */
const brokerUser = () => decodeURIComponent(new URL(process.env.AMQP_URL!).username) || 'guest';

/**
 * With TRUSTED_SENDERS, a service takes only messages whose `user_id` (which RabbitMQ checks
 * against the publishing connection's user) names a trusted sender: a message from anyone else
 * on the broker, whatever `client_id` it carries, is dead-lettered unworked.
 */
describe('trusted senders', () => {
  let stack: Stack;
  let connection: ChannelModel;
  let channel: Channel;
  const replies = new Map<string, (body: any) => void>();

  const ask = (options: { userId?: string }): Promise<any> => {
    const id = randomUUID();
    const reply = new Promise((resolve) => replies.set(id, resolve));
    const packet = { pattern: PROPERTIES.GET, data: { client_id: 1, id: 1 }, id };
    channel.sendToQueue(`${stack.namespace}properties`, Buffer.from(JSON.stringify(packet)), {
      replyTo: 'amq.rabbitmq.reply-to',
      correlationId: id,
      ...options,
    });
    return reply;
  };

  beforeAll(async () => {
    stack = await Stack.start({ env: { TRUSTED_SENDERS: `${brokerUser()},someone-else` } });
    connection = await connect(process.env.AMQP_URL!);
    channel = await connection.createChannel();
    await channel.consume(
      'amq.rabbitmq.reply-to',
      (message: ConsumeMessage | null) =>
        message && replies.get(message.properties.correlationId)?.(JSON.parse(message.content.toString())),
      { noAck: true },
    );
  });

  afterAll(async () => {
    await connection?.close();
    await stack?.stop();
  });

  it('serves what the gateway and the applications service send: they stamp their broker user', async () => {
    const client = api(stack.url);
    const property = await client.post('/api/v2/properties', { property: { name: 'Trusted Court' } });
    expect(property.status).toBe(201);
    const application = await client.post('/api/v2/applications', {
      application: {
        property_id: property.body.property.id,
        applicant: { first_name: 'A', last_name: 'B', email: 'a@example.com' },
      },
    });
    expect(application.status).toBe(201);
    expect((await ask({ userId: brokerUser() })).response).toMatchObject({ property: { id: 1 } });
  });

  it('dead-letters unworked a message that names no trusted sender', async () => {
    const answer = await ask({});
    expect(answer.err).toMatchObject({ code: 'INTERNAL', message: 'a message from an untrusted sender (none)' });
    const deadLetters = `${stack.namespace}properties.dead-letter`;
    await eventually(
      'the message in the dead-letter queue',
      async () => (await channel.checkQueue(deadLetters)).messageCount === 1,
    );
  });

  it('cannot be fooled: the broker refuses a user_id that is not the publisher’s', async () => {
    const forger = await connection.createChannel();
    const closed = new Promise<Error>((resolve) => forger.on('error', resolve));
    forger.sendToQueue(`${stack.namespace}properties`, Buffer.from('{}'), { userId: 'someone-else' });
    expect(String(await closed)).toMatch(
      /PRECONDITION_FAILED - user_id property set to 'someone-else' but authenticated user was/,
    );
  });
});
