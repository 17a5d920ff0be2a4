import { and, eq } from 'drizzle-orm';
import type { RequestContext } from '../../context/request-context';
import type { Tx } from '../../db/client';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import { windowOf, type Page, type PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { getSpace, spaceById } from '../spaces/service';
import type { SpaceRow } from '../../db/schema/spaces';
import { siteSpaceAddSchema, siteSpaceUpdateSchema, type SiteSpaceAddInput, type SiteSpaceUpdateInput } from './input';
import { siteById } from './loaders';
import { assertCanManage, getSite, pathOf, readableSite, spacesOfOrganization, uniquePath } from './site-access';
import { loadTree, renumber, sectionsInOrder, siteSpacePrefix, spacesOf, type SiteTree } from './structure';
import { siteSections, sites, siteSpaces, type SiteRow, type SiteSpaceRow } from '../../db/schema/sites';

/** A site space with its site and its space: what its object shows. */
export interface SiteSpaceInSite {
  site: SiteRow;
  row: SiteSpaceRow;
  space: SpaceRow;
  /** Whether it is the default of its container (the site's root, or its section). */
  isDefault: boolean;
  /** Where the published site serves it, after the site's URL ('' at its root). */
  prefix: string;
}

/**
 * The site spaces given, with their spaces, leaving out those whose space the viewer cannot see;
 * `published`: the site's readers see every space it publishes, whatever their own rights.
 */
export async function withSpaces(ctx: RequestContext, tree: SiteTree, rows: SiteSpaceRow[], published = false): Promise<SiteSpaceInSite[]> {
  const out: SiteSpaceInSite[] = [];
  for (const row of rows) {
    const space = published ? await spaceById(ctx).load(row.spaceId) : await getSpace(ctx, row.spaceId).catch(() => null);
    if (!space || space.deletedAt) continue;
    const container = row.sectionId ? tree.sections.find((s) => s.id === row.sectionId)?.defaultSiteSpaceId : tree.site.defaultSiteSpaceId;
    out.push({ site: tree.site, row, space, isDefault: container === row.id, prefix: siteSpacePrefix(tree, row) });
  }
  return out;
}

export async function listSiteSpaces(ctx: RequestContext, organizationId: string, siteId: string, query: { default?: string; shareKey?: string }, args: PageArgs, max: number): Promise<Page<SiteSpaceInSite>> {
  const { site, published } = await readableSite(ctx, organizationId, siteId, query.shareKey);
  if (query.default !== undefined && query.default !== 'true' && query.default !== 'false') throw new ValidationError('default must be true or false', ['default']);
  const tree = await loadTree(ctx.db, site);
  const ordered = [...spacesOf(tree, null), ...sectionsInOrder(tree).flatMap((s) => spacesOf(tree, s.id))];
  let all = await withSpaces(ctx, tree, ordered, published);
  if (query.default !== undefined) all = all.filter((s) => s.isDefault === (query.default === 'true'));
  return windowOf(all, args, max);
}

export async function findSiteSpace(ctx: RequestContext, tree: SiteTree, siteSpaceId: string): Promise<SiteSpaceInSite> {
  const row = tree.siteSpaces.find((s) => s.id === siteSpaceId);
  const [found] = row ? await withSpaces(ctx, tree, [row]) : [];
  if (!found) throw new NotFoundError('Site space');
  return found;
}

/** Adds a site space to a container inside a transaction; it becomes the default of an empty one. */
export async function insertSiteSpace(tx: Tx, ctx: RequestContext, tree: SiteTree, space: SpaceRow, sectionId: string | null): Promise<SiteSpaceRow> {
  const siblings = spacesOf(tree, sectionId);
  const taken = new Set(siblings.map((s) => s.path));
  const [row] = await tx
    .insert(siteSpaces)
    .values({ id: newId(), siteId: tree.site.id, sectionId, spaceId: space.id, path: uniquePath(pathOf(space.title), taken), position: siblings.length + 1, createdAt: ctx.now() })
    .returning();
  if (sectionId === null && !tree.site.defaultSiteSpaceId) await tx.update(sites).set({ defaultSiteSpaceId: row.id }).where(eq(sites.id, tree.site.id));
  const section = tree.sections.find((s) => s.id === sectionId);
  if (section && !section.defaultSiteSpaceId) await tx.update(siteSections).set({ defaultSiteSpaceId: row.id }).where(eq(siteSections.id, section.id));
  return row;
}

/** Adds a space: into the section named, else the default section, else the root of a site without sections. */
export async function addSiteSpace(ctx: RequestContext, site: SiteRow, input: SiteSpaceAddInput): Promise<SiteSpaceInSite> {
  await assertCanManage(ctx, site);
  const { spaceId, sectionId } = parseInput(siteSpaceAddSchema, input);
  const tree = await loadTree(ctx.db, site);
  if (sectionId !== undefined && !tree.sections.some((s) => s.id === sectionId)) throw new ValidationError(`sectionId: no section ${sectionId} in this site`, ['sectionId']);
  const [space] = await spacesOfOrganization(ctx, site.organizationId, [spaceId], 'spaceId');
  const target = sectionId ?? (tree.sections.length ? (site.defaultSiteSectionId ?? sectionsInOrder(tree)[0].id) : null);
  const row = await ctx.db.transaction((tx) => insertSiteSpace(tx, ctx, tree, space, target));
  // The site row may have changed (its default site space): read it again.
  siteById(ctx).clear(site.id);
  return findSiteSpace(ctx, await loadTree(ctx.db, await getSite(ctx, site.organizationId, site.id)), row.id);
}

/**
 * Changes a site space of a resolved site. The site space is looked for in the site's tree after the
 * permission check, so that a viewer who may not change the site is refused alike for any id.
 */
export async function updateSiteSpace(ctx: RequestContext, site: SiteRow, siteSpaceId: string, input: SiteSpaceUpdateInput): Promise<SiteSpaceInSite> {
  await assertCanManage(ctx, site);
  const tree = await loadTree(ctx.db, site);
  const current = await findSiteSpace(ctx, tree, siteSpaceId);
  const changes = parseInput(siteSpaceUpdateSchema, input);
  const space = changes.spaceId !== undefined ? (await spacesOfOrganization(ctx, site.organizationId, [changes.spaceId], 'spaceId'))[0] : current.space;
  if (changes.path !== undefined && spacesOf(tree, current.row.sectionId).some((s) => s.path === changes.path && s.id !== current.row.id)) {
    throw new ConflictError(`path: another space ${current.row.sectionId ? 'of the section' : 'of the site'} is at "${changes.path}"`, ['path']);
  }
  const [row] = await ctx.db
    .update(siteSpaces)
    .set({ ...(changes.path !== undefined ? { path: changes.path } : {}), ...(changes.condition !== undefined ? { condition: changes.condition } : {}), spaceId: space.id })
    .where(and(eq(siteSpaces.id, current.row.id), eq(siteSpaces.siteId, site.id)))
    .returning();
  return { ...current, row, space };
}

/** Removes a space from the site; when it was a default, the first one left in its place takes over. */
export async function deleteSiteSpace(ctx: RequestContext, site: SiteRow, siteSpaceId: string): Promise<void> {
  await assertCanManage(ctx, site);
  const tree = await loadTree(ctx.db, site);
  const { row, isDefault } = await findSiteSpace(ctx, tree, siteSpaceId);
  const left = spacesOf(tree, row.sectionId).filter((s) => s.id !== row.id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(siteSpaces).where(eq(siteSpaces.id, row.id));
    await renumber(tx, siteSpaces, left.map((s) => s.id));
    if (!isDefault) return;
    const next = left[0]?.id ?? null;
    if (row.sectionId) await tx.update(siteSections).set({ defaultSiteSpaceId: next }).where(eq(siteSections.id, row.sectionId));
    // A site left without spaces cannot stay published.
    else await tx.update(sites).set({ defaultSiteSpaceId: next, ...(next ? {} : { published: false }) }).where(eq(sites.id, site.id));
  });
  siteById(ctx).clear(site.id);
}
