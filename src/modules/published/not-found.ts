import type { Claims } from '../../domain/conditions';
import type { RequestContext } from '../../context/request-context';
import type { SiteRow } from '../../db/schema/sites';
import { customizationOf } from '../sites/service';
import { accentOf, chromeOf } from './chrome';
import { pagePolicy } from './csp';
import { esc } from './html';
import { renderPage } from './layout';
import { READER_SCRIPT_PATH } from './reader-script';
import { themeOf } from './theme';

/** What every "not found" of a published site says: it cannot tell a missing page from a hidden one. */
export const NOT_FOUND = { title: 'Page not found', message: 'This page does not exist, or you cannot see it.' };

const NO_SITE_STYLE = `
:root{--bg:#fff;--fg:#1d1d1f;--muted:#6b6b75;--line:#e6e6ea;--accent:#346ddb;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#121316;--fg:#ececef;--muted:#9a9aa5;--line:#2a2b30;--accent:#8ab4ff}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;padding:1.5rem;font:16px/1.6 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--fg)}
main{width:100%;max-width:28rem;padding:2rem 1.5rem;border:1px solid var(--line);border-radius:12px;text-align:center}
.code{margin:0;font-size:3rem;font-weight:700;line-height:1;color:var(--accent)}
h1{margin:.75rem 0 .5rem;font-size:1.5rem}p{margin:0;color:var(--muted);overflow-wrap:break-word}
`;

/**
 * The answer for a site address that leads nowhere: a site that never existed, one that is not
 * published, or one of an organization that is not there. One fixed page for all of them, so the
 * answer says nothing about which. No script and no outside resource: the published pages' own
 * policy (inline styles only) holds. The empty icon keeps the browser from asking for /favicon.ico.
 */
export const MISSING_SITE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><meta name="color-scheme" content="light dark"><title>Site not found</title>
<link rel="icon" href="data:,">
<style>${NO_SITE_STYLE}</style></head><body><main>
<p class="code" aria-hidden="true">404</p><h1>Site not found</h1><p>There is no published site at this address, or it is not open to you.</p>
</main></body></html>`;

/**
 * A 404 in the site's look when no page of the site can stand around it: its sections or variants
 * are all hidden from this reader, or its space is gone or empty. The header (title, logo, theme
 * switch, search), the site's colours and a link to its root; no sidebar, since there is no
 * content to list. The theme works as on the other pages (cookie, `?theme=`).
 */
export async function siteNotFound(ctx: RequestContext, site: SiteRow, base: string, claims: Claims, ask: { theme?: string; cookies: Record<string, string>; url: string }) {
  const customization = (await customizationOf(ctx, site.id)).settings;
  const theme = themeOf(ask.theme, ask.cookies, customization, new URL(base).pathname);
  const html = renderPage({
    siteTitle: typeof customization.title === 'string' ? customization.title : site.title,
    chrome: chromeOf(customization, theme.mode, claims, base, () => null),
    homeHref: base,
    theme: theme.mode,
    themeToggle: theme.toggle,
    searchHref: `${base}/~search`,
    selfHref: ask.url.split(/[?#]/)[0]!,
    canonical: null,
    noRobots: true,
    primaryColor: accentOf(customization),
    tabs: [],
    variants: [],
    sidebar: [],
    page: {
      title: NOT_FOUND.title,
      html: `<p>${esc(NOT_FOUND.message)}</p><p><a href="${esc(base)}">Go to the home page</a></p>`,
      headings: [],
      showTitle: true,
      showDescription: false,
      showOutline: false,
      showSidebar: false,
    },
    scriptUrls: [`${base}/${READER_SCRIPT_PATH}`],
  });
  return { html, cookie: theme.cookie, policy: pagePolicy([], { 'script-src': [`${base}/${READER_SCRIPT_PATH}`] }) };
}
