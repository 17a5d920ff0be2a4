import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { collectionById, contentRole, forgetContentAccess, rememberCollection } from '../../access-control/content';
import { spaceAllows, type SPACE_RULES } from '../../access-control/policies';
import { byTimeThenId, keysetPage, keysetPages, type KeysetInclude, type KeysetSpec } from '../../db/keyset';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { NotFoundError } from '../../domain/errors';
import { mapPage, type OrderInput, orderSchema, type Page, type PageArgs } from '../../domain/page';
import type { Role } from '../../domain/roles';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { assertCanCreateIn, getCollection } from '../collections/service';
import { collections, type CollectionRow } from '../../db/schema/collections';
import { getMember } from '../members/service';
import { getOrganization, getTransferTarget } from '../organizations/service';
import type { OrganizationRow } from '../../db/schema/organizations';
import { copySpaceGrants, grantCreator, rehomeGrants } from '../../access-control/grants';
import { contentGrants, type ContentGrantRow } from '../../db/schema/permissions';
import { moveSchema, transferSchema, type MoveInput, type TransferInput, endPosition, positionAt, positionForMove, siblingsOf } from '../placement/service';
import { copyRevision, createInitialRevision } from '../revisions/service';
import { spaceCreateSchema, spaceUpdateSchema, type SpaceCreateInput, type SpaceUpdateInput } from './input';
import { spaceById } from './loaders';
import type { SpaceVisibility } from '../../domain/spaces';
import { spaces, type SpaceRow } from '../../db/schema/spaces';
import { emitIntegrationEvent } from '../events/service';
import { RESTORE_WINDOW_MS } from './trash';

export { purgeDeletedSpaces, purgeDeletedSpacesJob, RESTORE_WINDOW_MS } from './trash';

/** Spaces by id, unchecked: for services that decide who sees what themselves. */
export { spaceById } from './loaders';
export { advanceSpaceRevision, currentRevisionId } from './queries';

/** Rows of a list: loaded, and visible to the viewer since the list's SQL filter said so. */
function remember(ctx: RequestContext, rows: Iterable<SpaceRow>): void {
  for (const row of rows) {
    spaceById(ctx).prime(row.id, row);
    ctx.authz.remember('space:view', row, true);
  }
}

/** For nested lists: what to bring along with each space in the page's statement. */
export interface SpaceListOptions {
  /** The parent collection, and whether the viewer may see it. */
  withParents?: boolean;
}

async function parentsAlong(ctx: RequestContext, organizationIds: readonly string[], options: SpaceListOptions): Promise<KeysetInclude<SpaceRow, CollectionRow> | undefined> {
  if (!options.withParents) return undefined;
  return {
    table: collections,
    via: spaces.parentId,
    id: collections.id,
    visibleWhen: await ctx.authz.listFilter('collection', organizationIds),
    attach: (_, parent, visible) => {
      rememberCollection(ctx, parent);
      ctx.authz.remember('collection:view', parent, visible);
    },
  };
}

function changed(ctx: RequestContext, row: SpaceRow): SpaceRow {
  spaceById(ctx).clear(row.id).prime(row.id, row);
  forgetContentAccess(ctx);
  return row;
}

/** A space the viewer may see and that is not in the trash; anything else is NOT_FOUND. */
export async function getSpace(ctx: RequestContext, id: string): Promise<SpaceRow> {
  requireViewer(ctx);
  const row = await spaceById(ctx).load(id);
  if (!row || row.deletedAt) throw new NotFoundError('Space');
  await ctx.authz.assertVisible('space:view', row, 'Space');
  return row;
}

/**
 * The space `GET /v1/spaces/{id}` answers: as getSpace, and also a deleted one while it can still
 * be restored, which the API document shows with `deletedAt` set. Every other operation keeps
 * treating a deleted space as missing (getSpace).
 */
export async function getSpaceOrRestorable(ctx: RequestContext, id: string): Promise<SpaceRow> {
  requireViewer(ctx);
  const row = await spaceById(ctx).load(id);
  if (!row || (row.deletedAt && ctx.now().getTime() - row.deletedAt.getTime() >= RESTORE_WINDOW_MS)) throw new NotFoundError('Space');
  await ctx.authz.assertVisible('space:view', row, 'Space');
  return row;
}

/** `in-collection` only makes sense inside a collection: a space leaving one becomes private. */
function visibilityFor(current: SpaceVisibility, parentId: string | null): SpaceVisibility {
  return !parentId && current === 'in-collection' ? 'private' : current;
}

async function listWhere(ctx: RequestContext, organizationIds: readonly string[]) {
  return and(isNull(spaces.deletedAt), await ctx.authz.listFilter('space', organizationIds));
}

const byCreation: Pick<KeysetSpec<SpaceRow>, 'keys' | 'direction' | 'table'> = {
  table: spaces,
  keys: byTimeThenId(spaces.createdAt, (s) => s.createdAt, spaces.id),
  direction: 'asc',
};

const byPosition: Pick<KeysetSpec<SpaceRow>, 'keys' | 'direction' | 'table'> = {
  table: spaces,
  keys: [
    { column: spaces.position, value: (s) => s.position },
    { column: spaces.id, value: (s) => s.id },
  ],
  direction: 'asc',
};

/** Every space of the organization the viewer may see, wherever it sits, oldest first. */
export async function listOrganizationSpaces(ctx: RequestContext, organizationId: string, args: PageArgs, max: number): Promise<Page<SpaceRow>> {
  const org = await getOrganization(ctx, organizationId);
  const page = await keysetPage(ctx.db, { ...byCreation, where: and(eq(spaces.organizationId, org.id), await listWhere(ctx, [org.id])) }, args, max);
  remember(ctx, page.items);
  return page;
}

/** The spaces directly in a collection, in their order. */
export async function listCollectionSpaces(ctx: RequestContext, collectionId: string, args: PageArgs, max: number): Promise<Page<SpaceRow>> {
  const collection = await getCollection(ctx, collectionId);
  const page = await keysetPage(ctx.db, { ...byPosition, where: and(eq(spaces.parentId, collection.id), await listWhere(ctx, [collection.organizationId])) }, args, max);
  remember(ctx, page.items);
  return page;
}

/**
 * Spaces of many parents (organizations or collections) in one statement, for nested GraphQL:
 * the page of each parent, in the order that parent lists them.
 */
async function spacesOfParents(
  ctx: RequestContext,
  by: { order: typeof byCreation; partition: typeof spaces.organizationId | typeof spaces.parentId; parentOf: (s: SpaceRow) => string },
  parents: readonly { id: string; organizationId: string }[],
  args: PageArgs,
  max: number,
  options: SpaceListOptions,
): Promise<Map<string, Page<SpaceRow>>> {
  const organizationIds = [...new Set(parents.map((p) => p.organizationId))];
  const pages = await keysetPages(
    ctx.db,
    {
      ...by.order,
      where: await listWhere(ctx, organizationIds),
      partition: by.partition,
      parentIds: parents.map((p) => p.id),
      parentOf: by.parentOf,
      include: await parentsAlong(ctx, organizationIds, options),
    },
    args,
    max,
  );
  for (const page of pages.values()) remember(ctx, page.items);
  return pages;
}

/** Spaces of many organizations, oldest first, for nested GraphQL. */
export function listSpacesOfOrganizations(ctx: RequestContext, orgs: readonly OrganizationRow[], args: PageArgs, max: number, options: SpaceListOptions = {}) {
  const parents = orgs.map((o) => ({ id: o.id, organizationId: o.id }));
  return spacesOfParents(ctx, { order: byCreation, partition: spaces.organizationId, parentOf: (s) => s.organizationId }, parents, args, max, options);
}

/** Spaces of many collections, in their display order, for nested GraphQL. */
export function listSpacesOfCollections(ctx: RequestContext, collections: readonly CollectionRow[], args: PageArgs, max: number, options: SpaceListOptions = {}) {
  return spacesOfParents(ctx, { order: byPosition, partition: spaces.parentId, parentOf: (s) => s.parentId! }, collections, args, max, options);
}

/**
 * The spaces a member was given access to directly, with the role; newest first unless asked.
 * Only spaces the viewer may see themselves are listed.
 */
export async function listMemberSpaces(
  ctx: RequestContext,
  organizationId: string,
  userId: string,
  input: OrderInput,
  args: PageArgs,
  max: number,
): Promise<Page<{ role: Role; space: SpaceRow }>> {
  const member = await getMember(ctx, organizationId, userId);
  const { order } = parseInput(orderSchema, input);
  const seen = sql`exists (select 1 from ${spaces} where ${spaces.id} = ${contentGrants.spaceId} and ${await listWhere(ctx, [member.organizationId])})`;
  const page = await keysetPage<ContentGrantRow>(
    ctx.db,
    {
      table: contentGrants,
      where: and(eq(contentGrants.organizationId, member.organizationId), eq(contentGrants.userId, member.userId), isNotNull(contentGrants.spaceId), seen),
      keys: byTimeThenId(contentGrants.createdAt, (g) => g.createdAt, contentGrants.id),
      direction: order,
    },
    args,
    max,
  );
  const rows = await spaceById(ctx).loadMany(page.items.map((g) => g.spaceId!));
  return mapPage(page, (g, i) => ({ role: g.role, space: rows[i] as SpaceRow }));
}

export async function createSpace(ctx: RequestContext, organizationId: string, input: SpaceCreateInput): Promise<SpaceRow> {
  const viewer = requireViewer(ctx);
  const org = await getOrganization(ctx, organizationId);
  const parent = await assertCanCreateIn(ctx, org, input?.parent);
  const body = parseInput(spaceCreateSchema, input ?? {});
  const row = await ctx.db.transaction(async (tx) => {
    const id = newId();
    const revisionId = newId();
    const position = endPosition(await siblingsOf(tx, org.id, parent?.id ?? null));
    const [created] = await tx
      .insert(spaces)
      .values({
        id,
        organizationId: org.id,
        parentId: parent?.id ?? null,
        title: body.title || 'Untitled space',
        emoji: body.emoji ?? null,
        language: body.language ?? null,
        editMode: body.editMode ?? 'live',
        visibility: parent ? 'in-collection' : 'private',
        revisionId,
        position,
        createdAt: ctx.now(),
        updatedAt: ctx.now(),
      })
      .returning();
    await createInitialRevision(tx, id, revisionId, viewer.user.id, ctx.now());
    await grantCreator(ctx, tx, org, { kind: 'space', row: created });
    return created;
  });
  return changed(ctx, row);
}

/** The space, refused unless the viewer administers it. */
async function administeredSpace(ctx: RequestContext, id: string, doing: string): Promise<SpaceRow> {
  const row = await getSpace(ctx, id);
  await ctx.authz.assert('space:admin', row, `Only admins of this space can ${doing}`);
  return row;
}

export async function updateSpace(ctx: RequestContext, id: string, input: SpaceUpdateInput): Promise<SpaceRow> {
  const row = await administeredSpace(ctx, id, 'change its settings');
  const { emoji, icon, ...rest } = parseInput(spaceUpdateSchema, input ?? {});
  // An emoji replaces an icon and the other way round; null removes either.
  const looks = emoji ? { emoji, icon: null } : icon ? { icon, emoji: null } : { ...(emoji === null ? { emoji: null } : {}), ...(icon === null ? { icon: null } : {}) };
  const [updated] = await ctx.db
    .update(spaces)
    .set({ ...rest, ...looks, updatedAt: ctx.now() })
    .where(eq(spaces.id, row.id))
    .returning();
  await announceVisibility(ctx, row, updated!);
  return changed(ctx, updated);
}

/** `space_visibility_updated` for the integrations given the space, when its visibility changed. */
async function announceVisibility(ctx: RequestContext, before: SpaceRow, after: SpaceRow): Promise<void> {
  if (before.visibility === after.visibility) return;
  await emitIntegrationEvent(ctx.db, ctx.jobs, { organizationId: after.organizationId, spaceId: after.id }, { type: 'space_visibility_updated', previousVisibility: before.visibility, visibility: after.visibility });
}

/**
 * Puts the space in the trash. A space that is missing, already trashed or invisible to the viewer
 * is already gone as far as they are concerned: nothing to do, and nothing revealed.
 */
export async function deleteSpace(ctx: RequestContext, id: string): Promise<void> {
  requireViewer(ctx);
  const row = await spaceById(ctx).load(id);
  if (!row || row.deletedAt || !(await ctx.authz.can('space:view', row))) return;
  await ctx.authz.assert('space:admin', row, 'Only admins of this space can delete it');
  const [updated] = await ctx.db.update(spaces).set({ deletedAt: ctx.now() }).where(eq(spaces.id, row.id)).returning();
  changed(ctx, updated);
}

/**
 * Takes a space out of the trash, within seven days of its deletion. Restoring a space that is not
 * deleted changes nothing and answers it, so a retried restore succeeds.
 */
export async function restoreSpace(ctx: RequestContext, id: string): Promise<SpaceRow> {
  requireViewer(ctx);
  const row = await spaceById(ctx).load(id);
  if (!row || !(await ctx.authz.can('space:view', row))) throw new NotFoundError('Space');
  // Checked before the no-op answer for a live space: restoring is an admin's operation either way.
  await ctx.authz.assert('space:admin', row, 'Only admins of this space can restore it');
  if (!row.deletedAt) return row;
  if (ctx.now().getTime() - row.deletedAt.getTime() >= RESTORE_WINDOW_MS) {
    throw new NotFoundError('Space (deleted spaces can be restored for 7 days)');
  }
  const restored = await ctx.db.transaction(async (tx) => {
    // Its collection may have been deleted meanwhile: it then comes back at the top level.
    const position = endPosition(await siblingsOf(tx, row.organizationId, row.parentId));
    const [updated] = await tx
      .update(spaces)
      .set({ deletedAt: null, position, visibility: visibilityFor(row.visibility, row.parentId), updatedAt: ctx.now() })
      .where(eq(spaces.id, row.id))
      .returning();
    return updated;
  });
  return changed(ctx, restored);
}

/** Copies the space, its content and who has access, next to the original. */
export async function duplicateSpace(ctx: RequestContext, id: string): Promise<SpaceRow> {
  const viewer = requireViewer(ctx);
  const row = await getSpace(ctx, id);
  const org = await getOrganization(ctx, row.organizationId);
  // The copy goes into the original's collection. The caller, who sees the space and so its
  // `parent`, is refused with 403 when they may not create there, even when that collection itself
  // is not visible to them (a space shared on its own): a 404 would be about the wrong object.
  const parent = row.parentId ? await collectionById(ctx).load(row.parentId) : null;
  if (parent) await ctx.authz.assert('collection:create', parent, 'Your role does not let you create content in this collection');
  else await assertCanCreateIn(ctx, org, row.parentId);
  const copy = await ctx.db.transaction(async (tx) => {
    // The original stays among the siblings: the copy goes strictly between it and its successor.
    // (Leaving it out made the copy take the original's own position, the tie then broken by id.)
    const siblings = await siblingsOf(tx, row.organizationId, row.parentId);
    const position = await positionAt(tx, siblings, siblings.findIndex((s) => s.kind === 'space' && s.id === row.id) + 1);
    const revisionId = newId();
    const [created] = await tx
      .insert(spaces)
      .values({ ...row, id: newId(), title: `${row.title} (copy)`.slice(0, 50), revisionId, position, createdAt: ctx.now(), updatedAt: ctx.now(), deletedAt: null })
      .returning();
    await copyRevision(tx, row.revisionId, created.id, revisionId, viewer.user.id, ctx.now());
    await copySpaceGrants(tx, row.id, created.id);
    // The copy's author administers it, unless the original's grants already made them do so.
    if (!(await ctx.authz.can('space:admin', row))) await grantCreator(ctx, tx, org, { kind: 'space', row: created });
    return created;
  });
  return changed(ctx, copy);
}

export async function moveSpace(ctx: RequestContext, id: string, input: MoveInput): Promise<SpaceRow> {
  const row = await administeredSpace(ctx, id, 'move it');
  const body = parseInput(moveSchema, input);
  const org = await getOrganization(ctx, row.organizationId);
  const parentId = body.parent === undefined ? row.parentId : body.parent;
  if (parentId !== row.parentId) await assertCanCreateIn(ctx, org, parentId);
  const moved = await ctx.db.transaction(async (tx) => {
    const position = await positionForMove(tx, { kind: 'space', ...row }, parentId, body.position);
    const visibility = visibilityFor(row.visibility, parentId);
    const [updated] = await tx.update(spaces).set({ parentId, position, visibility, updatedAt: ctx.now() }).where(eq(spaces.id, row.id)).returning();
    return updated;
  });
  await announceVisibility(ctx, row, moved!);
  return changed(ctx, moved);
}

/** Moves the space to the top level of another organization the viewer administers. */
export async function transferSpace(ctx: RequestContext, id: string, input: TransferInput): Promise<SpaceRow> {
  const row = await administeredSpace(ctx, id, 'transfer it');
  const { organization } = parseInput(transferSchema, input);
  const target = await getTransferTarget(ctx, row.organizationId, organization);
  const moved = await ctx.db.transaction(async (tx) => {
    const position = endPosition(await siblingsOf(tx, target.id, null));
    const [updated] = await tx
      .update(spaces)
      .set({ organizationId: target.id, parentId: null, position, visibility: visibilityFor(row.visibility, null), updatedAt: ctx.now() })
      .where(eq(spaces.id, row.id))
      .returning();
    await rehomeGrants(tx, { spaceIds: [row.id], collectionIds: [] }, target.id);
    return updated;
  });
  return changed(ctx, moved);
}

/** Links found in the space's current revision. Revisions hold no content yet, so none are. */
export interface SpacePermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  edit: boolean;
  triggerGitSync: boolean;
  comment: boolean;
  merge: boolean;
  review: boolean;
  installIntegration: boolean;
}

/**
 * What the viewer may do with the space: the viewer's role on it is resolved once, and every
 * answer comes from the rules the policies apply, which then know them too.
 */
export async function spacePermissions(ctx: RequestContext, row: SpaceRow): Promise<SpacePermissions> {
  const role = await contentRole(ctx, { kind: 'space', row });
  const allows = (action: keyof typeof SPACE_RULES) => {
    const allowed = spaceAllows(action, role, row);
    ctx.authz.remember(action, row, allowed);
    return allowed;
  };
  const [view, comment, edit, review, merge, admin] = [allows('space:view'), allows('space:comment'), allows('space:edit'), allows('space:review'), allows('space:merge'), allows('space:admin')];
  return { view, access: view, admin, viewInviteLinks: admin, edit, triggerGitSync: edit, comment, merge, review, installIntegration: admin };
}

/** The discussion and change-request counters of a space, from its row: triggers keep them. */
export async function spaceCounters(_ctx: RequestContext, row: SpaceRow) {
  return { comments: row.commentsOpen, changeRequests: row.changeRequestsTotal, changeRequestsOpen: row.changeRequestsOpen, changeRequestsDraft: row.changeRequestsDraft };
}
