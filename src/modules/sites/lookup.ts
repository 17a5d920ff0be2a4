import { eq } from 'drizzle-orm';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { hiddenAsMissing, NotFoundError } from '../../domain/errors';
import { viewOfSection, viewOfSectionGroup, type SectionGroupView, type SectionView } from './sections';
import type { ShareLinkInSite } from './share-links';
import { assertCanManage, getSiteById } from './site-access';
import { findSiteSpace, type SiteSpaceInSite } from './site-spaces';
import { loadTree } from './structure';
import { shareLinks, siteSectionGroups, siteSections, siteSpaces } from '../../db/schema/sites';

/*
 * Site parts by their id alone, for GraphQL's node lookups: the part's site must be one the viewer
 * sees, and anything else answers like a missing part. The viewer is checked before any lookup,
 * so that an anonymous caller is refused alike for real and made-up ids.
 */

async function siteOf(ctx: RequestContext, siteId: string | undefined, what: string) {
  if (!siteId) throw new NotFoundError(what);
  return hiddenAsMissing(getSiteById(ctx, siteId), what);
}

export async function getSiteSpaceById(ctx: RequestContext, id: string): Promise<SiteSpaceInSite> {
  requireViewer(ctx);
  const [row] = await ctx.db.select({ siteId: siteSpaces.siteId }).from(siteSpaces).where(eq(siteSpaces.id, id));
  const site = await siteOf(ctx, row?.siteId, 'Site space');
  return findSiteSpace(ctx, await loadTree(ctx.db, site), id);
}

export async function getSectionById(ctx: RequestContext, id: string): Promise<SectionView> {
  requireViewer(ctx);
  const [row] = await ctx.db.select({ siteId: siteSections.siteId }).from(siteSections).where(eq(siteSections.id, id));
  const site = await siteOf(ctx, row?.siteId, 'Site section');
  return viewOfSection(ctx, await loadTree(ctx.db, site), id);
}

export async function getSectionGroupById(ctx: RequestContext, id: string): Promise<SectionGroupView> {
  requireViewer(ctx);
  const [row] = await ctx.db.select({ siteId: siteSectionGroups.siteId }).from(siteSectionGroups).where(eq(siteSectionGroups.id, id));
  const site = await siteOf(ctx, row?.siteId, 'Site section group');
  return viewOfSectionGroup(ctx, await loadTree(ctx.db, site), id);
}

/** Share links carry secrets: only those who manage the site see them; to anyone else they are missing. */
export async function getShareLinkById(ctx: RequestContext, id: string): Promise<ShareLinkInSite> {
  requireViewer(ctx);
  const [link] = await ctx.db.select().from(shareLinks).where(eq(shareLinks.id, id));
  const site = await siteOf(ctx, link?.siteId, 'Share link');
  await hiddenAsMissing(assertCanManage(ctx, site), 'Share link');
  return { site, link };
}
