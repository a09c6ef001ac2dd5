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
  | 'documentation'
  | 'benchmarking'
  | 'local-use NAT64'
  | 'discard-only'
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
  // Documentation and benchmarking ranges are routed nowhere public; where they
  // answer at all, it is some network's own use of them.
  ['documentation', '192.0.2.0', 24, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['benchmarking', '198.18.0.0', 15, 'ipv4'],
  ['documentation', '198.51.100.0', 24, 'ipv4'],
  ['documentation', '203.0.113.0', 24, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  // The local-use NAT64 prefix maps IPv4 in ways only the local network knows
  // (RFC 8215), so no embedded address can be judged: refused whole.
  ['local-use NAT64', '64:ff9b:1::', 48, 'ipv6'],
  ['discard-only', '100::', 64, 'ipv6'],
  ['documentation', '2001:db8::', 32, 'ipv6'],
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
 * The IPv4 address an IPv6 address carries, when it carries one:
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96),
 * IPv4-compatible (::/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16, the
 * IPv4 address in bits 16–47). Whether a connection to one reaches that IPv4
 * host depends on the network (a dual stack, NAT64, a 6to4 relay), which a
 * guard must not assume it knows: the IPv4 rules apply to them all.
 */
function embeddedIpv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  if (!bytes) return null;
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const ffff = (at: number) => bytes[at] === 0xff && bytes[at + 1] === 0xff;
  const last = bytes.slice(12).join('.');
  if (zeros(0, 10) && ffff(10)) return last;
  if (zeros(0, 8) && ffff(8) && zeros(10, 12)) return last;
  if (zeros(0, 12)) return last;
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) {
    if (zeros(4, 12)) return last;
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6).join('.');
  return null;
}

// R68: webhook address guard.
/**
 * Why a webhook may not connect to this IP address (loopback, private,
 * CGNAT, link-local including the metadata service, unspecified, multicast,
 * documentation, benchmarking, reserved — for an IPv6 address, its own range
 * and then the IPv4 address it carries), or null when it is a public address.
 */
export function blockedAddressReason(address: string): string | null {
  const plain = address.split('%')[0];
  const family = isIP(plain);
  if (family === 0) return 'not an IP address';
  const checks: Array<[string, 'ipv4' | 'ipv6']> =
    family === 4 ? [[plain, 'ipv4']] : [[plain, 'ipv6']];
  const carried = family === 6 ? embeddedIpv4(plain) : null;
  if (carried) checks.push([carried, 'ipv4']);
  for (const [checked, type] of checks) {
    for (const [kind, list] of LISTS) {
      if (list.check(checked, type)) {
        const via = checked === plain ? '' : ` (it carries ${checked})`;
        return `${address} is a ${kind} address${via}`;
      }
    }
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
