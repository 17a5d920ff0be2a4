import type { RequestContext } from '../../context/request-context';
import { bodyAs, booleanParam, optionalParam, type RestRouter } from '../../rest/router';
import { urlLookupSchema, type PublishingAuthUpdateInput, type UrlLookupInput } from './input';
import {
  getCustomization,
  getPublishingAuth,
  lookupPublishedUrl,
  pagePolicy,
  readPublished,
  readPublishedByHost,
  regeneratePublishingAuth,
  updateCustomization,
  updatePublishingAuth,
  type PublishedAnswer,
} from './service';
import type { SitePublishingAuthRow } from '../../db/schema/published';

const SITE = '/v1/orgs/:organizationId/sites/:siteId';

const presentAuth = (row: SitePublishingAuthRow) => ({ object: 'publishing-auth' as const, backend: row.backend, privateKey: row.privateKey, ...(row.fallbackUrl ? { fallbackURL: row.fallbackUrl } : {}) });

export function publishedRoutes(r: RestRouter): void {
  r.get(`${SITE}/publishing/auth`, async ({ ctx, params }) => ({ status: 200, body: presentAuth(await getPublishingAuth(ctx, params.organizationId, params.siteId)) }));
  r.patch(`${SITE}/publishing/auth`, async ({ ctx, params, body }) => ({
    status: 200,
    body: presentAuth(await updatePublishingAuth(ctx, params.organizationId, params.siteId, bodyAs<PublishingAuthUpdateInput>(body))),
  }));
  r.post(`${SITE}/publishing/auth/regenerate`, async ({ ctx, params }) => ({ status: 200, body: presentAuth(await regeneratePublishingAuth(ctx, params.organizationId, params.siteId)) }));

  // The renderer asks before it has any token: anyone may look a URL up, and gets what its visitors would.
  r.post('/v1/urls/published', async ({ ctx, body }) => ({ status: 200, body: await lookupPublishedUrl(ctx, bodyAs<UrlLookupInput>(body)) }), {
    anonymous: true,
    body: urlLookupSchema,
    summary: 'Resolve a URL of a published site: its site, section, space and a short-lived token to read it',
  });
  r.get(
    '/v1/urls/published',
    async ({ ctx, query }) => {
      const redirectOnError = booleanParam(query, 'redirectOnError');
      const token = optionalParam(query, 'visitorAuthToken');
      const input = { url: query.get('url') ?? undefined, ...(redirectOnError !== undefined ? { redirectOnError } : {}), ...(token ? { visitor: { jwtToken: token } } : {}) };
      return { status: 200, body: await lookupPublishedUrl(ctx, input as UrlLookupInput) };
    },
    { anonymous: true, summary: 'Resolve a URL of a published site (the older form of the POST)' },
  );

  r.get(`${SITE}/customization`, async ({ ctx, params }) => ({ status: 200, body: await getCustomization(ctx, params.organizationId, params.siteId) }));
  r.put(`${SITE}/customization`, async ({ ctx, params, body }) => ({ status: 200, body: await updateCustomization(ctx, params.organizationId, params.siteId, body) }));
}

function cookiesOf(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) {
      try {
        out[part.slice(0, at).trim()] = decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        // A cookie that is not ours, badly encoded: ignored.
      }
    }
  }
  return out;
}

function decodedSegments(pathname: string): string[] {
  return pathname
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    })
    .filter(Boolean);
}

function readerRequest(request: Request, url: URL, segments: string[], ip = '') {
  return {
    visitor: {
      ip,
      userAgent: request.headers.get('user-agent') ?? '',
      referrer: request.headers.get('referer') ?? '',
      ...(request.headers.get('accept-language') ? { language: request.headers.get('accept-language')!.split(',')[0]!.trim() } : {}),
    },
    segments,
    url: url.toString(),
    shareKey: url.searchParams.get('shareKey') ?? undefined,
    jwtToken: url.searchParams.get('jwt_token') ?? undefined,
    theme: url.searchParams.get('theme') ?? undefined,
    query: url.searchParams.get('q') ?? undefined,
    cookies: cookiesOf(request),
    ifNoneMatch: request.headers.get('if-none-match') ?? undefined,
  };
}

/** GET /sites/<organization>/<basename or id>/...: a published site's pages, files, sitemap and robots rules. */
export async function servePublishedSite(ctx: RequestContext, request: Request, ip?: string): Promise<Response> {
  const url = new URL(request.url);
  const [, organizationId = '', siteName = '', ...segments] = decodedSegments(url.pathname);
  return respond(await readPublished(ctx, { organizationId, siteName, ...readerRequest(request, url, segments, ip) }));
}

/** A request for another host: the published site a proxy or an organization's hostname points here; null when none. */
export async function servePublishedHost(ctx: RequestContext, request: Request, ip?: string): Promise<Response | null> {
  const url = new URL(request.url);
  const answer = await readPublishedByHost(ctx, request.headers.get('x-forwarded-host') ?? url.host, readerRequest(request, url, decodedSegments(url.pathname), ip));
  return answer ? respond(answer) : null;
}

function respond(answer: PublishedAnswer): Response {
  switch (answer.kind) {
    case 'not-modified': {
      const headers = new Headers({ etag: answer.etag, vary: 'Cookie' });
      for (const c of answer.cookies ?? []) headers.append('set-cookie', c);
      return new Response(null, { status: 304, headers });
    }
    case 'redirect':
      return new Response(null, { status: 302, headers: { location: answer.location, 'cache-control': 'no-store' } });
    case 'text':
      return new Response(answer.body, { headers: { 'content-type': answer.contentType } });
    case 'bytes':
      return new Response(new Uint8Array(answer.bytes), {
        headers: {
          'content-type': answer.contentType,
          'cache-control': `${answer.private ? 'private' : 'public'}, max-age=300`,
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
        },
      });
    case 'html': {
      const headers = new Headers({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': answer.private ? 'private, no-cache' : 'public, no-cache',
        'content-security-policy': answer.policy ?? pagePolicy(),
        // The reader's theme (a cookie) changes the page.
        vary: 'Cookie',
      });
      if (answer.etag) headers.set('etag', answer.etag);
      for (const c of answer.cookies) headers.append('set-cookie', c);
      return new Response(answer.html, { status: answer.status, headers });
    }
  }
}
