import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { APPLICATIONS, PROPERTIES, QUEUES } from '@app/contracts';
import { InjectQueueClient, sendRpc } from '@app/messaging';
import { BrokerConnection, READINESS_TIMEOUT_MS } from '@app/observability';
import { GatewayEnvironment } from '../config/gateway.environment';

/** The services behind the gateway, each reached over its queue with the gateway's deadline. */
@Injectable()
export class Backends implements OnApplicationBootstrap {
  private readonly logger = new Logger('Backends');

  private readonly timeoutMs: number;

  constructor(
    @InjectQueueClient(QUEUES.PROPERTIES) private readonly propertiesQueue: ClientProxy,
    @InjectQueueClient(QUEUES.APPLICATIONS) private readonly applicationsQueue: ClientProxy,
    @InjectQueueClient(QUEUES.WEBHOOKS) private readonly webhooksQueue: ClientProxy,
    env: GatewayEnvironment,
  ) {
    this.timeoutMs = env.RPC_TIMEOUT_MS;
  }

  /** Connects early so the first request does not pay for it; a broker that is down is retried. */
  async onApplicationBootstrap(): Promise<void> {
    for (const client of [this.propertiesQueue, this.applicationsQueue, this.webhooksQueue]) {
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

  webhooks<T>(pattern: string, message: unknown): Promise<T> {
    return sendRpc<T>(this.webhooksQueue, pattern, message, this.timeoutMs);
  }
}
