import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Addresses a webhook may not reach: this host, private networks, link-local, and the like. */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/** Why a target is refused; recorded with the attempt, or answered as a 422 on create. */
export class TargetRefused extends Error {}

/**
 * Said with a refusal that the setting would lift, so that whoever runs a receiver on their own
 * machine learns the setting exists (it is for development and tests, never for production).
 */
const LIFTED_BY = '(allowed only when the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true)';

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return FORBIDDEN.check(mapped[1], 'ipv4');
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Resolves the URL's host and checks every address it has: the connection is then made to the
 * address checked here, never to a second lookup that could answer otherwise (DNS rebinding).
 * Plain http and forbidden addresses are refused unless `allowPrivate`.
 */
export async function resolveTarget(text: string, allowPrivate: boolean): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefused('is not a URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    throw new TargetRefused(`must be an https URL ${LIFTED_BY}`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new TargetRefused(`host ${host} cannot be resolved`);
  }
  if (addresses.length === 0) throw new TargetRefused(`host ${host} cannot be resolved`);
  if (!allowPrivate && addresses.some(({ address }) => isForbiddenAddress(address))) {
    throw new TargetRefused(`resolves to a loopback, private or link-local address ${LIFTED_BY}`);
  }
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}
