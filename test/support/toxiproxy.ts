import { ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, terminate } from '../../tools/stack';
import { eventually } from './wait';

const GO_TOOLS = join(__dirname, '..', '..', 'scripts', 'go-tools.sh');

/**
 * A Toxiproxy server of the test's own on 127.0.0.1, driven through its HTTP API: proxies to the
 * broker and the database that one process is given, and the faults put on them.
 */
export class Toxiproxy {
  private constructor(
    private readonly child: ChildProcess,
    private readonly api: string,
  ) {}

  /** Starts toxiproxy-server (built once by scripts/go-tools.sh) on a free port, once it answers. */
  static async start(): Promise<Toxiproxy> {
    const { stdout } = await promisify(execFile)(GO_TOOLS, ['bin', 'toxiproxy-server'], { maxBuffer: 1024 * 1024 });
    const port = await freePort();
    const child = spawn(stdout.trim(), ['-host', '127.0.0.1', '-port', String(port)], { stdio: 'ignore' });
    const toxiproxy = new Toxiproxy(child, `http://127.0.0.1:${port}`);
    try {
      await eventually('toxiproxy-server to answer', () =>
        fetch(`${toxiproxy.api}/version`).then(
          (r) => r.ok,
          () => false,
        ),
      );
    } catch (error) {
      await toxiproxy.stop();
      throw error;
    }
    return toxiproxy;
  }

  /**
   * A proxy named `name` to the host and port of `url` (amqp://, mongodb://), listening on a port
   * of its own; resolves with `url` pointed at it.
   */
  async proxy(name: string, url: string, defaultPort: number): Promise<string> {
    const target = new URL(url);
    const upstream = `${target.hostname}:${target.port || defaultPort}`;
    const created = await this.call('POST', '/proxies', { name, listen: '127.0.0.1:0', upstream, enabled: true });
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = (created as { listen: string }).listen.split(':').pop()!;
    return proxied.toString();
  }

  /**
   * Cuts every connection through the proxy as a partitioned network does: nothing passes either
   * way, and nothing is closed. A bandwidth of 0 holds what is sent (the timeout toxic would drop
   * it, and close the connections when removed), so that once `heal` removes it the held bytes go
   * on, as TCP's retransmissions would carry them.
   */
  async partition(name: string): Promise<void> {
    for (const stream of ['upstream', 'downstream']) {
      await this.call('POST', `/proxies/${name}/toxics`, {
        name: `partition-${stream}`,
        type: 'bandwidth',
        stream,
        attributes: { rate: 0 },
      });
    }
  }

  async heal(name: string): Promise<void> {
    for (const stream of ['upstream', 'downstream']) await this.call('DELETE', `/proxies/${name}/toxics/partition-${stream}`);
  }

  async stop(): Promise<void> {
    await terminate(this.child, 'SIGTERM');
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.api}${path}`, {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`toxiproxy ${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
}
