import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { ConsumeMessage } from 'amqplib';
import { WebhooksEnvironment } from '../config/webhooks.environment';
import { SubscriptionStore } from '../subscriptions/subscription-store';
import { DeliveryWorker } from './delivery-worker';
import { DeliveryRecord, DeliveryStore } from './delivery-store';

describe('DeliveryWorker, a failed attempt', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((_request, response) => response.writeHead(503).end());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });

  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  /** A delivery of evt_<n> to subscription 1, in the given state. */
  const stored = (n: number, changes: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
    _id: `1:evt_${n}`,
    subscription_id: 1,
    client_id: 1,
    body: { id: `evt_${n}`, event: 'property.created', test_mode: false, created_at: '2026-11-25T00:00:00+00:00', data: {} },
    status: 'pending',
    next_attempt_at: null,
    created_at: new Date(),
    ...changes,
  });

  /** A worker over a store holding `delivery`, sending to the refusing receiver; its `attempt` of a task. */
  const workerFor = (delivery: DeliveryRecord, store: Partial<Record<'recordAttempt' | 'update', unknown>>) => {
    const deliveries = { find: async () => delivery, ...store } as unknown as DeliveryStore;
    const subscriptions = {
      findLive: async () => ({ id: 1, url, secret: 'whsec_' + 'a'.repeat(32) }),
    } as unknown as SubscriptionStore;
    const env = Object.assign(new WebhooksEnvironment(), { WEBHOOK_RETRY_SCHEDULE: '5', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    const worker = new DeliveryWorker(subscriptions, deliveries, env);
    const published: string[] = [];
    Object.assign(worker, { broker: { publish: async (_exchange: string, queue: string) => published.push(queue) } });
    const attempt = (task: object) =>
      (worker as unknown as { attempt: (m: ConsumeMessage) => Promise<void> }).attempt({
        content: Buffer.from(JSON.stringify(task)),
      } as ConsumeMessage);
    return { attempt, published };
  };

  it('publishes no retry when its delivery cannot be updated: the message is taken again instead, one chain of retries', async () => {
    const delivery = stored(1);
    const { attempt, published } = workerFor(delivery, {
      recordAttempt: async () => undefined,
      update: async () => {
        throw new Error('database gone');
      },
    });

    await expect(attempt({ key: delivery._id, retry: 0 })).rejects.toThrow('database gone');
    expect(published).toEqual([]);
  });

  it('is not made for a retry superseded by one queued again (it was overdue): the late message is dropped', async () => {
    const delivery = stored(2, { status: 'retrying', next_attempt_at: new Date(), next_retry: 1, retry_token: 'queued-again' });
    const attempts: number[] = [];
    const { attempt } = workerFor(delivery, {
      recordAttempt: async (_delivery: DeliveryRecord, _outcome: unknown, _at: Date, number: number) => attempts.push(number),
      update: async () => undefined,
    });

    await attempt({ key: delivery._id, retry: 1, token: 'lost' });
    expect(attempts).toEqual([]);
    await attempt({ key: delivery._id, retry: 1, token: 'queued-again' });
    expect(attempts).toEqual([2]);
  });
});
