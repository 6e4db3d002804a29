import { dirname } from 'node:path';
import { Attributes, context, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { tracingOn } from './tracing';

/** The driver's connection, as far as a span of its commands needs it. */
interface DriverConnection {
  address: string;
}

type Command = (this: DriverConnection, ns: { db: string }, cmd: Record<string, unknown>, ...rest: unknown[]) => Promise<unknown>;

/** Handshakes and heartbeats: a connection's, not an operation's. */
const CONNECTION_COMMANDS = new Set(['hello', 'ismaster', 'isMaster']);

const tracer = trace.getTracer('rental-applications');

let installed = false;

/**
 * The collection a command works on: its first field's value (`find: 'applications'`), or its
 * `collection` field for a cursor's next batch (`getMore: <id>, collection: 'applications'`).
 */
function collectionOf(name: string, cmd: Record<string, unknown>): string | undefined {
  const first = cmd[name];
  if (typeof first === 'string') return first;
  return typeof cmd.collection === 'string' ? cmd.collection : undefined;
}

function attributesOf(connection: DriverConnection, db: string, name: string, collection: string | undefined): Attributes {
  const at = connection.address.lastIndexOf(':');
  return {
    'db.system.name': 'mongodb',
    'db.namespace': db,
    'db.operation.name': name,
    ...(collection === undefined ? {} : { 'db.collection.name': collection }),
    'server.address': at < 0 ? connection.address : connection.address.slice(0, at),
    ...(at < 0 ? {} : { 'server.port': Number(connection.address.slice(at + 1)) }),
  };
}

function ended(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}

/**
 * Traces every command the MongoDB driver sends, as a client span (`find applications`) of the
 * span it is sent in: only inside a span, so background work outside any trace and the
 * operations of traces not sampled (which carry no span, see trace-context.ts) cost one lookup.
 * Neither the command's fields nor its reply are recorded: they hold applicants' sealed data.
 *
 * In place of the OpenTelemetry MongoDB instrumentation, which did for every command, sampled or
 * not, what only a sampled one needs (its connection metrics on every session taken and given
 * back, every pool checkout's callback bound to the context); and of the driver's command
 * monitoring, which deserializes every reply a second time for its events. It wraps the driver's
 * `Connection.prototype.command`, where the instrumentation did, of the driver that mongoose
 * loads; the driver keeps the caller's context up to there (promises all the way). Called by
 * the services that use a database (DatabaseModule); nothing when tracing is off.
 */
export function traceDatabaseCommands(): void {
  if (installed || !tracingOn()) return;
  installed = true;
  const driver = dirname(require.resolve('mongodb/package.json', { paths: [dirname(require.resolve('mongoose'))] }));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver's own connection, not a public export
  const { Connection } = require(`${driver}/lib/cmap/connection`) as { Connection?: { prototype: { command?: Command } } };
  const connection = Connection?.prototype;
  const command = connection?.command;
  if (!connection || typeof command !== 'function')
    throw new Error('the MongoDB driver has no Connection.command: its commands cannot be traced');
  connection.command = function tracedCommand(this: DriverConnection, ns, cmd, ...rest) {
    const parent = context.active();
    if (trace.getSpan(parent) === undefined) return command.call(this, ns, cmd, ...rest);
    const name = Object.keys(cmd)[0];
    if (CONNECTION_COMMANDS.has(name)) return command.call(this, ns, cmd, ...rest);
    const collection = collectionOf(name, cmd);
    const span = tracer.startSpan(
      collection === undefined ? name : `${name} ${collection}`,
      { kind: SpanKind.CLIENT, attributes: attributesOf(this, ns.db, name, collection) },
      parent,
    );
    const sent = command.call(this, ns, cmd, ...rest);
    sent.then(
      () => ended(span),
      (error: unknown) => ended(span, error),
    );
    return sent;
  };
}
