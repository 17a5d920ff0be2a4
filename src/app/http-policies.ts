import { httpSettings, type Config } from '../config/config';
import { tooLargeResponse } from '../graphql/http-errors';
import { PUBLISH_BODY_LIMIT_BYTES } from '../modules/integrations/input';
import { errorResponse } from '../rest/errors';
import { BodyTooLargeError, limitBody } from './body-limit';
import { compressResponse } from './compress';
import { Cors } from './cors';
import { addSecurityHeaders } from './security-headers';

/** The app's shape, declared here so that this file does not import the app it wraps. */
interface FetchHandler<C> {
  fetch(request: Request, client?: C): Promise<Response>;
}

const isGraphQL = (pathname: string) => pathname === '/graphql';
const PUBLISH_ROUTE = /^\/v1\/integrations\/[^/]+\/?$/;

/** An integration's publish carries its script, icon and previews: it gets the room its schema allows, never less than the server's limit. */
function bodyLimit(settings: { bodyLimitBytes: number; uploadLimitBytes: number }, request: Request, pathname: string, multipart: boolean): number {
  if (isGraphQL(pathname)) return multipart ? settings.uploadLimitBytes : settings.bodyLimitBytes;
  if (request.method === 'POST' && PUBLISH_ROUTE.test(pathname)) return Math.max(settings.bodyLimitBytes, PUBLISH_BODY_LIMIT_BYTES);
  return settings.bodyLimitBytes;
}

/**
 * The answer itself when its headers can take more, which is the case for those built here; one
 * from elsewhere (a fetch) has immutable headers, and is copied once. Copying every answer cost
 * each request two web streams.
 */
function withMutableHeaders(response: Response): Response {
  try {
    response.headers.append('Vary', 'Origin');
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.append('Vary', 'Origin');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/**
 * What every answer goes through, whichever door: CORS from the allow-list, a request body cut off
 * past its limit while it streams in, security headers, and compression of large text answers.
 */
export function withHttpPolicies<C>(config: Config, app: FetchHandler<C>): FetchHandler<C> {
  const settings = httpSettings(config);
  const cors = new Cors(settings.corsOrigins);
  const https = config.publicUrl.startsWith('https://');

  const finish = async (request: Request, answer: Response): Promise<Response> => {
    const response = await compressResponse(request, withMutableHeaders(answer));
    cors.decorate(request, response.headers);
    addSecurityHeaders(response.headers, { https });
    return response;
  };

  return {
    async fetch(request: Request, client?: C): Promise<Response> {
      const preflight = cors.preflight(request);
      if (preflight) return finish(request, preflight);
      const { pathname } = new URL(request.url);
      const multipart = request.headers.get('content-type')?.toLowerCase().startsWith('multipart/form-data') ?? false;
      const limit = bodyLimit(settings, request, pathname, multipart);
      const limited = limitBody(request, limit);
      const tooLarge = (message: string) => (isGraphQL(pathname) ? tooLargeResponse(message) : errorResponse(413, message));
      if (limited instanceof BodyTooLargeError) return finish(request, tooLarge(limited.message));
      // The answer comes as soon as the body goes over; what was reading it fails, and is dropped.
      const answer = app.fetch(limited.request, client);
      answer.catch(() => {});
      const response = await Promise.race([answer, limited.exceeded]);
      if (response instanceof BodyTooLargeError) return finish(request, tooLarge(response.message));
      return finish(request, response);
    },
  };
}
