import { and, asc, eq, exists, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { byTimeThenId, keysetPage } from '../../db/keyset';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import { mapPage, windowOf, type Page, type PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId, newToken } from '../../lib/ids';
import { addContent } from '../content/service';
import { getOrganization } from '../organizations/service';
import type { OrganizationRow } from '../organizations/table';
import { createSpace, getSpace } from '../spaces/service';
import type { SpaceRow } from '../spaces/table';
import {
  shareLinkCreateSchema,
  shareLinkUpdateSchema,
  siteCreateSchema,
  siteListSchema,
  siteSpaceAddSchema,
  siteSpaceUpdateSchema,
  siteUpdateSchema,
  type ShareLinkCreateInput,
  type ShareLinkUpdateInput,
  type SiteCreateInput,
  type SiteListInput,
  type SiteSpaceAddInput,
  type SiteSpaceUpdateInput,
  type SiteUpdateInput,
} from './input';
import { siteById } from './loaders';
import { SAMPLE_PAGES } from './sample';
import { shareLinks, sites, siteSpaces, type ShareLinkRow, type SiteRow, type SiteSpaceRow } from './table';

const siteOrder = byTimeThenId<SiteRow>(sites.createdAt, (s) => s.createdAt, sites.id);
const shareLinkOrder = byTimeThenId<ShareLinkRow>(shareLinks.createdAt, (l) => l.createdAt, shareLinks.id);
const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A site of that organization the viewer may see; anything else, another organization's included, is NOT_FOUND. */
export async function getSite(ctx: RequestContext, organizationId: string, siteId: string): Promise<SiteRow> {
  const org = await getOrganization(ctx, organizationId);
  const site = await siteById(ctx).load(siteId);
  if (!site || site.organizationId !== org.id) throw new NotFoundError('Site');
  await ctx.authz.assertVisible('site:view', site, 'Site');
  return site;
}

/** A site by id alone (GraphQL), through the same checks. */
export async function getSiteById(ctx: RequestContext, siteId: string): Promise<SiteRow> {
  requireViewer(ctx);
  const site = await siteById(ctx).load(siteId);
  if (!site) throw new NotFoundError('Site');
  return getSite(ctx, site.organizationId, siteId).catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError('Site') : error;
  });
}

async function manageableSite(ctx: RequestContext, organizationId: string, siteId: string): Promise<SiteRow> {
  const site = await getSite(ctx, organizationId, siteId);
  await ctx.authz.assert('site:manage', site, 'Only organization admins and members with the create role can change sites');
  return site;
}

/** The organization's sites, oldest first, filtered by a space they publish, title, published and type. */
export async function listSites(ctx: RequestContext, organizationId: string, query: SiteListInput, args: PageArgs, max: number): Promise<Page<SiteRow>> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:listMembers', org, 'Guests cannot see the sites of an organization');
  const filter = parseInput(siteListSchema, query);
  const conditions: (SQL | undefined)[] = [eq(sites.organizationId, org.id)];
  if (filter.title) conditions.push(ilike(sites.title, likePattern(filter.title)));
  if (filter.published) conditions.push(eq(sites.published, filter.published === 'true'));
  if (filter.type?.length) conditions.push(inArray(sites.type, filter.type));
  if (filter.space) {
    conditions.push(exists(ctx.db.select({ one: sql`1` }).from(siteSpaces).where(and(eq(siteSpaces.siteId, sites.id), eq(siteSpaces.spaceId, filter.space)))));
  }
  const page = await keysetPage(ctx.db, { table: sites, where: and(...conditions), keys: siteOrder, direction: 'asc' }, args, max);
  for (const site of page.items) siteById(ctx).prime(site.id, site);
  return page;
}

export async function createSite(ctx: RequestContext, organizationId: string, input: SiteCreateInput): Promise<SiteRow> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:createContent', org, 'Only organization admins and members with the create role can create sites');
  const { type, title, visibility, spaces: wanted } = parseInput(siteCreateSchema, input);
  const listed = Array.isArray(wanted) ? await spacesOfOrganization(ctx, org, [...new Set(wanted)], 'spaces') : [];
  if (typeof wanted === 'string') {
    const space = await createSpace(ctx, org.id, { title });
    if (wanted === 'sample') await addContent(ctx, space.id, { pages: SAMPLE_PAGES });
    listed.push(space);
  }
  const now = ctx.now();
  const site = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(sites)
      .values({ id: newId(), organizationId: org.id, title, type: type ?? 'basic', visibility: visibility ?? 'public', createdAt: now, updatedAt: now })
      .returning();
    if (!listed.length) return row;
    const taken = new Set<string>();
    const added = listed.map((space, i) => ({ id: newId(), siteId: row.id, spaceId: space.id, path: uniquePath(pathOf(space.title), taken), position: i + 1, createdAt: now }));
    await tx.insert(siteSpaces).values(added);
    const [withDefault] = await tx.update(sites).set({ defaultSiteSpaceId: added[0].id }).where(eq(sites.id, row.id)).returning();
    return withDefault;
  });
  siteById(ctx).prime(site.id, site);
  return site;
}

/** Spaces of the organization the viewer can see, by id, in the order given; anything else is a 400 naming it. */
async function spacesOfOrganization(ctx: RequestContext, org: OrganizationRow, ids: string[], field: string): Promise<SpaceRow[]> {
  const found: SpaceRow[] = [];
  for (const id of ids) {
    const space = await getSpace(ctx, id).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!space || space.organizationId !== org.id) throw new ValidationError(`${field}: no space ${id} in this organization`, [field]);
    found.push(space);
  }
  return found;
}

export async function updateSite(ctx: RequestContext, organizationId: string, siteId: string, input: SiteUpdateInput): Promise<SiteRow> {
  const site = await manageableSite(ctx, organizationId, siteId);
  const changes = parseInput(siteUpdateSchema, input);
  if (changes.defaultSiteSection !== undefined) throw new ValidationError('defaultSiteSection: this site has no sections', ['defaultSiteSection']);
  if (changes.defaultSiteSpace !== undefined) {
    const [target] = await ctx.db.select({ id: siteSpaces.id }).from(siteSpaces).where(and(eq(siteSpaces.siteId, site.id), eq(siteSpaces.id, changes.defaultSiteSpace)));
    if (!target) throw new ValidationError(`defaultSiteSpace: no site space ${changes.defaultSiteSpace} in this site`, ['defaultSiteSpace']);
  }
  if (changes.basename !== undefined && changes.basename !== site.basename) {
    const [clash] = await ctx.db
      .select({ id: sites.id })
      .from(sites)
      .where(and(eq(sites.organizationId, site.organizationId), eq(sites.basename, changes.basename), ne(sites.id, site.id)));
    if (clash) throw new ConflictError(`basename: another site of the organization is published at "${changes.basename}"`, ['basename']);
  }
  const set: Partial<SiteRow> = {
    ...(changes.title !== undefined ? { title: changes.title } : {}),
    ...(changes.visibility !== undefined ? { visibility: changes.visibility } : {}),
    ...(changes.basename !== undefined ? { basename: changes.basename } : {}),
    ...(changes.adaptiveContent !== undefined ? { adaptiveContent: changes.adaptiveContent.enabled } : {}),
    ...(changes.agentsContext !== undefined ? { agentsContext: changes.agentsContext } : {}),
    ...(changes.defaultSiteSpace !== undefined ? { defaultSiteSpaceId: changes.defaultSiteSpace } : {}),
    ...(changes.proxy !== undefined ? { proxyOrigin: changes.proxy } : {}),
    updatedAt: ctx.now(),
  };
  const [row] = await ctx.db
    .update(sites)
    .set(set)
    .where(eq(sites.id, site.id))
    .returning()
    .catch((error: unknown) => {
      // Two renames racing for one basename: the unique index decides.
      if ((error as { code?: string }).code === '23505') throw new ConflictError(`basename: another site of the organization is published at "${changes.basename}"`, ['basename']);
      throw error;
    });
  siteById(ctx).clear(site.id).prime(site.id, row);
  return row;
}

export async function deleteSite(ctx: RequestContext, organizationId: string, siteId: string): Promise<void> {
  const site = await manageableSite(ctx, organizationId, siteId);
  await ctx.db.delete(sites).where(eq(sites.id, site.id));
  siteById(ctx).clear(site.id);
}

/** Publishes the site, or takes it offline; a site needs a space to be published. */
export async function setPublished(ctx: RequestContext, organizationId: string, siteId: string, published: boolean): Promise<SiteRow> {
  const site = await manageableSite(ctx, organizationId, siteId);
  if (published && !site.defaultSiteSpaceId) throw new ValidationError('The site has no space to publish: add one first');
  const [row] = await ctx.db.update(sites).set({ published, updatedAt: ctx.now() }).where(eq(sites.id, site.id)).returning();
  siteById(ctx).clear(site.id).prime(site.id, row);
  return row;
}

/** Where the site is read when published: under the organization, at its basename (else its id). */
export function publishedUrl(ctx: RequestContext, site: SiteRow): string {
  return `${ctx.config.publicUrl}/sites/${site.organizationId}/${site.basename ?? site.id}`;
}

/** How many spaces each site publishes, for the site object. */
export async function siteSpaceCount(ctx: RequestContext, site: SiteRow): Promise<number> {
  const [row] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(siteSpaces).where(eq(siteSpaces.siteId, site.id));
  return row?.n ?? 0;
}

// ---------------------------------------------------------------- site spaces

/** A site space with its site and its space: what its object shows. */
export interface SiteSpaceInSite {
  site: SiteRow;
  row: SiteSpaceRow;
  space: SpaceRow;
}

function pathOf(title: string): string {
  const path = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90);
  return path || 'space';
}

function uniquePath(path: string, taken: Set<string>): string {
  let candidate = path;
  for (let n = 2; taken.has(candidate); n++) candidate = `${path}-${n}`;
  taken.add(candidate);
  return candidate;
}

/** The spaces a site publishes, in order, leaving out those the viewer cannot see. */
async function siteSpacesOf(ctx: RequestContext, site: SiteRow): Promise<SiteSpaceInSite[]> {
  const rows = await ctx.db.select().from(siteSpaces).where(eq(siteSpaces.siteId, site.id)).orderBy(asc(siteSpaces.position), asc(siteSpaces.id));
  const listed: SiteSpaceInSite[] = [];
  for (const row of rows) {
    const space = await getSpace(ctx, row.spaceId).catch(() => null);
    if (space) listed.push({ site, row, space });
  }
  return listed;
}

export async function listSiteSpaces(ctx: RequestContext, organizationId: string, siteId: string, query: { default?: string }, args: PageArgs, max: number): Promise<Page<SiteSpaceInSite>> {
  const site = await getSite(ctx, organizationId, siteId);
  if (query.default !== undefined && query.default !== 'true' && query.default !== 'false') throw new ValidationError('default must be true or false', ['default']);
  let all = await siteSpacesOf(ctx, site);
  if (query.default !== undefined) all = all.filter((s) => (s.row.id === site.defaultSiteSpaceId) === (query.default === 'true'));
  return windowOf(all, args, max);
}

async function findSiteSpace(ctx: RequestContext, site: SiteRow, siteSpaceId: string): Promise<SiteSpaceInSite> {
  const [row] = await ctx.db.select().from(siteSpaces).where(and(eq(siteSpaces.siteId, site.id), eq(siteSpaces.id, siteSpaceId)));
  const space = row && (await getSpace(ctx, row.spaceId).catch(() => null));
  if (!row || !space) throw new NotFoundError('Site space');
  return { site, row, space };
}

export async function addSiteSpace(ctx: RequestContext, organizationId: string, siteId: string, input: SiteSpaceAddInput): Promise<SiteSpaceInSite> {
  const site = await manageableSite(ctx, organizationId, siteId);
  const { spaceId, sectionId } = parseInput(siteSpaceAddSchema, input);
  if (sectionId !== undefined) throw new ValidationError(`sectionId: no section ${sectionId} in this site`, ['sectionId']);
  const org = await getOrganization(ctx, organizationId);
  const [space] = await spacesOfOrganization(ctx, org, [spaceId], 'spaceId');
  const existing = await ctx.db.select({ path: siteSpaces.path, position: siteSpaces.position }).from(siteSpaces).where(eq(siteSpaces.siteId, site.id));
  const taken = new Set(existing.map((e) => e.path));
  const position = Math.max(0, ...existing.map((e) => e.position)) + 1;
  const row = await ctx.db.transaction(async (tx) => {
    const [added] = await tx.insert(siteSpaces).values({ id: newId(), siteId: site.id, spaceId: space.id, path: uniquePath(pathOf(space.title), taken), position, createdAt: ctx.now() }).returning();
    if (!site.defaultSiteSpaceId) await tx.update(sites).set({ defaultSiteSpaceId: added.id }).where(eq(sites.id, site.id));
    return added;
  });
  siteById(ctx).clear(site.id);
  return { site: await getSite(ctx, organizationId, siteId), row, space };
}

export async function updateSiteSpace(ctx: RequestContext, organizationId: string, siteId: string, siteSpaceId: string, input: SiteSpaceUpdateInput): Promise<SiteSpaceInSite> {
  const site = await manageableSite(ctx, organizationId, siteId);
  const current = await findSiteSpace(ctx, site, siteSpaceId);
  const changes = parseInput(siteSpaceUpdateSchema, input);
  const space = changes.spaceId !== undefined ? (await spacesOfOrganization(ctx, await getOrganization(ctx, organizationId), [changes.spaceId], 'spaceId'))[0] : current.space;
  if (changes.path !== undefined && changes.path !== current.row.path) {
    const [clash] = await ctx.db.select({ id: siteSpaces.id }).from(siteSpaces).where(and(eq(siteSpaces.siteId, site.id), eq(siteSpaces.path, changes.path)));
    if (clash) throw new ConflictError(`path: another space of the site is at "${changes.path}"`, ['path']);
  }
  const [row] = await ctx.db
    .update(siteSpaces)
    .set({ ...(changes.path !== undefined ? { path: changes.path } : {}), ...(changes.condition !== undefined ? { condition: changes.condition } : {}), spaceId: space.id })
    .where(eq(siteSpaces.id, current.row.id))
    .returning();
  return { site, row, space };
}

/** Removes a space from the site; when it was the default, the first one left becomes the default. */
export async function deleteSiteSpace(ctx: RequestContext, organizationId: string, siteId: string, siteSpaceId: string): Promise<void> {
  const site = await manageableSite(ctx, organizationId, siteId);
  const { row } = await findSiteSpace(ctx, site, siteSpaceId);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(siteSpaces).where(eq(siteSpaces.id, row.id));
    if (site.defaultSiteSpaceId !== row.id) return;
    const [next] = await tx.select({ id: siteSpaces.id }).from(siteSpaces).where(eq(siteSpaces.siteId, site.id)).orderBy(asc(siteSpaces.position), asc(siteSpaces.id)).limit(1);
    // A site left without spaces cannot stay published.
    await tx.update(sites).set({ defaultSiteSpaceId: next?.id ?? null, ...(next ? {} : { published: false }) }).where(eq(sites.id, site.id));
  });
  siteById(ctx).clear(site.id);
}

// ---------------------------------------------------------------- share links

/** Share links carry secrets: only those who manage the site list them. */
export async function listShareLinks(ctx: RequestContext, organizationId: string, siteId: string, args: PageArgs, max: number): Promise<Page<{ site: SiteRow; link: ShareLinkRow }>> {
  const site = await manageableSite(ctx, organizationId, siteId);
  const page = await keysetPage(ctx.db, { table: shareLinks, where: eq(shareLinks.siteId, site.id), keys: shareLinkOrder, direction: 'asc' }, args, max);
  return mapPage(page, (link) => ({ site, link }));
}

export async function createShareLink(ctx: RequestContext, organizationId: string, siteId: string, input: ShareLinkCreateInput): Promise<{ site: SiteRow; link: ShareLinkRow }> {
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

export async function updateShareLink(ctx: RequestContext, organizationId: string, siteId: string, shareLinkId: string, input: ShareLinkUpdateInput): Promise<{ site: SiteRow; link: ShareLinkRow }> {
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

/** Whether the viewer may change sites of this kind: for the site's permissions and GraphQL. */
export function canManageSite(ctx: RequestContext, site: SiteRow): Promise<boolean> {
  return ctx.authz.can('site:manage', site);
}

