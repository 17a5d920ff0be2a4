import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga } from 'graphql-yoga';
import { PothosValidationError } from '@pothos/core';
import { GraphQLError } from 'graphql';
import { isDatabaseUnavailable } from '../lib/unavailable';
import { DomainError, UnauthenticatedError } from '../domain/errors';
import { toGraphQLError } from '../graphql/errors';
import { QUERY_LIMITS, useQueryLimits } from '../graphql/cost';
import { schema } from '../graphql/schema';
import { asServiceUnavailable, serviceUnavailableResponse } from '../graphql/unavailable';
import { domainErrorResponse, errorResponse } from '../rest/errors';
import { createRestRouter } from '../rest/routes';
import { createRequestContext, type AppServices } from '../auth/context';
import type { RequestContext } from '../context/request-context';

export interface App {
  fetch(request: Request): Promise<Response>;
}

/** The whole HTTP surface as one fetch function: GraphQL at /graphql, REST under /v1. */
export function createApp(services: AppServices): App {
  const router = createRestRouter();
  const yoga = createYoga<{ quire: RequestContext }, RequestContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // The bundled GraphiQL: no CDN, so it works on a machine without internet access.
    renderGraphiQL,
    graphiql: { title: 'Quire GraphQL', headers: JSON.stringify({ Authorization: 'Bearer <your token>' }) },
    context: ({ quire }) => quire,
    plugins: [useQueryLimits()],
    maxRequestBodySize: QUERY_LIMITS.requestBytes,
    maskedErrors: {
      maskError: (error, message, isDev) => {
        // Expected refusals pass through untouched (yoga logs only errors it had to replace).
        if (error instanceof GraphQLError && error.originalError instanceof DomainError) return error;
        if (isDatabaseUnavailable(error)) return asServiceUnavailable(error);
        const mapped = toGraphQLError(error);
        if (mapped) return mapped;
        // Pothos refusing an argument (a global ID of the wrong type, a bad `first`) is the caller's mistake.
        // Coded in place: yoga logs every error the mask replaces, and this one is not a crash.
        if (error instanceof GraphQLError && error.originalError instanceof PothosValidationError) {
          (error.extensions as Record<string, unknown>).code = 'VALIDATION_FAILED';
          return error;
        }
        if (error instanceof GraphQLError && !error.originalError) return error;
        console.error(error instanceof GraphQLError ? (error.originalError ?? error) : error);
        return new GraphQLError(isDev ? String(error) : message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      },
    },
  });

  return {
    async fetch(request: Request): Promise<Response> {
      const { pathname } = new URL(request.url);
      if (pathname === '/graphql') {
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
      if (pathname === '/v1' || pathname.startsWith('/v1/')) {
        return router.handle(request, () => createRequestContext(services, request));
      }
      if (pathname === '/' || pathname === '/health') {
        return Response.json({ name: 'quire', graphql: '/graphql', rest: '/v1' });
      }
      return errorResponse(404, `No route for ${request.method} ${pathname}`);
    },
  };
}
