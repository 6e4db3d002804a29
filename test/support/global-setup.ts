import { connect } from 'amqplib';

const DEFAULT_AMQP_URL = 'amqp://guest:guest@localhost:5672';

/**
 * RabbitMQ must be reachable (there is no stand-in for it). MongoDB comes from MONGODB_URI, or
 * else an in-memory mongod from mongodb-memory-server, started here and stopped in teardown.
 */
export default async function globalSetup(): Promise<void> {
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
    const { MongoMemoryServer } = await import('mongodb-memory-server-core');
    const server = await MongoMemoryServer.create();
    (globalThis as { __mongod?: { stop(): Promise<boolean> } }).__mongod = server;
    process.env.MONGODB_URI = server.getUri();
  }
}
