import { isSafeUrl, LINK_URL, WEB_URL } from '../../domain/urls';
import { emojiSvg } from './favicon';
import { esc, type Heading } from './html';
import { pageStyle } from './layout-style';

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
  /** The header's logo for each theme; with the system's theme both go in, the stylesheet shows one. */
  logo: { light?: string; dark?: string };
  favicon?: string;
  /** The favicon as an emoji, when there is no favicon image. */
  faviconEmoji?: string;
  /** The site's own icon (`favicon.ico`), when the customization sets none. */
  defaultFavicon: string;
  headerLinks: NavLink[];
  footer: { title: string; links: NavLink[] }[];
  copyright?: string;
}

/** A section tab, or a section group: a tab that opens a menu of its sections. */
export type Tab = NavLink | { title: string; active: boolean; sections: NavLink[] };

/** `system` follows the reader's `prefers-color-scheme`; the others are a choice. */
export type ThemeMode = 'light' | 'dark' | 'system';

export interface PageView {
  siteTitle: string;
  chrome: Chrome;
  homeHref: string;
  theme: ThemeMode;
  /** Whether readers may switch themes: the switch shows. */
  themeToggle: boolean;
  /** Where the search box sends its words. */
  searchHref: string;
  /** The URL of this page without query, for the theme switch and the canonical link. */
  selfHref: string;
  canonical: string | null;
  noRobots: boolean;
  primaryColor: { light: string; dark: string };
  tabs: Tab[];
  variants: NavLink[];
  sidebar: SidebarItem[];
  page: {
    title: string;
    description?: string;
    html: string;
    headings: Heading[];
    showTitle: boolean;
    showDescription: boolean;
    showOutline: boolean;
    showSidebar: boolean;
    /** When the page last changed, ISO 8601. */
    updatedAt?: string;
  };
  previous?: NavLink;
  next?: NavLink;
  /** Integrations' site scripts, each already safe inside `<script>` and allowed by the page's policy. */
  scripts?: string[];
  /** Scripts of the site itself, by URL (the reader's script, the web frames' host), allowed by the page's policy. */
  scriptUrls?: string[];
}

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
  if (chrome.faviconEmoji) return `<link rel="icon" href="data:image/svg+xml,${esc(encodeURIComponent(emojiSvg(chrome.faviconEmoji)))}">`;
  return `<link rel="icon" type="image/svg+xml" href="${esc(chrome.defaultFavicon)}">`;
}

function logos(logo: Chrome['logo'], theme: ThemeMode): string {
  const light = imageUrl(logo.light);
  const dark = imageUrl(logo.dark);
  const img = (url: string, which: string) => `<img class="logo${which}" src="${esc(url)}" alt="">`;
  if (theme === 'light') return light ?? dark ? img((light ?? dark)!, '') : '';
  if (theme === 'dark') return dark ?? light ? img((dark ?? light)!, '') : '';
  if (light && dark && light !== dark) return img(light, ' logo-light') + img(dark, ' logo-dark');
  return light ?? dark ? img((light ?? dark)!, '') : '';
}

function sidebar(items: SidebarItem[]): string {
  const item = (i: SidebarItem): string => {
    if (i.kind === 'group') return `<li class="group">${esc(i.title)}</li>${i.children.map(item).join('')}`;
    const link = `<a href="${href(i.href)}"${i.active ? ' class="active" aria-current="page"' : ''}${i.kind === 'link' ? ' rel="noopener"' : ''}>${esc(i.title)}</a>`;
    return `<li>${link}${i.children.length ? `<ul>${i.children.map(item).join('')}</ul>` : ''}</li>`;
  };
  return `<ul>${items.map(item).join('')}</ul>`;
}

const nav = (links: NavLink[]) => links.map((l) => `<a href="${href(l.href)}"${l.active ? ' class="active" aria-current="page"' : ''}>${esc(l.title)}</a>`).join('');

function tabs(list: Tab[]): string {
  return list
    .map((t) =>
      'sections' in t
        ? `<details class="tabgroup"><summary${t.active ? ' class="active"' : ''}>${esc(t.title)}</summary><div class="tabmenu" role="group" aria-label="${esc(t.title)}">${nav(t.sections)}</div></details>`
        : nav([t]),
    )
    .join('');
}

const THEMES: { mode: ThemeMode; label: string }[] = [
  { mode: 'light', label: 'Light' },
  { mode: 'dark', label: 'Dark' },
  { mode: 'system', label: 'Auto' },
];

/** Links, so the choice works without script: the server keeps it in a cookie for the next pages. */
const themeSwitch = (v: PageView) =>
  v.themeToggle
    ? `<div class="theme" role="group" aria-label="Theme">${THEMES.map((t) => `<a href="${esc(`${v.selfHref}?theme=${t.mode}`)}" title="${t.label === 'Auto' ? 'Follow the system' : `${t.label} theme`}"${v.theme === t.mode ? ' aria-current="true"' : ''}>${t.label}</a>`).join('')}</div>`
    : '';

const dateFormat = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

function updated(at: string | undefined): string {
  const date = at ? new Date(at) : null;
  return date && !Number.isNaN(date.getTime()) ? `<p class="updated">Last updated <time datetime="${esc(date.toISOString())}">${dateFormat.format(date)}</time></p>` : '';
}

function outline(page: PageView['page']): string {
  if (!page.showOutline || !page.headings.length) return '';
  const links = page.headings.map((h) => `<a class="d${h.depth}" href="#${esc(h.id)}">${esc(h.text)}</a>`).join('');
  return `<details class="outline"><summary>On this page</summary><aside aria-label="On this page">${links}</aside></details>`;
}

const pager = (v: PageView) =>
  v.previous || v.next
    ? `<nav class="pager" aria-label="Pagination">${v.previous ? `<a rel="prev" href="${href(v.previous.href)}"><small>Previous</small>← ${esc(v.previous.title)}</a>` : ''}${v.next ? `<a rel="next" href="${href(v.next.href)}"><small>Next</small>${esc(v.next.title)} →</a>` : ''}</nav>`
    : '';

/**
 * The whole HTML of a published page: header with section tabs and the theme switch, sidebar
 * (behind a menu on phones), content, outline, pager.
 */
export function renderPage(v: PageView): string {
  const { page } = v;
  const toc = outline(page);
  const mainClass = [page.showSidebar ? '' : 'nosidebar', toc ? '' : 'nooutline'].filter(Boolean).join(' ');
  return `<!doctype html><html lang="en"${v.theme === 'system' ? '' : ` class="${v.theme}"`}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="${v.theme === 'system' ? 'light dark' : v.theme}">
<title>${esc(page.title)} | ${esc(v.siteTitle)}</title>
${page.description ? `<meta name="description" content="${esc(page.description)}">` : ''}
${v.noRobots ? '<meta name="robots" content="noindex,nofollow">' : ''}
${v.canonical ? `<link rel="canonical" href="${esc(v.canonical)}">` : ''}
<meta property="og:title" content="${esc(page.title)}"><meta property="og:site_name" content="${esc(v.siteTitle)}"><meta property="og:type" content="article">
${v.canonical ? `<meta property="og:url" content="${esc(v.canonical)}">` : ''}${page.description ? `<meta property="og:description" content="${esc(page.description)}">` : ''}
${faviconLink(v.chrome)}
<style>${pageStyle(v.primaryColor)}</style></head><body>
<a class="skip" href="#content">Skip to content</a>
<header><a class="home" href="${esc(v.homeHref)}">${logos(v.chrome.logo, v.theme)}${esc(v.siteTitle)}</a>${v.tabs.length ? `<nav aria-label="Sections">${tabs(v.tabs)}</nav>` : ''}
${v.chrome.headerLinks.length ? `<nav class="links" aria-label="Links">${nav(v.chrome.headerLinks)}</nav>` : ''}
<form class="search" role="search" action="${esc(v.searchHref)}" method="get"><input type="search" name="q" placeholder="Search (/)" aria-label="Search" aria-keyshortcuts="/ Control+K"></form>
${themeSwitch(v)}</header>
${v.variants.length > 1 ? `<nav class="variants" aria-label="Variants">${nav(v.variants)}</nav>` : ''}
<main${mainClass ? ` class="${mainClass}"` : ''}>
${page.showSidebar ? `<details class="pages"><summary>Menu</summary><nav class="pages-list" aria-label="Pages">${sidebar(v.sidebar)}</nav></details>` : ''}
${toc}<article id="content" tabindex="-1">${page.showTitle ? `<h1>${esc(page.title)}</h1>` : ''}${page.showDescription && page.description ? `<p class="description">${esc(page.description)}</p>` : ''}
${page.html}
${updated(page.updatedAt)}${pager(v)}
</article>
</main>
${v.chrome.footer.length || v.chrome.copyright ? `<footer>${v.chrome.footer.map((g) => `<section><strong>${esc(g.title)}</strong>${nav(g.links)}</section>`).join('')}${v.chrome.copyright ? `<p class="copyright">${esc(v.chrome.copyright)}</p>` : ''}</footer>` : ''}
${(v.scripts ?? []).map((code) => `<script>${code}</script>`).join('')}${(v.scriptUrls ?? []).map((url) => `<script src="${esc(url)}"></script>`).join('')}
</body></html>`;
}

/** A bare page for answers without the site's navigation: not found, shared by link only. */
export function renderMessage(title: string, message: string, homeHref?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><meta name="color-scheme" content="light dark"><title>${esc(title)}</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}</style></head>
<body><h1>${esc(title)}</h1><p>${esc(message)}</p>${homeHref ? `<p><a href="${esc(homeHref)}">Go to the home page</a></p>` : ''}</body></html>`;
}
