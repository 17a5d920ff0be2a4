import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { byTimeThenId, keysetPage } from '../../db/keyset';
import type { Page, PageArgs } from '../../domain/page';
import { openapiSpecs, openapiSpecVersions, type OpenApiSpecRow, type OpenApiSpecVersionRow } from '../../db/schema/openapi';

export async function findSpec(db: Db, organizationId: string, slug: string): Promise<OpenApiSpecRow | null> {
  const [row] = await db.select().from(openapiSpecs).where(and(eq(openapiSpecs.organizationId, organizationId), eq(openapiSpecs.slug, slug)));
  return row ?? null;
}

export async function findSpecById(db: Db, id: string): Promise<OpenApiSpecRow | null> {
  const [row] = await db.select().from(openapiSpecs).where(eq(openapiSpecs.id, id));
  return row ?? null;
}

export function listSpecRows(db: Db, organizationId: string, args: PageArgs, max: number): Promise<Page<OpenApiSpecRow>> {
  const keys = byTimeThenId<OpenApiSpecRow>(openapiSpecs.createdAt, (r) => r.createdAt, openapiSpecs.id);
  return keysetPage(db, { table: openapiSpecs, keys, direction: 'asc', where: eq(openapiSpecs.organizationId, organizationId) }, args, max);
}

/** Inserts the spec, or answers null when its slug is taken in the organization. */
export async function insertSpec(db: Db, values: typeof openapiSpecs.$inferInsert): Promise<OpenApiSpecRow | null> {
  const [row] = await db.insert(openapiSpecs).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function updateSpecRow(db: Db, id: string, changes: Partial<typeof openapiSpecs.$inferInsert>): Promise<OpenApiSpecRow | null> {
  const [row] = await db.update(openapiSpecs).set(changes).where(eq(openapiSpecs.id, id)).returning();
  return row ?? null;
}

export async function deleteSpecRow(db: Db, id: string): Promise<void> {
  await db.delete(openapiSpecs).where(eq(openapiSpecs.id, id));
}

export async function insertVersion(db: Db, values: typeof openapiSpecVersions.$inferInsert): Promise<OpenApiSpecVersionRow> {
  const [row] = await db.insert(openapiSpecVersions).values(values).returning();
  return row;
}

export async function findVersion(db: Db, id: string): Promise<OpenApiSpecVersionRow | null> {
  const [row] = await db.select().from(openapiSpecVersions).where(eq(openapiSpecVersions.id, id));
  return row ?? null;
}

/** The organization's specs of these slugs, in one statement. */
export function findSpecsBySlugs(db: Db, organizationId: string, slugs: readonly string[]): Promise<OpenApiSpecRow[]> {
  return db
    .select()
    .from(openapiSpecs)
    .where(and(eq(openapiSpecs.organizationId, organizationId), inArray(openapiSpecs.slug, [...slugs])));
}

export function findVersions(db: Db, ids: readonly string[]): Promise<OpenApiSpecVersionRow[]> {
  return ids.length ? db.select().from(openapiSpecVersions).where(inArray(openapiSpecVersions.id, [...ids])) : Promise.resolve([]);
}
