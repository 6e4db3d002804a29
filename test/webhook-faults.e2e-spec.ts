import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { connect } from 'amqplib';
import { Stack } from '../tools/stack';
import { api, Api } from './support/http';
import { eventually } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';

const run = promisify(execFile);
const webhooks = '/api/v2/webhooks';
const RETRY_SCHEDULE = ['1', '2', ...Array(18).fill('5')].join(',');

describe('webhook deliveries under faults', () => {
  let stack: Stack;
  let client: Api;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({
      instances: { webhooks: 2 },
      // Twenty retries, some 90 s in all: a loaded machine's broker restart must not use them up
      // before the receiver recovers (ten 2 s retries did, and the deliveries failed for good).
      env: {
        EVENT_RELAY_INTERVAL_MS: '100',
        WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE,
        // RabbitMQ 3.10 can hold the retries waiting in a quorum queue for minutes when the queue
        // recovers before the exchanges: those overdue by 10 s are queued again.
        WEBHOOK_RETRY_OVERDUE_SECONDS: '10',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        // One receiver stands for every client here, failing or holding on purpose: the caps and
        // the breaker that keep one client from holding up the others (webhook-fairness) stay out.
        WEBHOOK_ENDPOINT_CONCURRENCY: '32',
        WEBHOOK_CLIENT_CONCURRENCY: '32',
        WEBHOOK_BREAKER_FAILURES: '1000',
      },
    });
    client = api(stack.url);
    receiver = await WebhookReceiver.start();
  }, 120000);

  afterAll(async () => {
    await receiver?.down();
    await stack?.stop();
  });

  const subscribe = async (events: string[]) => {
    const answer = await client.post(webhooks, { webhook: { url: receiver.url, events } });
    expect(answer.status).toBe(201);
    return answer.body.webhook;
  };

  /** The webhook's deliveries by status, read from the webhooks database (the API lists 100). */
  const statuses = async (subscriptionId: number) => {
    const db = await stack.database('webhooks');
    try {
      const rows = await db.collection('deliveries').find({ subscription_id: subscriptionId }).toArray();
      const counts: Record<string, number> = {};
      for (const row of rows) counts[row.status] = (counts[row.status] ?? 0) + 1;
      return { total: rows.length, ...counts } as Record<string, number>;
    } finally {
      await db.close();
    }
  };

  it('loses no delivery waiting for its retry across a broker restart', async () => {
    const webhook = await subscribe(['property.created']);
    receiver.answer = (_request, response) => response.writeHead(503).end();
    const ids: number[] = [];
    for (let i = 0; i < 10; i++)
      ids.push((await client.post('/api/v2/properties', { property: { name: `R${i}` } })).body.property.id);
    await eventually('every delivery waiting for a retry', async () => (await statuses(webhook.id)).retrying === 10, {
      timeoutMs: 30000,
    });
    try {
      await run('rabbitmqctl', ['stop_app']);
    } finally {
      await run('rabbitmqctl', ['start_app']);
      await run('rabbitmqctl', ['await_startup']);
    }
    expect((await statuses(webhook.id)).failed).toBeUndefined();
    receiver.answer = (_request, response) => response.writeHead(204).end();
    await eventually('every delivery succeeded', async () => (await statuses(webhook.id)).succeeded === 10, {
      timeoutMs: 90000,
    }).catch(async (error: Error) => {
      throw new Error(`${error.message}; deliveries by status: ${JSON.stringify(await statuses(webhook.id))}`);
    });
    const delivered = receiver.received
      .filter((request) => request.headers['webhook-id'] && JSON.parse(request.body).event === 'property.created')
      .map((request) => JSON.parse(request.body).data.property_id);
    expect(new Set(delivered)).toEqual(new Set(ids));
  }, 180000);

  it('keeps the API answering while 1,000 deliveries wait on a receiver that does not answer yet', async () => {
    const webhook = await subscribe(['property.updated']);
    const held: ServerResponse[] = [];
    receiver.answer = (_request, response) => void held.push(response);
    const connection = await connect(process.env.AMQP_URL!);
    try {
      const channel = await connection.createConfirmChannel();
      for (let i = 0; i < 1000; i++) {
        const id = `evt_${randomUUID().replace(/-/g, '')}`;
        const event = {
          id,
          event: 'property.updated',
          client_id: 1,
          test_mode: false,
          created_at: '2026-11-23T00:00:00+00:00',
          data: { property_id: i + 1 },
        };
        channel.publish(`${stack.namespace}events`, event.event, Buffer.from(JSON.stringify(event)), {
          persistent: true,
          messageId: id,
        });
      }
      await channel.waitForConfirms();
    } finally {
      await connection.close();
    }
    await eventually('the receiver holding the first deliveries', () => held.length >= 32, { timeoutMs: 30000 });

    // While those wait, the API serves reads and writes as usual.
    for (let i = 0; i < 20; i++) {
      const created = await client.post('/api/v2/properties', { property: { name: `Busy ${i}` } });
      expect(created.status).toBe(201);
      expect((await client.get(`/api/v2/properties/${created.body.property.id}`)).status).toBe(200);
    }
    expect((await statuses(webhook.id)).succeeded ?? 0).toBe(0);

    receiver.answer = (_request, response) => response.writeHead(204).end();
    for (const response of held.splice(0)) response.writeHead(204).end();
    // And the deliveries go on once it answers (all 1,000 take minutes on FerretDB, which scans).
    await eventually('deliveries succeeding', async () => ((await statuses(webhook.id)).succeeded ?? 0) >= 100, {
      timeoutMs: 120000,
    });
  }, 180000);
});
