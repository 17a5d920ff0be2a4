import http from 'node:http';
import https from 'node:https';
import { checkedAddress, FetchRefused, parseTargetUrl } from '../lib/address-guard';

/*
 * One HTTP exchange of any method for the integration runtime: a script's outbound fetch and a
 * delivery to a dev tunnel. It goes through the same address guard as `safeFetch`
 * (which only GETs): lib/address-guard.ts. Redirects are not followed here: a script's fetch
 * follows them itself, and each hop comes back through this guard.
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
