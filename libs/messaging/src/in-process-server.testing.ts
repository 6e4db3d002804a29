import { INestMicroservice } from '@nestjs/common';
import { CustomTransportStrategy, RmqContext, Server } from '@nestjs/microservices';
import { TestingModule } from '@nestjs/testing';
import { firstValueFrom } from 'rxjs';
import { ErrorPayload } from '@app/contracts';
import { RpcErrorFilter, UnavailableClassifier } from './rpc-error.filter';
import { Outcome, Settlement } from './settlement';
import { SettlementInterceptor } from './settlement.interceptor';

/** A transport that reads no queue: the spec hands each message to it. */
class InProcessServer extends Server implements CustomTransportStrategy {
  listen(callback: () => void): void {
    callback();
  }

  close(): void {}

  on(): void {}

  unwrap<T>(): T {
    throw new Error('an in-process server has no underlying transport');
  }
}

/** What became of one message: how it was settled, and the answer or the error the caller got. */
export interface Delivery {
  outcome: Outcome | undefined;
  answer?: unknown;
  error?: ErrorPayload;
}

let deliveries = 0;

/**
 * For specs of message controllers: a module's handlers behind the filter and interceptor that
 * runService puts around them (RpcErrorFilter, SettlementInterceptor), so that a message goes
 * through the same pipes, refusals and settlement as on RabbitMQ, without a broker.
 */
export class InProcessMessages {
  private constructor(
    private readonly app: INestMicroservice,
    private readonly server: InProcessServer,
  ) {}

  /** `isUnavailable`: which failures are answered 503; by default none (a spec that needs it passes persistence's). */
  static async start(module: TestingModule, isUnavailable: UnavailableClassifier = () => false): Promise<InProcessMessages> {
    const server = new InProcessServer();
    const app = module.createNestMicroservice({ strategy: server, logger: false });
    const settlement = new Settlement();
    app.useGlobalInterceptors(new SettlementInterceptor(settlement, isUnavailable));
    app.useGlobalFilters(new RpcErrorFilter(settlement, isUnavailable));
    await app.listen();
    return new InProcessMessages(app, server);
  }

  /** Delivers `data` under `pattern` with the correlation id `messageId`, as the broker would. */
  async send(pattern: string, data: unknown, messageId = `message-${++deliveries}`): Promise<Delivery> {
    const handler = this.server.getHandlerByPattern(pattern);
    if (!handler) throw new Error(`no handler for ${pattern}`);
    const delivery: Delivery = { outcome: undefined };
    let handedBack = () => {};
    // A message handed back to the queue gets no answer: the next delivery gives it.
    const unanswered = new Promise<void>((resolve) => (handedBack = resolve));
    const settle = (outcome: Outcome) => {
      if (delivery.outcome) throw new Error(`settled twice: ${delivery.outcome}, then ${outcome}`);
      delivery.outcome = outcome;
      if (outcome === 'retry') handedBack();
    };
    const channel = {
      ack: () => settle('ack'),
      nack: (_message: unknown, _allUpTo: boolean, requeue: boolean) => settle(requeue ? 'retry' : 'dead-letter'),
    };
    const message = {
      content: Buffer.from(JSON.stringify(data)),
      fields: { routingKey: 'in-process' },
      properties: { correlationId: messageId, headers: {} },
    };
    const result = await handler(data, new RmqContext([message, channel, pattern]));
    const answered = firstValueFrom(this.server.transformToObservable(result)).then(
      (answer) => void (delivery.answer = answer),
      (error) => void (delivery.error = error as ErrorPayload),
    );
    await Promise.race([answered, unanswered]);
    return delivery;
  }

  close(): Promise<void> {
    return this.app.close();
  }
}
