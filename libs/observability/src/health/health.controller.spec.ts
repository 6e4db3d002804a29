import { Logger, ServiceUnavailableException } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { HealthIndicatorFunction, TerminusModule } from '@nestjs/terminus';
import mongoose from 'mongoose';
import { BehaviorSubject, Subject } from 'rxjs';
import { BrokerConnection, READINESS_TIMEOUT_MS, ReadinessIndicators } from './health-indicators';
import { HealthController, READINESS_CACHE_MS, READINESS_CHECKS } from './health.controller';

/** The controller in a real Nest module with terminus, running `checks`. */
async function controllerWith(checks: (indicators: ReadinessIndicators) => HealthIndicatorFunction[]) {
  const module = await Test.createTestingModule({
    imports: [TerminusModule.forRoot({ logger: false })],
    controllers: [HealthController],
    providers: [ReadinessIndicators, { provide: READINESS_CHECKS, inject: [ReadinessIndicators], useFactory: checks }],
  }).compile();
  return module.get(HealthController);
}

const answering = () => Promise.resolve('pong');
const silent = () => new Promise<never>(() => undefined);

describe('HealthController', () => {
  it('is live without checking anything', async () => {
    const controller = await controllerWith((indicators) => [() => indicators.answers('never', silent, 'nothing')]);
    await expect(controller.live()).resolves.toEqual({ status: 'ok', info: {}, error: {}, details: {} });
  });

  it('is ready when every part answers, naming each', async () => {
    const broker = new BrokerConnection(new BehaviorSubject('connected'));
    const controller = await controllerWith((indicators) => [
      () => indicators.broker('broker', [broker]),
      () => indicators.answers('properties', answering, 'the properties service'),
    ]);
    await expect(controller.ready()).resolves.toMatchObject({
      status: 'ok',
      info: { broker: { status: 'up' }, properties: { status: 'up' } },
    });
  });

  it('answers 503 with the documented error body naming every failing part', async () => {
    const broker = new BrokerConnection(new BehaviorSubject('disconnected'));
    const controller = await controllerWith((indicators) => [
      () => indicators.broker('broker', [broker]),
      () => indicators.answers('properties', answering, 'the properties service'),
      () => indicators.answers('applications', () => Promise.reject(new Error('refused')), 'the applications service'),
    ]);

    const failure = await controller.ready().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceUnavailableException);
    const body = (failure as ServiceUnavailableException).getResponse() as any;
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error.message).toBe('not ready: broker, applications');
    expect(body.error.details).toMatchObject({
      status: 'error',
      info: { properties: { status: 'up' } },
      error: {
        broker: { status: 'down', message: 'not connected to RabbitMQ' },
        applications: { status: 'down', message: `the applications service did not answer within ${READINESS_TIMEOUT_MS} ms` },
      },
    });
  });

  it('counts a part that does not answer within the readiness timeout as down', async () => {
    const controller = await controllerWith((indicators) => [() => indicators.answers('slow', silent, 'the slow part')]);
    const started = Date.now();
    const failure = (await controller.ready().catch((error: unknown) => error)) as ServiceUnavailableException;
    expect(Date.now() - started).toBeGreaterThanOrEqual(READINESS_TIMEOUT_MS - 5);
    expect((failure.getResponse() as any).error.message).toBe('not ready: slow');
  });

  it('counts a database without a connection as down', async () => {
    const connection = mongoose.createConnection();
    const controller = await controllerWith((indicators) => [() => indicators.database('database', connection)]);
    const failure = (await controller.ready().catch((error: unknown) => error)) as ServiceUnavailableException;
    expect((failure.getResponse() as any).error.details.error.database.status).toBe('down');
  });
});

describe('HealthController readiness cache', () => {
  afterEach(() => jest.useRealTimers());

  it('checks at most once per period, answering the probes in between with the last result', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    let checks = 0;
    const controller = await controllerWith((indicators) => [
      () => indicators.answers('counted', () => Promise.resolve(++checks), 'the counted part'),
    ]);

    await Promise.all([controller.ready(), controller.ready(), controller.ready()]);
    jest.advanceTimersByTime(READINESS_CACHE_MS - 1);
    await controller.ready();
    expect(checks).toBe(1);

    jest.advanceTimersByTime(1);
    await controller.ready();
    expect(checks).toBe(2);
  });
});

describe('HealthController readiness log', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('logs each change once: not ready yet at debug while starting, a loss as a warning, never an error', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    let up = false;
    const controller = await controllerWith((indicators) => [
      () => indicators.answers('properties', () => (up ? Promise.resolve() : Promise.reject(new Error('no'))), 'it'),
    ]);
    const lines: string[] = [];
    for (const level of ['log', 'warn', 'debug', 'error'] as const) {
      jest
        .spyOn(Logger.prototype, level)
        .mockImplementation((...args: unknown[]) => void lines.push(`${level} ${String(args[0])}`));
    }
    const probe = async (nowUp: boolean) => {
      up = nowUp;
      jest.advanceTimersByTime(READINESS_CACHE_MS);
      await controller.ready().catch(() => undefined);
    };

    for (const nowUp of [false, false, true, true, false, false, true]) await probe(nowUp);

    expect(lines).toEqual(['debug not ready yet: properties', 'log ready', 'warn not ready: properties', 'log ready again']);
  });
});

describe('BrokerConnection', () => {
  it('follows the status Nest reports: connected until told otherwise, not before the first word', () => {
    const status = new Subject<string>();
    const connection = new BrokerConnection(status);
    const seen: boolean[] = [connection.connected];
    for (const next of ['connected', 'disconnected', 'connected', 'blocked', 'unblocked']) {
      status.next(next);
      seen.push(connection.connected);
    }
    expect(seen).toEqual([false, true, false, true, false, true]);
  });
});
