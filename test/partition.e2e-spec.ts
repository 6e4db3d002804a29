import { setTimeout as delay } from 'node:timers/promises';
import { api } from './support/http';
import { beyondRetryable, Load, stopEveryLoad, storedByName, tally } from './support/load';
import { Toxiproxy } from './support/toxiproxy';
import { eventually } from './support/wait';
import { RunningProcess, Stack } from '../tools/stack';

/**
 * One instance of the applications service cut off from the broker and the database for 30 s as
 * a network fails (Toxiproxy between it and both: nothing passes, nothing is closed), while a
 * second instance serves under load.
 */
const PARTITION_MS = 30000;
/** The broker's heartbeats (5 s, two missed) and the database's 1 s readiness read, with room for a loaded machine. */
const NOT_READY_WITHIN_MS = 20000;
/** A hung connection attempt is given up after 5 s (both clients), then tried again at once. */
const READY_AGAIN_WITHIN_MS = 30000;

async function probe(process: RunningProcess, path: '/health/live' | '/health/ready'): Promise<number> {
  const response = await fetch(`${process.operationsUrl}${path}`, { signal: AbortSignal.timeout(3000) });
  await response.arrayBuffer();
  return response.status;
}

/** Resolves once `process` answers its readiness probe with `status`, within `timeoutMs`. */
async function untilReadiness(process: RunningProcess, status: 200 | 503, timeoutMs: number): Promise<void> {
  const what = `${process.app} (pid ${process.child.pid}) to answer ${status} on /health/ready`;
  await eventually(what, async () => (await probe(process, '/health/ready')) === status, { timeoutMs, intervalMs: 500 });
}

describe('a partitioned instance', () => {
  let stack: Stack | undefined;
  let toxiproxy: Toxiproxy | undefined;

  beforeAll(async () => {
    toxiproxy = await Toxiproxy.start();
  }, 600000);

  afterAll(async () => {
    await stopEveryLoad();
    await stack?.stop();
    await toxiproxy?.stop();
  });

  it('answers not ready while live, leaves the load to the other, and rejoins by itself; nothing lost or doubled', async () => {
    stack = await Stack.start({ instances: { properties: 1, applications: 1 } });
    const cutOff = await stack.startApp('applications', {
      AMQP_URL: await toxiproxy!.proxy('broker', stack.env.AMQP_URL, 5672),
      MONGODB_URI: await toxiproxy!.proxy('database', stack.env.MONGODB_URI, 27017),
    });
    const client = api(stack.url);
    const propertyId = (await client.post('/api/v2/properties', { property: { name: 'Under load' } })).body.property.id;
    const load = new Load(client, { workers: 8, propertyId }).start();
    await load.successes(20);
    await untilReadiness(cutOff, 200, READY_AGAIN_WITHIN_MS);

    const cutAt = Date.now();
    await toxiproxy!.partition('broker');
    await toxiproxy!.partition('database');
    await untilReadiness(cutOff, 503, NOT_READY_WITHIN_MS);
    const notReadyAfterMs = Date.now() - cutAt;
    expect(await probe(cutOff, '/health/live')).toBe(200);
    // The other instance carries the load meanwhile.
    await load.successes(20);
    // The partition's length is the fault itself, not a wait for anything.
    await delay(Math.max(0, PARTITION_MS - (Date.now() - cutAt)));
    expect(await probe(cutOff, '/health/live')).toBe(200);
    expect(await probe(cutOff, '/health/ready')).toBe(503);

    const healedAt = Date.now();
    await toxiproxy!.heal('broker');
    await toxiproxy!.heal('database');
    await untilReadiness(cutOff, 200, READY_AGAIN_WITHIN_MS);
    const readyAfterMs = Date.now() - healedAt;
    await eventually('both instances to consume again', async () => (await stack!.consumerCount('applications')) === 2, {
      timeoutMs: 10000,
    });
    await load.successes(20);
    await load.stop();
    process.stdout.write(`\npartition: not ready after ${notReadyAfterMs} ms, ready again ${readyAfterMs} ms after the heal\n`);

    const counts = tally('partition', load, await storedByName(stack, load), healedAt);
    expect(beyondRetryable(load.attempts)).toEqual([]);
    expect(counts.lostCreates).toEqual([]);
    expect(counts.duplicates).toBe(0);
  }, 180000);
});
