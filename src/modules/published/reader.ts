import { createHash } from 'node:crypto';
import type { RequestContext } from '../../context/request-context';
import { conditionHolds, type Claims } from '../../domain/conditions';
import { blockLanguages, contentAt, withComputedPages, fileBytes, linkResolver, pageBodies, searchPublishedSpace, type BlockLanguages, type PageEntry, type SpaceContent, type TreePage } from '../content/service';
import { customizationOf, findPublishedSite, publishedSiteForHost, publishedUrl, sectionsInOrder, siteOfShareKey, siteTree, spacesOf, topLevel, type SiteTree } from '../sites/service';
import type { SiteRow, SiteSectionRow, SiteSpaceRow } from '../../db/schema/sites';
import { spaceById } from '../spaces/service';
import { embedBlocks, type EmbeddedBlocks } from './blocks';
import { esc, markdownToHtml, type Embed } from './html';
import { renderMessage, renderPage, type NavLink, type SidebarItem, type Tab } from './layout';
import { accentOf, chromeOf } from './chrome';
import { pagePolicy, type Directives } from './csp';
import { documents, sitemap } from './sitemap';
import { FAVICON_PATH, siteFavicon } from './favicon';
import { READER_SCRIPT, READER_SCRIPT_PATH } from './reader-script';
import { renderTheme, themeOf, type Theme } from './theme';
import { MISSING_SITE_HTML, NOT_FOUND, siteNotFound } from './not-found';
import { siteScripts, type SiteScript } from './scripts';
import { existingPublishingAuth } from './settings';
import { readerRedirect } from './redirects';
import { announceView, type ViewVisitor } from './views';
import { verifyVisitorToken } from './visitor-token';
import { WEBFRAME_HOST_PATH, WEBFRAME_HOST_SCRIPT } from './webframe-host';

export interface PublishedRequest {
  organizationId: string;
  siteName: string;
  /** Path segments after the site's own path. */
  segments: string[];
  /** The full URL asked for: where a visitor comes back to after signing in. */
  url: string;
  shareKey?: string;
  jwtToken?: string;
  theme?: string;
  /** The words of a search (`?q=`). */
  query?: string;
  cookies: Record<string, string>;
  ifNoneMatch?: string;
  /** Who is reading, for the integrations' view events. */
  visitor?: ViewVisitor;
}

export type PublishedAnswer =
  | { kind: 'html'; status: 200 | 401 | 404; html: string; etag?: string; cookies: string[]; private: boolean; /** The page's Content-Security-Policy when its scripts widen the usual one. */ policy?: string }
  | { kind: 'not-modified'; etag: string; cookies?: string[] }
  | { kind: 'redirect'; location: string }
  | { kind: 'text'; contentType: string; body: string }
  | { kind: 'bytes'; contentType: string; bytes: Buffer; name: string; private: boolean };

const shareCookie = (site: SiteRow) => `quire_share_${site.id}`;
const visitorCookie = (site: SiteRow) => `quire_visitor_${site.id}`;
/** A cookie for the site's path; with `maxAge` (seconds), one the browser drops by then. */
const cookie = (site: SiteRow, ctx: RequestContext, name: string, value: string, maxAge?: number) =>
  `${name}=${encodeURIComponent(value)}; Path=${new URL(publishedUrl(ctx, site)).pathname}; HttpOnly; SameSite=Lax${maxAge === undefined ? '' : `; Max-Age=${maxAge}`}`;

/** Rendered pages by everything that shapes them; a new revision is a new key, so nothing stale is served. */
const rendered = new Map<string, string>();
const CACHE_SIZE = 500;

interface Visitor {
  claims: Claims;
  cookies: string[];
}

/**
 * Who may read the site, by its visibility: anyone (public, unlisted), holders of an active share
 * key (share-link), or visitors with a token signed by the site's key (visitor-auth). A token, when
 * a site has a key, also brings the claims adaptive content is chosen by.
 */
async function admit(ctx: RequestContext, site: SiteRow, req: PublishedRequest): Promise<Visitor | PublishedAnswer> {
  const cookies: string[] = [];
  if (site.visibility === 'share-link') {
    const key = req.shareKey ?? req.cookies[shareCookie(site)];
    if (!key || (await siteOfShareKey(ctx, key)) !== site.id) {
      return { kind: 'html', status: 401, html: renderMessage('This site is shared by link', 'Open it with the link you were given: this one has no key, or its key was revoked.'), cookies: [], private: true };
    }
    if (req.shareKey) cookies.push(cookie(site, ctx, shareCookie(site), req.shareKey));
  }
  const auth = await existingPublishingAuth(ctx, site.id);
  const token = req.jwtToken ?? req.cookies[visitorCookie(site)];
  let claims: Claims | null = null;
  if (auth && token) {
    const now = ctx.now();
    const verified = await verifyVisitorToken(token, auth.privateKey, now);
    claims = verified && (verified.claims as Claims);
    // The cookie lasts as long as the token, not longer.
    if (verified && req.jwtToken) cookies.push(cookie(site, ctx, visitorCookie(site), req.jwtToken, Math.max(0, verified.expiresAt - Math.floor(now.getTime() / 1000))));
  }
  if (site.visibility === 'visitor-auth' && !claims) {
    if (auth?.fallbackUrl) {
      const target = new URL(auth.fallbackUrl);
      target.searchParams.set('location', req.url);
      return { kind: 'redirect', location: target.toString() };
    }
    return { kind: 'html', status: 401, html: renderMessage('Sign in to read this site', 'This site is only for signed-in visitors, and its sign-in page is not set up yet.'), cookies: [], private: true };
  }
  return { claims: claims ?? {}, cookies };
}

export interface Place {
  sections: SiteSectionRow[];
  section: SiteSectionRow | null;
  variants: SiteSpaceRow[];
  variant: SiteSpaceRow;
  pagePath: string;
  /** Path of the section and variant, as links to them are written. */
  prefix: string;
  /** How many leading segments named the section and the variant; the page path is what follows. */
  consumed: number;
  /** Whether no further segment could name a section or a variant: both were named (or the site has no sections and the variant was). */
  complete: boolean;
  /** The site's top level as the reader may see it: sections, and groups with their sections. */
  top: ({ kind: 'section'; row: SiteSectionRow } | { kind: 'group'; title: string; sections: SiteSectionRow[] })[];
}

/** Which section, variant and page the path asks for, among those the visitor's claims let them see. */
export function locate(site: SiteRow, tree: SiteTree, claims: Claims, segments: string[]): Place | null {
  const visible = <T extends { condition: string | null }>(rows: T[]) => rows.filter((r) => conditionHolds(r.condition, claims));
  const sections = visible(sectionsInOrder(tree));
  let rest = segments;
  let section: SiteSectionRow | null = null;
  if (tree.sections.length) {
    section = sections.find((s) => s.path === rest[0]) ?? null;
    if (section) rest = rest.slice(1);
    else section = sections.find((s) => s.id === site.defaultSiteSectionId) ?? sections[0] ?? null;
    if (!section) return null;
  }
  const variants = visible(spacesOf(tree, section?.id ?? null));
  const defaultId = section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId;
  const sectionNamed = !tree.sections.length || rest !== segments;
  let variant = variants.find((v) => v.path === rest[0]);
  const variantNamed = variant !== undefined;
  if (variant) rest = rest.slice(1);
  else variant = variants.find((v) => v.id === defaultId) ?? variants[0];
  if (!variant) return null;
  const isDefault = variant.id === (variants.find((v) => v.id === defaultId) ?? variants[0]).id;
  const prefix = [section && section.id !== (sections.find((s) => s.id === site.defaultSiteSectionId) ?? sections[0])?.id ? section.path : null, isDefault ? null : variant.path].filter(Boolean).join('/');
  const shown = new Set(sections.map((s) => s.id));
  const top = topLevel(tree).flatMap((item): Place['top'] => {
    if (item.kind === 'section') return shown.has(item.row.id) ? [item] : [];
    const inGroup = sections.filter((s) => s.groupId === item.row.id);
    return inGroup.length ? [{ kind: 'group', title: item.row.title, sections: inGroup }] : [];
  });
  return { sections, section, variants, variant, pagePath: rest.join('/'), prefix, consumed: segments.length - rest.length, complete: sectionNamed && variantNamed, top };
}

/** A request that came for another host: a site behind a proxy, or an organization's own hostname. */
export async function readPublishedByHost(ctx: RequestContext, host: string, req: Omit<PublishedRequest, 'organizationId' | 'siteName'>): Promise<PublishedAnswer | null> {
  const found = await publishedSiteForHost(ctx, host, req.segments);
  return found ? readPublished(ctx, { ...req, ...found }) : null;
}

export async function readPublished(ctx: RequestContext, req: PublishedRequest): Promise<PublishedAnswer> {
  const site = await findPublishedSite(ctx, req.organizationId, req.siteName);
  if (!site) return { kind: 'html', status: 404, html: MISSING_SITE_HTML, cookies: [], private: false };
  const base = publishedUrl(ctx, site);
  if (req.segments[0] === 'robots.txt') {
    const open = site.visibility === 'public';
    return { kind: 'text', contentType: 'text/plain; charset=utf-8', body: open ? `User-agent: *\nAllow: /\nSitemap: ${base}/sitemap.xml\n` : 'User-agent: *\nDisallow: /\n' };
  }
  // The same for every site and visitor, and holds nothing of either: served before any check.
  if (req.segments.join('/') === WEBFRAME_HOST_PATH) return { kind: 'text', contentType: 'text/javascript; charset=utf-8', body: WEBFRAME_HOST_SCRIPT };
  if (req.segments.join('/') === READER_SCRIPT_PATH) return { kind: 'text', contentType: 'text/javascript; charset=utf-8', body: READER_SCRIPT };
  const tree = await siteTree(ctx, site);
  if (req.segments[0] === 'sitemap.xml') {
    if (site.visibility !== 'public') return { kind: 'html', status: 404, html: renderMessage('Page not found', 'This site has no sitemap: it is not public.'), cookies: [], private: false };
    return { kind: 'text', contentType: 'application/xml; charset=utf-8', body: await sitemap(ctx, site, tree, base) };
  }

  const admitted = await admit(ctx, site, req);
  if ('kind' in admitted) return admitted;
  const { claims, cookies } = admitted;
  const restricted = site.visibility === 'share-link' || site.visibility === 'visitor-auth';
  const notFound = (homeHref?: string): PublishedAnswer => ({ kind: 'html', status: 404, html: renderMessage(NOT_FOUND.title, NOT_FOUND.message, homeHref), cookies, private: restricted });
  // No section, variant or page of the site to show around the answer: its header and colours still.
  const notFoundInSite = async (): Promise<PublishedAnswer> => {
    const { html, cookie, policy } = await siteNotFound(ctx, site, base, claims, req);
    return { kind: 'html', status: 404, html, cookies: cookie ? [...cookies, cookie] : cookies, private: restricted, policy };
  };
  if (req.segments.length === 1 && req.segments[0] === FAVICON_PATH) {
    const customization = await customizationOf(ctx, site.id);
    const title = typeof customization.settings.title === 'string' ? customization.settings.title : site.title;
    const icon = siteFavicon((customization.settings.favicon ?? {}) as Record<string, never>, title, accentOf(customization.settings).light);
    if ('redirect' in icon) return { kind: 'redirect', location: icon.redirect };
    return { kind: 'bytes', contentType: 'image/svg+xml', bytes: Buffer.from(icon.svg), name: 'favicon.svg', private: restricted };
  }

  const filesAt = req.segments.indexOf('~files');
  const searchAt = req.segments.indexOf('~search');
  const cut = filesAt >= 0 ? filesAt : searchAt;
  const place = locate(site, tree, claims, cut >= 0 ? req.segments.slice(0, cut) : req.segments);
  if (!place) return (await readerRedirect(ctx, site, tree, req.segments)) ?? notFoundInSite();
  const space = await spaceById(ctx).load(place.variant.spaceId);
  if (!space || space.deletedAt) return notFoundInSite();
  const content = await withComputedPages(ctx, await contentAt(ctx, space, space.revisionId));

  if (filesAt >= 0) {
    const found = await fileBytes(ctx, content, req.segments[filesAt + 1] ?? '');
    return found ? { kind: 'bytes', contentType: found.file.contentType, bytes: found.bytes, name: found.file.name, private: restricted } : notFound(base);
  }

  const customization = await customizationOf(ctx, site.id);
  const theme = themeOf(req.theme, req.cookies, customization.settings, new URL(base).pathname);
  if (theme.cookie) cookies.push(theme.cookie);
  const pages = documents(content);
  if (searchAt >= 0) {
    const scripts = await siteScripts(ctx, site);
    const html = await renderSearch(ctx, { site, base, place, content, pages, claims, theme, customization: customization.settings, scripts }, req.query ?? '');
    return { kind: 'html', status: 200, html, cookies, private: true, policy: policyOf(base, scripts) };
  }
  const entry = place.pagePath ? content.tree.byPath.get(place.pagePath) : pages[0] && content.tree.byId.get(pages[0].data.id);
  if (!entry || entry.page.data.type !== 'document') {
    const redirected = await readerRedirect(ctx, site, tree, req.segments, place.pagePath);
    if (redirected) return redirected;
    // Inside a space the reader can open, a missing page keeps the site around it: header, sidebar, theme.
    const first = pages[0] && content.tree.byId.get(pages[0].data.id);
    if (!first) return notFoundInSite();
    const scripts = await siteScripts(ctx, site);
    const article = { title: NOT_FOUND.title, html: `<p>${esc(NOT_FOUND.message)}</p><p><a href="${esc(base)}">Go to the home page</a></p>` };
    const html = await renderPublishedPage(ctx, { site, base, place, content, entry: first, pages, claims, theme, customization: customization.settings, scripts, article });
    return { kind: 'html', status: 404, html, cookies, private: restricted, policy: policyOf(base, scripts) };
  }

  if (req.visitor) {
    const view = { organizationId: site.organizationId, siteId: site.id, siteSpaceId: place.variant.id, spaceId: space.id, pageId: entry.page.data.id, url: req.url, visitor: req.visitor, cookies: req.cookies };
    await announceView(ctx, view);
  }
  const scripts = await siteScripts(ctx, site);
  const [markdown, languages] = await Promise.all([pageBodies(ctx, [entry.page]).then((b) => b.get(entry.page.data.id) ?? ''), blockLanguages(ctx, space)]);
  const parts = [site.id, site.updatedAt, customization.updatedAt, space.revisionId, place.variant.id, entry.path, theme.mode, claims, tree.sections, tree.groups, tree.siteSpaces];
  const input: RenderInput = { site, base, place, content, entry, pages, claims, theme, customization: customization.settings, scripts, markdown };

  if (mayHoldBlocks(markdown, languages)) {
    // What integrations render is not in the revision: the page is built each time (its blocks come
    // from the render cache) and its ETag is that of what was built, so a render that changed or
    // expired is never answered 304 or served from the page cache.
    const blocks: EmbeddedBlocks = { frames: new Set() };
    const html = await renderPublishedPage(ctx, { ...input, embed: { embed: embedBlocks(ctx, space, languages, renderTheme(theme.mode), blocks), embedded: blocks } });
    const policy = policyOf(base, scripts, blocks.frames.size ? { 'frame-src': [...blocks.frames], 'script-src': [`${base}/${WEBFRAME_HOST_PATH}`] } : {});
    const etag = `"${createHash('sha1').update(JSON.stringify([...parts, policy])).update(html).digest('base64url')}"`;
    if (req.ifNoneMatch === etag) return { kind: 'not-modified', etag, cookies };
    return { kind: 'html', status: 200, html, etag, cookies, private: restricted, policy };
  }

  const policy = policyOf(base, scripts);
  const etag = `"${createHash('sha1')
    .update(JSON.stringify([...parts, policy]))
    .digest('base64url')}"`;
  if (req.ifNoneMatch === etag) return { kind: 'not-modified', etag, cookies };
  const cached = rendered.get(etag);
  if (cached) return { kind: 'html', status: 200, html: cached, etag, cookies, private: restricted, policy };

  const html = await renderPublishedPage(ctx, input);
  if (rendered.size >= CACHE_SIZE) rendered.delete(rendered.keys().next().value!);
  rendered.set(etag, html);
  return { kind: 'html', status: 200, html, etag, cookies, private: restricted, policy };
}

/** A page's policy: its integrations' scripts, the reader's script by URL, and what `extra` adds (its blocks' frames). */
function policyOf(base: string, scripts: SiteScript[], extra: Directives = {}): string {
  return pagePolicy(scripts, { ...extra, 'script-src': [...(extra['script-src'] ?? []), `${base}/${READER_SCRIPT_PATH}`] });
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/m;
/** The start of an explicit block tag (`{% @integration/block %}`); hints (`{% hint %}`) are not blocks. */
const BLOCK_TAG = /\{%\s*@/;

/**
 * Whether a body may hold an integration block: an explicit tag, or a fence when the space has
 * integrations with block languages. Other pages keep the page cache.
 */
const mayHoldBlocks = (markdown: string, languages: BlockLanguages) => BLOCK_TAG.test(markdown) || (languages.size > 0 && FENCE.test(markdown));

/** Search results within the variant the reader is in: pages they could open, none marked noIndex. */
async function renderSearch(ctx: RequestContext, input: Omit<RenderInput, 'entry'>, query: string): Promise<string> {
  const { content } = input;
  const root = input.place.prefix ? `${input.base}/${input.place.prefix}` : input.base;
  let body = '<p>Type words to search this site.</p>';
  if (query.trim()) {
    const hits = (await searchPublishedSpace(ctx, content.space, { query }, 20)).filter((h) => {
      const entry = content.tree.byId.get(h.pageId);
      return entry && !entry.page.data.noIndex;
    });
    // Snippets are page text with <mark> around the words found: the text is escaped, the marks kept.
    const snippet = (text: string) => esc(text).replace(/&lt;(\/?)mark&gt;/g, '<$1mark>');
    body = hits.length
      ? `<ol class="results">${hits
          .map((h) => {
            const href = `${root}/${content.tree.byId.get(h.pageId)!.path}`;
            const sections = h.sections.map((s) => `<li><a href="${esc(s.anchor ? `${href}#${s.anchor}` : href)}">${esc(s.heading || h.title)}</a><p>${snippet(s.snippet)}</p></li>`).join('');
            return `<li><a class="result" href="${esc(href)}">${esc(h.title)}</a><ul>${sections}</ul></li>`;
          })
          .join('')}</ol>`
      : `<p>Nothing found for “${esc(query)}”.</p>`;
  }
  const first = input.pages[0] && content.tree.byId.get(input.pages[0].data.id);
  if (!first) return renderMessage('Search', 'This site has no pages yet.', input.base);
  return renderPublishedPage(ctx, { ...input, entry: first, article: { title: `Search: ${query}`, html: body } });
}

interface RenderInput {
  site: SiteRow;
  claims: Claims;
  base: string;
  place: Place;
  content: SpaceContent;
  entry: PageEntry;
  pages: TreePage[];
  theme: Theme;
  customization: Record<string, unknown>;
  scripts: SiteScript[];
  /** The page's body, when already read. */
  markdown?: string;
  /** Puts the page's integration blocks in, rendered, and says what they brought. */
  embed?: { embed: Embed; embedded: EmbeddedBlocks };
  /** What the page shows instead of `entry` (search results, not found): the site around it stays, no page is current. */
  article?: { title: string; html: string };
}

async function renderPublishedPage(ctx: RequestContext, { site, base, place, content, entry, pages, claims, theme, customization, scripts, markdown, embed, article }: RenderInput): Promise<string> {
  const root = place.prefix ? `${base}/${place.prefix}` : base;
  const pageHref = (e: PageEntry) => `${root}/${e.path}`;
  const d = entry.page.data;
  const layout = article ? undefined : d.layout;
  const showTitle = layout?.title ?? true;
  const resolve = linkResolver(ctx, content, entry);
  const body = article ? '' : (markdown ?? (await pageBodies(ctx, [entry.page])).get(entry.page.data.id) ?? '');
  const { html, headings } = article
    ? { html: article.html, headings: [] }
    : await markdownToHtml(
        body,
        (href) => {
          const found = resolve(href);
          if (found.ref.kind === 'page') return pageHref(content.tree.byId.get(found.ref.page)!);
          if (found.ref.kind === 'anchor' && found.ref.page) return `${pageHref(content.tree.byId.get(found.ref.page)!)}#${found.ref.anchor}`;
          if (found.ref.kind === 'file') return `${root}/~files/${found.ref.file}`;
          return null;
        },
        embed?.embed,
        showTitle ? d.title : undefined,
      );

  const current = article ? null : entry.page.data.id;
  const sidebarOf = (list: readonly TreePage[]): SidebarItem[] =>
    list
      .filter((p) => !p.data.hidden && p.data.type !== 'computed')
      .map((p) => {
        const e = content.tree.byId.get(p.data.id)!;
        const children = sidebarOf(p.children);
        if (p.data.type === 'group') return { kind: 'group', title: p.data.title, children };
        if (p.data.type === 'link') return { kind: 'link', title: p.data.title, href: p.data.target?.kind === 'url' ? p.data.target.url : '#', children };
        return { kind: 'page', title: p.data.title, href: pageHref(e), active: p.data.id === current, children };
      });
  const navigable = pages.filter((p) => !p.data.hidden);
  const at = navigable.findIndex((p) => p.data.id === current);
  const link = (p: TreePage | undefined): NavLink | undefined => (p ? { title: p.data.title, href: pageHref(content.tree.byId.get(p.data.id)!) } : undefined);
  const defaultSection = place.sections.find((s) => s.id === site.defaultSiteSectionId) ?? place.sections[0];
  const sectionTab = (s: SiteSectionRow): NavLink => ({ title: s.title, href: s.id === defaultSection?.id ? base : `${base}/${s.path}`, active: s.id === place.section?.id });
  const tabs = place.top.map((item): Tab =>
    item.kind === 'section' ? sectionTab(item.row) : { title: item.title, active: item.sections.some((s) => s.id === place.section?.id), sections: item.sections.map(sectionTab) },
  );
  const sectionRoot = place.section && place.section.id !== defaultSection?.id ? `${base}/${place.section.path}` : base;
  const defaultVariant = place.variants.find((v) => v.id === (place.section ? place.section.defaultSiteSpaceId : site.defaultSiteSpaceId)) ?? place.variants[0];
  const titles = new Map<string, string>();
  for (const v of place.variants) titles.set(v.id, (await spaceById(ctx).load(v.spaceId))?.title ?? v.path);
  const variants = place.variants.map((v) => ({ title: titles.get(v.id)!, href: v.id === defaultVariant.id ? sectionRoot : `${sectionRoot}/${v.path}`, active: v.id === place.variant.id }));
  return renderPage({
    siteTitle: typeof customization.title === 'string' ? customization.title : site.title,
    chrome: chromeOf(customization, theme.mode, claims, base, (pageId) => {
      const target = content.tree.byId.get(pageId);
      return target ? pageHref(target) : null;
    }),
    homeHref: base,
    theme: theme.mode,
    themeToggle: theme.toggle,
    selfHref: pageHref(entry),
    searchHref: `${root}/~search`,
    canonical: site.visibility === 'public' && !article ? pageHref(entry) : null,
    noRobots: site.visibility !== 'public' || Boolean(article || d.noRobotsIndex || d.noIndex),
    primaryColor: accentOf(customization),
    tabs,
    variants,
    sidebar: sidebarOf(content.tree.pages),
    page: {
      title: article?.title ?? d.title,
      description: article ? undefined : d.description,
      html,
      headings,
      showTitle,
      showDescription: layout?.description ?? true,
      showOutline: layout?.outline ?? true,
      showSidebar: layout?.tableOfContents ?? true,
      updatedAt: article ? undefined : d.updatedAt,
    },
    ...(!article && (layout?.pagination ?? true) ? { previous: link(navigable[at - 1]), next: link(navigable[at + 1]) } : {}),
    scripts: scripts.map((s) => s.inline),
    scriptUrls: [`${base}/${READER_SCRIPT_PATH}`, ...(embed?.embedded.frames.size ? [`${base}/${WEBFRAME_HOST_PATH}`] : [])],
  });
}
