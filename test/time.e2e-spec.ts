import { join } from 'node:path';
import mongoose, { mongo } from 'mongoose';
import { withDeadline } from '@app/contracts';
import { boundOperationsByDeadline } from '@app/persistence';
import { api } from './support/http';
import { hostAndPort, TcpProxy } from './support/tcp-proxy';
import { eventually } from './support/wait';
import { Stack } from '../tools/stack';

const TEN_MINUTES_MS = 10 * 60_000;

/** The environment that runs an app on a clock `offsetMs` off the others'. */
const skewedClock = (offsetMs: number) => ({
  NODE_OPTIONS: `--require ${join(__dirname, 'support', 'skewed-clock.js')}`,
  CLOCK_OFFSET_MS: String(offsetMs),
});

/** Deadlines are measured on each process's own clock, and they bound the work a message starts. */
describe('time', () => {
  describe('clocks that disagree', () => {
    let stack: Stack;

    beforeAll(async () => {
      stack = await Stack.start();
    });

    afterAll(() => stack?.stop());

    it.each([
      ['behind', -TEN_MINUTES_MS],
      ['ahead of', TEN_MINUTES_MS],
    ])('serves a gateway whose clock is ten minutes %s the services’', async (_label, offsetMs) => {
      await stack.stopApp('gateway');
      await stack.startApp('gateway', skewedClock(offsetMs));
      const client = api(stack.url);

      const created = await client.post('/api/v2/properties', { property: { name: 'Skewed Court' } });
      expect(created.status).toBe(201);
      const read = await client.get(`/api/v2/properties/${created.body.property.id}`);
      expect(read.status).toBe(200);
    });
  });

  describe('a stalled database', () => {
    let stack: Stack;
    let database: TcpProxy;

    beforeAll(async () => {
      database = await TcpProxy.start(hostAndPort(process.env.MONGODB_URI!, 27017));
      stack = await Stack.start({ instances: { properties: 0 }, env: { RPC_TIMEOUT_MS: '1000' } });
      await stack.startApp('properties', { MONGODB_URI: database.rewrite(process.env.MONGODB_URI!), RMQ_PREFETCH: '1' });
    });

    afterAll(async () => {
      await database?.cut();
      await stack?.stop();
    });

    it('holds a message no longer than its caller waits: it is answered 503 and settled at its deadline', async () => {
      const client = api(stack.url);
      const created = await client.post('/api/v2/properties', { property: { name: 'Stalled Court' } });
      expect(created.status).toBe(201);
      database.stall();

      expect((await client.get(`/api/v2/properties/${created.body.property.id}`)).status).toBe(503);
      // Still stalled: the handler was let go at the deadline, not when the database came back.
      const properties = stack.process('properties');
      const handled = await eventually('the read to be settled while the database is stalled', () =>
        properties.logs.find((record) => record.msg === 'message handled' && record.pattern === 'properties.get'),
      );
      expect(handled.outcome).toBe('SERVICE_UNAVAILABLE');
    });

    it('fails a database operation made while a message is handled at the message’s deadline', async () => {
      boundOperationsByDeadline();
      const relay = await TcpProxy.start(hostAndPort(process.env.MONGODB_URI!, 27017));
      const connection = await mongoose
        .createConnection(relay.rewrite(process.env.MONGODB_URI!), { dbName: 'stalled' })
        .asPromise();
      try {
        const records = connection.db!.collection('records');
        await records.findOne({});
        relay.stall();
        const stillWaiting = new Promise((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000).unref());
        const outcome = await Promise.race([
          withDeadline(Date.now() + 300, () => records.findOne({})).catch((error: unknown) => error),
          stillWaiting,
        ]);
        expect(outcome).toBeInstanceOf(mongo.MongoOperationTimeoutError);
      } finally {
        await relay.cut();
        await connection.close(true);
      }
    });
  });
});
