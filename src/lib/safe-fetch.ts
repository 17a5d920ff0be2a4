import http from 'node:http';
import https from 'node:https';
import { checkedAddress, FetchRefused } from './address-guard';

export { FetchRefused, refusedKind } from './address-guard';

export interface SafeFetchOptions {
  /** `host` or `host:port` entries fetched even when they resolve to a refused address. */
  allowHosts?: readonly string[];
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Content types accepted (prefix match on the media type); any when absent. */
  accept?: readonly string[];
  /**
   * The origin (scheme, host, port) of a URL the operator set in the server's own settings, such as
   * QUIRE_TRANSLATE_URL: requests to exactly that origin may reach a loopback or private address
   * (a self-hosted service next to the server). Never give it a URL a user supplied.
   */
  operatorOrigin?: string;
  /** A POST sends `body` with `contentType` and follows no redirect (the body would be lost or resent). */
  post?: { body: string; contentType: string };
}

export interface FetchedResource {
  url: string;
  contentType: string;
  bytes: Buffer;
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
  const { allowHosts = [], maxBytes = 10 * 1024 * 1024, timeoutMs = 15_000, accept, post, operatorOrigin } = options;
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
    // Checked per hop: a redirect away from the operator's origin is checked like any other URL.
    const target = await checkedAddress(url, operatorOrigin !== undefined && url.origin === operatorOrigin ? [...allowHosts, url.host] : allowHosts);
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
