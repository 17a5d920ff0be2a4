import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { createYoga } from 'graphql-yoga';
import { isDatabaseUnavailable } from '../lib/unavailable';
import { UnauthenticatedError } from '../domain/errors';
import { maskError, quietLogger } from '../graphql/mask';
import { QUERY_LIMITS, useQueryLimits } from '../graphql/cost';
import { schema } from '../graphql/schema';
import { serviceUnavailableResponse } from '../graphql/unavailable';
import { tooLargeResponse } from '../graphql/too-large';
import { domainErrorResponse, errorResponse } from '../rest/errors';
import { createRestRouter } from '../rest/routes';
import { createDocs, DOCS_PATHS } from '../rest/docs';
import { createContext, createRequestContext, type AppServices } from '../auth/context';
import { serveSignedFile, serveSignedPdf } from '../modules/content/rest';
import { servePublishedHost, servePublishedSite } from '../modules/published/rest';
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

export interface App {
  fetch(request: Request): Promise<Response>;
}

/** The whole HTTP surface as one fetch function: GraphQL at /graphql, REST under /v1. */
export function createApp(services: AppServices): App {
  const router = createRestRouter();
  const docs = createDocs(() => router.table());
  const publicHost = new URL(services.config.publicUrl).host;
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
    async fetch(request: Request): Promise<Response> {
      const { pathname } = new URL(request.url);
      if (pathname === '/graphql') {
        const tooLarge = tooLargeResponse(request);
        if (tooLarge) return tooLarge;
        // A bad credential is refused at HTTP level; everything else is decided while executing.
        let ctx: RequestContext;
        try {
          ctx = await createRequestContext(services, request);
        } catch (error) {
          if (error instanceof UnauthenticatedError) return domainErrorResponse(error);
          if (isDatabaseUnavailable(error)) return serviceUnavailableResponse({ cause: error });
          throw error;
        }
        return yoga.fetch(request, { quire: ctx });
      }
      if (pathname === DOCS_PATHS.document || pathname.startsWith(DOCS_PATHS.page)) {
        // The reference is public: no token asked.
        const answer = docs(request);
        if (answer) return answer;
      }
      if (pathname === '/v1' || pathname.startsWith('/v1/')) {
        return router.handle(request, () => createRequestContext(services, request));
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
      if ((request.method === 'GET' || request.method === 'HEAD') && new URL(request.url).host !== publicHost) {
        // Another host: a proxy or an organization's own hostname in front of a published site.
        const page = await servePublishedHost(createContext(services, null), request).catch(domainErrorResponse);
        if (page) return page;
      }
      return errorResponse(404, `No route for ${request.method} ${pathname}`);
    },
  };
}
