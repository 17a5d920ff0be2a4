import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RequestContext } from '../../app/context';
import { keysetPage, keysetPages, type KeysetSpec } from '../../db/keyset';
import { requireViewer } from '../../domain/authz';
import { ConflictError, NotFoundError, PreconditionFailedError, ValidationError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { Page, PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { moveSchema, transferSchema } from '../access/input';
import {
  collectionChain,
  endPosition,
  forgetContent,
  grantCreator,
  isWithin,
  loadCollectionRow,
  positionForMove,
  primeCollection,
  rehomeGrants,
  siblingsOf,
  visibleCollections,
  type Tx,
} from '../access/service';
import { viewerMembership } from '../members/service';
import { getOrganization, loadOrganization } from '../organizations/service';
import type { OrganizationRow } from '../organizations/table';
import { spaces } from '../spaces/table';
import { collectionCreateSchema, collectionListSchema, collectionUpdateSchema } from './input';
import './policy';
import { collections, type CollectionRow } from './table';

/** A collection the viewer may see; anything else, another organization's included, is NOT_FOUND. */
export async function getCollection(ctx: RequestContext, id: string): Promise<CollectionRow> {
  requireViewer(ctx);
  const row = await loadCollectionRow(ctx, id);
  if (!row) throw new NotFoundError('Collection');
  await ctx.authz.assertVisible('collection:view', row, 'Collection');
  return row;
}

export { loadCollectionRow as loadCollection };

/**
 * Where new content may go: the top level of the organization (needs the `create` role there) or
 * a collection of the same organization the viewer may create in. Returns the parent, or null.
 */
export async function assertCanCreateIn(ctx: RequestContext, org: OrganizationRow, parentId: string | null | undefined): Promise<CollectionRow | null> {
  if (!parentId) {
    await ctx.authz.assert('organization:createContent', org, 'Your role does not let you create content at the top of this organization');
    return null;
  }
  const parent = await loadCollectionRow(ctx, parentId);
  if (!parent || parent.organizationId !== org.id || !(await ctx.authz.can('collection:view', parent))) {
    throw new NotFoundError('Parent collection');
  }
  await ctx.authz.assert('collection:create', parent, 'Your role does not let you create content in this collection');
  return parent;
}

async function listSpec(ctx: RequestContext, org: OrganizationRow | null, nested: boolean): Promise<KeysetSpec<CollectionRow>> {
  const viewer = requireViewer(ctx);
  const admin = org ? (await viewerMembership(ctx, org.id))?.role === 'admin' : false;
  const where = and(nested ? undefined : isNull(collections.parentId), admin ? undefined : visibleCollections(viewer.user.id));
  // Top-level collections come in the order moves give them; the whole tree in creation order.
  return nested
    ? {
        table: collections,
        where,
        keys: [
          { column: collections.createdAt, value: (c) => c.createdAt },
          { column: collections.id, value: (c) => c.id },
        ],
        direction: 'asc',
      }
    : {
        table: collections,
        where,
        keys: [
          { column: collections.position, value: (c) => c.position },
          { column: collections.id, value: (c) => c.id },
        ],
        direction: 'asc',
      };
}

export async function listCollections(ctx: RequestContext, organizationId: string, query: { nested?: string | null }, args: PageArgs, max: number): Promise<Page<CollectionRow>> {
  const org = await getOrganization(ctx, organizationId);
  const { nested } = parseInput(collectionListSchema, { nested: query.nested ?? undefined });
  const spec = await listSpec(ctx, org, nested);
  const page = await keysetPage(ctx.db, { ...spec, where: and(eq(collections.organizationId, org.id), spec.where) }, args, max);
  for (const row of page.items) primeCollection(ctx, row);
  return page;
}

/** Collections of many organizations at once, for nested GraphQL; only what the viewer may see. */
export async function listCollectionsOfOrganizations(ctx: RequestContext, orgs: readonly OrganizationRow[], nested: boolean, args: PageArgs, max: number) {
  const spec = await listSpec(ctx, null, nested);
  const pages = await keysetPages(ctx.db, { ...spec, partition: collections.organizationId, parentIds: orgs.map((o) => o.id), parentOf: (c) => c.organizationId }, args, max);
  for (const page of pages.values()) for (const row of page.items) primeCollection(ctx, row);
  return pages;
}

export async function createCollection(ctx: RequestContext, organizationId: string, input: unknown): Promise<CollectionRow> {
  const org = await getOrganization(ctx, organizationId);
  const { title = 'Untitled collection', parent: parentId } = parseInput(collectionCreateSchema, input ?? {});
  const parent = await assertCanCreateIn(ctx, org, parentId);
  const row = await ctx.db.transaction(async (tx) => {
    const position = endPosition(await siblingsOf(tx, org.id, parent?.id ?? null));
    const [created] = await tx
      .insert(collections)
      .values({ id: newId(), organizationId: org.id, parentId: parent?.id ?? null, title, position, createdAt: ctx.now(), updatedAt: ctx.now() })
      .returning();
    await grantCreator(ctx, tx, { kind: 'collection', row: created });
    return created;
  });
  forgetContent(ctx);
  primeCollection(ctx, row);
  return row;
}

export async function updateCollection(ctx: RequestContext, id: string, input: unknown): Promise<CollectionRow> {
  const row = await getCollection(ctx, id);
  const changes = parseInput(collectionUpdateSchema, input ?? {});
  await ctx.authz.assert('collection:admin', row, 'Only admins of this collection can change it');
  const [updated] = await ctx.db
    .update(collections)
    .set({ ...changes, updatedAt: ctx.now() })
    .where(eq(collections.id, row.id))
    .returning();
  forgetContent(ctx);
  primeCollection(ctx, updated);
  return updated;
}

/** The ids of a collection and every collection inside it. */
async function subtreeIds(db: Tx, collectionId: string): Promise<string[]> {
  const result = (await db.execute(sql`with recursive sub(id, depth) as (
      select ${collectionId}::text, 0
      union all
      select c.id, sub.depth + 1 from collections c join sub on c.parent_id = sub.id where sub.depth < 64
    ) select id from sub`)) as unknown as { id: string }[] | { rows: { id: string }[] };
  return (Array.isArray(result) ? result : result.rows).map((r) => r.id);
}

/**
 * Deletes the collection and the collections inside it. Their spaces go to the trash (restorable
 * for seven days, at the top level since their collection is gone). A missing collection, or one
 * the viewer cannot see, is already deleted as far as they are concerned.
 */
export async function deleteCollection(ctx: RequestContext, id: string): Promise<void> {
  requireViewer(ctx);
  const row = await loadCollectionRow(ctx, id);
  if (!row || !(await ctx.authz.can('collection:view', row))) return;
  await ctx.authz.assert('collection:admin', row, 'Only admins of this collection can delete it');
  const ids = await subtreeIds(ctx.db, row.id);
  // A trashed space comes back at the top level, where 'inherit' would mean the organization role:
  // it keeps the level its collections gave it instead, so a closed space does not open on restore.
  const levels = await Promise.all(
    ids.map(async (id) => ({ id, level: (await collectionChain(ctx, id)).find((c) => c.defaultLevel !== 'inherit')?.defaultLevel })),
  );
  await ctx.db.transaction(async (tx) => {
    for (const { id, level } of levels) {
      if (level === undefined) continue;
      await tx
        .update(spaces)
        .set({ defaultLevel: level })
        .where(and(eq(spaces.parentId, id), eq(spaces.defaultLevel, 'inherit'), isNull(spaces.deletedAt)));
    }
    await tx
      .update(spaces)
      .set({ deletedAt: ctx.now() })
      .where(and(inArray(spaces.parentId, ids), isNull(spaces.deletedAt)));
    await tx.delete(collections).where(eq(collections.id, row.id));
  });
  forgetContent(ctx);
}

export async function moveCollection(ctx: RequestContext, id: string, input: unknown): Promise<CollectionRow> {
  const row = await getCollection(ctx, id);
  const body = parseInput(moveSchema, input);
  await ctx.authz.assert('collection:admin', row, 'Only admins of this collection can move it');
  const org = await getOrganization(ctx, row.organizationId);
  const parentId = body.parent === undefined ? row.parentId : body.parent;
  if (parentId && (parentId === row.id || (await isWithin(ctx, parentId, row.id)))) {
    // Checked before access to the target: a collection cannot hold itself whoever asks.
    const target = await loadCollectionRow(ctx, parentId);
    if (target && target.organizationId === row.organizationId) {
      throw new ValidationError('parent: a collection cannot be moved into itself or one of its own sub-collections', ['parent']);
    }
  }
  if (parentId !== row.parentId) await assertCanCreateIn(ctx, org, parentId);
  const moved = await ctx.db.transaction(async (tx) => {
    const position = await positionForMove(tx, { kind: 'collection', ...row }, parentId, body.position);
    const [updated] = await tx.update(collections).set({ parentId, position, updatedAt: ctx.now() }).where(eq(collections.id, row.id)).returning();
    return updated;
  });
  forgetContent(ctx);
  primeCollection(ctx, moved);
  return moved;
}

/**
 * The organization content is transferred to: one the viewer administers, other than the current
 * one. A missing organization, or one the viewer is not in, answers like a missing one.
 */
export async function transferTarget(ctx: RequestContext, from: string, input: unknown): Promise<OrganizationRow> {
  const { organization } = parseInput(transferSchema, input);
  const target = await loadOrganization(ctx, organization);
  if (!target || !(await ctx.authz.can('organization:view', target))) throw new NotFoundError('Organization');
  if (target.id === from) throw new ConflictError('The content already belongs to this organization', ['organization']);
  if (!(await ctx.authz.can('organization:admin', target))) {
    throw new PreconditionFailedError('Content can only be transferred to an organization you administer', ['organization']);
  }
  return target;
}

/**
 * Moves the collection, everything inside it and the spaces it holds to another organization, at
 * its top level. Grants that cannot follow (teams, users who are not members there) are dropped.
 */
export async function transferCollection(ctx: RequestContext, id: string, input: unknown): Promise<CollectionRow> {
  const row = await getCollection(ctx, id);
  await ctx.authz.assert('collection:admin', row, 'Only admins of this collection can transfer it');
  const target = await transferTarget(ctx, row.organizationId, input);
  const moved = await ctx.db.transaction(async (tx) => {
    const ids = await subtreeIds(tx, row.id);
    const position = endPosition(await siblingsOf(tx, target.id, null));
    await tx.update(collections).set({ organizationId: target.id, updatedAt: ctx.now() }).where(inArray(collections.id, ids));
    const spaceIds = (
      await tx.update(spaces).set({ organizationId: target.id }).where(inArray(spaces.parentId, ids)).returning({ id: spaces.id })
    ).map((s) => s.id);
    await rehomeGrants(tx, { spaceIds, collectionIds: ids }, target.id);
    const [updated] = await tx.update(collections).set({ parentId: null, position }).where(eq(collections.id, row.id)).returning();
    return updated;
  });
  forgetContent(ctx);
  primeCollection(ctx, moved);
  return moved;
}

/** The collection's parent, when the viewer may see it. */
export async function getParentCollection(ctx: RequestContext, row: { parentId: string | null }): Promise<CollectionRow | null> {
  if (!row.parentId) return null;
  const parent = await loadCollectionRow(ctx, row.parentId);
  return parent && (await ctx.authz.can('collection:view', parent)) ? parent : null;
}

export { collectionChain };
