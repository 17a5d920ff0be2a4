import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { byTimeThenId, keysetPage } from '../../db/keyset';
import { ConflictError, hiddenAsMissing, NotFoundError, ValidationError } from '../../domain/errors';
import { mapPage, type Page, type PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { contentAt } from '../content/service';
import { getSpace, spaceById } from '../spaces/service';
import {
  siteRedirectCreateSchema,
  siteRedirectLookupSchema,
  siteRedirectUpdateSchema,
  type SiteRedirectCreateInput,
  type SiteRedirectDestination,
  type SiteRedirectLookupInput,
  type SiteRedirectUpdateInput,
} from './input';
import { siteById } from './loaders';
import { readablePublishedSite } from './published';
import { assertCanManage, assertCanView, getSite, getSiteById } from './site-access';
import { loadTree, sectionPrefix, siteSpacePrefix, type SiteTree } from './structure';
import { siteRedirects, sites, type SiteRedirectRow, type SiteRow } from '../../db/schema/sites';
import { publishedUrl } from './urls';

/*
 * Site redirects (the spec's `site-redirects`): a path of a site that sends its readers to a
 * section, a site space or a page of the same site. The platform's renderer asks for one by source
 * when a path is no page (`getSiteRedirectBySource`); Quire's own reader does the same on its 404 path.
 */

export interface SiteRedirectInSite {
  site: SiteRow;
  redirect: SiteRedirectRow;
}

/** How many redirects a site may hold: enough for a migrated documentation, few enough to list. */
export const MAX_REDIRECTS_PER_SITE = 1000;

const redirectOrder = byTimeThenId<SiteRedirectRow>(siteRedirects.createdAt, (r) => r.createdAt, siteRedirects.id);
const inSite = (site: SiteRow) => and(eq(siteRedirects.organizationId, site.organizationId), eq(siteRedirects.siteId, site.id));
const taken = (source: string) => new ConflictError(`source: the site already redirects "${source}"`, ['source']);
const isUniqueViolation = (error: unknown) => [error, (error as { cause?: unknown }).cause].some((e) => (e as { code?: string } | undefined)?.code === '23505');

/** The columns a destination is stored in; the others are cleared. */
const destinationColumns = (d: SiteRedirectDestination) => ({
  kind: d.kind,
  siteSectionId: d.kind === 'site-section' ? d.siteSectionId : null,
  siteSpaceId: d.kind === 'site-section' ? null : d.siteSpaceId,
  pageId: d.kind === 'site-page' ? d.pageId : null,
});

/** The destination must be part of this site (a page: of the site space's current content): anything else is a 400 naming it. */
async function checkDestination(ctx: RequestContext, tree: SiteTree, d: SiteRedirectDestination): Promise<void> {
  if (d.kind === 'site-section') {
    if (!tree.sections.some((s) => s.id === d.siteSectionId)) throw new ValidationError(`destination.siteSectionId: no section ${d.siteSectionId} in this site`, ['destination', 'siteSectionId']);
    return;
  }
  const row = tree.siteSpaces.find((s) => s.id === d.siteSpaceId);
  if (!row) throw new ValidationError(`destination.siteSpaceId: no site space ${d.siteSpaceId} in this site`, ['destination', 'siteSpaceId']);
  if (d.kind !== 'site-page') return;
  const space = await getSpace(ctx, row.spaceId).catch(() => null);
  const entry = space && (await contentAt(ctx, space, space.revisionId)).tree.byId.get(d.pageId);
  if (!entry) throw new ValidationError(`destination.pageId: no page ${d.pageId} in that site space`, ['destination', 'pageId']);
}

/** A site's redirects, oldest first: anyone who can see the site. */
export async function listSiteRedirects(ctx: RequestContext, site: SiteRow, args: PageArgs, max: number): Promise<Page<SiteRedirectInSite>> {
  await assertCanView(ctx, site);
  const page = await keysetPage(ctx.db, { table: siteRedirects, where: inSite(site), keys: redirectOrder, direction: 'asc' }, args, max);
  return mapPage(page, (redirect) => ({ site, redirect }));
}

export async function createSiteRedirect(ctx: RequestContext, site: SiteRow, input: SiteRedirectCreateInput): Promise<SiteRedirectInSite> {
  await assertCanManage(ctx, site);
  const { source, destination } = parseInput(siteRedirectCreateSchema, input);
  await checkDestination(ctx, await loadTree(ctx.db, site), destination);
  const now = ctx.now();
  const redirect = await ctx.db
    .transaction(async (tx) => {
      // The site's row is the lock two creates take in turn, so the cap holds under concurrency.
      await tx.select({ id: sites.id }).from(sites).where(eq(sites.id, site.id)).for('update');
      const [{ n, clash }] = await tx
        .select({ n: sql<number>`count(*)::int`, clash: sql<boolean>`coalesce(bool_or(${siteRedirects.source} = ${source}), false)` })
        .from(siteRedirects)
        .where(inSite(site));
      if (clash) throw taken(source);
      if (n >= MAX_REDIRECTS_PER_SITE) throw new ValidationError(`A site holds at most ${MAX_REDIRECTS_PER_SITE} redirects: delete some first`);
      const [row] = await tx
        .insert(siteRedirects)
        .values({ id: newId(), organizationId: site.organizationId, siteId: site.id, source, ...destinationColumns(destination), createdAt: now, updatedAt: now })
        .returning();
      return row;
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw taken(source);
      throw error;
    });
  return { site, redirect };
}

/** A redirect of a site the viewer sees, by their ids; anything else is NOT_FOUND. */
export async function getSiteRedirect(ctx: RequestContext, organizationId: string, siteId: string, redirectId: string): Promise<SiteRedirectInSite> {
  const site = await getSite(ctx, organizationId, siteId);
  const [redirect] = await ctx.db.select().from(siteRedirects).where(and(inSite(site), eq(siteRedirects.id, redirectId)));
  if (!redirect) throw new NotFoundError('Site redirect');
  return { site, redirect };
}

/** The same by its id alone (GraphQL): its site must be one the viewer sees. */
export async function getSiteRedirectById(ctx: RequestContext, redirectId: string): Promise<SiteRedirectInSite> {
  requireViewer(ctx);
  const [redirect] = await ctx.db.select().from(siteRedirects).where(eq(siteRedirects.id, redirectId));
  if (!redirect) throw new NotFoundError('Site redirect');
  return { site: await hiddenAsMissing(getSiteById(ctx, redirect.siteId), 'Site redirect'), redirect };
}

export async function updateSiteRedirect(ctx: RequestContext, { site, redirect }: SiteRedirectInSite, input: SiteRedirectUpdateInput): Promise<SiteRedirectInSite> {
  await assertCanManage(ctx, site);
  const { source, destination } = parseInput(siteRedirectUpdateSchema, input);
  if (destination) await checkDestination(ctx, await loadTree(ctx.db, site), destination);
  if (source !== undefined && source !== redirect.source) {
    const [clash] = await ctx.db.select({ id: siteRedirects.id }).from(siteRedirects).where(and(inSite(site), eq(siteRedirects.source, source), ne(siteRedirects.id, redirect.id)));
    if (clash) throw taken(source);
  }
  const [row] = await ctx.db
    .update(siteRedirects)
    .set({ ...(source !== undefined ? { source } : {}), ...(destination ? destinationColumns(destination) : {}), updatedAt: ctx.now() })
    .where(and(inSite(site), eq(siteRedirects.id, redirect.id)))
    .returning()
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw taken(source!);
      throw error;
    });
  if (!row) throw new NotFoundError('Site redirect');
  return { site, redirect: row };
}

export async function deleteSiteRedirect(ctx: RequestContext, { site, redirect }: SiteRedirectInSite): Promise<void> {
  await assertCanManage(ctx, site);
  await ctx.db.delete(siteRedirects).where(and(inSite(site), eq(siteRedirects.id, redirect.id)));
}

/**
 * Where a redirect sends its reader: the absolute URL the published site serves its destination
 * at (a section or site space at its prefix, a page at its path in the site space's current
 * content; a page no longer there sends to its site space). Null when the destination is gone.
 */
export async function redirectTarget(ctx: RequestContext, tree: SiteTree, redirect: SiteRedirectRow): Promise<string | null> {
  const at = (prefix: string) => [publishedUrl(ctx, tree.site), prefix].filter(Boolean).join('/');
  if (redirect.kind === 'site-section') {
    const section = tree.sections.find((s) => s.id === redirect.siteSectionId);
    return section ? at(sectionPrefix(tree, section)) : null;
  }
  const row = tree.siteSpaces.find((s) => s.id === redirect.siteSpaceId);
  if (!row) return null;
  const prefix = siteSpacePrefix(tree, row);
  if (redirect.kind !== 'site-page' || !redirect.pageId) return at(prefix);
  const space = await spaceById(ctx).load(row.spaceId);
  const entry = space && !space.deletedAt ? (await contentAt(ctx, space, space.revisionId)).tree.byId.get(redirect.pageId) : undefined;
  return at([prefix, entry?.path].filter(Boolean).join('/'));
}

/**
 * The renderer's question (`getSiteRedirectBySource`): the redirect from a path and where it sends.
 * Whoever reads the site's published content may ask: members who see it, its API token, the
 * holder of an active share key of a share-link site, anyone for a published public site.
 */
export async function resolveSiteRedirect(ctx: RequestContext, organizationId: string, siteId: string, input: SiteRedirectLookupInput): Promise<SiteRedirectInSite & { target: string }> {
  const site = await readablePublishedSite(ctx, organizationId, siteId, input.shareKey);
  const { source } = parseInput(siteRedirectLookupSchema, input);
  const found = await findRedirect(ctx, site, [source]);
  if (!found) throw new NotFoundError('Site redirect');
  return { site, ...found };
}

/** The same for a site named by its id alone (GraphQL's global ID carries no organization). */
export async function resolveSiteRedirectById(ctx: RequestContext, siteId: string, input: SiteRedirectLookupInput): Promise<SiteRedirectInSite & { target: string }> {
  requireViewer(ctx);
  const site = await siteById(ctx).load(siteId);
  if (!site) throw new NotFoundError('Site');
  return resolveSiteRedirect(ctx, site.organizationId, site.id, input);
}

/**
 * System use (a published site's missing page, its URL lookup): the first of `sources` the site
 * redirects, and where to. One statement on the source index; the site's structure only when found.
 */
export async function findRedirect(ctx: RequestContext, site: SiteRow, sources: string[], tree?: SiteTree): Promise<{ redirect: SiteRedirectRow; target: string } | null> {
  const wanted = sources.filter((s) => s.length <= 512).map((s) => s.replace(/%[0-9a-f]{2}/gi, (e) => e.toUpperCase()));
  if (!wanted.length) return null;
  const rows = await ctx.db.select().from(siteRedirects).where(and(inSite(site), inArray(siteRedirects.source, wanted)));
  const redirect = wanted.map((s) => rows.find((r) => r.source === s)).find(Boolean);
  if (!redirect) return null;
  const target = await redirectTarget(ctx, tree ?? (await loadTree(ctx.db, site)), redirect);
  return target ? { redirect, target } : null;
}

/** The viewer's view of a redirect's target (GraphQL's `target`): the same URL. */
export async function siteRedirectTarget(ctx: RequestContext, { site, redirect }: SiteRedirectInSite): Promise<string | null> {
  return redirectTarget(ctx, await loadTree(ctx.db, site), redirect);
}
