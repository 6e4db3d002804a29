import { once } from 'node:events';
import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP relay to a real server (the broker, the database), which a test can cut and restore to
 * play an outage of that server for the processes connected through it, and only for them.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly pairs = new Set<[Socket, Socket]>();
  private listeningPort = 0;
  private answersToLose = 0;

  private constructor(private readonly target: { host: string; port: number }) {}

  /** Starts relaying to `target` on a free local port. */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await proxy.listen(0);
    return proxy;
  }

  get port(): number {
    return this.listeningPort;
  }

  /** `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string {
    const rewritten = new URL(url);
    rewritten.hostname = '127.0.0.1';
    rewritten.port = String(this.port);
    return rewritten.toString();
  }

  /** Drops every relayed connection and refuses new ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Keeps every connection open but relays nothing more: a server that hangs. */
  stall(): void {
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  }

  /**
   * The next connection relays what its client sends, and is closed when the server first
   * answers, which never reaches the client: a request done, its answer lost on the way.
   */
  loseNextAnswer(): void {
    this.answersToLose++;
  }

  /** Accepts and relays connections again, on the same port. */
  async restore(): Promise<void> {
    await this.listen(this.port);
  }

  private async listen(port: number): Promise<void> {
    const server = createServer((client) => this.relay(client));
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    this.listeningPort = (server.address() as { port: number }).port;
    this.server = server;
  }

  private relay(client: Socket): void {
    const upstream = createConnection(this.target);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    client.on('close', () => this.pairs.delete(pair));
    client.pipe(upstream);
    if (this.answersToLose > 0) {
      this.answersToLose--;
      upstream.once('data', () => client.destroy());
    } else {
      upstream.pipe(client);
    }
  }
}

/** Host and port of a mongodb:// or amqp:// URL. */
export function hostAndPort(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || defaultPort) };
}

/**
 * A round-robin TCP balancer in front of several servers (gateways), as a Kubernetes Service is:
 * each new connection goes to the next server still in rotation, and a server taken out of it
 * (a terminating pod leaving the endpoints) gets no new connection while those it has stay.
 */
export class RoundRobinBalancer {
  private readonly inRotation: number[];
  private next = 0;
  private readonly sockets = new Set<Socket>();
  /** New connections relayed to each server, by port. */
  readonly connections = new Map<number, number>();

  private constructor(
    private readonly server: Server,
    ports: number[],
  ) {
    this.inRotation = [...ports];
  }

  static async start(ports: number[]): Promise<RoundRobinBalancer> {
    const server = createServer();
    const balancer = new RoundRobinBalancer(server, ports);
    server.on('connection', (client) => balancer.relay(client));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return balancer;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  /** Sends new connections to the server on `port` too (a new pod become ready). */
  add(port: number): void {
    if (!this.inRotation.includes(port)) this.inRotation.push(port);
  }

  /** Sends no new connection to the server on `port` (a terminating pod leaving the endpoints). */
  remove(port: number): void {
    const index = this.inRotation.indexOf(port);
    if (index >= 0) this.inRotation.splice(index, 1);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket): void {
    if (this.inRotation.length === 0) {
      // No endpoint at all, as a Service without ready pods: the connection is refused.
      client.resetAndDestroy();
      return;
    }
    const port = this.inRotation[this.next++ % this.inRotation.length];
    this.connections.set(port, (this.connections.get(port) ?? 0) + 1);
    const upstream = createConnection({ host: '127.0.0.1', port });
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      // A reset on either side is passed on as a reset, so that the client sees what the server
      // did; a close is passed on once what was sent before it has been.
      socket.on('close', (hadError) => {
        this.sockets.delete(socket);
        const other = socket === client ? upstream : client;
        if (hadError) other.resetAndDestroy();
        else other.end();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
