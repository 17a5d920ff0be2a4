import { and, eq } from 'drizzle-orm';
import type { RequestContext } from '../../context/request-context';
import { byTimeThenId, keysetPage } from '../../db/keyset';
import { NotFoundError } from '../../domain/errors';
import { mapPage, type Page, type PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId, newToken } from '../../lib/ids';
import { shareLinkCreateSchema, shareLinkUpdateSchema, type ShareLinkCreateInput, type ShareLinkUpdateInput } from './input';
import { manageableSite } from './site-access';
import { shareLinks, type ShareLinkRow, type SiteRow } from '../../db/schema/sites';

const shareLinkOrder = byTimeThenId<ShareLinkRow>(shareLinks.createdAt, (l) => l.createdAt, shareLinks.id);

export interface ShareLinkInSite {
  site: SiteRow;
  link: ShareLinkRow;
}

/** Share links carry secrets: only those who manage the site list them. */
export async function listShareLinks(ctx: RequestContext, organizationId: string, siteId: string, args: PageArgs, max: number): Promise<Page<ShareLinkInSite>> {
  const site = await manageableSite(ctx, organizationId, siteId);
  const page = await keysetPage(ctx.db, { table: shareLinks, where: eq(shareLinks.siteId, site.id), keys: shareLinkOrder, direction: 'asc' }, args, max);
  return mapPage(page, (link) => ({ site, link }));
}

export async function createShareLink(ctx: RequestContext, organizationId: string, siteId: string, input: ShareLinkCreateInput): Promise<ShareLinkInSite> {
  const site = await manageableSite(ctx, organizationId, siteId);
  const { name } = parseInput(shareLinkCreateSchema, input);
  const [link] = await ctx.db.insert(shareLinks).values({ id: newId(), siteId: site.id, name, key: newToken(), createdAt: ctx.now() }).returning();
  return { site, link };
}

async function findShareLink(ctx: RequestContext, site: SiteRow, shareLinkId: string): Promise<ShareLinkRow> {
  const [link] = await ctx.db.select().from(shareLinks).where(and(eq(shareLinks.siteId, site.id), eq(shareLinks.id, shareLinkId)));
  if (!link) throw new NotFoundError('Share link');
  return link;
}

export async function updateShareLink(ctx: RequestContext, organizationId: string, siteId: string, shareLinkId: string, input: ShareLinkUpdateInput): Promise<ShareLinkInSite> {
  const site = await manageableSite(ctx, organizationId, siteId);
  const link = await findShareLink(ctx, site, shareLinkId);
  const changes = parseInput(shareLinkUpdateSchema, input);
  const [row] = await ctx.db.update(shareLinks).set(changes).where(eq(shareLinks.id, link.id)).returning();
  return { site, link: row };
}

export async function deleteShareLink(ctx: RequestContext, organizationId: string, siteId: string, shareLinkId: string): Promise<void> {
  const site = await manageableSite(ctx, organizationId, siteId);
  const link = await findShareLink(ctx, site, shareLinkId);
  await ctx.db.delete(shareLinks).where(eq(shareLinks.id, link.id));
}

/** The site an active share link opens, by its key; null for an unknown or inactive key. */
export async function siteOfShareKey(ctx: RequestContext, key: string): Promise<string | null> {
  const [link] = await ctx.db.select({ siteId: shareLinks.siteId }).from(shareLinks).where(and(eq(shareLinks.key, key), eq(shareLinks.active, true)));
  return link?.siteId ?? null;
}
