import { and, eq } from 'drizzle-orm';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { NotFoundError } from '../../domain/errors';
import { siteById } from './loaders';
import { structureOf, type StructureView } from './sections';
import { loadTree } from './structure';
import { shareLinks, type SiteRow } from '../../db/schema/sites';
import { siteCustomizations } from '../../db/schema/published';
import { completeCustomization, DEFAULT_CUSTOMIZATION } from './customization';

/** Whether a share key is an active link of this site. */
async function opensSite(ctx: RequestContext, site: SiteRow, key: string | undefined): Promise<boolean> {
  if (!key) return false;
  const [link] = await ctx.db.select({ id: shareLinks.id }).from(shareLinks).where(and(eq(shareLinks.siteId, site.id), eq(shareLinks.key, key), eq(shareLinks.active, true)));
  return link !== undefined;
}

/**
 * A site as its readers get it: members who see the site always (a preview when unpublished);
 * anyone else only once it is published, and then by its visibility: public and unlisted sites
 * to everyone, share-link sites with an active key of theirs, and any of them to the API token its
 * URL lookup gave (how visitor-authenticated sites are read): to anyone else it is a missing site.
 */
export async function publishedSite(ctx: RequestContext, organizationId: string, siteId: string, shareKey?: string): Promise<{ site: SiteRow; structure: StructureView }> {
  const site = await readablePublishedSite(ctx, organizationId, siteId, shareKey);
  return { site, structure: await structureOf(ctx, await loadTree(ctx.db, site), true) };
}

/** The site of the rule above, for what else its readers may ask of it (its redirects). */
export async function readablePublishedSite(ctx: RequestContext, organizationId: string, siteId: string, shareKey?: string): Promise<SiteRow> {
  requireViewer(ctx);
  const site = await siteById(ctx).load(siteId);
  if (!site || site.organizationId !== organizationId) throw new NotFoundError('Site');
  const member = await ctx.authz.can('site:view', site);
  const open =
    site.published &&
    (site.visibility === 'public' || site.visibility === 'unlisted' || (site.visibility === 'share-link' && (await opensSite(ctx, site, shareKey))) || (await ctx.authz.can('site:readPublished', site)));
  if (!member && !open) throw new NotFoundError('Site');
  return site;
}

/** The same, for a site named by its id alone (GraphQL's global ID carries no organization). */
export async function publishedSiteById(ctx: RequestContext, siteId: string, shareKey?: string): Promise<{ site: SiteRow; structure: StructureView }> {
  requireViewer(ctx);
  const site = await siteById(ctx).load(siteId);
  if (!site) throw new NotFoundError('Site');
  return publishedSite(ctx, site.organizationId, site.id, shareKey);
}

/** A site's published content: what `publishedSite` gives, with the customization it is rendered with. */
export interface PublishedSiteContent {
  site: SiteRow;
  structure: StructureView;
  customization: Record<string, unknown>;
}

/**
 * The published site with its saved customization (the defaults until one is saved): the
 * platform's renderer themes the site from it, as Quire's own reader does.
 */
export async function publishedSiteContent(ctx: RequestContext, organizationId: string, siteId: string, shareKey?: string): Promise<PublishedSiteContent> {
  const published = await publishedSite(ctx, organizationId, siteId, shareKey);
  return { ...published, customization: (await customizationOf(ctx, published.site.id)).settings };
}

/** System use: the customization a site is rendered with, the defaults until it is saved. */
export async function customizationOf(ctx: RequestContext, siteId: string): Promise<{ settings: Record<string, unknown>; updatedAt: Date | null }> {
  const [row] = await ctx.db.select().from(siteCustomizations).where(eq(siteCustomizations.siteId, siteId));
  return row ? { settings: completeCustomization(row.settings), updatedAt: row.updatedAt } : { settings: DEFAULT_CUSTOMIZATION as unknown as Record<string, unknown>, updatedAt: null };
}
