import { and, eq } from 'drizzle-orm';
import type { RequestContext } from '../../context/request-context';
import { byTimeThenId, keysetPage } from '../../db/keyset';
import { NotFoundError } from '../../domain/errors';
import { mapPage, type Page, type PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId, newShareKey } from '../../lib/ids';
import { shareLinkCreateSchema, shareLinkUpdateSchema, type ShareLinkCreateInput, type ShareLinkUpdateInput } from './input';
import { assertCanManage, getSite } from './site-access';
import { shareLinks, type ShareLinkRow, type SiteRow } from '../../db/schema/sites';

const shareLinkOrder = byTimeThenId<ShareLinkRow>(shareLinks.createdAt, (l) => l.createdAt, shareLinks.id);

export interface ShareLinkInSite {
  site: SiteRow;
  link: ShareLinkRow;
}

/** Share links carry secrets: only those who manage the site list them. */
export async function listShareLinks(ctx: RequestContext, site: SiteRow, args: PageArgs, max: number): Promise<Page<ShareLinkInSite>> {
  await assertCanManage(ctx, site);
  const page = await keysetPage(ctx.db, { table: shareLinks, where: eq(shareLinks.siteId, site.id), keys: shareLinkOrder, direction: 'asc' }, args, max);
  return mapPage(page, (link) => ({ site, link }));
}

export async function createShareLink(ctx: RequestContext, site: SiteRow, input: ShareLinkCreateInput): Promise<ShareLinkInSite> {
  await assertCanManage(ctx, site);
  const { name } = parseInput(shareLinkCreateSchema, input);
  const [link] = await ctx.db.insert(shareLinks).values({ id: newId(), siteId: site.id, name, key: newShareKey(), createdAt: ctx.now() }).returning();
  return { site, link };
}

/**
 * A share link of a site by their ids. Share links carry secrets: the site's managers alone may
 * know whether one exists, so the site is checked (404, then 403) before the link is looked for.
 */
export async function getShareLink(ctx: RequestContext, organizationId: string, siteId: string, shareLinkId: string): Promise<ShareLinkInSite> {
  const site = await getSite(ctx, organizationId, siteId);
  await assertCanManage(ctx, site);
  const [link] = await ctx.db.select().from(shareLinks).where(and(eq(shareLinks.siteId, site.id), eq(shareLinks.id, shareLinkId)));
  if (!link) throw new NotFoundError('Share link');
  return { site, link };
}

export async function updateShareLink(ctx: RequestContext, { site, link }: ShareLinkInSite, input: ShareLinkUpdateInput): Promise<ShareLinkInSite> {
  await assertCanManage(ctx, site);
  const changes = parseInput(shareLinkUpdateSchema, input);
  const [row] = await ctx.db.update(shareLinks).set(changes).where(eq(shareLinks.id, link.id)).returning();
  return { site, link: row };
}

export async function deleteShareLink(ctx: RequestContext, { site, link }: ShareLinkInSite): Promise<void> {
  await assertCanManage(ctx, site);
  await ctx.db.delete(shareLinks).where(eq(shareLinks.id, link.id));
}

/** The site an active share link opens, by its key; null for an unknown or inactive key. */
export async function siteOfShareKey(ctx: RequestContext, key: string): Promise<string | null> {
  const [link] = await ctx.db.select({ siteId: shareLinks.siteId }).from(shareLinks).where(and(eq(shareLinks.key, key), eq(shareLinks.active, true)));
  return link?.siteId ?? null;
}
