import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** The id of a delivered event that a run counts by. */
type CountedBy = 'property_id' | 'application_id';

/**
 * The endpoint the bench's webhooks deliver to: a plain node HTTP server on 127.0.0.1 that answers
 * every request 204 at once, so that what is measured is the stack's side of a delivery, not a
 * receiver's. It keeps, by the id it counts by (`data.property_id` by default), when each event
 * first arrived: a `property.created` names a property created in a run, so a run counts exactly
 * its own events, once each (a relay may publish an event twice, a failed attempt is retried), and
 * never those of a create still under way when an earlier run's load stopped.
 */
export class WebhookReceiver {
  /** When each counted id's event first arrived (performance.now()). */
  readonly arrivals = new Map<number, number>();
  private waiting: { missing: Set<number>; wake: () => void } | null = null;

  private constructor(
    private readonly server: Server,
    private readonly countedBy: CountedBy,
  ) {}

  static async start(countedBy: CountedBy = 'property_id'): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server, countedBy);
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

  /** How many of these ids' events have arrived. */
  deliveredOf(ids: number[]): number {
    return ids.filter((id) => this.arrivals.has(id)).length;
  }

  /**
   * Resolves once the events of all these ids have arrived, with the ms that took, or with null
   * when `deadlineMs` passes first. Woken by the deliveries themselves: no polling, no pause.
   */
  async until(ids: number[], deadlineMs: number): Promise<number | null> {
    const started = Date.now();
    const missing = new Set(ids.filter((id) => !this.arrivals.has(id)));
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
      id = (JSON.parse(body) as { data?: Record<string, unknown> }).data?.[this.countedBy];
    } catch {
      return;
    }
    if (typeof id !== 'number' || this.arrivals.has(id)) return;
    this.arrivals.set(id, performance.now());
    if (this.waiting?.missing.delete(id) && this.waiting.missing.size === 0) this.waiting.wake();
  }
}
