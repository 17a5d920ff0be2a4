import { randomUUID } from 'node:crypto';
import type { MetricsSetting } from '../config/config';
import { runInRequestScope, type Logger, type RequestScope } from '../lib/log';
import { errorResponse } from '../rest/errors';
import type { App, ClientInfo } from './app';
import type { Readiness } from './health';
import type { Metrics } from './metrics';
import { ASSETS_PATH as INTEGRATION_ASSETS_PATH } from '../modules/integrations/service';
import { SAML_PUBLIC_PREFIX } from '../modules/saml/rest';
import { parseAppPath } from '../lib/app-paths';
import { APP_ASSETS_PATH } from './app-page';
import { GRAPHIQL_ASSETS_PATH } from './graphiql';
import { addSecurityHeaders } from './security-headers';

export interface ObserveOptions {
  log: Logger;
  metrics?: Metrics;
  /** Who may read `/metrics`: nobody (404), anyone, or whoever sends `Authorization: Bearer <token>`. */
  metricsAccess?: MetricsSetting;
  /** Without it `/ready` answers like `/health`. */
  readiness?: Readiness;
  /** The public URL is https: every answer then carries Strict-Transport-Security too. */
  https?: boolean;
}

/** An incoming id is kept when it is short and plain, so it cannot forge or break a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Paths served outside the REST router whose rest is a name, a key or a signature: one label each. */
const PREFIXES = ['/files/', '/sites/', '/pdf/', '/openapi/', '/v1/docs/', GRAPHIQL_ASSETS_PATH, INTEGRATION_ASSETS_PATH, SAML_PUBLIC_PREFIX, APP_ASSETS_PATH];

/** Routes outside the REST router, by template, so that unknown paths share one label. */
function routeOf(pathname: string): string {
  if (pathname === '/' || pathname === '/graphql' || pathname === '/health' || pathname === '/ready' || pathname === '/metrics') return pathname;
  if (pathname === '/v1/openapi.json' || pathname === '/v1/docs') return pathname;
  // Integration endpoints sit under /v1/ but outside the router: one label for all of them.
  if (/^\/v1\/integrations\/[^/]+\/(?:.+\/)?integration(?:\/|$)/.test(pathname)) return '/v1/integrations/:integrationName/…/integration/*';
  for (const prefix of PREFIXES) if (pathname.startsWith(prefix)) return `${prefix}*`;
  // The app page of a urls.app link: one label per kind of object, never the ids.
  const app = parseAppPath(pathname);
  if (app && app.kind !== 'home') return `app:${app.kind}`;
  return 'unmatched';
}

/**
 * The request id, and the security headers: the app's own answers have them already, but those made
 * out here (`/health`, `/ready`, `/metrics`, a 500) and by the layers in between (the deadline's 503,
 * the 503 while starting) would not.
 */
function finish(response: Response, id: string, https: boolean): Response {
  let answer = response;
  try {
    answer.headers.set('X-Request-Id', id);
  } catch {
    // Some responses come with immutable headers: copy them once.
    answer = new Response(response.body, response);
    answer.headers.set('X-Request-Id', id);
  }
  addSecurityHeaders(answer.headers, { https });
  return answer;
}

/**
 * The app as operators see it: every request gets an id (the `X-Request-Id` header, the
 * `reqId` of its log lines, the id quoted in a 500), one log line and one latency sample; and
 * `/health`, `/ready` and `/metrics` are answered here, before the app.
 */
export function observe(app: App, options: ObserveOptions): App {
  const { log, metrics, readiness } = options;
  const access = options.metricsAccess ?? { mode: 'off' };

  async function serve(request: Request, pathname: string, client?: ClientInfo): Promise<Response> {
    if (pathname === '/health') return Response.json({ status: 'ok' });
    if (pathname === '/ready') {
      if (!readiness) return Response.json({ ready: true });
      const report = await readiness.check();
      return Response.json(report, { status: report.ready ? 200 : 503 });
    }
    if (pathname === '/metrics' && metrics && access.mode !== 'off') {
      if (access.mode === 'token' && request.headers.get('authorization') !== `Bearer ${access.token}`) {
        return errorResponse(401, 'The metrics token is missing or wrong', { 'WWW-Authenticate': 'Bearer realm="quire-metrics"' });
      }
      return new Response(await metrics.registry.metrics(), { headers: { 'Content-Type': metrics.registry.contentType } });
    }
    return app.fetch(request, client);
  }

  return {
    fetch(request: Request, client?: ClientInfo): Promise<Response> {
      const started = performance.now();
      const incoming = request.headers.get('x-request-id');
      const id = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
      const scope: RequestScope = { id, log: log.child({ reqId: id }) };
      const { pathname } = new URL(request.url);
      return runInRequestScope(scope, async () => {
        scope.log.debug({ method: request.method }, 'request received');
        let response: Response;
        try {
          response = await serve(request, pathname, client);
        } catch (err) {
          scope.log.error({ err }, 'internal error');
          response = errorResponse(500, `Internal server error (request id ${id})`);
        }
        const ms = performance.now() - started;
        const route = scope.route ?? routeOf(pathname);
        metrics?.observeRequest({ method: request.method, route, status: response.status }, ms / 1000);
        scope.log.info(
          { method: request.method, route, operation: scope.operationName, status: response.status, ms: Math.round(ms * 10) / 10, caller: scope.callerId },
          'request',
        );
        return finish(response, id, options.https ?? false);
      });
    },
  };
}
