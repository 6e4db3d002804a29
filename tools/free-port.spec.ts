import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { freePort } from './free-port';

describe('freePort', () => {
  it('hands out distinct ports below the range the kernel gives outgoing connections, each free to bind', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    const ports = [];
    for (let i = 0; i < 20; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low);
      const server = createServer().listen(port);
      await once(server, 'listening');
      server.close();
      await once(server, 'close');
    }
  });
});
