import { createHash } from 'node:crypto';
import { parseAppPath } from '../lib/app-paths';
import { pagePolicy } from '../lib/page-policy';
import { APP_SCRIPT } from './app-page-script';
import { APP_STYLE } from './app-page-style';

/**
 * The page every `urls.app` link opens. The server only checks the path's shape (src/lib/app-paths.ts)
 * and answers the same page for any id: the script reads the object through `/v1` with the reader's
 * own token, so the API's rules decide what they see, and nothing here reveals what exists.
 */
export const APP_ASSETS_PATH = '/app/assets/';

// No inline script or style; only this server is asked for anything.
const APP_CSP = pagePolicy();

interface Asset {
  name: string;
  type: string;
  body: string;
  etag: string;
}

function asset(base: string, ext: string, type: string, body: string): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { name: `${base}.${hash}.${ext}`, type, body, etag: `"${hash}"` };
}

const SCRIPT = asset('app', 'js', 'text/javascript; charset=utf-8', APP_SCRIPT);
const STYLE = asset('app', 'css', 'text/css; charset=utf-8', APP_STYLE);
const ASSETS = new Map([SCRIPT, STYLE].map((a) => [a.name, a]));

/** For a browser's GET of `/`: the page (where SAML sign-in lands); other callers keep the JSON index. */
export function wantsAppHome(request: Request): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && !!request.headers.get('accept')?.includes('text/html');
}

/** The app page for a path a link uses; null for any other path or method. */
export function appPage(request: Request, pathname: string): Response | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const route = parseAppPath(pathname);
  if (!route) return null;
  // In a script element only "</" could end it early; the escape keeps the JSON the same.
  const json = JSON.stringify(route).replace(/</g, '\\u003c');
  const html = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Quire</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${APP_ASSETS_PATH}${STYLE.name}">
</head>
<body>
  <header><a href="/" class="brand">Quire</a><span id="who"></span></header>
  <main id="main" aria-live="polite">
    <noscript>This page reads the object through the REST API (<a href="/v1/docs">/v1/docs</a>) with your API token, which needs JavaScript.</noscript>
  </main>
  <script type="application/json" id="app-route">${json}</script>
  <script src="${APP_ASSETS_PATH}${SCRIPT.name}"></script>
</body>
</html>
`;
  return new Response(request.method === 'HEAD' ? null : html, {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Security-Policy': APP_CSP },
  });
}

/** The page's script or style: named by content hash, so cached for a year. */
export function appAsset(request: Request, pathname: string): Response | null {
  const found = ASSETS.get(pathname.slice(APP_ASSETS_PATH.length));
  if (!found || (request.method !== 'GET' && request.method !== 'HEAD')) return null;
  const headers = new Headers({ 'Content-Type': found.type, 'Cache-Control': 'public, max-age=31536000, immutable', ETag: found.etag });
  if (request.headers.get('if-none-match') === found.etag) return new Response(null, { status: 304, headers });
  return new Response(request.method === 'HEAD' ? null : found.body, { headers });
}
