import { and, eq, isNull } from 'drizzle-orm';
import { collectionById, collectionChain, forgetContentAccess, isWithin, rememberCollection } from '../../access-control/content';
import { byTimeThenId, keysetPage, keysetPages, type KeysetSpec } from '../../db/keyset';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { NotFoundError, ValidationError } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { getOrganization, getTransferTarget } from '../organizations/service';
import type { OrganizationRow } from '../../db/schema/organizations';
import { grantCreator, rehomeGrants } from '../../access-control/grants';
import { moveSchema, transferSchema, type MoveInput, type TransferInput, endPosition, moveToOrganization, positionForMove, siblingsOf, subtreeIds, trashSpacesIn } from '../placement/service';
import {
  collectionCreateSchema,
  collectionListSchema,
  collectionUpdateSchema,
  type CollectionCreateInput,
  type CollectionListInput,
  type CollectionUpdateInput,
} from './input';
import { collections, type CollectionRow } from '../../db/schema/collections';

/** A collection the viewer may see; anything else, another organization's included, is NOT_FOUND. */
export async function getCollection(ctx: RequestContext, id: string): Promise<CollectionRow> {
  requireViewer(ctx);
  const row = await collectionById(ctx).load(id);
  if (!row) throw new NotFoundError('Collection');
  await ctx.authz.assertVisible('collection:view', row, 'Collection');
  return row;
}

/**
 * Where new content may go: the top level of the organization (needs the `create` role there) or
 * a collection of the same organization the viewer may create in. Returns the parent, or null.
 * A parent that is not a string is left for the input schema to refuse.
 */
export async function assertCanCreateIn(ctx: RequestContext, org: OrganizationRow, parentId: unknown): Promise<CollectionRow | null> {
  if (parentId === undefined || parentId === null || parentId === '') {
    await ctx.authz.assert('organization:createContent', org, 'Your role does not let you create content at the top of this organization');
    return null;
  }
  if (typeof parentId !== 'string') return null;
  const parent = await collectionById(ctx).load(parentId);
  if (!parent || parent.organizationId !== org.id || !(await ctx.authz.can('collection:view', parent))) throw new NotFoundError('Parent collection');
  await ctx.authz.assert('collection:create', parent, 'Your role does not let you create content in this collection');
  return parent;
}

async function listSpec(ctx: RequestContext, organizationIds: readonly string[], nested: boolean): Promise<KeysetSpec<CollectionRow>> {
  const where = and(nested ? undefined : isNull(collections.parentId), await ctx.authz.listFilter('collection', organizationIds));
  // The whole tree in creation order; top-level collections in the order moves give them.
  return nested
    ? { table: collections, where, keys: byTimeThenId(collections.createdAt, (c) => c.createdAt, collections.id), direction: 'asc' }
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

/** Rows of a list: loaded, and visible to the viewer since the list's SQL filter said so. */
function remember(ctx: RequestContext, rows: Iterable<CollectionRow>): void {
  for (const row of rows) {
    rememberCollection(ctx, row);
    ctx.authz.remember('collection:view', row, true);
  }
}

export async function listCollections(ctx: RequestContext, organizationId: string, query: CollectionListInput, args: PageArgs, max: number): Promise<Page<CollectionRow>> {
  const org = await getOrganization(ctx, organizationId);
  const { nested } = parseInput(collectionListSchema, query);
  const spec = await listSpec(ctx, [org.id], nested);
  const page = await keysetPage(ctx.db, { ...spec, where: and(eq(collections.organizationId, org.id), spec.where) }, args, max);
  remember(ctx, page.items);
  return page;
}

/** Collections of many organizations at once, for nested GraphQL; only what the viewer may see. */
export async function listCollectionsOfOrganizations(ctx: RequestContext, orgs: readonly OrganizationRow[], nested: boolean, args: PageArgs, max: number): Promise<Map<string, Page<CollectionRow>>> {
  const spec = await listSpec(ctx, orgs.map((o) => o.id), nested);
  const pages = await keysetPages(ctx.db, { ...spec, partition: collections.organizationId, parentIds: orgs.map((o) => o.id), parentOf: (c) => c.organizationId }, args, max);
  for (const page of pages.values()) remember(ctx, page.items);
  return pages;
}

export async function createCollection(ctx: RequestContext, organizationId: string, input: CollectionCreateInput): Promise<CollectionRow> {
  const org = await getOrganization(ctx, organizationId);
  const parent = await assertCanCreateIn(ctx, org, input?.parent);
  const { title = 'Untitled collection' } = parseInput(collectionCreateSchema, input ?? {});
  const row = await ctx.db.transaction(async (tx) => {
    const position = endPosition(await siblingsOf(tx, org.id, parent?.id ?? null));
    const [created] = await tx
      .insert(collections)
      .values({ id: newId(), organizationId: org.id, parentId: parent?.id ?? null, title, position, createdAt: ctx.now(), updatedAt: ctx.now() })
      .returning();
    await grantCreator(ctx, tx, org, { kind: 'collection', row: created });
    return created;
  });
  forgetContentAccess(ctx);
  rememberCollection(ctx, row);
  return row;
}

/** The collection, refused unless the viewer administers it. */
async function administeredCollection(ctx: RequestContext, id: string, doing: string): Promise<CollectionRow> {
  const row = await getCollection(ctx, id);
  await ctx.authz.assert('collection:admin', row, `Only admins of this collection can ${doing}`);
  return row;
}

function changed(ctx: RequestContext, row: CollectionRow): CollectionRow {
  forgetContentAccess(ctx);
  rememberCollection(ctx, row);
  return row;
}

export async function updateCollection(ctx: RequestContext, id: string, input: CollectionUpdateInput): Promise<CollectionRow> {
  const row = await administeredCollection(ctx, id, 'change it');
  const changes = parseInput(collectionUpdateSchema, input ?? {});
  const [updated] = await ctx.db
    .update(collections)
    .set({ ...changes, updatedAt: ctx.now() })
    .where(eq(collections.id, row.id))
    .returning();
  return changed(ctx, updated);
}

/**
 * Deletes the collection and the collections inside it. Their spaces go to the trash (restorable
 * for seven days, at the top level since their collection is gone). A missing collection, or one
 * the viewer cannot see, is already deleted as far as they are concerned.
 */
export async function deleteCollection(ctx: RequestContext, id: string): Promise<void> {
  requireViewer(ctx);
  const row = await collectionById(ctx).load(id);
  if (!row || !(await ctx.authz.can('collection:view', row))) return;
  await ctx.authz.assert('collection:admin', row, 'Only admins of this collection can delete it');
  const ids = await subtreeIds(ctx.db, row.id);
  const levels = await Promise.all(
    ids.map(async (collectionId) => ({ collectionId, level: (await collectionChain(ctx, collectionId)).find((c) => c.defaultLevel !== 'inherit')?.defaultLevel })),
  );
  await ctx.db.transaction(async (tx) => {
    await trashSpacesIn(tx, levels, ctx.now());
    await tx.delete(collections).where(eq(collections.id, row.id));
  });
  forgetContentAccess(ctx);
}

export async function moveCollection(ctx: RequestContext, id: string, input: MoveInput): Promise<CollectionRow> {
  const row = await administeredCollection(ctx, id, 'move it');
  const body = parseInput(moveSchema, input);
  const org = await getOrganization(ctx, row.organizationId);
  const parentId = body.parent === undefined ? row.parentId : body.parent;
  if (parentId && (parentId === row.id || (await isWithin(ctx, parentId, row.id)))) {
    // Checked before access to the target: a collection cannot hold itself whoever asks.
    const target = await collectionById(ctx).load(parentId);
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
  return changed(ctx, moved);
}

/**
 * Moves the collection, everything inside it and the spaces it holds to another organization, at
 * its top level. Grants that cannot follow (teams, users who are not members there) are dropped.
 */
export async function transferCollection(ctx: RequestContext, id: string, input: TransferInput): Promise<CollectionRow> {
  const row = await administeredCollection(ctx, id, 'transfer it');
  const { organization } = parseInput(transferSchema, input);
  const target = await getTransferTarget(ctx, row.organizationId, organization);
  const moved = await ctx.db.transaction(async (tx) => {
    const ids = await subtreeIds(tx, row.id);
    const position = endPosition(await siblingsOf(tx, target.id, null));
    const spaceIds = await moveToOrganization(tx, ids, target.id, ctx.now());
    await rehomeGrants(tx, { spaceIds, collectionIds: ids }, target.id);
    const [updated] = await tx.update(collections).set({ parentId: null, position }).where(eq(collections.id, row.id)).returning();
    return updated;
  });
  return changed(ctx, moved);
}

/** The parent collection of a space or collection, when the viewer may see it. */
export async function getParentCollection(ctx: RequestContext, row: { parentId: string | null }): Promise<CollectionRow | null> {
  if (!row.parentId) return null;
  const parent = await collectionById(ctx).load(row.parentId);
  return parent && (await ctx.authz.can('collection:view', parent)) ? parent : null;
}
