import { Response as RuntimeResponse, type Request as RuntimeRequest } from 'miniflare';
import { FetchRefused } from '../lib/safe-fetch';
import { guardedRequest } from './guarded-http';

/*
 * Every `fetch` a script makes leaves workerd through this Node function (Miniflare's
 * `outboundService`), never through workerd's own network: that is where the SSRF guard applies.
 * Quire's own API (the environment's `apiEndpoint`) is reachable even on a loopback address.
 */

export interface OutboundPolicy {
  allowHosts: readonly string[];
  /** Origin of Quire's API, e.g. `http://127.0.0.1:3000`; reachable whatever its address. */
  apiOrigin?: string;
  signal: AbortSignal;
  maxBytes: number;
  /** Where the guard's notes go: the current delivery's trace. */
  note: (line: string) => void;
}

const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);
const DROPPED_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

function hostOf(origin: string): string {
  const url = new URL(origin);
  return `${url.hostname.replace(/^\[|\]$/g, '')}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

function refusal(status: number, message: string): RuntimeResponse {
  return new RuntimeResponse(JSON.stringify({ error: { code: status, message } }), {
    status,
    headers: { 'content-type': 'application/json', 'x-quire-outbound': 'refused' },
  });
}

export async function forwardOutbound(request: RuntimeRequest, policy: OutboundPolicy): Promise<RuntimeResponse> {
  let allowHosts = policy.allowHosts;
  try {
    if (policy.apiOrigin && new URL(request.url).origin === policy.apiOrigin) allowHosts = [...allowHosts, hostOf(policy.apiOrigin)];
  } catch {
    // An unparsable URL is refused below by the guard, with its message.
  }
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  if (body && body.byteLength > policy.maxBytes) {
    policy.note(`[quire] outbound ${request.method} ${request.url} refused: the body is larger than ${policy.maxBytes} bytes`);
    return refusal(413, `The request body is larger than ${policy.maxBytes} bytes`);
  }
  try {
    const answer = await guardedRequest({ url: request.url, method: request.method, headers: [...request.headers], body }, { allowHosts, signal: policy.signal, maxBytes: policy.maxBytes });
    const headers = answer.headers.filter(([name]) => !DROPPED_RESPONSE_HEADERS.has(name.toLowerCase()));
    return new RuntimeResponse(NO_BODY_STATUSES.has(answer.status) ? null : answer.body, { status: answer.status, headers });
  } catch (error) {
    const message = error instanceof FetchRefused ? error.message : `outbound fetch failed (${(error as Error).message})`;
    policy.note(`[quire] outbound ${request.method} ${request.url} refused: ${message}`);
    return refusal(error instanceof FetchRefused ? 403 : 502, message);
  }
}
