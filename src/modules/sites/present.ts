import type { RequestContext } from '../../context/request-context';
import type { PageHitInPlace, SpaceHitInPlace } from '../content/service';
import { presentPageHit } from '../content/present';
import { presentSpace } from '../spaces/present';
import { publishedUrl, siteSpaceCount, type MovedItem, type PublishedSiteContent, type SectionGroupView, type SectionView, type SiteSpaceInSite, type StructureView } from './service';
import type { ShareLinkRow, SiteRedirectRow, SiteRow } from '../../db/schema/sites';

/** The platform's Site. */
export async function presentSite(ctx: RequestContext, site: SiteRow) {
  const published = publishedUrl(ctx, site);
  return {
    object: 'site' as const,
    id: site.id,
    type: site.type,
    title: site.title,
    visibility: site.visibility,
    published: site.published,
    ...(site.basename ? { basename: site.basename } : {}),
    ...(site.proxyOrigin ? { proxy: { origin: site.proxyOrigin, target: published } } : {}),
    siteSpaces: await siteSpaceCount(ctx, site),
    createdAt: site.createdAt.toISOString(),
    adaptiveContent: { enabled: site.adaptiveContent },
    agentsContext: site.agentsContext,
    features: [],
    urls: {
      location: `${ctx.config.publicUrl}/v1/orgs/${site.organizationId}/sites/${site.id}`,
      app: `${ctx.config.appUrl}/o/${site.organizationId}/sites/${site.id}`,
      ...(site.published ? { published } : {}),
    },
  };
}

/** The platform's SiteSpace. */
const servedAt = (ctx: RequestContext, site: SiteRow, prefix: string) => (prefix ? `${publishedUrl(ctx, site)}/${prefix}` : publishedUrl(ctx, site));

export async function presentSiteSpace(ctx: RequestContext, { site, row, space, isDefault, prefix }: SiteSpaceInSite) {
  return {
    object: 'site-space' as const,
    id: row.id,
    path: row.path,
    ...(row.sectionId ? { section: row.sectionId } : {}),
    space: await presentSpace(ctx, space),
    title: space.title,
    default: isDefault,
    ...(row.condition ? { condition: row.condition } : {}),
    urls: site.published ? { published: servedAt(ctx, site, prefix) } : {},
  };
}

/** The platform's ShareLink: its published URL carries the key. */
export function presentShareLink(ctx: RequestContext, { site, link }: { site: SiteRow; link: ShareLinkRow }) {
  return {
    object: 'share-link' as const,
    id: link.id,
    createdAt: link.createdAt.toISOString(),
    name: link.name,
    active: link.active,
    urls: { published: `${publishedUrl(ctx, site)}?shareKey=${link.key}` },
  };
}

/** The platform's SiteSection, with its site spaces. */
export async function presentSection(ctx: RequestContext, { site, row, isDefault, prefix, siteSpaces }: SectionView) {
  return {
    object: 'site-section' as const,
    id: row.id,
    title: row.title,
    ...(row.description ? { description: row.description } : {}),
    default: isDefault,
    path: row.path,
    ...(row.condition ? { condition: row.condition } : {}),
    ...(row.groupId ? { sectionGroup: row.groupId } : {}),
    ...(row.icon ? { icon: row.icon } : {}),
    siteSpaces: await Promise.all(siteSpaces.map((s) => presentSiteSpace(ctx, s))),
    urls: site.published ? { published: servedAt(ctx, site, prefix) } : {},
  };
}

/** The platform's SiteSectionGroup, with its sections. */
export async function presentSectionGroup(ctx: RequestContext, { row, sections }: SectionGroupView) {
  return {
    object: 'site-section-group' as const,
    id: row.id,
    title: row.title,
    ...(row.icon ? { icon: row.icon } : {}),
    sections: await Promise.all(sections.map((s) => presentSection(ctx, s))),
  };
}

/** The platform's SiteStructure. */
export async function presentStructure(ctx: RequestContext, view: StructureView) {
  if (view.type === 'siteSpaces') return { type: 'siteSpaces' as const, structure: await Promise.all(view.structure.map((s) => presentSiteSpace(ctx, s))) };
  return { type: 'sections' as const, structure: await Promise.all(view.structure.map((item) => (item.kind === 'section' ? presentSection(ctx, item) : presentSectionGroup(ctx, item)))) };
}

/** A moved structure item, as the kind of object it is. */
export function presentMoved(ctx: RequestContext, moved: MovedItem) {
  if (moved.kind === 'site-space') return presentSiteSpace(ctx, moved.view);
  return moved.kind === 'section' ? presentSection(ctx, moved.view) : presentSectionGroup(ctx, moved.view);
}

/** The platform's PublishedContentSite: the site, its structure as readers see it, customizations and scripts. */
export async function presentPublishedSite(ctx: RequestContext, { site, structure, customization }: PublishedSiteContent) {
  const presented = await presentStructure(ctx, structure);
  // Quire customizes a site as a whole: each of its site spaces has the site's settings (the
  // renderer looks its site space up here and logs a warning when it is absent).
  const siteSpaces = presented.type === 'siteSpaces' ? presented.structure : presented.structure.flatMap((item) => ('sections' in item ? item.sections : [item])).flatMap((section) => section.siteSpaces);
  return {
    object: 'published-content-site' as const,
    site: await presentSite(ctx, site),
    structure: presented,
    customizations: { site: customization, siteSpaces: Object.fromEntries(siteSpaces.map((s) => [s.id, customization])) },
    // Integrations add their scripts here once they exist.
    scripts: [],
  };
}

export function presentAdaptiveSchema({ schema, updatedAt }: { schema: Record<string, unknown>; updatedAt: Date }) {
  return { object: 'site-adaptive-schema' as const, jsonSchema: schema, updatedAt: updatedAt.toISOString() };
}

/** The platform's SiteRedirect: its destination as the spec's SiteRedirectDestination. */
export function presentSiteRedirect(_ctx: RequestContext, { redirect }: { redirect: SiteRedirectRow }) {
  const destination =
    redirect.kind === 'site-section'
      ? { kind: 'site-section' as const, siteSectionId: redirect.siteSectionId! }
      : redirect.kind === 'site-space'
        ? { kind: 'site-space' as const, siteSpaceId: redirect.siteSpaceId! }
        : { kind: 'site-page' as const, siteSpaceId: redirect.siteSpaceId!, pageId: redirect.pageId! };
  return { object: 'site-redirect' as const, id: redirect.id, source: redirect.source, destination };
}

/**
 * A page hit as the spec's SearchPageResult, with what the renderer also reads of the platform's
 * answer: `score` (it orders pages of all spaces by it) and `ancestors` (its breadcrumbs).
 */
function presentSearchPageHit(ctx: RequestContext, hit: PageHitInPlace) {
  const page = presentPageHit(ctx, hit);
  return { ...page, score: hit.score, ancestors: hit.ancestors, sections: page.sections.map((section, i) => ({ ...section, score: hit.sections[i]!.score })) };
}

/** A space hit of a site's search as the spec's SearchSpaceResult. */
export const presentSiteSearchHit = (ctx: RequestContext, hit: SpaceHitInPlace) => ({ id: hit.spaceId, title: hit.title, pages: hit.pages.map((p) => presentSearchPageHit(ctx, p)) });
