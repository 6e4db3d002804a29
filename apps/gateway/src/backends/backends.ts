import { Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { NotificationSettingsResponse, NOTIFICATIONS, QUEUES } from '@app/contracts';
import { InjectQueueClient, sendRpc, ServiceClients } from '@app/messaging';
import { GatewayEnvironment } from '../config/gateway.environment';

/** The services behind the gateway, each reached over its queue with the gateway's deadline. */
@Injectable()
export class Backends extends ServiceClients {
  constructor(
    @InjectQueueClient(QUEUES.PROPERTIES) propertiesQueue: ClientProxy,
    @InjectQueueClient(QUEUES.APPLICATIONS) applicationsQueue: ClientProxy,
    @InjectQueueClient(QUEUES.WEBHOOKS) private readonly webhooksQueue: ClientProxy,
    @InjectQueueClient(QUEUES.NOTIFICATIONS) private readonly notificationsQueue: ClientProxy,
    env: GatewayEnvironment,
  ) {
    super(propertiesQueue, applicationsQueue, env.RPC_TIMEOUT_MS);
  }

  /** Connects the webhooks and notifications clients early too; a broker that is down is retried. */
  override async onApplicationBootstrap(): Promise<void> {
    await super.onApplicationBootstrap();
    await this.webhooksQueue.connect().catch(() => undefined);
    await this.notificationsQueue.connect().catch(() => undefined);
  }

  webhooks<T>(pattern: string, message: unknown): Promise<T> {
    return sendRpc<T>(this.webhooksQueue, pattern, message, this.timeoutMs);
  }

  notifications<T>(pattern: string, message: unknown): Promise<T> {
    return sendRpc<T>(this.notificationsQueue, pattern, message, this.timeoutMs);
  }

  /** The client's e-mail settings: read by their own endpoint, the previews and the decisions that need the agency. */
  notificationSettings(clientId: number): Promise<NotificationSettingsResponse> {
    return this.notifications(NOTIFICATIONS.GET_SETTINGS, { client_id: clientId });
  }
}
