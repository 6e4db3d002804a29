/**
 * Reference: the HTTP half of a plain NestJS RMQ echo, as a user following the NestJS docs
 * builds it: the default (Express) platform, a controller that `send()`s the body through a
 * ClientProxy registered with ClientsModule and the docs' RMQ options, nothing tuned.
 */
import { Body, Controller, Inject, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientProxy, ClientsModule, Transport } from '@nestjs/microservices';
import { Observable } from 'rxjs';
import { ECHO_PATTERN, READY_LINE, referenceSettings } from './settings';

const ECHO_SERVICE = 'ECHO_SERVICE';
const { amqpUrl, queue, port } = referenceSettings();

@Controller()
class EchoHttpController {
  constructor(@Inject(ECHO_SERVICE) private readonly client: ClientProxy) {}

  @Post('echo')
  echo(@Body() body: unknown): Observable<unknown> {
    return this.client.send(ECHO_PATTERN, body);
  }
}

@Module({
  imports: [
    ClientsModule.register([
      { name: ECHO_SERVICE, transport: Transport.RMQ, options: { urls: [amqpUrl], queue, queueOptions: { durable: false } } },
    ]),
  ],
  controllers: [EchoHttpController],
})
class EchoGatewayModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(EchoGatewayModule);
  await app.listen(port, '127.0.0.1');
  console.log(READY_LINE);
}

void main();
