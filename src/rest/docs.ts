import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { assetFile, SCALAR_ASSET } from './assets';
import { buildOpenApiDocument } from './openapi';
import type { RouteEntry } from './router';

export const DOCS_PATHS = { document: '/v1/openapi.json', page: '/v1/docs', script: '/v1/docs/scalar.js' } as const;

/**
 * The public, token-free API reference: the OpenAPI document of the routes, and a Scalar page
 * whose script is served from here (no CDN, so it works offline). Built on first use, then kept.
 */
export function createDocs(routes: () => RouteEntry[]): (request: Request) => Response | undefined {
  let document: string | undefined;
  let script: { body: string; etag: string } | undefined;

  return (request) => {
    const { pathname } = new URL(request.url);
    if (!Object.values(DOCS_PATHS).includes(pathname as never)) return undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return Response.json({ error: { code: 405, message: `Method ${request.method} is not allowed on ${pathname}` } }, { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    if (pathname === DOCS_PATHS.document) {
      document ??= JSON.stringify(buildOpenApiDocument(routes()));
      return new Response(document, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' } });
    }
    if (pathname === DOCS_PATHS.page) {
      return new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } });
    }
    script ??= loadScript();
    if (request.headers.get('if-none-match') === script.etag) return new Response(null, { status: 304, headers: { etag: script.etag } });
    return new Response(script.body, {
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400', etag: script.etag },
    });
  };
}

function loadScript(): { body: string; etag: string } {
  // The map it points to is not shipped: drop the pointer, or browsers ask for it and get a 404.
  const body = readFileSync(assetFile(SCALAR_ASSET.name, SCALAR_ASSET.fromPackage), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

// Default fonts come from Scalar's CDN: off, so the page asks nothing of the internet.
const CONFIGURATION = JSON.stringify({ url: DOCS_PATHS.document, withDefaultFonts: false, hideClientButton: true });

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Quire REST API (/v1)</title>
</head>
<body>
  <div id="app"></div>
  <script src="${DOCS_PATHS.script}"></script>
  <script>Scalar.createApiReference('#app', ${CONFIGURATION});</script>
</body>
</html>
`;
