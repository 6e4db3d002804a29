import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Channel, ChannelModel, connect, ConsumeMessage } from 'amqplib';
import { assertServiceQueue, MAX_DELIVERIES } from '@app/messaging';
import { api, Api } from './support/http';
import { answerAsService } from './support/service-rpc';
import { scrape, valueOf } from './support/metrics';
import { Load, stopEveryLoad, storedByName, tally, Tally } from './support/load';
import { Stack } from '../tools/stack';

/**
 * Faults under load, against real processes, the real broker and the real database: a broker
 * restart, a service killed, a poison message, services and the gateway stopped with SIGTERM.
 * After each, every create answered 201 is read back from the database and counted.
 *
 * `npm run chaos` runs the same with CHAOS_SECONDS of load around each fault and prints the table.
 */
const RPC_TIMEOUT_MS = 2000;
const CHAOS_MS = Number(process.env.CHAOS_SECONDS ?? 0) * 1000;
const run = promisify(execFile);
const report: Tally[] = [];
/** Each scenario starts a stack of five processes and may restart the broker: slow on 2 cores. */
const SCENARIO_TIMEOUT_MS = 120000;

/** How long a request may take to fail once the broker is stopped. */
const BROKER_DOWN_MS = 30000;

/** How long the stack may take to serve again once the broker is back (it takes under a second). */
const RECOVERY_BOUND_MS = 45000;

/** Each process's log records at warn level or above since `since` (epoch ms), one line each. */
function complaints(stack: Stack, since: number): string {
  const levels = new Set(['warn', 'error', 'fatal', '40', '50', '60']);
  return stack.processes
    .map((process) => {
      const lines = process.logs
        .filter((record) => levels.has(String(record.level)) && Date.parse(String(record.time)) >= since)
        .slice(-5)
        .map((record) => `    ${String(record.msg).slice(0, 300)}`);
      return `  ${process.app} (pid ${process.child.pid}): ${lines.length === 0 ? 'nothing' : `\n${lines.join('\n')}`}`;
    })
    .join('\n');
}

/** `work`, or a rejection naming `what` once `ms` have passed. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Load before and after a fault: a few successes in a test run, CHAOS_SECONDS under `npm run chaos`. */
async function phase(load: Load, successes: number, share: number): Promise<void> {
  const until = Date.now() + CHAOS_MS * share;
  await load.successes(successes);
  while (Date.now() < until) await load.successes(1);
}

async function settle(scenario: string, stack: Stack, load: Load, faultEndedAt: number | null): Promise<Tally> {
  await load.stop();
  const counts = tally(scenario, load, await storedByName(stack, load), faultEndedAt);
  report.push(counts);
  return counts;
}

function expectNothingLostOrDoubled(counts: Tally): void {
  expect(counts.succeeded).toBeGreaterThan(0);
  expect(counts.lostCreates).toEqual([]);
  expect(counts.duplicates).toBe(0);
  expect(counts.otherServerErrors).toBe(0);
  // No attempt hangs past the gateway's deadline (plus what a loaded machine adds).
  expect(counts.slowest).toBeLessThan(RPC_TIMEOUT_MS + 3000);
}

async function startStack(instances = 2): Promise<{ stack: Stack; client: Api; propertyId: number }> {
  const stack = await Stack.start({
    instances: { properties: instances, applications: instances },
    env: { RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS), PROPERTY_LOOKUP_TIMEOUT_MS: String(RPC_TIMEOUT_MS / 2) },
  });
  const client = api(stack.url);
  const propertyId = (await client.post('/api/v2/properties', { property: { name: 'Under load' } })).body.property.id;
  return { stack, client, propertyId };
}

describe('faults under load', () => {
  let stack: Stack | undefined;

  afterEach(async () => {
    // A scenario that failed half way has left its load running: stopped first, so that the run ends.
    await stopEveryLoad();
    await stack?.stop();
    stack = undefined;
  });

  afterAll(() => {
    const columns = [
      'scenario',
      'creates',
      'succeeded',
      'lost',
      'duplicates',
      'otherServerErrors',
      'unavailable',
      'slowest',
      'recoveryMs',
    ];
    const lines = [columns.join(' | '), columns.map(() => '---').join(' | ')];
    for (const row of report) lines.push(columns.map((c) => String(row[c as keyof Tally])).join(' | '));
    process.stdout.write(`\nfault counts (times in ms)\n${lines.join('\n')}\n`);
  });

  it(
    'survives a RabbitMQ restart: fast 503s while it is down, serving again within 10 s of its return',
    async () => {
      const started = await startStack();
      stack = started.stack;
      const load = new Load(started.client, { workers: 6, propertyId: started.propertyId }).start();
      await phase(load, 20, 0.25);

      let brokerBackAt: number;
      try {
        await run('rabbitmqctl', ['stop_app']);
        // Bounded, so that the broker is started again (below) before the scenario's timeout,
        // even when no request fails as it should.
        await within(
          BROKER_DOWN_MS,
          'a request to fail while the broker is down',
          load.next((a) => a.status === 503 || a.status === 0),
        );
      } finally {
        await run('rabbitmqctl', ['start_app']);
        await run('rabbitmqctl', ['await_startup']);
        brokerBackAt = Date.now();
      }
      // Bounded within the scenario's timeout, so that a stack that never recovers says which of
      // its processes complained, rather than only that the test ran out of time.
      await within(RECOVERY_BOUND_MS, 'twenty creates answered 201 once the broker was back', phase(load, 20, 0.25)).catch(
        (error: Error) => {
          throw new Error(
            `${error.message}; what each process logged at warn or above since:\n${complaints(stack!, brokerBackAt)}`,
          );
        },
      );
      const counts = await settle('broker restart', stack, load, brokerBackAt);

      expectNothingLostOrDoubled(counts);
      expect(counts.unavailable).toBeGreaterThan(0);
      expect(counts.recoveryMs).not.toBeNull();
      expect(counts.recoveryMs!).toBeLessThan(10000);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'loses and doubles nothing when a service instance is killed mid-request',
    async () => {
      const started = await startStack();
      stack = started.stack;
      const load = new Load(started.client, { workers: 8, propertyId: started.propertyId }).start();
      await phase(load, 20, 0.25);

      const killedAt = Date.now();
      await Promise.all([
        stack.signal(stack.running('properties')[0], 'SIGKILL'),
        stack.signal(stack.running('applications')[0], 'SIGKILL'),
      ]);
      await phase(load, 30, 0.25);
      const counts = await settle('SIGKILL of a service', stack, load, killedAt);

      expectNothingLostOrDoubled(counts);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'finishes in-flight work and exits 0 within 10 s on SIGTERM, services and gateway alike',
    async () => {
      const started = await startStack();
      stack = started.stack;
      const load = new Load(started.client, { workers: 8, propertyId: started.propertyId }).start();
      await phase(load, 20, 0.25);

      const targets = [stack.running('properties')[0], stack.running('applications')[0]];
      const stopped = await Promise.all(targets.map((target) => stack!.signal(target, 'SIGTERM')));
      // What a process that did not stop cleanly said, to tell why.
      stopped.forEach(({ code }, i) => {
        if (code !== 0) process.stdout.write(`${targets[i].app} exited ${code}:\n${targets[i].output.join('').slice(-4000)}\n`);
      });
      await phase(load, 20, 0.25);
      const counts = await settle('SIGTERM of a service', stack, load, null);

      for (const { code, ms } of stopped) {
        expect(code).toBe(0);
        expect(ms).toBeLessThan(10000);
      }
      expectNothingLostOrDoubled(counts);

      // The gateway, with requests provably in flight: the properties service is replaced by a
      // stand-in that holds each message until all have arrived, then the gateway gets SIGTERM,
      // then the stand-in answers. Every request is answered; none is cut off.
      await stack.stopApp('properties');
      const held: ConsumeMessage[] = [];
      const connection = await connect(process.env.AMQP_URL!);
      try {
        const channel = await connection.createChannel();
        const allHeld = new Promise<void>((resolve) => {
          void channel.consume(
            `${stack!.namespace}properties`,
            (message: ConsumeMessage | null) => {
              if (message) held.push(message);
              if (held.length === 20) resolve();
            },
            { noAck: true },
          );
        });
        const inFlight = Array.from({ length: 20 }, (_, i) =>
          started.client.post('/api/v2/properties', { property: { name: `last-${i}` } }).catch(() => ({ status: 0, body: null })),
        );
        await allHeld;
        const gatewayStopped = stack.signal(stack.running('gateway')[0], 'SIGTERM');
        for (const message of held) {
          const packet = JSON.parse(message.content.toString());
          answerAsService(channel, message, { property: { id: 1, name: packet.data.request.property.name } });
        }
        const answers = await Promise.all(inFlight);
        const gateway = await gatewayStopped;
        expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
        expect(gateway.code).toBe(0);
        expect(gateway.ms).toBeLessThan(10000);
      } finally {
        await connection.close();
      }
    },
    SCENARIO_TIMEOUT_MS,
  );
});

describe('a poison message', () => {
  let stack: Stack;
  let connection: ChannelModel;
  let channel: Channel;
  const lookups = new Map<number, number>();
  const deadLetters: ConsumeMessage[] = [];
  const deadLetterArrived = new EventEmitter();

  /** Resolves once `count` dead letters have arrived in all. */
  const deadLettered = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (deadLetters.length < count) return;
        deadLetterArrived.off('message', check);
        resolve();
      };
      deadLetterArrived.on('message', check);
      check();
    });

  beforeAll(async () => {
    // No properties service: a peer out of step with the applications service stands in its
    // place and answers nonsense about property 666 (and sensibly about the others).
    stack = await Stack.start({ instances: { properties: 0, applications: 1 } });
    connection = await connect(process.env.AMQP_URL!);
    channel = await connection.createChannel();
    // Declared as the properties service would: the applications service publishes its lookups
    // to the queue's request exchange, and declares neither.
    await assertServiceQueue(channel, `${stack.namespace}properties`);
    await channel.consume(
      `${stack.namespace}properties`,
      (message: ConsumeMessage | null) => {
        if (!message) return;
        const id = JSON.parse(message.content.toString()).data.id as number;
        lookups.set(id, (lookups.get(id) ?? 0) + 1);
        answerAsService(channel, message, id === 666 ? 'nonsense' : { id, name: 'Stand-in' });
      },
      { noAck: true },
    );
    // Replies to what this test sends itself come back here (and are not needed).
    await channel.consume('amq.rabbitmq.reply-to', () => undefined, { noAck: true });
    await channel.consume(
      `${stack.namespace}applications.dead-letter`,
      (message: ConsumeMessage | null) => {
        if (!message) return;
        deadLetters.push(message);
        deadLetterArrived.emit('message');
      },
      { noAck: true },
    );
  });

  afterAll(async () => {
    await connection?.close();
    await stack?.stop();
  });

  it('is tried a bounded number of times, then dead-lettered, without blocking the others', async () => {
    const client = api(stack.url);
    const applicant = { first_name: 'Poison', last_name: 'Pill', email: 'p@example.com' };

    const [poisoned, healthy] = await Promise.all([
      client.post('/api/v2/applications', { application: { property_id: 666, applicant } }),
      client.post('/api/v2/applications', { application: { property_id: 7, applicant } }),
    ]);

    expect(healthy.status).toBe(201);
    expect(poisoned.status).toBe(500);
    expect(poisoned.body).toEqual({ error: { message: 'internal error', details: null } });
    expect(lookups.get(666)).toBe(MAX_DELIVERIES);
    await deadLettered(1);
    expect(deadLetters).toHaveLength(1);
    const samples = await scrape(stack.process('applications').httpUrl);
    const counted = { queue: `${stack.namespace}applications`, reason: 'failed' };
    expect(valueOf(samples, 'messages_dead_lettered_total', counted)).toBe(1);
    expect(JSON.parse(deadLetters[0].content.toString()).data.request.application.property_id).toBe(666);
  });

  it('dead-letters what cannot be read at all, and keeps serving', async () => {
    const before = deadLetters.length;
    const queue = `${stack.namespace}applications`;
    channel.sendToQueue(queue, Buffer.from('{ not json'), { persistent: true });
    channel.sendToQueue(queue, Buffer.from(JSON.stringify({ pattern: 'applications.nothing', data: {}, id: randomUUID() })), {
      persistent: true,
      replyTo: 'amq.rabbitmq.reply-to',
    });
    const healthy = await api(stack.url).post('/api/v2/applications', {
      application: { property_id: 8, applicant: { first_name: 'A', last_name: 'B', email: 'a@example.com' } },
    });

    expect(healthy.status).toBe(201);
    await deadLettered(before + 2);
    expect(deadLetters.map((m) => m.content.toString()).slice(before)).toEqual(
      expect.arrayContaining(['{ not json', expect.stringContaining('applications.nothing')]),
    );
    const samples = await scrape(stack.process('applications').httpUrl);
    expect(valueOf(samples, 'messages_dead_lettered_total', { queue, reason: 'unroutable' })).toBe(2);
  });
});
