import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { APPLICATIONS, PROPERTIES, QUEUES } from '@app/contracts';
import { InjectQueueClient, sendRpc } from '@app/messaging';
import { BrokerConnection, READINESS_TIMEOUT_MS } from '@app/observability';
import { FormEnvironment } from '../config/form.environment';

/** The services the form asks, each over its queue with the form's deadline; never their databases. */
@Injectable()
export class FormBackends implements OnApplicationBootstrap {
  private readonly logger = new Logger('FormBackends');

  private readonly timeoutMs: number;

  constructor(
    @InjectQueueClient(QUEUES.PROPERTIES) private readonly propertiesQueue: ClientProxy,
    @InjectQueueClient(QUEUES.APPLICATIONS) private readonly applicationsQueue: ClientProxy,
    env: FormEnvironment,
  ) {
    this.timeoutMs = env.RPC_TIMEOUT_MS;
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const client of [this.propertiesQueue, this.applicationsQueue]) {
      await client.connect().catch((error: unknown) => this.logger.warn(`broker not reachable yet: ${String(error)}`));
    }
  }

  brokerConnections(): BrokerConnection[] {
    return [this.propertiesQueue, this.applicationsQueue].map((client) => new BrokerConnection(client.status));
  }

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
