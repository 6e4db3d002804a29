import { Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { QUEUES } from '@app/contracts';
import { InjectQueueClient, sendRpc, ServiceClients } from '@app/messaging';
import { FormEnvironment } from '../config/form.environment';

/**
 * The services the form asks, each over its queue with the form's deadline; never their databases.
 * The notifications service only for the links its e-mails carry (an address confirmed, an
 * address that wants no more mail): the form is ready without it, as applicants can still apply.
 */
@Injectable()
export class FormBackends extends ServiceClients {
  constructor(
    @InjectQueueClient(QUEUES.PROPERTIES) propertiesQueue: ClientProxy,
    @InjectQueueClient(QUEUES.APPLICATIONS) applicationsQueue: ClientProxy,
    @InjectQueueClient(QUEUES.NOTIFICATIONS) private readonly notificationsQueue: ClientProxy,
    env: FormEnvironment,
  ) {
    super(propertiesQueue, applicationsQueue, env.RPC_TIMEOUT_MS);
  }

  /** Connects its queue client early too; its state is not the form's readiness, which it does not decide. */
  override async onApplicationBootstrap(): Promise<void> {
    await super.onApplicationBootstrap();
    await this.notificationsQueue.connect().catch(() => undefined);
  }

  notifications<T>(pattern: string, message: unknown): Promise<T> {
    return sendRpc<T>(this.notificationsQueue, pattern, message, this.timeoutMs);
  }
}
