import { connect } from 'amqplib';
import { BrokerUser, definedPermissions } from './support/broker-users';
import { api, Api } from './support/http';
import { eventually } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';
import { AppName, Stack } from '../tools/stack';

const APPS: AppName[] = ['gateway', 'properties', 'applications', 'form', 'webhooks', 'notifications'];
/** A stack's NAMESPACE (tools/stack.ts), which every queue and exchange name of the suite starts with. */
const NAMESPACE = 't[0-9a-f]{8}_';

/**
 * Every app connects as a broker user of its own with exactly the permissions that
 * docker/rabbitmq/definitions.json gives it, and with the sender checks docker-compose sets: the
 * stack serves a property, an application, its form and a webhook delivery, and the apps that
 * only ask (the gateway and the form) cannot publish to the default exchange, through which a
 * message reaches any queue: they send requests to each service's request exchange.
 */
describe('the broker users of docker/rabbitmq/definitions.json', () => {
  let stack: Stack;
  let client: Api;
  const users = new Map<AppName, BrokerUser>();

  beforeAll(async () => {
    for (const app of APPS) users.set(app, await BrokerUser.add(`${app}-`, definedPermissions(app, NAMESPACE)));
    const user = (app: AppName) => users.get(app)!.name;
    const url = (app: AppName) => ({ AMQP_URL: users.get(app)!.url });
    const events = { EVENT_PUBLISHERS: `${user('properties')},${user('applications')}` };
    stack = await Stack.start({
      form: true,
      instances: { webhooks: 1, notifications: 1 },
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', EVENT_RELAY_INTERVAL_MS: '100' },
      appEnv: {
        gateway: url('gateway'),
        form: url('form'),
        properties: {
          ...url('properties'),
          TRUSTED_SENDERS: `gateway:${user('gateway')},applications:${user('applications')},form:${user('form')}`,
        },
        applications: {
          ...url('applications'),
          TRUSTED_SENDERS: `gateway:${user('gateway')},form:${user('form')},notifications:${user('notifications')}`,
        },
        webhooks: { ...url('webhooks'), TRUSTED_SENDERS: `gateway:${user('gateway')}`, ...events },
        notifications: { ...url('notifications'), TRUSTED_SENDERS: `gateway:${user('gateway')},form:${user('form')}`, ...events },
      },
    });
    client = api(stack.url);
  });

  afterAll(async () => {
    await stack?.stop();
    for (const user of users.values()) await user.remove();
  });

  it('serve a property, an application, its form and a webhook delivery, each app as its own user', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const hook = await client.post('/api/v2/webhooks', { webhook: { url: receiver.url, events: ['application.created'] } });
      expect(hook.status).toBe(201);
      const property = await client.post('/api/v2/properties', { property: { name: 'Permitted Court' } });
      expect(property.status).toBe(201);
      const created = await client.post('/api/v2/applications', {
        application: {
          property_id: property.body.property.id,
          applicant: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
        },
      });
      expect(created.status).toBe(201);
      const applicant = (await client.get(new URL(created.body.application.applicants[0].api_url).pathname)).body.applicant;
      const form = await fetch(applicant.form_url);
      expect(form.status).toBe(200);
      expect(await form.text()).toContain('Permitted Court');
      await eventually('the webhook delivered', () => receiver.received.length === 1, { timeoutMs: 20000 });
      expect(JSON.parse(receiver.received[0].body)).toMatchObject({ event: 'application.created' });
    } finally {
      await receiver.down();
    }
  });

  it.each(['gateway', 'form'] as const)('refuse the %s a publish to the default exchange', async (app) => {
    const connection = await connect(users.get(app)!.url);
    try {
      const channel = await connection.createConfirmChannel();
      const closed = new Promise<Error>((resolve) => channel.on('error', resolve));
      channel.publish('', `${stack.namespace}properties`, Buffer.from('{}'), { userId: users.get(app)!.name });
      const error = await closed;
      expect(error.message).toMatch(/ACCESS_REFUSED - access to exchange 'amq.default' in vhost '\/' refused/);
    } finally {
      await connection.close();
    }
  });
});
