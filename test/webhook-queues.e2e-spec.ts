import { Channel, ChannelModel, connect, GetMessage } from 'amqplib';
import { brokerUserOf, queueOptions } from '@app/messaging';
import { RunningProcess, Stack } from '../tools/stack';
import { api, Api } from './support/http';
import { hostAndPort, TcpProxy } from './support/tcp-proxy';
import { eventually } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';

const webhooks = '/api/v2/webhooks';

/**
 * The webhooks service's queues: what it cannot read is dead-lettered at once, what fails while
 * its database is out of reach comes back after a delay, events published before its queue
 * existed are kept and delivered, and a broker an earlier version declared its queues on still
 * serves it.
 */
describe('webhook queues', () => {
  let stack: Stack;
  let client: Api;
  let receiver: WebhookReceiver;
  let connection: ChannelModel;
  let channel: Channel;

  const name = (queue: string) => `${stack.namespace}${queue}`;
  const depth = async (queue: string) => (await channel.checkQueue(name(queue))).messageCount;
  const logged = (process: RunningProcess, start: string) => process.logs.filter((log) => String(log.msg).startsWith(start));

  beforeAll(async () => {
    stack = await Stack.start({
      instances: { webhooks: 1 },
      env: {
        EVENT_RELAY_INTERVAL_MS: '100',
        WEBHOOK_RETRY_SCHEDULE: '1',
        WEBHOOK_RETRY_OVERDUE_SECONDS: '2',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      },
    });
    client = api(stack.url);
    receiver = await WebhookReceiver.start();
    connection = await connect(process.env.AMQP_URL!);
    channel = await connection.createChannel();
  });

  afterAll(async () => {
    await connection?.close();
    await receiver?.down();
    await stack?.stop();
  });

  const subscribe = async () => {
    const answer = await client.post(webhooks, { webhook: { url: receiver.url, events: ['property.created'] } });
    expect(answer.status).toBe(201);
    return answer.body.webhook;
  };
  const createProperty = async (propertyName: string): Promise<number> => {
    const answer = await client.post('/api/v2/properties', { property: { name: propertyName } });
    expect(answer.status).toBe(201);
    return answer.body.property.id;
  };
  const delivered = (propertyId: number, timeoutMs: number) =>
    eventually(
      `the webhook for property ${propertyId}`,
      () =>
        receiver.received.find((request) => {
          const body = JSON.parse(request.body);
          return body.event === 'property.created' && body.data.property_id === propertyId;
        }),
      { timeoutMs },
    );

  it.each([
    ['webhooks.events', '{ not json'],
    ['webhooks.events', JSON.stringify({ id: 'evt_1', event: 'property.exploded', client_id: 1 })],
    ['webhooks.deliveries', JSON.stringify({ key: 5, retry: 'once' })],
  ])('dead-letters an unreadable message on %s after one delivery: %s', async (queue, body) => {
    const worker = stack.process('webhooks');
    const warnings = logged(worker, 'dead-lettering a message').length;
    // As the apps' user, which the services' own queues take messages from.
    channel.sendToQueue(name(queue), Buffer.from(body), { persistent: true, userId: brokerUserOf(process.env.AMQP_URL!) });

    const deadLetter = await eventually('the message in the dead-letter queue', () =>
      channel.get(name(`${queue}.dead-letter`), { noAck: true }),
    );
    expect(deadLetter && deadLetter.content.toString()).toBe(body);
    expect((deadLetter as GetMessage).properties.headers?.['x-first-death-reason']).toBe('rejected');
    expect(await depth(queue)).toBe(0);
    expect(logged(worker, 'dead-lettering a message').length - warnings).toBe(1);
    expect(logged(worker, 'will try again').length).toBe(0);
  });

  it('keeps in the dead-letter queue an unreadable message that came back from a delay queue', async () => {
    channel.sendToQueue(name('webhooks.retry.1s'), Buffer.from('{ not json'), {
      persistent: true,
      userId: brokerUserOf(process.env.AMQP_URL!),
    });

    const deadLetter = await eventually('the message in the dead-letter queue', () =>
      channel.get(name('webhooks.deliveries.dead-letter'), { noAck: true }),
    );
    // Its first death is its wait in the retry queue.
    expect((deadLetter as GetMessage).properties.headers?.['x-first-death-reason']).toBe('expired');
    expect(await depth('webhooks.deliveries')).toBe(0);
  });

  it('queues again a retry whose message the broker lost, once it is overdue, and delivers it', async () => {
    const webhook = await subscribe();
    // What a delivery waiting for its first retry looks like when the broker lost that retry's
    // message (RabbitMQ 3.10 may hold a quorum queue's dead letters for minutes after a restart).
    const id = 'evt_lostretry00000000000000000001';
    const db = await stack.database('webhooks');
    try {
      await db.collection('deliveries').insertOne({
        _id: `${webhook.id}:${id}` as never,
        subscription_id: webhook.id,
        client_id: 1,
        body: {
          id,
          event: 'property.created',
          test_mode: false,
          created_at: '2026-11-26T00:00:00+00:00',
          data: { property_id: 424242 },
        },
        status: 'retrying',
        next_attempt_at: new Date(Date.now() - 60000),
        next_retry: 1,
        retry_token: 'lost',
        created_at: new Date(),
        updated_at: new Date(),
      });
      await delivered(424242, 30000);
      await eventually('the delivery succeeded', async () => {
        const stored = await db.collection('deliveries').findOne({ _id: `${webhook.id}:${id}` as never });
        return stored?.status === 'succeeded';
      });
    } finally {
      await db.close();
    }
    expect(logged(stack.process('webhooks'), 'queued 1 webhook retries again').length).toBeGreaterThanOrEqual(1);
  });

  it('declares its queues with a delivery limit and a dead-letter route', async () => {
    // A declaration is refused unless it states the arguments the queue has.
    for (const queue of ['webhooks.events', 'webhooks.deliveries']) {
      await expect(channel.assertQueue(name(queue), queueOptions(name(queue)))).resolves.toBeDefined();
    }
    expect(queueOptions('q').arguments).toMatchObject({
      'x-delivery-limit': 5,
      'x-dead-letter-exchange': 'q.dead-letter-exchange',
    });
  });

  it('keeps an event published before the webhooks queue exists, and delivers it once the service runs', async () => {
    await subscribe();
    await stack.stopApp('webhooks');
    await channel.deleteQueue(name('webhooks.events'));

    const property = await createProperty('Before the queue');
    await eventually('the event kept as unrouted', async () => (await depth('events.unrouted')) === 1);

    await stack.startApp('webhooks');
    await delivered(property, 30000);
    await eventually('the unrouted queue emptied', async () => (await depth('events.unrouted')) === 0);
  });

  it('backs off, without spinning, while its database is out of reach, and delivers once it is back', async () => {
    await subscribe();
    const database = await TcpProxy.start(hostAndPort(process.env.MONGODB_URI!, 27017));
    try {
      await stack.stopApp('webhooks');
      const worker = await stack.startApp('webhooks', { MONGODB_URI: database.rewrite(process.env.MONGODB_URI!) });
      await database.cut();

      const property = await createProperty('Database away');
      await eventually('the event waiting in the backoff queue', async () => (await depth('webhooks.events.backoff.10s')) === 1, {
        timeoutMs: 20000,
      });
      expect(logged(worker, 'will try again later').length).toBe(1);
      expect(await depth('webhooks.events.dead-letter')).toBe(0);

      await database.restore();
      await delivered(property, 60000);
      expect(await depth('webhooks.events.dead-letter')).toBe(0);
    } finally {
      await database.cut();
      await stack.stopApp('webhooks');
      await stack.startApp('webhooks');
    }
  });

  it('starts on a broker whose webhook queues and events exchange an earlier version declared', async () => {
    await subscribe();
    await stack.stopApp('webhooks');
    await stack.stopApp('properties');
    await stack.stopApp('applications');
    for (const queue of ['webhooks.events', 'webhooks.deliveries']) {
      await channel.deleteQueue(name(queue));
      await channel.assertQueue(name(queue), { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    }
    await channel.deleteExchange(name('events'));
    await channel.assertExchange(name('events'), 'topic', { durable: true });
    await Promise.all([stack.startApp('properties'), stack.startApp('applications')]);
    const worker = await stack.startApp('webhooks');
    // An exchange without its alternate exchange drops an event published before the queue is bound.
    await eventually(
      'the events queue bound and consumed',
      async () => (await channel.checkQueue(name('webhooks.events'))).consumerCount > 0,
    );

    await delivered(await createProperty('On an earlier broker'), 30000);
    const kept = worker.logs.filter((log) => /exists with other arguments/.test(String(log.msg)));
    // The events exchange, and both queues.
    expect(kept.length).toBe(3);
  });
});
