import { useGraphQlJit } from '@envelop/graphql-jit';
import { serveIntegrationAsset } from '../modules/integrations/assets';
import { useSignInHint } from '../graphql/sign-in-hint';
import { ASSETS_PATH as INTEGRATION_ASSETS_PATH } from '../modules/integrations/service';
import { createYoga, type Plugin } from 'graphql-yoga';
import { isDatabaseUnavailable } from '../lib/unavailable';
import { RateLimitedError, UnauthenticatedError } from '../domain/errors';
import { maskError, quietLogger } from '../graphql/mask';
import { useQueryLimits } from '../graphql/cost';
import { useWorkBounds } from '../graphql/work-bounds';
import { useInputHygiene } from '../graphql/hygiene';
import { useOperationName } from '../graphql/operation-name';
import { loadPersistedOperations, PERSISTED_ID_FIELDS, usePersistedDocuments, type PersistedOperations } from '../graphql/persisted';
import { useSubscriptionErrors } from '../graphql/subscription-errors';
import { schema } from './schema';
import { serviceUnavailableResponse } from '../graphql/unavailable';
import { unauthenticatedResponse } from '../graphql/http-errors';
import { useAnonymousLimits } from '../graphql/anonymous';
import { httpSettings } from '../config/config';
import { rateLimitedResponse } from '../graphql/rate-limited';
import { RateLimiter } from '../auth/rate-limits';
import { domainErrorResponse, errorResponse } from '../rest/errors';
import { createRestRouter } from './routes';
import { createDocs, DOCS_PATHS } from '../rest/docs';
import { createContext, createRequestContext, type AppServices } from '../auth/context';
import { serveSignedFile, serveSignedPdf } from '../modules/content/rest';
import { servePublishedSpec } from '../modules/openapi/rest';
import { servePublishedHost, servePublishedSite } from '../modules/published/rest';
import { SAML_PUBLIC_PREFIX, serveSamlEndpoint } from '../modules/saml/rest';
import { INTEGRATION_ENDPOINT, serveIntegrationEndpoint } from '../modules/installations/rest';
import type { RequestContext } from '../context/request-context';
import { GRAPHIQL_ASSETS_PATH, graphiqlAsset, graphiqlPage, wantsGraphiQL } from './graphiql';
import { withHttpPolicies } from './http-policies';
import { APP_ASSETS_PATH, appAsset, appPage, wantsAppHome } from './app-page';
import { graphqlPost } from './graphql-post';
import './integration-environment';
import type { ReadRouting } from '../db/replica';
import { afterGraphql, routeRest, useReadRouting, type GraphqlRoute } from './read-routing';

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

/** What Yoga runs an operation with: the request's context, and where its reads may go. */
type GraphqlServerContext = RequestContext & { quireRoute?: GraphqlRoute };

/** Who sent the request, as the server saw it: the address that rate limits count per IP. */
export interface ClientInfo {
  ip?: string;
  /**
   * Aborts when nobody waits for the answer any more: the request's deadline passed (./deadline.ts)
   * or the client went away. The request's own signal when absent.
   */
  signal?: AbortSignal;
}

export interface App {
  fetch(request: Request, client?: ClientInfo): Promise<Response>;
}

/** The whole HTTP surface as one fetch function: GraphQL at /graphql, REST under /v1. */
export interface AppOptions {
  graphqlPlugins?: Plugin[];
  /** A read replica: REST GETs and GraphQL queries go there when their caller may read there. */
  reads?: ReadRouting;
  /** The persisted operations, already loaded (src/main.ts loads them before the port is bound); else read from the config's file. */
  persisted?: PersistedOperations;
}

export function createApp(appServices: AppServices, options: AppOptions = {}): App {
  const { reads } = options;
  const { rateLimits } = appServices.config;
  // Each app has its own limiter, as each instance would: they share counts through the database.
  const services: AppServices = rateLimits ? { ...appServices, rateLimiter: new RateLimiter(appServices.db, rateLimits, appServices.now) } : appServices;
  const router = createRestRouter();
  const docs = createDocs(() => router.table());
  const publicHost = new URL(services.config.publicUrl).host;
  // Links point at the app URL; another host in front of this server is an organization's published
  // site. Read from the config when asked: tests set the public URL once their port is known.
  const onAppHost = (host: string) => host === new URL(services.config.publicUrl).host || host === new URL(services.config.appUrl).host;
  const http = httpSettings(services.config);
  const persistedSettings = services.config.persistedOperations;
  const persisted = options.persisted ?? (persistedSettings && loadPersistedOperations(persistedSettings.file, schema, persistedSettings.only));
  // The request's context is handed to Yoga as its server context and used as it is: no `context`
  // option, whose copying of every field into envelop's context cost a tenth of a small request.
  const yoga = createYoga<GraphqlServerContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // GraphiQL is served before yoga (./graphiql.ts); CORS is decided by ./cors.ts for both doors.
    graphiql: false,
    cors: false,
    // A persisted operation's id fields are read as request parameters (src/graphql/persisted.ts).
    ...(persisted ? { extraParamNames: [...PERSISTED_ID_FIELDS] } : {}),
    // Compiled execution: each document is turned into a function once, and runs as one after.
    plugins: [
      // First: the id becomes the query's text before any other plugin looks at the request.
      ...(persisted ? [usePersistedDocuments(persisted)] : []),
      useInputHygiene(),
      useAnonymousLimits({ introspection: http.anonymousIntrospection }),
      useWorkBounds(),
      useQueryLimits(),
      useSignInHint(),
      useOperationName(),
      useSubscriptionErrors(),
      ...(options.graphqlPlugins ?? []),
      ...(reads ? [useReadRouting(services, reads)] : []),
      // Subscriptions run on graphql-js: graphql-jit hands their subscribe resolvers raw arguments.
      useGraphQlJit(
        { customJSONSerializer: false },
        { cache: jitCache(), enableIf: ({ document }) => !document.definitions.some((d) => d.kind === 'OperationDefinition' && d.operation === 'subscription') },
      ),
    ],
    // Bodies are cut off while streaming by ./body-limit.ts (withHttpPolicies, below): counting them
    // twice cost every request a web TransformStream.
    maxRequestBodySize: false,
    maskedErrors: { maskError },
    logging: quietLogger,
  });

  const answerGraphql = graphqlPost<GraphqlServerContext>(yoga, persisted);

  return withHttpPolicies<ClientInfo>(services.config, {
    async fetch(request: Request, client: ClientInfo = {}): Promise<Response> {
      const { pathname } = new URL(request.url);
      const signal = client.signal ?? request.signal;
      const publicContext = () => createContext(services, null, signal);
      if (pathname === '/graphql') {
        if (http.graphiql && wantsGraphiQL(request)) return graphiqlPage({ title: 'Quire GraphQL', endpoint: '/graphql' });
        // A bad credential is refused at HTTP level; everything else is decided while executing.
        let ctx: RequestContext;
        try {
          ctx = await createRequestContext(services, request, client.ip, signal);
        } catch (error) {
          if (error instanceof RateLimitedError) return rateLimitedResponse(error);
          if (error instanceof UnauthenticatedError) return unauthenticatedResponse(error);
          if (isDatabaseUnavailable(error)) return serviceUnavailableResponse({ cause: error });
          throw error;
        }
        if (!reads) return answerGraphql(request, ctx);
        const route: GraphqlRoute = { ctx, wrote: false };
        const response = await answerGraphql(request, Object.assign(ctx, { quireRoute: route }));
        await afterGraphql(reads, route);
        return response;
      }
      if (pathname === DOCS_PATHS.document || pathname.startsWith(DOCS_PATHS.page)) {
        // The reference is public: no token asked.
        const answer = docs(request);
        if (answer) return answer;
      }
      if (INTEGRATION_ENDPOINT.test(pathname)) {
        // Webhooks and OAuth callbacks: no token, the integration decides what to trust.
        return serveIntegrationEndpoint(publicContext(), request).catch(domainErrorResponse);
      }
      if (pathname === '/v1' || pathname.startsWith('/v1/')) {
        const makeContext = () => createRequestContext(services, request, client.ip, signal);
        if (!reads) return router.handle(request, makeContext);
        return routeRest(request, services, reads, makeContext, (make) => router.handle(request, make));
      }
      if (http.graphiql && pathname.startsWith(GRAPHIQL_ASSETS_PATH)) {
        const asset = await graphiqlAsset(request, pathname);
        if (asset) return asset;
      }
      if (pathname.startsWith('/openapi/') && request.method === 'GET') {
        return servePublishedSpec(publicContext(), new URL(request.url)).catch(domainErrorResponse);
      }
      if (pathname.startsWith(INTEGRATION_ASSETS_PATH) && request.method === 'GET') {
        return serveIntegrationAsset(publicContext(), new URL(request.url)).catch(domainErrorResponse);
      }
      if (pathname.startsWith('/files/') && request.method === 'GET') {
        // Download links carry their own signature: no token is asked for.
        return serveSignedFile(publicContext(), new URL(request.url)).catch(domainErrorResponse);
      }
      if (pathname.startsWith('/sites/') && (request.method === 'GET' || request.method === 'HEAD')) {
        // Published sites: their readers have no API token; the site's visibility decides.
        return servePublishedSite(publicContext(), request, client.ip).catch(domainErrorResponse);
      }
      if (pathname.startsWith('/pdf/') && request.method === 'GET') {
        return serveSignedPdf(publicContext(), new URL(request.url)).catch(domainErrorResponse);
      }
      if (pathname.startsWith(SAML_PUBLIC_PREFIX)) {
        // Single sign-on: the browser has no token yet; the IdP's signature is the credential.
        const answer = await serveSamlEndpoint(publicContext(), request).catch(domainErrorResponse);
        if (answer) return answer;
      }
      if (pathname.startsWith(APP_ASSETS_PATH)) {
        const asset = appAsset(request, pathname);
        if (asset) return asset;
      }
      if ((pathname !== '/' || wantsAppHome(request)) && onAppHost(new URL(request.url).host)) {
        // What `urls.app` links open (and `/`, where a browser lands after signing in): the path's
        // shape alone decides, nothing is read here.
        const page = appPage(request, pathname);
        if (page) return page;
      }
      if (pathname === '/' || pathname === '/health') {
        return Response.json({ name: 'quire', graphql: '/graphql', rest: '/v1' });
      }
      if ((request.method === 'GET' || request.method === 'HEAD') && new URL(request.url).host !== publicHost) {
        // Another host: a proxy or an organization's own hostname in front of a published site.
        const page = await servePublishedHost(publicContext(), request, client.ip).catch(domainErrorResponse);
        if (page) return page;
      }
      return errorResponse(404, `No route for ${request.method} ${pathname}`);
    },
  });
}
