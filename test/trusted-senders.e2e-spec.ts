import { randomUUID } from 'node:crypto';
import { Channel, ChannelModel, connect, ConsumeMessage } from 'amqplib';
import { PROPERTIES } from '@app/contracts';
import { BrokerUser } from './support/broker-users';
import { api } from './support/http';
import { eventually } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';
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
  let channel: Channel;
  /** Another broker user, allowed to publish anywhere: the form, say, or anything holding its password. */
  let forger: BrokerUser;
  const replies = new Map<string, (body: any) => void>();
  const connections: ChannelModel[] = [];

  /** Asks the properties service `pattern` on `on` (the apps' user's channel unless another). */
  const ask = (
    options: { userId?: string },
    { pattern = PROPERTIES.GET as string, data = { client_id: 1, id: 1 } as object, on = channel } = {},
  ): Promise<any> => {
    const id = randomUUID();
    const reply = new Promise((resolve) => replies.set(id, resolve));
    const packet = { pattern, data, id };
    on.sendToQueue(`${stack.namespace}properties`, Buffer.from(JSON.stringify(packet)), {
      replyTo: 'amq.rabbitmq.reply-to',
      correlationId: id,
      ...options,
    });
    return reply;
  };

  /** A channel on a connection to `url` whose answers come back to `ask`. */
  const channelOf = async (url: string): Promise<Channel> => {
    const opened = await connect(url);
    connections.push(opened);
    const own = await opened.createChannel();
    await own.consume(
      'amq.rabbitmq.reply-to',
      (message: ConsumeMessage | null) =>
        message && replies.get(message.properties.correlationId)?.(JSON.parse(message.content.toString())),
      { noAck: true },
    );
    return own;
  };

  beforeAll(async () => {
    forger = await BrokerUser.add('forger-');
    stack = await Stack.start({
      instances: { webhooks: 1, notifications: 1 },
      env: {
        // The apps here all connect as one user; the forger stands in for the form.
        TRUSTED_SENDERS: `gateway:${brokerUser()},applications:${brokerUser()},form:${forger.name}`,
        EVENT_PUBLISHERS: brokerUser(),
        EVENT_RELAY_INTERVAL_MS: '100',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      },
    });
    channel = await channelOf(process.env.AMQP_URL!);
  });

  afterAll(async () => {
    for (const opened of connections) await opened.close();
    await stack?.stop();
    await forger?.remove();
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

  it('takes from the form only the form’s own patterns: a property delete it sends is dead-lettered unworked', async () => {
    const form = await channelOf(forger.url);
    const stamped = { userId: forger.name };
    const deadLetters = `${stack.namespace}properties.dead-letter`;
    const before = (await channel.checkQueue(deadLetters)).messageCount;

    expect((await ask(stamped, { pattern: PROPERTIES.FORM_GET, data: { id: 1 }, on: form })).response).toMatchObject({
      client_id: 1,
      property: { id: 1 },
    });
    const deleting = await ask(stamped, { pattern: PROPERTIES.DELETE, data: { client_id: 1, id: 1 }, on: form });
    expect(deleting.err).toMatchObject({ code: 'INTERNAL', message: `a message from an untrusted sender (${forger.name})` });
    await eventually(
      'the delete in the dead-letter queue',
      async () => (await channel.checkQueue(deadLetters)).messageCount === before + 1,
    );
    expect((await api(stack.url).get('/api/v2/properties/1')).status).toBe(200);
    // The same user is refused the gateway's read of a property, too, and the lookup meant for the applications service.
    for (const pattern of [PROPERTIES.GET, PROPERTIES.LOOKUP]) {
      expect((await ask(stamped, { pattern, on: form })).err).toMatchObject({ code: 'INTERNAL' });
    }
  });

  it('cannot be fooled: the broker refuses a user_id that is not the publisher’s', async () => {
    const opened = await connect(process.env.AMQP_URL!);
    connections.push(opened);
    const lying = await opened.createChannel();
    const closed = new Promise<Error>((resolve) => lying.on('error', resolve));
    lying.sendToQueue(`${stack.namespace}properties`, Buffer.from('{}'), { userId: 'someone-else' });
    expect(String(await closed)).toMatch(
      /PRECONDITION_FAILED - user_id property set to 'someone-else' but authenticated user was/,
    );
  });

  it('delivers no webhook for an event published by a user that publishes no events, wherever it is put', async () => {
    const client = api(stack.url);
    const receiver = await WebhookReceiver.start();
    try {
      const hook = await client.post('/api/v2/webhooks', { webhook: { url: receiver.url, events: ['property.created'] } });
      expect(hook.status).toBe(201);
      const forgerConnection = await connect(forger.url);
      try {
        const forging = await forgerConnection.createConfirmChannel();
        const forged = (id: string) =>
          Buffer.from(
            JSON.stringify({
              id,
              event: 'property.created',
              client_id: 1,
              test_mode: false,
              created_at: '2026-11-22T14:03:09+00:00',
              data: { property_id: 1 },
            }),
          );
        const stamped = { persistent: true, userId: forger.name };
        // On the events exchange, straight onto the webhooks' events queue, and onto the queue
        // of unrouted events, which the webhooks service moves onto its own.
        forging.publish(`${stack.namespace}events`, 'property.created', forged('evt_forged_exchange'), stamped);
        forging.sendToQueue(`${stack.namespace}webhooks.events`, forged('evt_forged_queue'), stamped);
        forging.sendToQueue(`${stack.namespace}events.unrouted`, forged('evt_forged_unrouted'), stamped);
        await forging.waitForConfirms();
      } finally {
        await forgerConnection.close();
      }

      // A real event, published after the forged ones, is delivered: they were taken before it.
      const property = await client.post('/api/v2/properties', { property: { name: 'After the forgeries' } });
      expect(property.status).toBe(201);
      await eventually('the real event delivered', () => receiver.received.length > 0, { timeoutMs: 20000 });
      const deadLetters = `${stack.namespace}webhooks.events.dead-letter`;
      await eventually(
        'the two forged events dead-lettered',
        async () => (await channel.checkQueue(deadLetters)).messageCount === 2,
      );
      expect(receiver.received.map((request) => JSON.parse(request.body).id)).not.toContainEqual(
        expect.stringMatching(/^evt_forged/),
      );
      expect(receiver.received).toHaveLength(1);
      const refusals = () => stack.process('webhooks').logs.filter((line) => /from an untrusted sender/.test(String(line.msg)));
      await eventually('the three refusals logged', () => refusals().length === 3);
    } finally {
      await receiver.down();
    }
  });

  it('takes work onto the webhooks’ and notifications’ own queues from those services alone', async () => {
    const forgerConnection = await connect(forger.url);
    const queues = ['webhooks.deliveries', 'notifications.outgoing', 'notifications.reminders'].map(
      (queue) => `${stack.namespace}${queue}`,
    );
    try {
      const forging = await forgerConnection.createConfirmChannel();
      // Tasks that name nothing stored: taken from anyone, they would be worked and acknowledged.
      const tasks = [
        { key: '1:evt_forged_task', retry: 0, manual: true },
        { key: 'mail_forged', retry: 0 },
        { source: 'evt_forged', client_id: 1, application_id: 1, applicant_id: 1, number: 1 },
      ];
      queues.forEach((queue, i) =>
        forging.sendToQueue(queue, Buffer.from(JSON.stringify(tasks[i])), { persistent: true, userId: forger.name }),
      );
      await forging.waitForConfirms();
    } finally {
      await forgerConnection.close();
    }
    for (const queue of queues) {
      await eventually(`the forged task on ${queue} dead-lettered`, async () => {
        return (await channel.checkQueue(`${queue}.dead-letter`)).messageCount === 1;
      });
    }
    const refusals = (app: 'webhooks' | 'notifications', queue: string) =>
      stack.process(app).logs.filter((line) => String(line.msg).includes(`a message on ${queue} from an untrusted sender`));
    expect(refusals('webhooks', queues[0])).toHaveLength(1);
    expect(refusals('notifications', queues[1])).toHaveLength(1);
    expect(refusals('notifications', queues[2])).toHaveLength(1);
  });
});
