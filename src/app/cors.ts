import { errorResponse } from '../rest/errors';

const METHODS = 'GET, POST, PUT, PATCH, DELETE';
/** Headers a browser script may read besides the safelisted ones. */
const EXPOSED = 'ETag, Location, Retry-After, Link';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * Cross-origin access from an allow-list of exact origins. Tokens travel in the Authorization
 * header, never in cookies, so credentials are never allowed: a page from another origin only gets
 * what its own script sends. An origin that is not listed gets no CORS headers at all.
 */
export class Cors {
  private readonly allowed: Set<string>;

  constructor(origins: readonly string[]) {
    this.allowed = new Set(origins);
  }

  /** The answer to a preflight, or null when the request is not one. */
  preflight(request: Request): Response | null {
    const origin = request.headers.get('origin');
    if (request.method !== 'OPTIONS' || !origin || !request.headers.has('access-control-request-method')) return null;
    if (!this.allowed.has(origin)) {
      return errorResponse(403, `Origin ${origin} is not allowed to call this server`, { Vary: 'Origin' });
    }
    const headers = new Headers({
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': METHODS,
      'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_SECONDS,
      Vary: 'Origin, Access-Control-Request-Headers',
    });
    // The origin is trusted; whatever headers its script wants to send are its own business.
    const requested = request.headers.get('access-control-request-headers');
    if (requested) headers.set('Access-Control-Allow-Headers', requested);
    return new Response(null, { status: 204, headers });
  }

  /** Adds the headers that let an allowed origin read this response (its `Vary: Origin` is already there). */
  decorate(request: Request, headers: Headers): void {
    const origin = request.headers.get('origin');
    if (!origin || !this.allowed.has(origin)) return;
    headers.set('Access-Control-Allow-Origin', origin);
    headers.set('Access-Control-Expose-Headers', EXPOSED);
  }
}
