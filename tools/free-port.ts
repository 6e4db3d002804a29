/**
 * freePort: a port for a test process to listen on, chosen so that nothing else this machine
 * runs is likely to take it first.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralPortRange();
  for (let tries = 0; tries < 100; tries++) {
    const port = FIRST_CHOSEN_PORT + Math.floor(Math.random() * (ephemeralLow - FIRST_CHOSEN_PORT));
    if (!handedOut.has(port) && (await canListenOn(port))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${FIRST_CHOSEN_PORT} and ${ephemeralLow} after 100 tries`);
}

/** Lowest port `freePort` hands out: above the well-known and most registered services' ports. */
const FIRST_CHOSEN_PORT = 10_000;
/** Ports this process handed out already: two asked for before either is bound are not the same. */
const handedOut = new Set<number>();

/**
 * The ports the kernel gives outgoing connections, which `freePort` keeps out of: a port chosen
 * free can be taken by an app's connection to the broker or the database before whatever it was
 * chosen for binds it (`npm start` builds for minutes first), and the bind then fails.
 */
function ephemeralPortRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low > FIRST_CHOSEN_PORT + 1000 && high >= low) return [low, high];
  } catch {
    // Not Linux: IANA's dynamic range, which most other systems use.
  }
  return [49_152, 65_535];
}

/** Whether a listener can bind `port` on every address, as the apps do. */
async function canListenOn(port: number): Promise<boolean> {
  const server = createServer();
  try {
    server.listen(port);
    await once(server, 'listening');
    server.close();
    await once(server, 'close');
    return true;
  } catch {
    return false;
  }
}
