import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connect } from 'amqplib';
import { freePort } from '../../tools/stack';

const DEFAULT_AMQP_URL = 'amqp://guest:guest@localhost:5672';
export const FERRETDB_SCRIPT = join(__dirname, '..', '..', 'scripts', 'ferretdb.sh');

/**
 * RabbitMQ must be reachable (there is no stand-in for it). MongoDB comes from MONGODB_URI, or
 * else a FerretDB of the run's own, as `npm start` runs one (built once with Go by
 * scripts/ferretdb.sh), started here and stopped in teardown.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.RESTART_BROKER === 'false') {
    process.stdout.write('\nRESTART_BROKER=false: test/faults and test/webhook-faults, which restart the broker, are left out\n');
  }
  const amqpUrl = (process.env.AMQP_URL ||= DEFAULT_AMQP_URL);
  try {
    const connection = await connect(amqpUrl, { timeout: 3000 });
    await connection.close();
  } catch (error) {
    throw new Error(
      `RabbitMQ is not reachable at ${amqpUrl} (${String(error)}).\n` +
        'Start one, e.g. `rabbitmq-server -detached` or ' +
        '`docker run -d -p 5672:5672 rabbitmq:3.13-management`, or set AMQP_URL.',
      { cause: error },
    );
  }
  if (!process.env.MONGODB_URI) {
    const dir = await mkdtemp(join(tmpdir(), 'rental-applications-test-ferretdb-'));
    const { stdout } = await promisify(execFile)(FERRETDB_SCRIPT, ['start', dir, String(await freePort())], {
      maxBuffer: 16 * 1024 * 1024,
    });
    (globalThis as { __ferretdbDir?: string }).__ferretdbDir = dir;
    process.env.MONGODB_URI = stdout.trim().split('\n').pop();
  }
}
