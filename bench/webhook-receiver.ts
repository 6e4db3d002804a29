import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** The part of a delivered event read here: which property it is about. */
interface DeliveredEvent {
  data?: { property_id?: unknown };
}

/**
 * The endpoint the event-publish scenario's webhook delivers to: a plain node HTTP server on
 * 127.0.0.1 that answers every request 204 at once, so that what is measured is the stack's side
 * of a delivery, not a receiver's. It keeps the property each event is about: a `property.created`
 * names a property created in a run, so a run counts exactly its own events, once each (a relay
 * may publish an event twice, a failed attempt is retried), and never those of a create still
 * under way when an earlier run's load stopped, which that run did not count.
 */
export class WebhookReceiver {
  private readonly properties = new Set<number>();
  private waiting: { missing: Set<number>; wake: () => void } | null = null;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.writeHead(204).end();
        receiver.received(Buffer.concat(chunks).toString());
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** How many of these properties' events have arrived. */
  deliveredOf(propertyIds: number[]): number {
    return propertyIds.filter((id) => this.properties.has(id)).length;
  }

  /**
   * Resolves once the events of all these properties have arrived, with the ms that took, or with
   * null when `deadlineMs` passes first. Woken by the deliveries themselves: no polling, no pause.
   */
  async until(propertyIds: number[], deadlineMs: number): Promise<number | null> {
    const started = Date.now();
    const missing = new Set(propertyIds.filter((id) => !this.properties.has(id)));
    if (missing.size === 0) return 0;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.waiting = { missing, wake: () => resolve(true) };
      timer = setTimeout(() => resolve(false), deadlineMs);
    });
    const caughtUp = await arrived;
    clearTimeout(timer);
    this.waiting = null;
    return caughtUp ? Date.now() - started : null;
  }

  async stop(): Promise<void> {
    const closed = once(this.server, 'close');
    this.server.close();
    this.server.closeAllConnections();
    await closed;
  }

  private received(body: string): void {
    let id: unknown;
    try {
      id = (JSON.parse(body) as DeliveredEvent).data?.property_id;
    } catch {
      return;
    }
    if (typeof id !== 'number') return;
    this.properties.add(id);
    if (this.waiting?.missing.delete(id) && this.waiting.missing.size === 0) this.waiting.wake();
  }
}
