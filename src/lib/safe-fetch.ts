import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

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

export interface SafeFetchOptions {
  /** `host` or `host:port` entries fetched even when they resolve to a refused address. */
  allowHosts?: readonly string[];
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Content types accepted (prefix match on the media type); any when absent. */
  accept?: readonly string[];
  /** A POST sends `body` with `contentType` and follows no redirect (the body would be lost or resent). */
  post?: { body: string; contentType: string };
}

export interface FetchedResource {
  url: string;
  contentType: string;
  bytes: Buffer;
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

function isAllowed(url: URL, allowHosts: readonly string[]) {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return allowHosts.some((entry) => {
    const [h, p] = entry.trim().toLowerCase().split(/:(?=\d+$)/);
    return h === host && (p === undefined || p === defaultPort(url));
  });
}

/** Resolves the host and returns the one address to connect to, refusing the internal ones. */
async function checkedAddress(url: URL, allowHosts: readonly string[]): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true });
    } catch {
      throw new FetchRefused(`url: the host ${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw new FetchRefused(`url: the host ${host} could not be resolved`);
  if (!isAllowed(url, allowHosts)) {
    // Every address is checked: a host with one public and one internal address is refused.
    for (const { address } of addresses) {
      const kind = refusedKind(address);
      if (kind) throw new FetchRefused(`url: ${host === address ? address : `${host} (${address})`} is a ${kind} address; fetching it is not allowed`);
    }
  }
  return addresses[0]!;
}

interface OneResponse {
  status: number;
  location?: string;
  contentType: string;
  bytes: Buffer;
}

function requestOnce(url: URL, target: { address: string; family: number }, maxBytes: number, signal: AbortSignal, post?: SafeFetchOptions['post']): Promise<OneResponse> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: post ? 'POST' : 'GET',
        signal,
        headers: {
          'user-agent': 'Quire-Import/1.0',
          accept: '*/*',
          ...(post ? { 'content-type': post.contentType, 'content-length': String(Buffer.byteLength(post.body)) } : {}),
        },
        // Connect to the address that was checked, never to a second resolution of the name.
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
          else callback(null, target.address, target.family);
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const contentType = String(res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (status >= 300 && status < 400) {
          res.resume();
          resolve({ status, location: res.headers.location, contentType, bytes: Buffer.alloc(0) });
          return;
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > maxBytes) {
          res.destroy();
          reject(new FetchRefused(`url: the resource is larger than ${maxBytes} bytes`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            reject(new FetchRefused(`url: the resource is larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status, contentType, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(post?.body);
  });
}

/**
 * GET (or POST to) a URL given by a user or a setting: only http(s), never an internal address (checked for the URL and
 * every redirect), bounded in bytes, time and redirects.
 */
export async function safeFetch(input: string, options: SafeFetchOptions = {}): Promise<FetchedResource> {
  const { allowHosts = [], maxBytes = 10 * 1024 * 1024, timeoutMs = 15_000, accept, post } = options;
  const maxRedirects = post ? 0 : (options.maxRedirects ?? 5);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new FetchRefused('url: must be an absolute http or https URL');
  }
  const signal = AbortSignal.timeout(timeoutMs);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused(`url: the ${url.protocol.replace(/:$/, '')} scheme is not allowed; use http or https`);
    if (url.username || url.password) throw new FetchRefused('url: credentials in the URL are not allowed');
    const target = await checkedAddress(url, allowHosts);
    let res: OneResponse;
    try {
      res = await requestOnce(url, target, maxBytes, signal, post);
    } catch (error) {
      if (error instanceof FetchRefused) throw error;
      if (signal.aborted) throw new FetchRefused(`url: ${url.host} did not answer within ${timeoutMs} ms`, 'timeout');
      throw new FetchRefused(`url: ${url.host} could not be fetched (${(error as Error).message})`);
    }
    if (res.location !== undefined) {
      if (hop >= maxRedirects) throw new FetchRefused(`url: more than ${maxRedirects} redirects`);
      url = new URL(res.location, url);
      continue;
    }
    if (res.status < 200 || res.status >= 300) throw new FetchRefused(`url: ${url.href} answered ${res.status}`);
    if (accept && !accept.some((type) => res.contentType.startsWith(type))) {
      throw new FetchRefused(`url: ${url.href} is ${res.contentType || 'of no content type'}; expected ${accept.join(', ')}`);
    }
    return { url: url.href, contentType: res.contentType, bytes: res.bytes };
  }
}
