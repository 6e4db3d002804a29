import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * What a webhook may not reach, as CIDRs: the IPv4 and IPv6 ranges it refuses whole, and the IPv6
 * ranges that carry an IPv4 address (EMBEDDINGS), refused where that address is. The chart's
 * NetworkPolicy of the webhooks service excludes all of them, the last whole
 * (deploy/helm/rental-applications/files/webhooks/refused-ranges.yaml); a test fails when the two differ.
 */
export const REFUSED_RANGES = {
  /** This host, private networks, link-local, documentation and benchmarking ranges, and the like. */
  ipv4: [
    '0.0.0.0/8',
    '10.0.0.0/8',
    '100.64.0.0/10',
    '127.0.0.0/8',
    '169.254.0.0/16',
    '172.16.0.0/12',
    '192.0.0.0/24',
    '192.0.2.0/24',
    '192.168.0.0/16',
    '198.18.0.0/15',
    '198.51.100.0/24',
    '203.0.113.0/24',
    '224.0.0.0/4',
    '240.0.0.0/4',
  ],
  /**
   * The IPv4-compatible range (::/96, deprecated) is here as a whole, `::` and `::1` with it; so
   * is NAT64's local-use prefix, whose IPv4 part may sit anywhere.
   */
  ipv6: ['::/96', '64:ff9b:1::/48', '100::/64', '2001:db8::/32', 'fc00::/7', 'fe80::/10', 'fec0::/10', 'ff00::/8'],
  ipv6CarryingIpv4: ['::ffff:0:0/96', '64:ff9b::/96', '2002::/16', '2001::/32'],
} as const;

function blockList(ranges: readonly string[], family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [network, prefix] = range.split('/');
    list.addSubnet(network, Number(prefix), family);
  }
  return list;
}

/** IPv4 addresses a webhook may not reach. */
const FORBIDDEN_V4 = blockList(REFUSED_RANGES.ipv4, 'ipv4');
/** IPv6 addresses a webhook may not reach whatever they carry. */
const FORBIDDEN_V6 = blockList(REFUSED_RANGES.ipv6, 'ipv6');

/**
 * IPv6 ranges that carry an IPv4 address (REFUSED_RANGES.ipv6CarryingIpv4, in its order), and
 * where in the 16 bytes: an address in one is forbidden when an IPv4 address it carries is, as
 * the packets end up there.
 */
const EMBEDDINGS: Array<{ prefix: number[]; ipv4: (bytes: number[]) => number[][] }> = [
  // IPv4-mapped, ::ffff:0:0/96
  { prefix: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], ipv4: (b) => [b.slice(12)] },
  // NAT64's well-known prefix, 64:ff9b::/96
  { prefix: [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], ipv4: (b) => [b.slice(12)] },
  // 6to4, 2002::/16: the IPv4 address follows the prefix
  { prefix: [0x20, 0x02], ipv4: (b) => [b.slice(2, 6)] },
  // Teredo, 2001::/32: the server's address, then the client's inverted in the last 32 bits
  { prefix: [0x20, 0x01, 0, 0], ipv4: (b) => [b.slice(4, 8), b.slice(12).map((byte) => byte ^ 0xff)] },
];

/** A lookup not answered within this long failed: getaddrinfo has no deadline of its own. */
export const LOOKUP_TIMEOUT_MS = 5000;

/**
 * Why a target is refused; recorded with the attempt, or answered on create: as a 422, or as a
 * 503 when `retryable` (its host did not resolve to addresses it may reach, which may change).
 */
export class TargetRefused extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

/**
 * Said with a refusal that the setting would lift, so that whoever runs a receiver on their own
 * machine learns the setting exists (it is for development and tests, never for production).
 */
const LIFTED_BY = '(allowed only when the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true)';

/**
 * One answer for a name that does not resolve, whose lookup failed or took too long, and one that
 * resolves to a forbidden address, naming neither host nor address: a caller cannot tell from it
 * which internal names exist. Retryable, as DNS records may be new or a resolver down for a while.
 */
const UNRESOLVED = `host does not resolve, or resolves to a loopback, private or link-local address ${LIFTED_BY}; retry later if its DNS records are new`;

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type LookupAll = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: LookupAll = (host) => lookup(host, { all: true, verbatim: true });

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN_V4.check(address, 'ipv4');
  if (family !== 6) return true;
  const unzoned = address.split('%')[0];
  if (FORBIDDEN_V6.check(unzoned, 'ipv6')) return true;
  const bytes = ipv6Bytes(unzoned);
  return EMBEDDINGS.some(
    ({ prefix, ipv4 }) =>
      prefix.every((byte, i) => bytes[i] === byte) && ipv4(bytes).some((v4) => FORBIDDEN_V4.check(v4.join('.'), 'ipv4')),
  );
}

/**
 * Resolves the URL's host and checks every address it has: the connection is then made to the
 * address checked here, never to a second lookup that could answer otherwise (DNS rebinding).
 * Plain http and forbidden addresses are refused unless `allowPrivate`.
 */
export async function resolveTarget(
  text: string,
  allowPrivate: boolean,
  { lookupAll = systemLookup, timeoutMs = LOOKUP_TIMEOUT_MS }: { lookupAll?: LookupAll; timeoutMs?: number } = {},
): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefused('is not a URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    throw new TargetRefused(`must be an https URL ${LIFTED_BY}`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host);
  if (literal) {
    if (!allowPrivate && isForbiddenAddress(host))
      throw new TargetRefused(`is a loopback, private or link-local address ${LIFTED_BY}`);
    return { url, address: host, family: literal === 6 ? 6 : 4 };
  }
  const addresses = await within(timeoutMs, lookupAll(host)).catch(() => []);
  if (addresses.length === 0 || (!allowPrivate && addresses.some(({ address }) => isForbiddenAddress(address))))
    throw new TargetRefused(UNRESOLVED, true);
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The 16 bytes of an IPv6 address that isIP accepted, without its zone. */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const words = (part: string | undefined) => (part ? part.split(':').map((word) => parseInt(word, 16)) : []);
  const [head, tail] = text.split('::');
  const left = words(head);
  const right = words(tail);
  const all = tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((word) => [word >> 8, word & 0xff]);
}
