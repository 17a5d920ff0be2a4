import { and, asc, eq } from 'drizzle-orm';
import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { sites, siteSections, siteSpaces, type SiteRow } from '../../db/schema/sites';

export const siteById = defineLoader<string, SiteRow>('siteById', async (db, ids) => byKey(ids, await db.select().from(sites).where(anyOf(sites.id, ids)), (s) => s.id));

/** Where each space is published: the published sites showing it, with the site space's path and its section's. */
export interface Publication {
  site: SiteRow;
  path: string;
  sectionPath: string | null;
}

export const publicationsBySpace = defineLoader<string, Publication[]>('publicationsBySpace', async (db, ids) => {
  const rows = await db
    .select({ site: sites, path: siteSpaces.path, sectionPath: siteSections.path, spaceId: siteSpaces.spaceId })
    .from(siteSpaces)
    .innerJoin(sites, and(eq(sites.id, siteSpaces.siteId), eq(sites.published, true)))
    .leftJoin(siteSections, eq(siteSections.id, siteSpaces.sectionId))
    .where(anyOf(siteSpaces.spaceId, ids))
    .orderBy(asc(sites.createdAt), asc(sites.id));
  return ids.map((id) => rows.filter((r) => r.spaceId === id).map(({ site, path, sectionPath }) => ({ site, path, sectionPath })));
});
