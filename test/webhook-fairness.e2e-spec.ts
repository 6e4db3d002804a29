import { ServerResponse } from 'node:http';
import { KEYS, Stack } from '../tools/stack';
import { Api } from './support/http';
import { eventually } from './support/wait';
import { startWebhookStack, stopWebhookStack, WebhookReceiver } from './support/webhook-receiver';

const webhooks = '/api/v2/webhooks';
const OPEN_SECONDS = 2;

/**
 * One client's receiver that never answers, or always fails, must not hold up another client's
 * deliveries: per-endpoint and per-client caps on the attempts under way, and a breaker that
 * leaves a failing endpoint alone. The instance here may have 8 attempts under way, 1 per
 * endpoint and 2 per client.
 */
/** The calls made here, as one client. */
interface Client {
  post(path: string, body: unknown): ReturnType<Api['post']>;
  get(path: string): ReturnType<Api['get']>;
}

describe('webhook deliveries shared fairly between clients', () => {
  let stack: Stack;
  let clients: Client[];
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    let client: Api;
    let receiver: WebhookReceiver;
    ({ stack, client, receiver } = await startWebhookStack({
      WEBHOOK_CONCURRENCY: '8',
      WEBHOOK_ENDPOINT_CONCURRENCY: '1',
      WEBHOOK_CLIENT_CONCURRENCY: '2',
      WEBHOOK_BREAKER_FAILURES: '3',
      WEBHOOK_BREAKER_OPEN_SECONDS: String(OPEN_SECONDS),
      WEBHOOK_RETRY_SCHEDULE: Array(20).fill('1').join(','),
      WEBHOOK_SENDS_PER_MINUTE: '1000',
    }));
    receivers.push(receiver);
    clients = [KEYS.clientOne, KEYS.clientTwo].map((key) => ({
      post: (path: string, body: unknown) => client.post(path, body, { key }),
      get: (path: string) => client.get(path, { key }),
    }));
  });

  afterAll(async () => {
    for (const receiver of receivers) await receiver.down();
    await stopWebhookStack({ stack });
  });

  async function receiver(): Promise<WebhookReceiver> {
    const started = await WebhookReceiver.start();
    receivers.push(started);
    return started;
  }

  async function subscribe(client: Client, to: WebhookReceiver): Promise<number> {
    const answer = await client.post(webhooks, { webhook: { url: to.url, events: ['application_form.completed'] } });
    expect(answer.status).toBe(201);
    return answer.body.webhook.id;
  }

  async function sendTests(client: Client, webhook: number, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const answer = await client.post(`${webhooks}/${webhook}/test`, {});
      expect(answer.status).toBe(201);
      ids.push(answer.body.delivery.id);
    }
    return ids;
  }

  async function deliveries(client: Client, webhook: number): Promise<any[]> {
    const answer = await client.get(`${webhooks}/${webhook}/deliveries?limit=100`);
    expect(answer.status).toBe(200);
    return answer.body.deliveries;
  }

  it('delivers to another client while one client’s receivers hold every request they get', async () => {
    // Three receivers of client one that hold each request, unanswered, until told.
    const held: ServerResponse[][] = [[], [], []];
    let givenUp = 0;
    const hanging = await Promise.all(held.map(() => receiver()));
    hanging.forEach((hung, i) => {
      hung.answer = (_request, response) => {
        held[i].push(response);
        // The service gives up on an attempt after 10 s: none may have by the time the other client is served.
        response.on('close', () => void (response.writableEnded || givenUp++));
      };
    });
    const hungWebhooks = await Promise.all(hanging.map((hung) => subscribe(clients[0], hung)));
    for (const webhook of hungWebhooks) await sendTests(clients[0], webhook, 10);

    const other = await receiver();
    const [otherId] = await sendTests(clients[1], await subscribe(clients[1], other), 1);
    await eventually('the other client’s delivery', () => other.forEvent(otherId).length === 1, { timeoutMs: 8000 });

    // Thirty attempts of client one waited, but at most one per endpoint and two in all were made,
    // and none of those had been given up on: the other client did not wait for them.
    const underWay = held.map((responses) => responses.length);
    expect(underWay.every((count) => count <= 1)).toBe(true);
    expect(underWay.reduce((sum, count) => sum + count, 0)).toBe(2);
    expect(givenUp).toBe(0);

    // Answered, the waiting attempts are all made, and every delivery succeeds once.
    for (const hung of hanging) hung.answer = (_request, response) => response.writeHead(204).end();
    for (const responses of held) for (const response of responses) response.writeHead(204).end();
    for (const webhook of hungWebhooks) {
      await eventually(
        `webhook ${webhook}'s ten deliveries succeeded`,
        async () => (await deliveries(clients[0], webhook)).filter((delivery) => delivery.status === 'succeeded').length === 10,
        { timeoutMs: 60000 },
      );
    }
    for (const hung of hanging) expect(new Set(hung.received.map((r) => r.headers['webhook-id'])).size).toBe(10);
  }, 120000);

  it('leaves alone an endpoint that keeps failing, probing it once per period, then delivers everything when it is back', async () => {
    const failing = await receiver();
    const arrivals: number[] = [];
    failing.answer = (_request, response) => {
      arrivals.push(Date.now());
      response.writeHead(503).end();
    };
    const webhook = await subscribe(clients[1], failing);
    const ids = await sendTests(clients[1], webhook, 6);

    // Three failures in a row, one at a time, then one probe per period, each failing again.
    await eventually('two probes after the first three failures', () => arrivals.length >= 5, { timeoutMs: 30000 });
    const gaps = arrivals.slice(2, 4).map((at, i) => arrivals[i + 3] - at);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(OPEN_SECONDS * 1000 - 100);
    expect(stack.logLines().some((line) => line.includes(`webhook endpoint http://127.0.0.1:${failing.port} left alone`))).toBe(
      true,
    );

    failing.answer = (_request, response) => response.writeHead(204).end();
    const done = await eventually(
      'every delivery succeeded',
      async () => {
        const found = await deliveries(clients[1], webhook);
        return found.filter((delivery) => delivery.status === 'succeeded').length === ids.length && found;
      },
      { timeoutMs: 60000 },
    );
    // Every request the endpoint got is an attempt listed; none failed for good.
    const attempts = done.flatMap((delivery: any) => delivery.attempts);
    expect(attempts).toHaveLength(failing.received.length);
    expect(attempts.filter((attempt: any) => attempt.success)).toHaveLength(ids.length);
  }, 120000);
});
