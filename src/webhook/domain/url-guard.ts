import { BlockList, isIP, LookupFunction } from 'node:net';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';

/** What a range is, for a refusal people can read. */
type RangeKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared (CGNAT)'
  | 'link-local'
  | 'multicast'
  | 'reserved';

const RANGES: Array<[RangeKind, string, number, 'ipv4' | 'ipv6']> = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['shared (CGNAT)', '100.64.0.0', 10, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  // Includes 169.254.169.254, the cloud metadata service.
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['reserved', 'fec0::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];

const LISTS = new Map<RangeKind, BlockList>();
for (const [kind, network, prefix, family] of RANGES) {
  let list = LISTS.get(kind);
  if (!list) LISTS.set(kind, (list = new BlockList()));
  list.addSubnet(network, prefix, family);
}

/** The 16 bytes of an IPv6 address (zone id removed), or null when it is not one. */
function ipv6Bytes(address: string): number[] | null {
  const plain = address.split('%')[0];
  if (isIP(plain) !== 6) return null;
  let text = plain;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail.push(...dotted[1].split('.').map(Number));
    text = text.slice(0, -dotted[1].length) + '0:0';
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').filter(Boolean) : []);
  const left = groups(head);
  const right = groups(rest);
  const middle = rest === undefined ? [] : new Array(8 - left.length - right.length).fill('0');
  const words = [...left, ...middle, ...right].map((word) => parseInt(word, 16));
  const bytes = words.flatMap((word) => [word >> 8, word & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/**
 * The IPv4 address an IPv6 address carries, when it carries one: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d).
 * A connection to those reaches the IPv4 host, so the IPv4 rules apply.
 */
function embeddedIpv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  if (!bytes) return null;
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const v4 = bytes.slice(12).join('.');
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4;
  if (zeros(0, 12) && !zeros(12, 15)) return v4;
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) {
    if (zeros(4, 12)) return v4;
  }
  return null;
}

/**
 * Why a webhook may not connect to this IP address (loopback, private,
 * CGNAT, link-local including the metadata service, unspecified, multicast,
 * reserved), or null when it is a public address.
 */
export function blockedAddressReason(address: string): string | null {
  const plain = address.split('%')[0];
  const family = isIP(plain);
  if (family === 0) return 'not an IP address';
  const v4 = family === 6 ? embeddedIpv4(plain) : plain;
  const [checked, type] = v4 ? [v4, 'ipv4' as const] : [plain, 'ipv6' as const];
  for (const [kind, list] of LISTS) {
    if (list.check(checked, type)) return `${address} is a ${kind} address`;
  }
  return null;
}

/** Whether a URL may be a webhook endpoint at all (before any address is looked at). */
export function webhookUrlShapeProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return 'must use http or https';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  if (!url.hostname) return 'must name a host';
  return null;
}

/** The host of a URL as a resolver or isIP wants it: IPv6 literals without brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export type Resolve = (host: string) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/**
 * Why this URL may not receive webhooks, or null: the shape, then (unless
 * private addresses are allowed) every address its host resolves to. A host
 * with any refused address is refused, so that no answer of a round-robin
 * name reaches inside.
 */
export async function webhookUrlProblem(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolve = systemResolve,
): Promise<string | null> {
  const shape = webhookUrlShapeProblem(raw);
  if (shape) return shape;
  if (allowPrivate) return null;
  const host = hostOf(new URL(raw));
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolve(host)).map((entry) => entry.address);
    } catch {
      return `names a host that does not resolve (${host})`;
    }
  }
  if (addresses.length === 0) return `names a host that does not resolve (${host})`;
  for (const address of addresses) {
    const reason = blockedAddressReason(address);
    if (reason) return `must not point at a loopback, private or link-local address: ${reason}`;
  }
  return null;
}

/**
 * A `lookup` for http.request that refuses blocked addresses at connection
 * time: the address checked is the one connected to, so a DNS answer that
 * changed since the URL was accepted (rebinding) cannot slip through.
 */
export function guardedLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((entries) => {
        const wanted = entries.filter(
          (entry) => !options.family || entry.family === options.family,
        );
        if (wanted.length === 0) throw new Error(`${hostname} does not resolve`);
        for (const entry of wanted) {
          const reason = blockedAddressReason(entry.address);
          if (reason) throw new Error(`Refused to connect to ${hostname}: ${reason}.`);
        }
        if (options.all) {
          (callback as (error: null, addresses: LookupAddress[]) => void)(null, wanted);
        } else {
          callback(null, wanted[0].address, wanted[0].family);
        }
      })
      .catch((error: Error) => callback(error as NodeJS.ErrnoException, '', 0));
  };
}
