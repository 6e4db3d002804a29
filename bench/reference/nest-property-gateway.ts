/**
 * Reference: the HTTP half of get-property as a team following the NestJS docs would build it
 * with the stack's guarantees: the default (Express) platform, a controller that `send()`s the
 * id through a ClientProxy registered with ClientsModule, to a durable quorum queue, as
 * persistent messages, with a timeout so that a request never hangs. Nothing else tuned.
 */
import { Controller, Get, Inject, Module, NotFoundException, Param, ParseIntPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientProxy, ClientsModule, Transport } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { GET_PROPERTY_PATTERN, READY_LINE, referenceSettings } from './settings';

const PROPERTY_SERVICE = 'PROPERTY_SERVICE';
const TIMEOUT_MS = 5000;
const { amqpUrl, queue, port } = referenceSettings();

@Controller('properties')
class PropertiesHttpController {
  constructor(@Inject(PROPERTY_SERVICE) private readonly client: ClientProxy) {}

  @Get(':id')
  async get(@Param('id', ParseIntPipe) id: number): Promise<{ property: unknown }> {
    const property = await firstValueFrom(this.client.send(GET_PROPERTY_PATTERN, { id }).pipe(timeout(TIMEOUT_MS)));
    if (!property) throw new NotFoundException(`property ${id} cannot be found`);
    return { property };
  }
}

@Module({
  imports: [
    ClientsModule.register([
      {
        name: PROPERTY_SERVICE,
        transport: Transport.RMQ,
        options: {
          urls: [amqpUrl],
          queue,
          queueOptions: { durable: true, arguments: { 'x-queue-type': 'quorum' } },
          persistent: true,
        },
      },
    ]),
  ],
  controllers: [PropertiesHttpController],
})
class PropertyGatewayModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(PropertyGatewayModule, { logger: ['error', 'warn'] });
  await app.listen(port, '127.0.0.1');
  console.log(READY_LINE);
}

void main();
