/**
 * Reference: the service half of a plain NestJS RMQ echo, written as the NestJS microservices
 * docs show it (Transport.RMQ with urls, queue and `queueOptions: { durable: false }`, every
 * other option left at its default). It answers each message with its payload.
 */
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, MicroserviceOptions, Payload, Transport } from '@nestjs/microservices';
import { ECHO_PATTERN, READY_LINE, referenceSettings } from './settings';

@Controller()
class EchoController {
  @MessagePattern(ECHO_PATTERN)
  echo(@Payload() body: unknown): unknown {
    return body;
  }
}

@Module({ controllers: [EchoController] })
class EchoServiceModule {}

async function main(): Promise<void> {
  const { amqpUrl, queue } = referenceSettings();
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(EchoServiceModule, {
    transport: Transport.RMQ,
    options: { urls: [amqpUrl], queue, queueOptions: { durable: false } },
  });
  await app.listen();
  console.log(READY_LINE);
}

void main();
