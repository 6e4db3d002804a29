import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { BrokerConnection, READINESS_TIMEOUT_MS, sendRpc } from '@app/common';
import { APPLICATIONS, PROPERTIES } from '@app/contracts';

export const PROPERTIES_QUEUE_CLIENT = Symbol('PROPERTIES_QUEUE_CLIENT');
export const APPLICATIONS_QUEUE_CLIENT = Symbol('APPLICATIONS_QUEUE_CLIENT');
export const RPC_TIMEOUT_MS = Symbol('RPC_TIMEOUT_MS');

/** The services behind the gateway, each reached over its queue with the gateway's deadline. */
@Injectable()
export class Backends implements OnApplicationBootstrap {
  private readonly logger = new Logger('Backends');

  constructor(
    @Inject(PROPERTIES_QUEUE_CLIENT) private readonly propertiesQueue: ClientProxy,
    @Inject(APPLICATIONS_QUEUE_CLIENT) private readonly applicationsQueue: ClientProxy,
    @Inject(RPC_TIMEOUT_MS) private readonly timeoutMs: number,
  ) {}

  /** Connects early so the first request does not pay for it; a broker that is down is retried. */
  async onApplicationBootstrap(): Promise<void> {
    for (const client of [this.propertiesQueue, this.applicationsQueue]) {
      await client.connect().catch((error: unknown) => this.logger.warn(`broker not reachable yet: ${String(error)}`));
    }
  }

  /** The gateway's connections to RabbitMQ, one per queue client. */
  brokerConnections(): BrokerConnection[] {
    return [this.propertiesQueue, this.applicationsQueue].map((client) => new BrokerConnection(client.status));
  }

  /** Resolves once an instance of the service answers, or rejects after READINESS_TIMEOUT_MS. */
  ping(service: 'properties' | 'applications'): Promise<unknown> {
    return service === 'properties'
      ? sendRpc(this.propertiesQueue, PROPERTIES.PING, {}, READINESS_TIMEOUT_MS)
      : sendRpc(this.applicationsQueue, APPLICATIONS.PING, {}, READINESS_TIMEOUT_MS);
  }

  properties<T>(pattern: string, message: unknown): Promise<T> {
    return sendRpc<T>(this.propertiesQueue, pattern, message, this.timeoutMs);
  }

  applications<T>(pattern: string, message: unknown): Promise<T> {
    return sendRpc<T>(this.applicationsQueue, pattern, message, this.timeoutMs);
  }
}
