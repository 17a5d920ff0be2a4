import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/*
 * The one guard between Quire and a URL someone else chose (imports, OpenAPI specs, translation
 * providers, integration scripts' fetches, dev tunnels): the host is resolved once, every address
 * is checked against the internal ranges, and the connection goes to the address that was checked.
 * safeFetch (GET with redirects) and the runtime's guardedRequest (any method) both go through it.
 */

/** Why a fetch was refused or failed: always the caller's input, so always a 4xx. */
export class FetchRefused extends Error {
  /** `timeout` when the host did not answer in time; `refused` for everything else. */
  constructor(
    message: string,
    readonly reason: 'refused' | 'timeout' = 'refused',
  ) {
    super(message);
  }
}

const blocked: [string, BlockList][] = [];
const rule = (label: string, build: (list: BlockList) => void) => {
  const list = new BlockList();
  build(list);
  blocked.push([label, list]);
};
// Metadata endpoints first, so the message names the most specific reason.
rule('cloud metadata', (l) => {
  l.addAddress('169.254.169.254', 'ipv4');
  l.addAddress('fd00:ec2::254', 'ipv6');
});
rule('loopback', (l) => {
  l.addSubnet('127.0.0.0', 8, 'ipv4');
  l.addAddress('::1', 'ipv6');
});
rule('unspecified', (l) => {
  l.addSubnet('0.0.0.0', 8, 'ipv4');
  l.addAddress('::', 'ipv6');
});
rule('private', (l) => {
  l.addSubnet('10.0.0.0', 8, 'ipv4');
  l.addSubnet('172.16.0.0', 12, 'ipv4');
  l.addSubnet('192.168.0.0', 16, 'ipv4');
  l.addSubnet('100.64.0.0', 10, 'ipv4');
  l.addSubnet('fc00::', 7, 'ipv6');
});
rule('link-local', (l) => {
  l.addSubnet('169.254.0.0', 16, 'ipv4');
  l.addSubnet('fe80::', 10, 'ipv6');
});
rule('multicast', (l) => {
  l.addSubnet('224.0.0.0', 4, 'ipv4');
  l.addSubnet('240.0.0.0', 4, 'ipv4');
  l.addSubnet('ff00::', 8, 'ipv6');
});

/** Kinds a self-hosted server may well mean to reach (a service beside it); never cloud metadata. */
const ALLOWABLE = new Set(['loopback', 'private']);
// The person refused is often the operator: say which setting lets the host through.
const ALLOW_HINT = (host: string) => `The server's operator can allow this host with QUIRE_FETCH_ALLOW_HOSTS=${host}`;

/** The kind of refused address `address` is, if it is one (IPv4-mapped IPv6 checked as IPv4). */
export function refusedKind(address: string): string | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1]! : address;
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  return blocked.find(([, list]) => list.check(ip, family))?.[0];
}

function defaultPort(url: URL) {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** Whether `url`'s host (and port, when the entry names one) is in `allowHosts`. */
export function hostAllowed(url: URL, allowHosts: readonly string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return allowHosts.some((entry) => {
    const [h, p] = entry.trim().toLowerCase().split(/:(?=\d+$)/);
    return h === host && (p === undefined || p === defaultPort(url));
  });
}

/** Throws `FetchRefused` unless `input` is an http(s) URL without credentials. */
export function parseTargetUrl(input: string, what = 'url'): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new FetchRefused(`${what}: must be an absolute http or https URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused(`${what}: the ${url.protocol.replace(/:$/, '')} scheme is not allowed; use http or https`);
  if (url.username || url.password) throw new FetchRefused(`${what}: credentials in the URL are not allowed`);
  return url;
}

/** Resolves the host once and returns the address to connect to, refusing internal ones. */
export async function checkedAddress(url: URL, allowHosts: readonly string[], what = 'url'): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true });
    } catch {
      throw new FetchRefused(`${what}: the host ${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw new FetchRefused(`${what}: the host ${host} could not be resolved`);
  if (!hostAllowed(url, allowHosts)) {
    for (const { address } of addresses) {
      const kind = refusedKind(address);
      if (kind) throw new FetchRefused(`${what}: ${host === address ? address : `${host} (${address})`} is a ${kind} address; fetching it is not allowed${ALLOWABLE.has(kind) ? `. ${ALLOW_HINT(host)}` : ''}`);
    }
  }
  return addresses[0]!;
}
