import { Channel, ChannelModel, connect } from 'amqplib';
import { DEAD_LETTER_QUEUE_OPTIONS } from '@app/messaging';
import { api } from './support/http';
import { eventually } from './support/wait';
import { Stack } from '../tools/stack';

const REQUESTS = 1000;
const AT_ONCE = 50;

/**
 * The dead-letter queues stay bounded: a request that expires in the queue (its caller was told
 * 503) is dropped, not dead-lettered, and what is dead-lettered is capped in length and age.
 */
describe('dead letters', () => {
  let stack: Stack;
  let connection: ChannelModel;
  let channel: Channel;

  const depth = async (queue: string) => (await channel.checkQueue(`${stack.namespace}${queue}`)).messageCount;

  beforeAll(async () => {
    stack = await Stack.start({ env: { RPC_TIMEOUT_MS: '200' } });
    connection = await connect(process.env.AMQP_URL!);
    channel = await connection.createChannel();
  });

  afterAll(async () => {
    await connection?.close();
    await stack?.stop();
  });

  it('drops the requests that expired while their service was stopped, instead of dead-lettering them', async () => {
    await stack.stopApp('properties');
    const client = api(stack.url);
    const statuses: number[] = [];
    for (let sent = 0; sent < REQUESTS; sent += AT_ONCE) {
      const batch = await Promise.all(Array.from({ length: AT_ONCE }, () => client.get('/api/v2/properties/1')));
      statuses.push(...batch.map((answer) => answer.status));
    }
    expect(statuses).toEqual(Array(REQUESTS).fill(503));

    await eventually('every expired request to leave the properties queue', async () => (await depth('properties')) === 0, {
      timeoutMs: 30000,
      intervalMs: 200,
    });
    expect(await depth('properties.dead-letter')).toBe(0);
  });

  it('still dead-letters a message a consumer gives up on', async () => {
    const queue = `${stack.namespace}properties`;
    channel.sendToQueue(queue, Buffer.from('{ not json'), { persistent: true });
    const message = await eventually('the message to be in the queue', () => channel.get(queue, { noAck: false }));
    channel.nack(message, false, false);

    await eventually('the rejected message in the dead-letter queue', async () => (await depth('properties.dead-letter')) === 1);
  });

  it('caps the dead-letter queue in length and age', async () => {
    const deadLetters = `${stack.namespace}properties.dead-letter`;
    // A declaration is refused unless it states the arguments the queue has.
    await expect(channel.assertQueue(deadLetters, DEAD_LETTER_QUEUE_OPTIONS)).resolves.toBeDefined();
    const uncapped = await connection.createChannel();
    uncapped.on('error', () => undefined);
    await expect(uncapped.assertQueue(deadLetters, { durable: true, arguments: { 'x-queue-type': 'quorum' } })).rejects.toThrow(
      /PRECONDITION_FAILED/,
    );
    expect(DEAD_LETTER_QUEUE_OPTIONS.arguments).toMatchObject({
      'x-max-length': expect.any(Number),
      'x-message-ttl': expect.any(Number),
      'x-overflow': 'drop-head',
    });
  });
});
