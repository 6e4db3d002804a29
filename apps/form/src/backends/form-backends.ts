import { Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { QUEUES } from '@app/contracts';
import { InjectQueueClient, ServiceClients } from '@app/messaging';
import { FormEnvironment } from '../config/form.environment';

/** The services the form asks, each over its queue with the form's deadline; never their databases. */
@Injectable()
export class FormBackends extends ServiceClients {
  constructor(
    @InjectQueueClient(QUEUES.PROPERTIES) propertiesQueue: ClientProxy,
    @InjectQueueClient(QUEUES.APPLICATIONS) applicationsQueue: ClientProxy,
    env: FormEnvironment,
  ) {
    super(propertiesQueue, applicationsQueue, env.RPC_TIMEOUT_MS);
  }
}
