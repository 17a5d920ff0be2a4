import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { createYoga } from 'graphql-yoga';
import { isDatabaseUnavailable } from '../lib/unavailable';
import { RateLimitedError, UnauthenticatedError } from '../domain/errors';
import { maskError, quietLogger } from '../graphql/mask';
import { QUERY_LIMITS, useQueryLimits } from '../graphql/cost';
import { schema } from '../graphql/schema';
import { serviceUnavailableResponse } from '../graphql/unavailable';
import { rateLimitedResponse } from '../graphql/rate-limited';
import { RateLimiter } from '../auth/rate-limits';
import { tooLargeResponse } from '../graphql/too-large';
import { domainErrorResponse, errorResponse } from '../rest/errors';
import { createRestRouter } from '../rest/routes';
import { createContext, createRequestContext, type AppServices } from '../auth/context';
import { serveSignedFile, serveSignedPdf } from '../modules/content/rest';
import { servePublishedSite } from '../modules/published/rest';
import type { RequestContext } from '../context/request-context';

/** Compiled queries kept per process, most recently used first out of 1000. */
function jitCache() {
  const compiled = new Map<string, unknown>();
  return {
    get: (key: string) => compiled.get(key) as never,
    set: (key: string, value: unknown) => {
      if (compiled.size >= 1000) compiled.delete(compiled.keys().next().value!);
      compiled.set(key, value);
    },
  };
}

/** Who sent the request, as the server saw it: the address that rate limits count per IP. */
export interface ClientInfo {
  ip?: string;
}

export interface App {
  fetch(request: Request, client?: ClientInfo): Promise<Response>;
}

/** The whole HTTP surface as one fetch function: GraphQL at /graphql, REST under /v1. */
export function createApp(appServices: AppServices): App {
  const { rateLimits } = appServices.config;
  // Each app has its own limiter, as each instance would: they share counts through the database.
  const services: AppServices = rateLimits ? { ...appServices, rateLimiter: new RateLimiter(appServices.db, rateLimits, appServices.now) } : appServices;
  const router = createRestRouter();
  const yoga = createYoga<{ quire: RequestContext }, RequestContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // The bundled GraphiQL: no CDN, so it works on a machine without internet access.
    renderGraphiQL,
    graphiql: { title: 'Quire GraphQL', headers: JSON.stringify({ Authorization: 'Bearer <your token>' }) },
    context: ({ quire }) => quire,
    // Compiled execution: each document is turned into a function once, and runs as one after.
    plugins: [useQueryLimits(), useGraphQlJit({ customJSONSerializer: false }, { cache: jitCache() })],
    maxRequestBodySize: QUERY_LIMITS.requestBytes,
    maskedErrors: { maskError },
    logging: quietLogger,
  });

  return {
    async fetch(request: Request, client: ClientInfo = {}): Promise<Response> {
      const { pathname } = new URL(request.url);
      if (pathname === '/graphql') {
        const tooLarge = tooLargeResponse(request);
        if (tooLarge) return tooLarge;
        // A bad credential is refused at HTTP level; everything else is decided while executing.
        let ctx: RequestContext;
        try {
          ctx = await createRequestContext(services, request, client.ip);
        } catch (error) {
          if (error instanceof RateLimitedError) return rateLimitedResponse(error);
          if (error instanceof UnauthenticatedError) return domainErrorResponse(error);
          if (isDatabaseUnavailable(error)) return serviceUnavailableResponse({ cause: error });
          throw error;
        }
        return yoga.fetch(request, { quire: ctx });
      }
      if (pathname === '/v1' || pathname.startsWith('/v1/')) {
        return router.handle(request, () => createRequestContext(services, request, client.ip));
      }
      if (pathname.startsWith('/files/') && request.method === 'GET') {
        // Download links carry their own signature: no token is asked for.
        return serveSignedFile(createContext(services, null), new URL(request.url)).catch(domainErrorResponse);
      }
      if (pathname.startsWith('/sites/') && (request.method === 'GET' || request.method === 'HEAD')) {
        // Published sites: their readers have no API token; the site's visibility decides.
        return servePublishedSite(createContext(services, null), request).catch(domainErrorResponse);
      }
      if (pathname.startsWith('/pdf/') && request.method === 'GET') {
        return serveSignedPdf(createContext(services, null), new URL(request.url)).catch(domainErrorResponse);
      }
      if (pathname === '/' || pathname === '/health') {
        return Response.json({ name: 'quire', graphql: '/graphql', rest: '/v1' });
      }
      return errorResponse(404, `No route for ${request.method} ${pathname}`);
    },
  };
}
