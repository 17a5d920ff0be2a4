import { isSafeUrl, LINK_URL, WEB_URL } from '../../domain/urls';
import { esc, type Heading } from './html';

export interface NavLink {
  title: string;
  href: string;
  active?: boolean;
}

/** An entry of the sidebar: a page (with its children), a group heading, or an outside link. */
export interface SidebarItem {
  kind: 'page' | 'group' | 'link';
  title: string;
  href?: string;
  active?: boolean;
  children: SidebarItem[];
}

/** What the site's customization adds around every page. */
export interface Chrome {
  logo?: string;
  favicon?: string;
  /** The favicon as an emoji, when there is no favicon image. */
  faviconEmoji?: string;
  headerLinks: NavLink[];
  footer: { title: string; links: NavLink[] }[];
  copyright?: string;
}

export interface PageView {
  siteTitle: string;
  chrome: Chrome;
  homeHref: string;
  theme: 'light' | 'dark';
  /** Where the search box sends its words. */
  searchHref: string;
  /** The URL of this page without query, for the theme switch and the canonical link. */
  selfHref: string;
  canonical: string | null;
  noRobots: boolean;
  primaryColor: string;
  tabs: NavLink[];
  variants: NavLink[];
  sidebar: SidebarItem[];
  page: { title: string; description?: string; html: string; headings: Heading[]; showTitle: boolean; showDescription: boolean; showOutline: boolean; showSidebar: boolean };
  previous?: NavLink;
  next?: NavLink;
  /** Integrations' site scripts, each already safe inside `<script>` and allowed by the page's policy. */
  scripts?: string[];
  /** Scripts of the site itself, by URL (the web frames' host), allowed by the page's policy. */
  scriptUrls?: string[];
}

const CSS = `
:root{--bg:#fff;--fg:#1d1d1f;--muted:#6b6b75;--line:#e6e6ea;--code:#f5f5f7;--accent:VAR_ACCENT}
html.dark{--bg:#121316;--fg:#ececef;--muted:#9a9aa5;--line:#2a2b30;--code:#1c1d21}
*{box-sizing:border-box}body{margin:0;font:16px/1.6 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--accent)}header{display:flex;gap:1.5rem;align-items:center;padding:.75rem 1.5rem;border-bottom:1px solid var(--line)}
header .home{font-weight:700;color:var(--fg);text-decoration:none}header nav a{margin-right:1rem;text-decoration:none;color:var(--muted)}
header nav a.active{color:var(--fg);border-bottom:2px solid var(--accent)}header .search{margin-left:auto}header .search input{padding:.3rem .5rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}header .theme{font-size:.85rem}
.results>li{margin-bottom:1rem}header .logo{height:1.5rem;vertical-align:middle;margin-right:.5rem}header nav.links a{color:var(--accent)}
footer{display:flex;gap:3rem;max-width:80rem;margin:2rem auto;padding:1.5rem;border-top:1px solid var(--line);font-size:.9rem}footer section a{display:block;color:var(--muted)}footer .copyright{margin-left:auto;color:var(--muted)}.results mark{background:#fde68a}
.variants{padding:.25rem 1.5rem;font-size:.85rem;border-bottom:1px solid var(--line)}.variants a{margin-right:.75rem}.variants a.active{font-weight:700}
main{display:grid;grid-template-columns:16rem minmax(0,1fr) 14rem;gap:2rem;max-width:80rem;margin:0 auto;padding:1.5rem}
main.nosidebar{grid-template-columns:minmax(0,1fr) 14rem}
aside ul{list-style:none;padding-left:.75rem;margin:0}aside>ul{padding-left:0}aside li a{display:block;padding:.15rem 0;color:var(--fg);text-decoration:none}
aside li a.active{color:var(--accent);font-weight:600}aside .group{margin-top:1rem;font-size:.75rem;text-transform:uppercase;color:var(--muted)}
article pre{background:var(--code);padding:1rem;overflow:auto;border-radius:6px}article code{background:var(--code);padding:.1rem .25rem;border-radius:4px}
article table{border-collapse:collapse}article th,article td{border:1px solid var(--line);padding:.35rem .6rem}article img{max-width:100%}
.description{color:var(--muted);font-size:1.1rem}.outline{font-size:.85rem}.outline a{display:block;color:var(--muted);text-decoration:none}.outline .d3{padding-left:.75rem}
.pager{display:flex;justify-content:space-between;margin-top:3rem;border-top:1px solid var(--line);padding-top:1rem}
.integration-block{margin:1rem 0}.integration-block-failed{padding:.75rem 1rem;border:1px dashed var(--line);border-radius:6px;color:var(--muted)}
.ck-vstack{display:flex;flex-direction:column;gap:.5rem}.ck-hstack{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.ck-card{border:1px solid var(--line);border-radius:6px;padding:.75rem}
.ck-card-title{font-weight:600;margin:0 0 .5rem}.ck-webframe iframe{display:block;width:100%;border:0}.ck-image{max-width:100%}
.hljs-keyword,.hljs-built_in{color:#c2185b}.hljs-string{color:#2e7d32}.hljs-comment{color:var(--muted)}.hljs-number{color:#1565c0}
`;

/*
 * Every URL of the page passes the same check as the API's input does, here at the last step:
 * rows stored before that check (or brought in by imports) must not make a `javascript:` link.
 * A refused link goes nowhere (`#`); a refused image or icon is left out.
 */
const href = (url: string | undefined) => esc(url !== undefined && isSafeUrl(url, LINK_URL) ? url : '#');
const imageUrl = (url: string | undefined) => (url !== undefined && isSafeUrl(url, WEB_URL) ? url : undefined);

function faviconLink(chrome: Chrome): string {
  const icon = imageUrl(chrome.favicon);
  if (icon) return `<link rel="icon" href="${esc(icon)}">`;
  // Made here from code points, never from stored text: the one data: URL a page may carry.
  if (chrome.faviconEmoji) return `<link rel="icon" href="data:image/svg+xml,${esc(encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${chrome.faviconEmoji}</text></svg>`))}">`;
  return '';
}

function sidebar(items: SidebarItem[]): string {
  const item = (i: SidebarItem): string => {
    if (i.kind === 'group') return `<li class="group">${esc(i.title)}</li>${i.children.map(item).join('')}`;
    const link = `<a href="${href(i.href)}"${i.active ? ' class="active" aria-current="page"' : ''}${i.kind === 'link' ? ' rel="noopener"' : ''}>${esc(i.title)}</a>`;
    return `<li>${link}${i.children.length ? `<ul>${i.children.map(item).join('')}</ul>` : ''}</li>`;
  };
  return `<ul>${items.map(item).join('')}</ul>`;
}

const nav = (links: NavLink[]) => links.map((l) => `<a href="${href(l.href)}"${l.active ? ' class="active"' : ''}>${esc(l.title)}</a>`).join('');

/** The whole HTML of a published page: header with section tabs, sidebar, content, outline, pager. */
export function renderPage(v: PageView): string {
  const { page } = v;
  const other = v.theme === 'dark' ? 'light' : 'dark';
  return `<!doctype html><html lang="en" class="${v.theme}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(page.title)} | ${esc(v.siteTitle)}</title>
${page.description ? `<meta name="description" content="${esc(page.description)}">` : ''}
${v.noRobots ? '<meta name="robots" content="noindex,nofollow">' : ''}
${v.canonical ? `<link rel="canonical" href="${esc(v.canonical)}">` : ''}
<meta property="og:title" content="${esc(page.title)}"><meta property="og:site_name" content="${esc(v.siteTitle)}"><meta property="og:type" content="article">
${v.canonical ? `<meta property="og:url" content="${esc(v.canonical)}">` : ''}${page.description ? `<meta property="og:description" content="${esc(page.description)}">` : ''}
${faviconLink(v.chrome)}
<style>${CSS.replace('VAR_ACCENT', v.primaryColor)}</style></head><body>
<header><a class="home" href="${esc(v.homeHref)}">${imageUrl(v.chrome.logo) ? `<img class="logo" src="${esc(imageUrl(v.chrome.logo)!)}" alt="">` : ''}${esc(v.siteTitle)}</a><nav aria-label="Sections">${nav(v.tabs)}</nav>
${v.chrome.headerLinks.length ? `<nav class="links" aria-label="Links">${nav(v.chrome.headerLinks)}</nav>` : ''}
<form class="search" role="search" action="${esc(v.searchHref)}" method="get"><input type="search" name="q" placeholder="Search" aria-label="Search"></form>
<a class="theme" href="${esc(`${v.selfHref}?theme=${other}`)}">${other === 'dark' ? 'Dark' : 'Light'} theme</a></header>
${v.variants.length > 1 ? `<div class="variants" aria-label="Variants">${nav(v.variants)}</div>` : ''}
<main${page.showSidebar ? '' : ' class="nosidebar"'}>
${page.showSidebar ? `<aside aria-label="Pages">${sidebar(v.sidebar)}</aside>` : ''}
<article>${page.showTitle ? `<h1>${esc(page.title)}</h1>` : ''}${page.showDescription && page.description ? `<p class="description">${esc(page.description)}</p>` : ''}
${page.html}
${v.previous || v.next ? `<nav class="pager" aria-label="Pagination">${v.previous ? `<a rel="prev" href="${href(v.previous.href)}">← ${esc(v.previous.title)}</a>` : '<span></span>'}${v.next ? `<a rel="next" href="${href(v.next.href)}">${esc(v.next.title)} →</a>` : ''}</nav>` : ''}
</article>
${page.showOutline && page.headings.length ? `<nav class="outline" aria-label="On this page"><strong>On this page</strong>${page.headings.map((h) => `<a class="d${h.depth}" href="#${esc(h.id)}">${esc(h.text)}</a>`).join('')}</nav>` : '<div></div>'}
</main>
${v.chrome.footer.length || v.chrome.copyright ? `<footer>${v.chrome.footer.map((g) => `<section><strong>${esc(g.title)}</strong>${nav(g.links)}</section>`).join('')}${v.chrome.copyright ? `<p class="copyright">${esc(v.chrome.copyright)}</p>` : ''}</footer>` : ''}
${(v.scripts ?? []).map((code) => `<script>${code}</script>`).join('')}${(v.scriptUrls ?? []).map((url) => `<script src="${esc(url)}"></script>`).join('')}
</body></html>`;
}

/** A bare page for answers without the site's navigation: not found, shared by link only. */
export function renderMessage(title: string, message: string, homeHref?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${esc(title)}</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}</style></head>
<body><h1>${esc(title)}</h1><p>${esc(message)}</p>${homeHref ? `<p><a href="${esc(homeHref)}">Go to the home page</a></p>` : ''}</body></html>`;
}
