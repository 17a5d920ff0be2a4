import { and, eq, exists, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { RequestContext } from '../../context/request-context';
import { byTimeThenId, keysetPage, keysetPages } from '../../db/keyset';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { addContent } from '../content/service';
import { getOrganization } from '../organizations/service';
import { organizations, type OrganizationRow } from '../../db/schema/organizations';
import { createSpace, getSpace, spaceById } from '../spaces/service';
import { siteCreateSchema, siteListSchema, siteUpdateSchema, type SiteCreateInput, type SiteListInput, type SiteUpdateInput } from './input';
import { publicationsBySpace, siteById } from './loaders';
import { siteOfShareKey } from './share-links';
import type { SpaceRow } from '../../db/schema/spaces';
import { SAMPLE_PAGES } from './sample';
import { checkAdaptiveSchema, EMPTY_ADAPTIVE_SCHEMA, templateConditions, type AdaptiveSchema, type TemplateCondition } from './adaptive';
import { assertCanManage, assertCanView, getSite, getSiteById, pathOf, spacesOfOrganization, uniquePath } from './site-access';
import { loadTree, spacesOf } from './structure';
import { sites, siteSections, siteSpaces, type SiteRow } from '../../db/schema/sites';
import { publishedUrl } from './urls';

export { publishedUrl };

const siteOrder = byTimeThenId<SiteRow>(sites.createdAt, (s) => s.createdAt, sites.id);
const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function siteListWhere(ctx: RequestContext, query: SiteListInput): SQL | undefined {
  const filter = parseInput(siteListSchema, query);
  const conditions: (SQL | undefined)[] = [];
  if (filter.title) conditions.push(ilike(sites.title, likePattern(filter.title)));
  if (filter.published) conditions.push(eq(sites.published, filter.published === 'true'));
  if (filter.type?.length) conditions.push(inArray(sites.type, filter.type));
  if (filter.space) {
    conditions.push(exists(ctx.db.select({ one: sql`1` }).from(siteSpaces).where(and(eq(siteSpaces.siteId, sites.id), eq(siteSpaces.spaceId, filter.space)))));
  }
  return and(...conditions);
}

const GUESTS_SEE_NO_SITES = 'Guests cannot see the sites of an organization';

/** The organization's sites, oldest first, filtered by a space they publish, title, published and type. */
export async function listSites(ctx: RequestContext, organizationId: string, query: SiteListInput, args: PageArgs, max: number): Promise<Page<SiteRow>> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:listMembers', org, GUESTS_SEE_NO_SITES);
  const page = await keysetPage(ctx.db, { table: sites, where: and(eq(sites.organizationId, org.id), siteListWhere(ctx, query)), keys: siteOrder, direction: 'asc' }, args, max);
  for (const site of page.items) siteById(ctx).prime(site.id, site);
  return page;
}

/** The sites of many organizations in one statement, for nested GraphQL. */
export async function listSitesOfOrganizations(ctx: RequestContext, orgs: readonly OrganizationRow[], query: SiteListInput, args: PageArgs, max: number): Promise<Map<string, Page<SiteRow> | Error>> {
  const where = siteListWhere(ctx, query);
  const ids = (await ctx.authz.allowed('organization:listMembers', orgs)).map((o) => o.id);
  const pages = await keysetPages(ctx.db, { table: sites, where, keys: siteOrder, direction: 'asc', partition: sites.organizationId, parentIds: ids, parentOf: (s) => s.organizationId }, args, max);
  for (const page of pages.values()) for (const site of page.items) siteById(ctx).prime(site.id, site);
  return new Map(orgs.map((o) => [o.id, pages.get(o.id) ?? new ForbiddenError(GUESTS_SEE_NO_SITES)]));
}

export async function createSite(ctx: RequestContext, organizationId: string, input: SiteCreateInput): Promise<SiteRow> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:createContent', org, 'Only organization admins and members with the create role can create sites');
  const { type, title, visibility, spaces: wanted } = parseInput(siteCreateSchema, input);
  const listed = Array.isArray(wanted) ? await spacesOfOrganization(ctx, org.id, [...new Set(wanted)], 'spaces') : [];
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

export async function updateSite(ctx: RequestContext, site: SiteRow, input: SiteUpdateInput): Promise<SiteRow> {
  await assertCanManage(ctx, site);
  const changes = parseInput(siteUpdateSchema, input);
  const tree = await loadTree(ctx.db, site);
  if (changes.defaultSiteSection !== undefined && !tree.sections.some((s) => s.id === changes.defaultSiteSection)) {
    throw new ValidationError(`defaultSiteSection: no section ${changes.defaultSiteSection} in this site`, ['defaultSiteSection']);
  }
  // With sections, the default site space is the one of the default section.
  const defaultSection = tree.sections.length ? (changes.defaultSiteSection ?? site.defaultSiteSectionId) : null;
  if (changes.defaultSiteSpace !== undefined && !spacesOf(tree, defaultSection).some((s) => s.id === changes.defaultSiteSpace)) {
    throw new ValidationError(`defaultSiteSpace: no site space ${changes.defaultSiteSpace} ${defaultSection ? "in the site's default section" : 'in this site'}`, ['defaultSiteSpace']);
  }
  if (defaultSection && changes.defaultSiteSpace !== undefined) {
    await ctx.db.update(siteSections).set({ defaultSiteSpaceId: changes.defaultSiteSpace }).where(eq(siteSections.id, defaultSection));
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
    ...(changes.defaultSiteSpace !== undefined && !defaultSection ? { defaultSiteSpaceId: changes.defaultSiteSpace } : {}),
    ...(changes.defaultSiteSection !== undefined ? { defaultSiteSectionId: changes.defaultSiteSection } : {}),
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

export async function deleteSite(ctx: RequestContext, site: SiteRow): Promise<void> {
  await assertCanManage(ctx, site);
  await ctx.db.delete(sites).where(eq(sites.id, site.id));
  siteById(ctx).clear(site.id);
}

/** Publishes the site, or takes it offline; a site needs a space to be published. */
export async function setPublished(ctx: RequestContext, site: SiteRow, published: boolean): Promise<SiteRow> {
  await assertCanManage(ctx, site);
  if (published && !(await siteSpaceCount(ctx, site))) throw new ValidationError('The site has no space to publish: add one first');
  const [row] = await ctx.db.update(sites).set({ published, updatedAt: ctx.now() }).where(eq(sites.id, site.id)).returning();
  siteById(ctx).clear(site.id).prime(site.id, row);
  return row;
}

/**
 * System use: which published site a request for another host is for, and the path inside it: a
 * site whose proxy is that host and a leading part of the path, or a site (by basename) of the
 * organization whose hostname is the host's first label.
 */
export async function publishedSiteForHost(ctx: RequestContext, host: string, segments: string[]): Promise<{ organizationId: string; siteName: string; segments: string[] } | null> {
  const bare = host.toLowerCase().replace(/:\d+$/, '');
  const candidates = segments.map((_, i) => `${bare}/${segments.slice(0, i + 1).join('/')}`);
  if (candidates.length) {
    const found = await ctx.db.select().from(sites).where(and(eq(sites.published, true), inArray(sites.proxyOrigin, candidates)));
    const best = found.sort((a, b) => (b.proxyOrigin?.length ?? 0) - (a.proxyOrigin?.length ?? 0))[0];
    if (best) return { organizationId: best.organizationId, siteName: best.basename ?? best.id, segments: segments.slice(best.proxyOrigin!.split('/').length - 1) };
  }
  const label = bare.split('.')[0];
  if (!segments.length || !label) return null;
  const [org] = await ctx.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.hostname, label));
  return org ? { organizationId: org.id, siteName: segments[0], segments: segments.slice(1) } : null;
}

/** How many spaces each site publishes, for the site object. */
export async function siteSpaceCount(ctx: RequestContext, site: SiteRow): Promise<number> {
  const [row] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(siteSpaces).where(eq(siteSpaces.siteId, site.id));
  return row?.n ?? 0;
}

export { getSite, getSiteById };
export { addSiteSpace, deleteSiteSpace, listSiteSpaces, updateSiteSpace, type SiteSpaceInSite } from './site-spaces';
export { createShareLink, deleteShareLink, getShareLink, listShareLinks, siteOfShareKey, updateShareLink, type ShareLinkInSite } from './share-links';
export {
  addSection,
  addSectionGroup,
  addSectionToGroup,
  deleteSection,
  deleteSectionGroup,
  listSectionGroups,
  listSections,
  moveStructureItem,
  removeSectionFromGroup,
  siteStructure,
  sortStructure,
  updateSection,
  updateSectionGroup,
  type MovedItem,
  type SectionGroupView,
  type SectionView,
  type StructureView,
} from './sections';

export { publishedSite, publishedSiteById, publishedSiteContent, customizationOf, type PublishedSiteContent } from './published';
export { getSectionById, getSectionGroupById, getShareLinkById, getSiteSpaceById } from './lookup';
export { completeCustomization, DEFAULT_CUSTOMIZATION } from './customization';
export {
  createSiteRedirect,
  deleteSiteRedirect,
  findRedirect,
  getSiteRedirect,
  getSiteRedirectById,
  listSiteRedirects,
  MAX_REDIRECTS_PER_SITE,
  resolveSiteRedirect,
  resolveSiteRedirectById,
  siteRedirectTarget,
  updateSiteRedirect,
  type SiteRedirectInSite,
} from './redirects';

/** The site's adaptive schema: the JSON Schema of its visitors' claims (an empty object of claims until set). */
export async function getAdaptiveSchema(ctx: RequestContext, site: SiteRow): Promise<{ schema: AdaptiveSchema; updatedAt: Date }> {
  await assertCanView(ctx, site);
  return { schema: (site.adaptiveSchema as AdaptiveSchema | null) ?? EMPTY_ADAPTIVE_SCHEMA, updatedAt: site.updatedAt };
}

/** Answers the site after the change beside its schema, for the doors that show the one or the other. */
export async function setAdaptiveSchema(ctx: RequestContext, site: SiteRow, input: unknown): Promise<{ site: SiteRow; schema: AdaptiveSchema; updatedAt: Date }> {
  await assertCanManage(ctx, site);
  const schema = checkAdaptiveSchema(input);
  const [row] = await ctx.db.update(sites).set({ adaptiveSchema: schema, updatedAt: ctx.now() }).where(eq(sites.id, site.id)).returning();
  siteById(ctx).clear(site.id).prime(site.id, row);
  return { site: row, schema, updatedAt: row.updatedAt };
}

/** Example conditions derived from the adaptive schema, to start writing section and site-space conditions from. */
export async function listTemplateConditions(ctx: RequestContext, site: SiteRow): Promise<TemplateCondition[]> {
  return templateConditions((await getAdaptiveSchema(ctx, site)).schema);
}

/** The most open first: a space published by several sites is as visible as the most open of them. */
const OPENNESS: SiteRow['visibility'][] = ['public', 'unlisted', 'share-link', 'visitor-auth'];

/**
 * How a space is published, following the published sites that show it (as on the platform):
 * their most open visibility, and the URL of the first of them; null when no published site shows it.
 */
export async function spacePublication(ctx: RequestContext, space: SpaceRow): Promise<{ visibility: SiteRow['visibility']; url: string } | null> {
  // Most spaces are in no published site: their row says so, and nothing is read.
  if (!space.publishedSites) return null;
  const publications = (await publicationsBySpace(ctx).load(space.id)) ?? [];
  if (!publications.length) return null;
  const visibility = OPENNESS.find((v) => publications.some((p) => p.site.visibility === v))!;
  const [first] = publications;
  return { visibility, url: [publishedUrl(ctx, first.site), first.sectionPath, first.path].filter(Boolean).join('/') };
}

/**
 * A space read with a share key: when the viewer cannot see it, an active share link of a
 * published share-link site that shows it opens it, read-only; anything else is NOT_FOUND.
 */
export async function getSpaceWithShareKey(ctx: RequestContext, spaceId: string, shareKey: string): Promise<SpaceRow> {
  const seen = await getSpace(ctx, spaceId).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  if (seen) return seen;
  const siteId = await siteOfShareKey(ctx, shareKey);
  const publications = (await publicationsBySpace(ctx).load(spaceId)) ?? [];
  const opened = publications.find((p) => p.site.id === siteId && p.site.visibility === 'share-link');
  const space = opened ? await spaceById(ctx).load(spaceId) : null;
  if (!space || space.deletedAt) throw new NotFoundError('Space');
  return space;
}

export { sectionsInOrder, spacesOf, topLevel, type SiteTree } from './structure';

/**
 * System use (the server of published sites): a published site of an organization by its
 * basename, or by its id when it has none; null otherwise. No viewer is involved.
 */
export async function findPublishedSite(ctx: RequestContext, organizationId: string, name: string): Promise<SiteRow | null> {
  const rows = await ctx.db
    .select()
    .from(sites)
    .where(and(eq(sites.organizationId, organizationId), eq(sites.published, true), or(eq(sites.basename, name), and(eq(sites.id, name), isNull(sites.basename)))));
  return rows[0] ?? null;
}

/** System use: the structure of a site, three statements. */
export function siteTree(ctx: RequestContext, site: SiteRow) {
  return loadTree(ctx.db, site);
}

/** Whether the viewer may change sites of this kind: for the site's permissions and GraphQL. */
export function canManageSite(ctx: RequestContext, site: SiteRow): Promise<boolean> {
  return ctx.authz.can('site:manage', site);
}

export { searchSite, searchSiteById } from './search';
export type { SiteSearchInput } from './search-input';
