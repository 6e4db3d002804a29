import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { APPLICATIONS, PROPERTIES } from '@app/contracts';
import { BrokerConnection, READINESS_TIMEOUT_MS } from '@app/observability';
import { sendRpc } from './rpc';

/**
 * The properties and applications services as an HTTP app reaches them (the gateway, the form):
 * each over its queue with the app's deadline. Each app subclasses it to inject its own queue
 * clients and deadline.
 */
export abstract class ServiceClients implements OnApplicationBootstrap {
  private readonly logger = new Logger(this.constructor.name);

  protected constructor(
    private readonly propertiesQueue: ClientProxy,
    private readonly applicationsQueue: ClientProxy,
    protected readonly timeoutMs: number,
  ) {}

  /** Connects early so the first request does not pay for it; a broker that is down is retried. */
  async onApplicationBootstrap(): Promise<void> {
    for (const client of [this.propertiesQueue, this.applicationsQueue]) {
      await client.connect().catch((error: unknown) => this.logger.warn(`broker not reachable yet: ${String(error)}`));
    }
  }

  /** The app's connections to RabbitMQ, one per queue client. */
  brokerConnections(): BrokerConnection[] {
    return [this.propertiesQueue, this.applicationsQueue].map((client) => new BrokerConnection(client.status));
  }

  /**
   * Resolves once an instance of the service answers, or rejects after READINESS_TIMEOUT_MS. A
   * ping is transient (never written to disk) and expires with its timeout, unanswered or not.
   */
  ping(service: 'properties' | 'applications'): Promise<unknown> {
    const transient = { persistent: false };
    return service === 'properties'
      ? sendRpc(this.propertiesQueue, PROPERTIES.PING, {}, READINESS_TIMEOUT_MS, transient)
      : sendRpc(this.applicationsQueue, APPLICATIONS.PING, {}, READINESS_TIMEOUT_MS, transient);
  }

  properties<T>(pattern: string, message: unknown): Promise<T> {
    return sendRpc<T>(this.propertiesQueue, pattern, message, this.timeoutMs);
  }

  applications<T>(pattern: string, message: unknown): Promise<T> {
    return sendRpc<T>(this.applicationsQueue, pattern, message, this.timeoutMs);
  }
}
