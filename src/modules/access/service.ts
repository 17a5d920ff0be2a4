import { and, eq, inArray, isNotNull, notInArray, or } from 'drizzle-orm';
import type { RequestContext } from '../../app/context';
import { resolveContentRole, type ContentLink } from '../../domain/permissions';
import type { Role } from '../../domain/roles';
import type { CollectionRow } from '../collections/table';
import { viewerMembership } from '../members/service';
import { organizationMembers } from '../members/table';
import type { SpaceRow } from '../spaces/table';
import { ancestorIds, collectionById, grantsForUser } from './loaders';
import type { Tx } from './ordering';
import { contentGrants } from './table';

export { endPosition, indexFor, positionAt, positionForMove, siblingsOf, type PositionInput, type Sibling, type Tx } from './ordering';
export { visibleCollections, visibleSpaces } from './visibility';

export type Content = { kind: 'space'; row: SpaceRow } | { kind: 'collection'; row: CollectionRow };

/** A collection row by id, whatever its organization; callers check access. */
export async function loadCollectionRow(ctx: RequestContext, id: string): Promise<CollectionRow | null> {
  return collectionById(ctx).load(id);
}

export function primeCollection(ctx: RequestContext, row: CollectionRow): void {
  collectionById(ctx).clear(row.id).prime(row.id, row);
}

/** Drops what this request remembers about collections and access, after a write that changes them. */
export function forgetContent(ctx: RequestContext): void {
  collectionById(ctx).clearAll();
  ancestorIds(ctx).clearAll();
  grantsForUser(ctx).clearAll();
  ctx.authz.forget();
}

/** The collection and its ancestors, nearest first; empty for the top level. */
export async function collectionChain(ctx: RequestContext, collectionId: string | null): Promise<CollectionRow[]> {
  if (!collectionId) return [];
  const ids = (await ancestorIds(ctx).load(collectionId)) ?? [];
  const rows = await collectionById(ctx).loadMany(ids);
  return rows.filter((r): r is CollectionRow => r != null && !(r instanceof Error));
}

/** True when `candidate` is `collectionId` itself or sits somewhere inside it. */
export async function isWithin(ctx: RequestContext, candidate: string, collectionId: string): Promise<boolean> {
  return ((await ancestorIds(ctx).load(candidate)) ?? []).includes(collectionId);
}

/**
 * The viewer's role on a space or collection, resolved as `resolveContentRole` describes: the
 * organization role, the default levels down the collection tree, and grants to them and their teams.
 */
export async function contentRole(ctx: RequestContext, content: Content): Promise<Role | null> {
  if (!ctx.viewer) return null;
  const membership = await viewerMembership(ctx, content.row.organizationId);
  if (!membership) return null;
  if (membership.role === 'admin') return 'admin';
  const userId = ctx.viewer.user.id;
  const collectionsAbove = await collectionChain(ctx, content.kind === 'space' ? content.row.parentId : content.row.id);
  const links: { kind: 'space' | 'collection'; row: SpaceRow | CollectionRow }[] = [
    ...(content.kind === 'space' ? [{ kind: 'space' as const, row: content.row }] : []),
    ...collectionsAbove.map((row) => ({ kind: 'collection' as const, row })),
  ];
  const chain: ContentLink[] = await Promise.all(
    links.map(async (link) => ({
      defaultLevel: link.row.defaultLevel ?? null,
      grants: (await grantsForUser(ctx).load(`${userId}|${link.kind}:${link.row.id}`)) ?? [],
    })),
  );
  return resolveContentRole({ membership, chain });
}

/**
 * After content moves to another organization: its team grants and the grants of users who are not
 * members there cannot follow, and the rest now belong to the new organization.
 */
export async function rehomeGrants(tx: Tx, target: { spaceIds: string[]; collectionIds: string[] }, organizationId: string): Promise<void> {
  const on = or(
    target.spaceIds.length ? inArray(contentGrants.spaceId, target.spaceIds) : undefined,
    target.collectionIds.length ? inArray(contentGrants.collectionId, target.collectionIds) : undefined,
  );
  if (!on) return;
  const members = tx
    .select({ id: organizationMembers.userId })
    .from(organizationMembers)
    .where(eq(organizationMembers.organizationId, organizationId));
  await tx.delete(contentGrants).where(and(on, or(isNotNull(contentGrants.teamId), notInArray(contentGrants.userId, members))));
  await tx.update(contentGrants).set({ organizationId }).where(on);
}

/** Copies the grants of one space onto another, for duplicates. */
export async function copySpaceGrants(tx: Tx, fromSpaceId: string, toSpaceId: string, newId: () => string): Promise<void> {
  const rows = await tx.select().from(contentGrants).where(eq(contentGrants.spaceId, fromSpaceId));
  if (rows.length) await tx.insert(contentGrants).values(rows.map((g) => ({ ...g, id: newId(), spaceId: toSpaceId })));
}

export {
  countMemberSpaces,
  countTeamSpaces,
  grantCreator,
  inviteToContent,
  listContentGrants,
  listUserSpaceGrants,
  removeContentGrant,
  setContentGrant,
  type Grantee,
} from './grants';
