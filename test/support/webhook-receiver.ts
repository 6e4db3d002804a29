import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Stack } from '../../tools/stack';
import { api, Api } from './http';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1: records every request, and answers as `answer` says (a
 * status, or a function that may hold the response). It can go down and come back on its port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: (request: ReceivedWebhook, response: ServerResponse) => void = (_request, response) => response.writeHead(204).end();
  private server?: Server;
  port = 0;

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.up();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async up(): Promise<void> {
    this.server = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const received = { headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString() };
        this.received.push(received);
        this.answer(received, response);
      });
    });
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Stops listening: connections are refused until `up` again. */
  async down(): Promise<void> {
    this.server?.closeAllConnections();
    this.server?.close();
    if (this.server?.listening) await once(this.server, 'close');
  }

  /** The requests received so far for one event id. */
  forEvent(id: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.headers['webhook-id'] === id);
  }
}

/** A stack with one webhooks instance that may deliver to this machine, and a receiver for it. */
export interface WebhookStack {
  stack: Stack;
  client: Api;
  receiver: WebhookReceiver;
}

/** Starts it, `env` added to what every webhook suite sets. */
export async function startWebhookStack(env: Record<string, string>): Promise<WebhookStack> {
  const stack = await Stack.start({
    instances: { webhooks: 1 },
    env: { EVENT_RELAY_INTERVAL_MS: '100', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', ...env },
  });
  return { stack, client: api(stack.url), receiver: await WebhookReceiver.start() };
}

export async function stopWebhookStack({ stack, receiver }: Partial<WebhookStack>): Promise<void> {
  await receiver?.down();
  await stack?.stop();
}
