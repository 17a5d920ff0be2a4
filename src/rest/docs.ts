import { readFileSync } from 'node:fs';
import { etagOf } from '../lib/etag';
import { pagePolicy } from '../lib/page-policy';
import { assetFile, SCALAR_ASSET } from './assets';
import { buildOpenApiDocument } from './openapi';
import type { RouteEntry } from './router';

export const DOCS_PATHS = {
  document: '/v1/openapi.json',
  page: '/v1/docs',
  script: '/v1/docs/scalar.js',
  start: '/v1/docs/start.js',
} as const;

/**
 * The page's own policy: the API's `default-src 'none'` would block Scalar. Scripts only from
 * here (the start script is a file, not inline); Scalar writes its styles into <style> elements
 * and style attributes as it renders, hence 'unsafe-inline' for styles only.
 */
const DOCS_CSP = pagePolicy({ inlineStyles: true, fonts: true });

/**
 * The public, token-free API reference: the OpenAPI document of the routes, and a Scalar page
 * whose scripts are served from here (no CDN, so it works offline). Built on first use, then kept.
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
      return new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': DOCS_CSP } });
    }
    if (pathname === DOCS_PATHS.start) {
      return new Response(START, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' } });
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
  return { body, etag: etagOf(body) };
}

/**
 * Scalar's options. Everything that would reach another host is off: its web fonts (a CDN), its
 * telemetry, the hosted AI agent and MCP generator, the developer-tools bar (Configure, Share,
 * Deploy) and the "Open API client" button. Test requests go to the document's own server (`/v1`).
 */
const CONFIGURATION = {
  url: DOCS_PATHS.document,
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
};

// Reads the options from the page's JSON block, so no inline script runs.
const START = `Scalar.createApiReference('#app', JSON.parse(document.getElementById('docs-options').textContent));
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Quire REST API (/v1)</title>
  <!-- No icon: otherwise the browser asks for /favicon.ico and logs the 404. -->
  <link rel="icon" href="data:,">
</head>
<body>
  <div id="app"></div>
  <script type="application/json" id="docs-options">${JSON.stringify(CONFIGURATION).replace(/</g, '\\u003c')}</script>
  <script src="${DOCS_PATHS.script}"></script>
  <script src="${DOCS_PATHS.start}"></script>
</body>
</html>
`;
