import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { FetchRefused, refusedKind } from '../lib/safe-fetch';

/*
 * One HTTP exchange of any method for the integration runtime: a script's outbound fetch and a
 * delivery to a dev tunnel. It applies the same address rules as `safeFetch` (which only GETs):
 * the name is resolved once, every address is checked, and the connection goes to the address
 * that was checked. Redirects are not followed here: a script's fetch follows them itself, and
 * each hop comes back through this guard.
 */

export interface GuardedRequest {
  url: string;
  method: string;
  headers: [string, string][];
  body?: Uint8Array;
}

export interface GuardedOptions {
  /** `host` or `host:port` entries reached even when they resolve to refused addresses. */
  allowHosts: readonly string[];
  /** Ends the exchange (connect, send, receive) when it fires. */
  signal: AbortSignal;
  /** Largest response body accepted. */
  maxBytes: number;
}

export interface PlainResponse {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

// Headers a caller may not choose: they describe the connection, which this client owns.
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'content-length']);

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
      if (kind) throw new FetchRefused(`${what}: ${host === address ? address : `${host} (${address})`} is a ${kind} address; fetching it is not allowed`);
    }
  }
  return addresses[0]!;
}

/** Sends one request through the SSRF guard. Rejects with `FetchRefused` for a refused target. */
export async function guardedRequest(request: GuardedRequest, options: GuardedOptions, what = 'url'): Promise<PlainResponse> {
  const url = parseTargetUrl(request.url, what);
  const target = await checkedAddress(url, options.allowHosts, what);
  const client = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) {
    if (!HOP_BY_HOP.has(name.toLowerCase())) headers[name] = value;
  }
  if (request.body) headers['content-length'] = String(request.body.byteLength);
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: request.method,
        headers,
        signal: options.signal,
        lookup: (_host, lookupOptions, callback) => {
          if ((lookupOptions as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
          else callback(null, target.address, target.family);
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            res.destroy();
            reject(new FetchRefused(`${what}: the answer of ${url.host} is larger than ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const out: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) out.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
          resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', (error) => {
      if (options.signal.aborted) reject(new FetchRefused(`${what}: ${url.host} did not answer in time`));
      else reject(new FetchRefused(`${what}: ${url.host} could not be reached (${error.message})`));
    });
    req.end(request.body ? Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength) : undefined);
  });
}
