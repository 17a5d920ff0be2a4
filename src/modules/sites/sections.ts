import { eq, inArray } from 'drizzle-orm';
import type { RequestContext } from '../../context/request-context';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import { windowOf, type Page, type PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import {
  sectionCreateSchema,
  sectionGroupCreateSchema,
  sectionGroupUpdateSchema,
  sectionUpdateSchema,
  structureSortSchema,
  type SectionCreateInput,
  type SectionGroupCreateInput,
  type SectionGroupUpdateInput,
  type SectionUpdateInput,
  type StructurePointer,
  type StructureSortInput,
} from './input';
import { siteById } from './loaders';
import { assertCanManage, assertCanView, getSite, pathOf, readableSite, spacesOfOrganization, uniquePath } from './site-access';
import { findSiteSpace, insertSiteSpace, withSpaces, type SiteSpaceInSite } from './site-spaces';
import { loadTree, placed, renumber, renumberTop, sectionPrefix, sectionsInOrder, sectionsOf, spacesOf, topLevel, type SiteTree, type TopItem } from './structure';
import { siteSectionGroups, siteSections, sites, siteSpaces, type SiteRow, type SiteSectionGroupRow, type SiteSectionRow } from '../../db/schema/sites';

/** A section with its site spaces, as its object shows it. */
export interface SectionView {
  site: SiteRow;
  row: SiteSectionRow;
  isDefault: boolean;
  /** Where the published site serves it, after the site's URL ('' at its root). */
  prefix: string;
  siteSpaces: SiteSpaceInSite[];
}

export interface SectionGroupView {
  site: SiteRow;
  row: SiteSectionGroupRow;
  sections: SectionView[];
}

export type StructureView = { type: 'sections'; structure: (({ kind: 'section' } & SectionView) | ({ kind: 'group' } & SectionGroupView))[] } | { type: 'siteSpaces'; structure: SiteSpaceInSite[] };

async function sectionView(ctx: RequestContext, tree: SiteTree, row: SiteSectionRow, published = false): Promise<SectionView> {
  return { site: tree.site, row, isDefault: tree.site.defaultSiteSectionId === row.id, prefix: sectionPrefix(tree, row), siteSpaces: await withSpaces(ctx, tree, spacesOf(tree, row.id), published) };
}

async function groupView(ctx: RequestContext, tree: SiteTree, row: SiteSectionGroupRow, published = false): Promise<SectionGroupView> {
  return { site: tree.site, row, sections: await Promise.all(sectionsOf(tree, row.id).map((s) => sectionView(ctx, tree, s, published))) };
}

/** The site as readers navigate it: its sections and groups, or its spaces when it has no sections. */
export async function siteStructure(ctx: RequestContext, site: SiteRow): Promise<StructureView> {
  await assertCanView(ctx, site);
  return structureOf(ctx, await loadTree(ctx.db, site));
}

/** The structure of a loaded site; `published`: as its readers see it, every published space included. */
export async function structureOf(ctx: RequestContext, tree: SiteTree, published = false): Promise<StructureView> {
  if (!tree.sections.length) return { type: 'siteSpaces', structure: await withSpaces(ctx, tree, spacesOf(tree, null), published) };
  const structure = await Promise.all(
    topLevel(tree).map(async (item) =>
      item.kind === 'section' ? { kind: 'section' as const, ...(await sectionView(ctx, tree, item.row, published)) } : { kind: 'group' as const, ...(await groupView(ctx, tree, item.row, published)) },
    ),
  );
  return { type: 'sections', structure };
}

export async function listSections(ctx: RequestContext, organizationId: string, siteId: string, args: PageArgs, max: number, shareKey?: string): Promise<Page<SectionView>> {
  const { site, published } = await readableSite(ctx, organizationId, siteId, shareKey);
  const tree = await loadTree(ctx.db, site);
  return windowOf(await Promise.all(sectionsInOrder(tree).map((s) => sectionView(ctx, tree, s, published))), args, max);
}

export async function listSectionGroups(ctx: RequestContext, site: SiteRow, args: PageArgs, max: number): Promise<Page<SectionGroupView>> {
  await assertCanView(ctx, site);
  const tree = await loadTree(ctx.db, site);
  return windowOf(await Promise.all(tree.groups.map((g) => groupView(ctx, tree, g))), args, max);
}

function findSection(tree: SiteTree, id: string): SiteSectionRow {
  const row = tree.sections.find((s) => s.id === id);
  if (!row) throw new NotFoundError('Site section');
  return row;
}

function findGroup(tree: SiteTree, id: string): SiteSectionGroupRow {
  const row = tree.groups.find((g) => g.id === id);
  if (!row) throw new NotFoundError('Site section group');
  return row;
}

/** The site and its tree after a change: the change may have touched the site row (its defaults). */
async function reread(ctx: RequestContext, site: SiteRow): Promise<SiteTree> {
  siteById(ctx).clear(site.id);
  return loadTree(ctx.db, await getSite(ctx, site.organizationId, site.id));
}

/**
 * Adds a section holding a space, last at the top of the site. The first section a site gets
 * takes in the spaces at its root, so nothing the site published is lost.
 */
export async function addSection(ctx: RequestContext, site: SiteRow, input: SectionCreateInput): Promise<SectionView> {
  await assertCanManage(ctx, site);
  const { spaceId, title, icon } = parseInput(sectionCreateSchema, input);
  const [space] = await spacesOfOrganization(ctx, site.organizationId, [spaceId], 'spaceId');
  const tree = await loadTree(ctx.db, site);
  const sectionTitle = title ?? (space.title.length >= 2 ? space.title : `${space.title} section`);
  const id = newId();
  await ctx.db.transaction(async (tx) => {
    const root = spacesOf(tree, null);
    const [section] = await tx
      .insert(siteSections)
      .values({
        id,
        siteId: site.id,
        title: sectionTitle,
        path: uniquePath(pathOf(sectionTitle), new Set(tree.sections.map((s) => s.path))),
        icon: icon ?? null,
        position: topLevel(tree).length + 1,
        defaultSiteSpaceId: root.length ? site.defaultSiteSpaceId : null,
        createdAt: ctx.now(),
      })
      .returning();
    if (root.length) await tx.update(siteSpaces).set({ sectionId: id }).where(inArray(siteSpaces.id, root.map((s) => s.id)));
    const adopted: SiteTree = { ...tree, sections: [...tree.sections, section], siteSpaces: tree.siteSpaces.map((s) => (s.sectionId === null ? { ...s, sectionId: id } : s)) };
    await insertSiteSpace(tx, ctx, adopted, space, id);
    if (!tree.sections.length) await tx.update(sites).set({ defaultSiteSectionId: id, defaultSiteSpaceId: null }).where(eq(sites.id, site.id));
  });
  const after = await reread(ctx, site);
  return sectionView(ctx, after, findSection(after, id));
}

export async function updateSection(ctx: RequestContext, site: SiteRow, sectionId: string, input: SectionUpdateInput): Promise<SectionView> {
  await assertCanManage(ctx, site);
  const tree = await loadTree(ctx.db, site);
  const section = findSection(tree, sectionId);
  const changes = parseInput(sectionUpdateSchema, input);
  if (changes.path !== undefined && tree.sections.some((s) => s.path === changes.path && s.id !== section.id)) {
    throw new ConflictError(`path: another section of the site is at "${changes.path}"`, ['path']);
  }
  if (changes.defaultSiteSpace !== undefined && !spacesOf(tree, section.id).some((s) => s.id === changes.defaultSiteSpace)) {
    throw new ValidationError(`defaultSiteSpace: no site space ${changes.defaultSiteSpace} in this section`, ['defaultSiteSpace']);
  }
  const { defaultSiteSpace, ...rest } = changes;
  const set = { ...rest, ...(defaultSiteSpace !== undefined ? { defaultSiteSpaceId: defaultSiteSpace } : {}) };
  // An update naming no change leaves the section as it is (drizzle refuses an empty SET).
  if (Object.values(set).some((v) => v !== undefined)) await ctx.db.update(siteSections).set(set).where(eq(siteSections.id, section.id));
  const after = await reread(ctx, site);
  return sectionView(ctx, after, findSection(after, section.id));
}

/** Deletes a section and its site spaces; when it was the default, the first section left takes over. */
export async function deleteSection(ctx: RequestContext, site: SiteRow, sectionId: string): Promise<void> {
  await assertCanManage(ctx, site);
  const tree = await loadTree(ctx.db, site);
  const section = findSection(tree, sectionId);
  const left = sectionsInOrder(tree).filter((s) => s.id !== section.id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(siteSections).where(eq(siteSections.id, section.id));
    if (site.defaultSiteSectionId === section.id) {
      await tx.update(sites).set({ defaultSiteSectionId: left[0]?.id ?? null, ...(left.length ? {} : { published: false }) }).where(eq(sites.id, site.id));
    }
    if (section.groupId === null) await renumberTop(tx, topLevel(tree).filter((i) => i.row.id !== section.id));
    else await renumber(tx, siteSections, sectionsOf(tree, section.groupId).filter((s) => s.id !== section.id).map((s) => s.id));
  });
  siteById(ctx).clear(site.id);
}

// ---------------------------------------------------------------- groups

export async function addSectionGroup(ctx: RequestContext, site: SiteRow, input: SectionGroupCreateInput): Promise<SectionGroupView> {
  await assertCanManage(ctx, site);
  const { title, icon, sections = [] } = parseInput(sectionGroupCreateSchema, input);
  const tree = await loadTree(ctx.db, site);
  for (const id of sections) if (!tree.sections.some((s) => s.id === id)) throw new ValidationError(`sections: no section ${id} in this site`, ['sections']);
  const id = newId();
  await ctx.db.transaction(async (tx) => {
    await tx.insert(siteSectionGroups).values({ id, siteId: site.id, title, icon: icon ?? null, position: topLevel(tree).length + 1, createdAt: ctx.now() });
    for (const [i, sectionId] of [...new Set(sections)].entries()) await tx.update(siteSections).set({ groupId: id, position: i + 1 }).where(eq(siteSections.id, sectionId));
  });
  const after = await reread(ctx, site);
  await ctx.db.transaction((tx) => renumberTop(tx, topLevel(after)));
  return groupView(ctx, after, findGroup(after, id));
}

export async function updateSectionGroup(ctx: RequestContext, site: SiteRow, groupId: string, input: SectionGroupUpdateInput): Promise<SectionGroupView> {
  await assertCanManage(ctx, site);
  const group = findGroup(await loadTree(ctx.db, site), groupId);
  const changes = parseInput(sectionGroupUpdateSchema, input);
  if (Object.values(changes).some((v) => v !== undefined)) await ctx.db.update(siteSectionGroups).set(changes).where(eq(siteSectionGroups.id, group.id));
  const after = await reread(ctx, site);
  return groupView(ctx, after, findGroup(after, group.id));
}

/** Deletes a group; its sections stay, at the top of the site where the group was. */
export async function deleteSectionGroup(ctx: RequestContext, site: SiteRow, groupId: string): Promise<void> {
  await assertCanManage(ctx, site);
  const tree = await loadTree(ctx.db, site);
  const group = findGroup(tree, groupId);
  const order = topLevel(tree).flatMap((item): TopItem[] =>
    item.row.id === group.id ? sectionsOf(tree, group.id).map((row) => ({ kind: 'section', row: { ...row, groupId: null } })) : [item],
  );
  await ctx.db.transaction(async (tx) => {
    await tx.update(siteSections).set({ groupId: null }).where(eq(siteSections.groupId, group.id));
    await tx.delete(siteSectionGroups).where(eq(siteSectionGroups.id, group.id));
    await renumberTop(tx, order);
  });
}

export async function addSectionToGroup(ctx: RequestContext, site: SiteRow, groupId: string, input: { sectionId?: unknown }): Promise<SectionGroupView> {
  await assertCanManage(ctx, site);
  const tree = await loadTree(ctx.db, site);
  findGroup(tree, groupId);
  if (typeof input?.sectionId !== 'string') throw new ValidationError('sectionId must be the id of a section of the site', ['sectionId']);
  const section = tree.sections.find((s) => s.id === input.sectionId);
  if (!section) throw new ValidationError(`sectionId: no section ${input.sectionId} in this site`, ['sectionId']);
  await sortItem(ctx, site, tree, { type: 'site-section', id: section.id }, { kind: 'end-of-group', groupId });
  const after = await reread(ctx, site);
  return groupView(ctx, after, findGroup(after, groupId));
}

/** Takes a section out of its group, to the top of the site right after the group. */
export async function removeSectionFromGroup(ctx: RequestContext, site: SiteRow, groupId: string, sectionId: string): Promise<void> {
  await assertCanManage(ctx, site);
  const tree = await loadTree(ctx.db, site);
  const group = findGroup(tree, groupId);
  const section = findSection(tree, sectionId);
  if (section.groupId !== group.id) throw new NotFoundError('Site section');
  await sortItem(ctx, site, tree, { type: 'site-section', id: section.id }, { kind: 'pointer', after: { type: 'site-section-group', id: group.id } });
}

// ---------------------------------------------------------------- sort

type Where = { kind: 'pointer'; before?: StructurePointer; after?: StructurePointer } | { kind: 'end-of-group'; groupId: string };

const topItemOf = (tree: SiteTree, p: StructurePointer): TopItem | undefined =>
  p.type === 'site-section-group'
    ? (g => (g ? { kind: 'group' as const, row: g } : undefined))(tree.groups.find((x) => x.id === p.id))
    : (s => (s ? { kind: 'section' as const, row: s } : undefined))(tree.sections.find((x) => x.id === p.id));
const sameTop = (a: TopItem, b: TopItem) => a.kind === b.kind && a.row.id === b.row.id;

/**
 * Moves one item of the structure right before or after another (at the end when neither is
 * given): site spaces among the site spaces of a container, sections and groups at the top of the
 * site, a section into or out of a group by being placed next to a section of it or at the top.
 */
async function sortItem(ctx: RequestContext, site: SiteRow, tree: SiteTree, item: StructurePointer, where: Where): Promise<void> {
  const target = where.kind === 'pointer' ? (where.before ?? where.after) : undefined;
  const side = where.kind === 'pointer' && where.before ? 'before' : 'after';
  const invalid = (message: string) => new ValidationError(`position: ${message}`, ['position']);

  if (item.type === 'site-space') {
    const moving = tree.siteSpaces.find((s) => s.id === item.id);
    if (!moving) throw new NotFoundError('Site space');
    if (target && target.type !== 'site-space') throw invalid('a site space goes before or after another site space');
    const anchor = target ? tree.siteSpaces.find((s) => s.id === target.id) : undefined;
    if (target && !anchor) throw invalid(`no site space ${target.id} in this site`);
    const container = anchor ? anchor.sectionId : moving.sectionId;
    if (anchor && container !== moving.sectionId && spacesOf(tree, moving.sectionId).length === 1 && moving.sectionId !== null) {
      throw invalid('a section must keep at least one site space');
    }
    const list = placed(spacesOf(tree, container), { ...moving, sectionId: container }, (a, b) => a.id === b.id, anchor ? { [side]: anchor } : undefined)!;
    await ctx.db.transaction(async (tx) => {
      await tx.update(siteSpaces).set({ sectionId: container }).where(eq(siteSpaces.id, moving.id));
      await renumber(tx, siteSpaces, list.map((s) => s.id));
      await renumber(tx, siteSpaces, spacesOf(tree, moving.sectionId).filter((s) => s.id !== moving.id && container !== moving.sectionId).map((s) => s.id));
      // The moved one may have been the default of the container it left.
      const left = spacesOf(tree, moving.sectionId).filter((s) => s.id !== moving.id);
      if (container !== moving.sectionId && moving.sectionId) {
        const section = tree.sections.find((s) => s.id === moving.sectionId)!;
        if (section.defaultSiteSpaceId === moving.id) await tx.update(siteSections).set({ defaultSiteSpaceId: left[0]?.id ?? null }).where(eq(siteSections.id, section.id));
      }
    });
    return;
  }

  const top = topLevel(tree);
  const movingTop = topItemOf(tree, item);
  if (!movingTop) throw new NotFoundError(item.type === 'site-section' ? 'Site section' : 'Site section group');

  if (where.kind === 'end-of-group' || (target && target.type === 'site-section' && tree.sections.find((s) => s.id === target.id)?.groupId)) {
    // Into a group: only sections go there.
    if (movingTop.kind !== 'section') throw invalid('a group cannot go inside another group');
    const groupId = where.kind === 'end-of-group' ? where.groupId : tree.sections.find((s) => s.id === target!.id)!.groupId!;
    const members = sectionsOf(tree, groupId);
    const anchor = where.kind === 'pointer' ? members.find((s) => s.id === target!.id) : undefined;
    const list = placed(members, movingTop.row as SiteSectionRow, (a, b) => a.id === b.id, anchor ? { [side]: anchor } : undefined)!;
    await ctx.db.transaction(async (tx) => {
      await tx.update(siteSections).set({ groupId }).where(eq(siteSections.id, movingTop.row.id));
      await renumber(tx, siteSections, list.map((s) => s.id));
      if ((movingTop.row as SiteSectionRow).groupId === null) await renumberTop(tx, top.filter((i) => !sameTop(i, movingTop)));
    });
    return;
  }

  // At the top of the site.
  const anchor = target ? topItemOf(tree, target) : undefined;
  if (target && !anchor) throw invalid(`no ${target.type} ${target.id} in this site`);
  const moved: TopItem = movingTop.kind === 'section' ? { kind: 'section', row: { ...movingTop.row, groupId: null } as SiteSectionRow } : movingTop;
  const list = placed(top.some((i) => sameTop(i, moved)) ? top : [...top, moved], moved, sameTop, anchor ? { [side]: anchor } : undefined);
  if (!list) throw invalid('the item to move next to is not at the top of the site');
  await ctx.db.transaction(async (tx) => {
    if (movingTop.kind === 'section' && movingTop.row.groupId) {
      await tx.update(siteSections).set({ groupId: null }).where(eq(siteSections.id, movingTop.row.id));
      await renumber(tx, siteSections, sectionsOf(tree, movingTop.row.groupId).filter((s) => s.id !== movingTop.row.id).map((s) => s.id));
    }
    await renumberTop(tx, list);
  });
}

export type MovedItem = { kind: 'site-space'; view: SiteSpaceInSite } | { kind: 'section'; view: SectionView } | { kind: 'group'; view: SectionGroupView };

/** PATCH .../structure/sort: moves an item and answers it as it is now. */
export async function sortStructure(ctx: RequestContext, site: SiteRow, input: StructureSortInput): Promise<MovedItem> {
  await assertCanManage(ctx, site);
  const { item, position } = parseInput(structureSortSchema, input);
  await sortItem(ctx, site, await loadTree(ctx.db, site), item, { kind: 'pointer', ...(position ?? {}) });
  const after = await reread(ctx, site);
  if (item.type === 'site-space') return { kind: 'site-space', view: await findSiteSpace(ctx, after, item.id) };
  if (item.type === 'site-section') return { kind: 'section', view: await sectionView(ctx, after, findSection(after, item.id)) };
  return { kind: 'group', view: await groupView(ctx, after, findGroup(after, item.id)) };
}

/** The deprecated moves, on the same sort: `{ position: { before | after: pointer } }`. */
export async function moveStructureItem(ctx: RequestContext, site: SiteRow, item: StructurePointer, body: unknown): Promise<MovedItem> {
  const position = (body as { position?: Record<string, Record<string, unknown>> } | undefined)?.position;
  const pointer = (p: Record<string, unknown> | undefined) =>
    p && { type: p.type, id: p.id ?? p.siteSpace ?? p.siteSection };
  const translated = position ? { ...(position.before ? { before: pointer(position.before) } : {}), ...(position.after ? { after: pointer(position.after) } : {}) } : undefined;
  return sortStructure(ctx, site, { item, ...(translated ? { position: translated } : {}) } as StructureSortInput);
}


/** One section of a loaded site, with its site spaces. */
export async function viewOfSection(ctx: RequestContext, tree: SiteTree, id: string): Promise<SectionView> {
  return sectionView(ctx, tree, findSection(tree, id));
}

export async function viewOfSectionGroup(ctx: RequestContext, tree: SiteTree, id: string): Promise<SectionGroupView> {
  return groupView(ctx, tree, findGroup(tree, id));
}
