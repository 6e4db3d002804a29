import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { connect } from 'amqplib';
import autocannon from 'autocannon';
import mongoose from 'mongoose';
import { freePort, terminate, untilReady } from '../tools/stack';
import { driveHttp, driveLoop, Measurement } from './measure';
import { READY_LINE, REFERENCE_COLLECTION, REFERENCE_PROPERTIES, referenceProperty } from './reference/settings';
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
export const NEST_GET_PROPERTY = 'nest-get-property';
export const DB_FIND_BY_ID = 'db-find-by-id';
export const QUORUM_READ = 'amqp-quorum-read';

/** The body every reference carries: the create-property request, as JSON. */
const PAYLOAD = JSON.stringify(PROPERTY_BODY);
const OPERATION_TIMEOUT_MS = 10_000;

/** Queue and database names of the references, apart from any stack's. */
const namespace = () => `bench${randomBytes(4).toString('hex')}_`;

/** The references started, and what they share. */
export interface References {
  list: Reference[];
  stop(): Promise<void>;
}

/** Starts the references named in `only` (all when null). */
export async function startReferences(only: string[] | null): Promise<References> {
  const wanted = (name: string) => only === null || only.includes(name);
  const references: Reference[] = [];
  let stored: StoredProperties | null = null;
  const stop = async () => {
    await Promise.all(references.map((r) => r.stop()));
    await stored?.drop();
  };
  try {
    if (wanted(NEST_ECHO)) references.push(await nestEcho());
    if (wanted(AMQP_RPC)) references.push(await amqpRpc(false));
    if (wanted(AMQP_RPC_QUORUM)) references.push(await amqpRpc(true));
    if (wanted(DB_INSERT)) references.push(await dbInsert());
    if ([NEST_GET_PROPERTY, DB_FIND_BY_ID, QUORUM_READ].some(wanted)) {
      stored = await storedProperties();
      if (wanted(NEST_GET_PROPERTY)) references.push(await nestGetProperty(stored.dbName));
      if (wanted(DB_FIND_BY_ID)) references.push(dbFindById(stored));
      if (wanted(QUORUM_READ)) references.push(await amqpRpc(true, stored.dbName));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { list: references, stop };
}

/** A plain NestJS 11 gateway (Express) forwarding the body over RMQ, default options, to an echo service. */
const nestEcho = () =>
  nestReference(
    NEST_ECHO,
    'plain NestJS 11: Express controller send()s the body over the RMQ transport (default options) to a service that returns it',
    'nest-echo',
    {},
    [{ ...jsonPost(PROPERTY_BODY), path: '/echo' }],
  );

/**
 * Get property built the plain NestJS way with the stack's guarantees: Express, ClientProxy.send,
 * a durable quorum queue, persistent messages, ack after a mongoose findById on the same server.
 */
function nestGetProperty(dbName: string): Promise<Reference> {
  let next = 0;
  return nestReference(
    NEST_GET_PROPERTY,
    'plain NestJS 11 get property: Express, ClientProxy.send, durable quorum queue, persistent messages, manual ack after a mongoose findById',
    'nest-property',
    { REFERENCE_DB: dbName },
    [
      {
        method: 'GET',
        setupRequest: (request) => ({ ...request, path: `/properties/${(next++ % REFERENCE_PROPERTIES) + 1}` }),
      },
    ],
  );
}

/**
 * Starts bench/reference/<prefix>-service and <prefix>-gateway on a queue of their own, and
 * drives the gateway over HTTP with `requests`.
 */
async function nestReference(
  name: string,
  description: string,
  prefix: string,
  extraEnv: Record<string, string>,
  requests: autocannon.Request[],
): Promise<Reference> {
  const queue = `${namespace()}${prefix}`;
  const port = await freePort();
  const env = { ...extraEnv, REFERENCE_QUEUE: queue, PORT: String(port) };
  const started: ReferenceProcess[] = [];
  const stop = async () => {
    await Promise.all(started.map((p) => terminate(p.child, 'SIGTERM')));
    await deleteQueues([queue]);
  };
  try {
    started.push(await startReference(`${prefix}-service`, env));
    started.push(await startReference(`${prefix}-gateway`, env));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    name,
    description,
    processes: started.map(({ name: process, child }) => ({ name: process, pid: child.pid! })),
    drive: (connections, durationS) =>
      driveHttp({ url: `http://127.0.0.1:${port}`, connections, durationS, requests: requests.map((r) => ({ ...r })) }),
    stop,
  };
}

/**
 * A bare amqplib request and reply through direct reply-to: the broker's own round trip, on a
 * transient queue, or (`durable`) on a quorum queue with persistent messages acknowledged after
 * the reply, as the stack's requests travel.
 */
async function amqpRpc(durable: boolean, readFrom?: string): Promise<Reference> {
  const queue = `${namespace()}${readFrom ? 'amqp-read-quorum' : durable ? 'amqp-echo-quorum' : 'amqp-echo'}`;
  const responder = await startReference('amqp-echo-responder', {
    REFERENCE_QUEUE: queue,
    REFERENCE_DURABLE: durable ? '1' : '0',
    ...(readFrom ? { REFERENCE_DB: readFrom } : {}),
  });
  const connection = await connect(process.env.AMQP_URL!, { noDelay: true });
  const channel = await connection.createChannel();
  const waiting = new Map<string, () => void>();
  await channel.consume('amq.rabbitmq.reply-to', (message) => waiting.get(message!.properties.correlationId)?.(), {
    noAck: true,
  });
  const content = Buffer.from(PAYLOAD);
  // The floor sends a property id to read, each in turn.
  const ids = Array.from({ length: REFERENCE_PROPERTIES }, (_, i) => Buffer.from(String(i + 1)));
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
      const body = readFrom ? ids[sequence % ids.length] : content;
      channel.sendToQueue(queue, body, { replyTo: 'amq.rabbitmq.reply-to', correlationId: id, persistent: durable });
    });
  return {
    name: readFrom ? QUORUM_READ : durable ? AMQP_RPC_QUORUM : AMQP_RPC,
    description: readFrom
      ? 'the floor of a get: amqp-rpc-quorum whose responder reads the property by _id with the driver before answering and acknowledging'
      : durable
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

interface StoredProperties {
  dbName: string;
  read(id: number): Promise<unknown>;
  drop(): Promise<void>;
}

/** The properties the reading references read, in a database of their own on MONGODB_URI. */
async function storedProperties(): Promise<StoredProperties> {
  const dbName = `${namespace()}reference`;
  const connection = await mongoose.createConnection(process.env.MONGODB_URI!, { dbName }).asPromise();
  const properties = connection.db!.collection<{ _id: string }>(REFERENCE_COLLECTION);
  await properties.insertMany(Array.from({ length: REFERENCE_PROPERTIES }, (_, i) => referenceProperty(i + 1)));
  return {
    dbName,
    read: (id) => properties.findOne({ _id: String(id) }),
    drop: async () => {
      await connection.dropDatabase();
      await connection.close();
    },
  };
}

/** The database driver reading one stored property by `_id`, the stored properties in turn. */
function dbFindById(stored: StoredProperties): Reference {
  let next = 0;
  return {
    name: DB_FIND_BY_ID,
    description: 'the MongoDB driver reading one property by _id (findOne)',
    processes: [],
    drive: (connections, durationS) =>
      driveLoop(connections, durationS, async () => {
        if (!(await stored.read((next++ % REFERENCE_PROPERTIES) + 1))) throw new Error('no such property');
      }),
    stop: async () => {},
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
