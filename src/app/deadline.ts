import { RETRY_AFTER_SECONDS } from '../lib/unavailable';
import { serviceUnavailableResponse } from '../graphql/unavailable';
import { errorResponse } from '../rest/errors';
import type { App, ClientInfo } from './app';

/**
 * Default deadline of a request, in ms: longer than the statement timeout (STATEMENT_TIMEOUT_MS,
 * 15 s by default) plus a connection attempt, so that it only cuts what would otherwise wait on.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;

export function requestTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.REQUEST_TIMEOUT_MS ?? DEFAULT_REQUEST_TIMEOUT_MS);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`REQUEST_TIMEOUT_MS must be a positive number of milliseconds, got ${env.REQUEST_TIMEOUT_MS}`);
  return value;
}

/**
 * Gives every request a deadline: past it, the caller gets 503 with Retry-After (REST's error shape,
 * or a GraphQL error with code SERVICE_UNAVAILABLE on /graphql) instead of waiting on, and the
 * request's signal (`client.signal`, which also aborts when the client goes away) aborts, so that
 * its work stops: no new statement, field or page is started for an answer nobody gets (see
 * WorkBounds). A write already under way may still commit, as with any timeout, but it was never
 * acknowledged.
 */
export function withDeadline(app: App, timeoutMs: number): App {
  return {
    fetch(request: Request, client: ClientInfo = {}): Promise<Response> {
      const stop = new AbortController();
      // A listener, not AbortSignal.any: @whatwg-node/server's lazy signal stops calling its own
      // listeners once a native signal follows it.
      const upstream = client.signal ?? request.signal;
      if (upstream.aborted) stop.abort(upstream.reason);
      else upstream.addEventListener('abort', () => stop.abort(upstream.reason), { once: true });
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<Response>((resolve) => {
        timer = setTimeout(() => {
          resolve(deadlineResponse(request, timeoutMs));
          stop.abort(new Error(`deadline of ${timeoutMs} ms passed`));
        }, timeoutMs);
      });
      return Promise.race([app.fetch(request, { ...client, signal: stop.signal }), expired]).finally(() => clearTimeout(timer));
    },
  };
}

function deadlineResponse(request: Request, timeoutMs: number): Response {
  const message = `The request did not finish within ${timeoutMs} ms; try again shortly`;
  if (new URL(request.url).pathname === '/graphql') return serviceUnavailableResponse({ message });
  return errorResponse(503, message, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
}
