import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { connect } from 'amqplib';
import mongoose from 'mongoose';
import { freePort, terminate, untilReady } from '../tools/stack';
import { driveHttp, driveLoop, Measurement } from './measure';
import { READY_LINE } from './reference/settings';
import { jsonPost, PROPERTY_BODY } from './scenarios';
import { Watched } from './procfs';

/** Something the stack's numbers are divided by, measured in the same run on the same machine. */
export interface Reference {
  name: string;
  description: string;
  processes: Watched[];
  drive(connections: number, durationS: number): Promise<Measurement>;
  stop(): Promise<void>;
}

export const NEST_ECHO = 'nest-rmq-echo';
export const AMQP_RPC = 'amqp-rpc';
export const AMQP_RPC_QUORUM = 'amqp-rpc-quorum';
export const DB_INSERT = 'db-insert';

/** The body every reference carries: the create-property request, as JSON. */
const PAYLOAD = JSON.stringify(PROPERTY_BODY);
const OPERATION_TIMEOUT_MS = 10_000;

/** Queue and database names of the references, apart from any stack's. */
const namespace = () => `bench${randomBytes(4).toString('hex')}_`;

/** Starts the references named in `only` (all when null). */
export async function startReferences(only: string[] | null): Promise<Reference[]> {
  const wanted = (name: string) => only === null || only.includes(name);
  const references: Reference[] = [];
  try {
    if (wanted(NEST_ECHO)) references.push(await nestEcho());
    if (wanted(AMQP_RPC)) references.push(await amqpRpc(false));
    if (wanted(AMQP_RPC_QUORUM)) references.push(await amqpRpc(true));
    if (wanted(DB_INSERT)) references.push(await dbInsert());
  } catch (error) {
    await Promise.all(references.map((r) => r.stop()));
    throw error;
  }
  return references;
}

/** A plain NestJS 11 gateway (Express) forwarding the body over RMQ, default options, to an echo service. */
async function nestEcho(): Promise<Reference> {
  const queue = `${namespace()}nest-echo`;
  const port = await freePort();
  const env = { REFERENCE_QUEUE: queue, PORT: String(port) };
  const started: ReferenceProcess[] = [];
  const stop = async () => {
    await Promise.all(started.map((p) => terminate(p.child, 'SIGTERM')));
    await deleteQueues([queue]);
  };
  try {
    started.push(await startReference('nest-echo-service', env));
    started.push(await startReference('nest-echo-gateway', env));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    name: NEST_ECHO,
    description:
      'plain NestJS 11: Express controller send()s the body over the RMQ transport (default options) to a service that returns it',
    processes: started.map(({ name, child }) => ({ name, pid: child.pid! })),
    drive: (connections, durationS) =>
      driveHttp({
        url: `http://127.0.0.1:${port}`,
        connections,
        durationS,
        requests: [{ ...jsonPost(PROPERTY_BODY), path: '/echo' }],
      }),
    stop,
  };
}

/**
 * A bare amqplib request and reply through direct reply-to: the broker's own round trip, on a
 * transient queue, or (`durable`) on a quorum queue with persistent messages acknowledged after
 * the reply, as the stack's requests travel.
 */
async function amqpRpc(durable: boolean): Promise<Reference> {
  const queue = `${namespace()}${durable ? 'amqp-echo-quorum' : 'amqp-echo'}`;
  const responder = await startReference('amqp-echo-responder', {
    REFERENCE_QUEUE: queue,
    REFERENCE_DURABLE: durable ? '1' : '0',
  });
  const connection = await connect(process.env.AMQP_URL!, { noDelay: true });
  const channel = await connection.createChannel();
  const waiting = new Map<string, () => void>();
  await channel.consume('amq.rabbitmq.reply-to', (message) => waiting.get(message!.properties.correlationId)?.(), {
    noAck: true,
  });
  const content = Buffer.from(PAYLOAD);
  let sequence = 0;
  const roundTrip = () =>
    new Promise<void>((resolve, reject) => {
      const id = String(sequence++);
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('no reply'));
      }, OPERATION_TIMEOUT_MS);
      waiting.set(id, () => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve();
      });
      channel.sendToQueue(queue, content, { replyTo: 'amq.rabbitmq.reply-to', correlationId: id, persistent: durable });
    });
  return {
    name: durable ? AMQP_RPC_QUORUM : AMQP_RPC,
    description: durable
      ? 'amqplib request and reply through direct reply-to, quorum queue, persistent message acknowledged after the reply, Nagle off'
      : 'amqplib request and reply through direct reply-to, transient queue, auto-ack, Nagle off',
    processes: [{ name: responder.name, pid: responder.child.pid! }],
    drive: (connections, durationS) => driveLoop(connections, durationS, roundTrip),
    stop: async () => {
      await connection.close();
      await terminate(responder.child, 'SIGTERM');
      await deleteQueues([queue]);
    },
  };
}

/** The database driver inserting one property-sized document and waiting for the answer. */
async function dbInsert(): Promise<Reference> {
  const connection = await mongoose.createConnection(process.env.MONGODB_URI!, { dbName: `${namespace()}reference` }).asPromise();
  const collection = connection.db!.collection('inserts');
  const document = JSON.parse(PAYLOAD) as Record<string, unknown>;
  return {
    name: DB_INSERT,
    description: 'the MongoDB driver inserting the request body as a document (insertOne, acknowledged)',
    processes: [],
    drive: (connections, durationS) =>
      driveLoop(connections, durationS, async () => {
        await collection.insertOne({ ...document });
      }),
    stop: async () => {
      await connection.dropDatabase();
      await connection.close();
    },
  };
}

interface ReferenceProcess {
  name: string;
  child: ChildProcess;
  output: string[];
}

/** Starts one of bench/reference/*.ts (built beside this file) and waits until it serves. */
async function startReference(script: string, env: Record<string, string>): Promise<ReferenceProcess> {
  const child = spawn(process.execPath, [join(__dirname, 'reference', `${script}.js`)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const running = { name: script, child, output: [] };
  try {
    await untilReady(running, READY_LINE, script);
  } catch (error) {
    await terminate(child, 'SIGTERM');
    throw error;
  }
  return running;
}

async function deleteQueues(queues: string[]): Promise<void> {
  const connection = await connect(process.env.AMQP_URL!);
  try {
    const channel = await connection.createChannel();
    for (const queue of queues) await channel.deleteQueue(queue);
    await channel.close();
  } finally {
    await connection.close();
  }
}
