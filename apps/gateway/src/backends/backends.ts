import { Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { QUEUES } from '@app/contracts';
import { InjectQueueClient, ServiceClients } from '@app/messaging';
import { GatewayEnvironment } from '../config/gateway.environment';

/** The services behind the gateway, each reached over its queue with the gateway's deadline. */
@Injectable()
export class Backends extends ServiceClients {
  constructor(
    @InjectQueueClient(QUEUES.PROPERTIES) propertiesQueue: ClientProxy,
    @InjectQueueClient(QUEUES.APPLICATIONS) applicationsQueue: ClientProxy,
    env: GatewayEnvironment,
  ) {
    super(propertiesQueue, applicationsQueue, env.RPC_TIMEOUT_MS);
  }
}
