import { asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { siteSectionGroups, siteSections, siteSpaces, type SiteRow, type SiteSectionGroupRow, type SiteSectionRow, type SiteSpaceRow } from '../../db/schema/sites';

/** Everything a site is made of, each list in its order: three statements. */
export interface SiteTree {
  site: SiteRow;
  sections: SiteSectionRow[];
  groups: SiteSectionGroupRow[];
  siteSpaces: SiteSpaceRow[];
}

export type TopItem = { kind: 'section'; row: SiteSectionRow } | { kind: 'group'; row: SiteSectionGroupRow };

export async function loadTree(db: Db | Tx, site: SiteRow): Promise<SiteTree> {
  const [sections, groups, spaces] = await Promise.all([
    db.select().from(siteSections).where(eq(siteSections.siteId, site.id)).orderBy(asc(siteSections.position), asc(siteSections.createdAt), asc(siteSections.id)),
    db.select().from(siteSectionGroups).where(eq(siteSectionGroups.siteId, site.id)).orderBy(asc(siteSectionGroups.position), asc(siteSectionGroups.createdAt), asc(siteSectionGroups.id)),
    db.select().from(siteSpaces).where(eq(siteSpaces.siteId, site.id)).orderBy(asc(siteSpaces.position), asc(siteSpaces.createdAt), asc(siteSpaces.id)),
  ]);
  return { site, sections, groups, siteSpaces: spaces };
}

/** The sections and groups at the top of the site, in order. */
export function topLevel(tree: SiteTree): TopItem[] {
  const items: TopItem[] = [
    ...tree.sections.filter((s) => s.groupId === null).map((row) => ({ kind: 'section' as const, row })),
    ...tree.groups.map((row) => ({ kind: 'group' as const, row })),
  ];
  return items.sort((a, b) => a.row.position - b.row.position || a.row.createdAt.getTime() - b.row.createdAt.getTime());
}

export const sectionsOf = (tree: SiteTree, groupId: string) => tree.sections.filter((s) => s.groupId === groupId);

/** Every section in the order a reader meets them: top-level ones, and those of each group in place. */
export function sectionsInOrder(tree: SiteTree): SiteSectionRow[] {
  return topLevel(tree).flatMap((item) => (item.kind === 'section' ? [item.row] : sectionsOf(tree, item.row.id)));
}

/** The site spaces of a section, or of the root (null). */
export const spacesOf = (tree: SiteTree, sectionId: string | null) => tree.siteSpaces.filter((s) => s.sectionId === sectionId);

/*
 * Where the published site serves each part, as a path after the site's URL: the default section
 * at the site's root and the others at their path; in each, the default site space at the
 * section's root and the others at their path (how src/modules/published/reader.ts finds them).
 */

/** The section read at the site's root: the one the site names, else the first a reader meets. */
export function rootSection(tree: SiteTree): SiteSectionRow | undefined {
  const ordered = sectionsInOrder(tree);
  return ordered.find((s) => s.id === tree.site.defaultSiteSectionId) ?? ordered[0];
}

export function sectionPrefix(tree: SiteTree, section: SiteSectionRow): string {
  return rootSection(tree)?.id === section.id ? '' : section.path;
}

export function siteSpacePrefix(tree: SiteTree, row: SiteSpaceRow): string {
  const section = row.sectionId ? tree.sections.find((s) => s.id === row.sectionId) : undefined;
  const siblings = spacesOf(tree, row.sectionId);
  const defaultId = section ? section.defaultSiteSpaceId : tree.site.defaultSiteSpaceId;
  const first = siblings.find((v) => v.id === defaultId) ?? siblings[0];
  return [section ? sectionPrefix(tree, section) : '', first?.id === row.id ? '' : row.path].filter(Boolean).join('/');
}

type Positioned = typeof siteSections | typeof siteSectionGroups | typeof siteSpaces;

/** Numbers the rows 1, 2, 3... in the order given: lists here are a site's few items. */
export async function renumber(tx: Db | Tx, table: Positioned, ids: string[]): Promise<void> {
  for (const [i, id] of ids.entries()) await tx.update(table).set({ position: i + 1 }).where(sql`${table.id} = ${id}`);
}

/** Renumbers the top of a site, sections and groups together. */
export async function renumberTop(tx: Db | Tx, items: TopItem[]): Promise<void> {
  for (const [i, item] of items.entries()) {
    const table = item.kind === 'section' ? siteSections : siteSectionGroups;
    await tx.update(table).set({ position: i + 1 }).where(eq(table.id, item.row.id));
  }
}

/** `list` with `item` taken out and put right before or after `target` (at the end when neither is given). */
export function placed<T>(list: T[], item: T, same: (a: T, b: T) => boolean, target?: { before?: T; after?: T }): T[] | null {
  const rest = list.filter((x) => !same(x, item));
  const anchor = target?.before ?? target?.after;
  if (!anchor) return [...rest, item];
  const at = rest.findIndex((x) => same(x, anchor));
  if (at < 0) return null;
  rest.splice(target?.before ? at : at + 1, 0, item);
  return rest;
}
