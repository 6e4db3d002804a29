import { isIPv6 } from 'node:net';

/**
 * The rate-limit bucket of a client address. An IPv6 address counts by its /64 network: one
 * host is commonly given a whole /64, so one bucket per address would let it spend a fresh
 * burst (and a bucket's memory) for each of 2^64 addresses. An IPv4 address, also one mapped
 * into IPv6 (`::ffff:192.0.2.1`), counts alone.
 */
export function addressBucket(ip: string): string {
  if (!isIPv6(ip)) return `address:${ip}`;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return `address:${mapped[1]}`;
  return `address:${network64(ip)}::/64`;
}

/**
 * The bucket of the network a client address is part of, for a limit over all its /64s: an IPv6
 * address counts by its /48 (the usual size of one site's allocation, which holds 65,536 /64s);
 * null for an IPv4 address, which counts alone.
 */
export function networkBucket(ip: string): string | null {
  if (!isIPv6(ip) || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return null;
  return `network:${network64(ip).split(':').slice(0, 3).join(':')}::/48`;
}

/** The first four groups of an IPv6 address, expanded and without leading zeros. */
function network64(ip: string): string {
  const [head, tail] = ip.split('%')[0].toLowerCase().split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  // An embedded IPv4 tail stands for the last two groups, never the first four.
  const missing = 8 - front.length - back.length - (back.some((group) => group.includes('.')) ? 1 : 0);
  const full = tail === undefined ? front : [...front, ...Array<string>(Math.max(0, missing)).fill('0'), ...back];
  return full
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(':');
}
