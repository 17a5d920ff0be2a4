import { and, eq, exists, or, param, sql } from 'drizzle-orm';
import { anyOf } from '../db/any';
import { defineLoader } from '../db/loader';
import { resolveContentRole, type ContentLink } from '../domain/permissions';
import type { Role } from '../domain/roles';
import { byKey } from '../lib/loaders';
import type { RequestContext } from '../context/request-context';
import { collections, type CollectionRow } from '../db/schema/collections';
import { contentGrants } from '../db/schema/permissions';
import type { SpaceRow } from '../db/schema/spaces';
import { teamMembers } from '../db/schema/teams';
import { viewerMembership } from './membership';

/** A space or a collection: the two kinds of content that carry default levels and grants. */
export type Content = { kind: 'space'; row: SpaceRow } | { kind: 'collection'; row: CollectionRow };

export const collectionById = defineLoader<string, CollectionRow>('collectionById', async (db, ids) =>
  byKey(ids, await db.select().from(collections).where(anyOf(collections.id, ids)), (c) => c.id),
);

/**
 * The ids of a collection and its ancestors, nearest first, for many collections in one recursive
 * statement. The depth guard only matters if a cycle were ever written; moves refuse them.
 */
export const ancestorIds = defineLoader<string, string[]>('collectionAncestorIds', async (db, ids) => {
  const result = (await db.execute(sql`with recursive chain(leaf, id, parent, depth) as (
      select id, id, parent_id, 0 from collections where id = any(${param([...ids])}::text[])
      union all
      select chain.leaf, c.id, c.parent_id, chain.depth + 1 from collections c join chain on c.id = chain.parent
      where chain.depth < 64
    ) select leaf, id from chain order by leaf, depth`)) as unknown as { leaf: string; id: string }[] | { rows: { leaf: string; id: string }[] };
  const rows = Array.isArray(result) ? result : result.rows;
  const chains = new Map<string, string[]>();
  for (const row of rows) {
    const chain = chains.get(row.leaf) ?? [];
    chain.push(row.id);
    chains.set(row.leaf, chain);
  }
  return ids.map((id) => chains.get(id) ?? null);
});

/**
 * The roles granted on each piece of content to one user, directly or through their teams. Keys
 * are `<userId>|space:<id>` or `<userId>|collection:<id>`; a request has one viewer, so a batch
 * holds one user.
 */
const grantsForUser = defineLoader<string, Role[]>('grantsForUser', async (db, keys) => {
  const byUser = new Map<string, { space: string[]; collection: string[] }>();
  for (const key of keys) {
    const [userId, content] = key.split('|');
    const [kind, id] = content.split(':') as ['space' | 'collection', string];
    const entry = byUser.get(userId) ?? { space: [], collection: [] };
    entry[kind].push(id);
    byUser.set(userId, entry);
  }
  const found = new Map<string, Role[]>();
  for (const [userId, ids] of byUser) {
    const rows = await db
      .select({ spaceId: contentGrants.spaceId, collectionId: contentGrants.collectionId, role: contentGrants.role })
      .from(contentGrants)
      .where(
        and(
          or(anyOf(contentGrants.spaceId, ids.space), anyOf(contentGrants.collectionId, ids.collection)),
          or(
            eq(contentGrants.userId, userId),
            // By the team member's key: the user's teams of the grant's organization, not of all of them.
            exists(db.select({ one: sql`1` }).from(teamMembers).where(and(eq(teamMembers.teamId, contentGrants.teamId), eq(teamMembers.userId, userId)))),
          ),
        ),
      );
    for (const row of rows) {
      const key = `${userId}|${row.spaceId ? `space:${row.spaceId}` : `collection:${row.collectionId}`}`;
      found.set(key, [...(found.get(key) ?? []), row.role]);
    }
  }
  return keys.map((k) => found.get(k) ?? []);
});

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
export function contentRole(ctx: RequestContext, content: Content): Promise<Role | null> {
  // Every policy of a space or collection asks this; one answer per row and request.
  const memo = ctx.loaders.get('contentRole', () => new WeakMap<object, Promise<Role | null>>());
  let role = memo.get(content.row);
  if (!role) memo.set(content.row, (role = resolveRole(ctx, content)));
  return role;
}

async function resolveRole(ctx: RequestContext, content: Content): Promise<Role | null> {
  if (!ctx.viewer) return null;
  const membership = await viewerMembership(ctx, content.row.organizationId);
  if (!membership) return null;
  if (membership.role === 'admin') return 'admin';
  const userId = ctx.viewer.user.id;
  const collectionsAbove = await collectionChain(ctx, content.kind === 'space' ? content.row.parentId : content.row.id);
  const links: Content[] = [...(content.kind === 'space' ? [content] : []), ...collectionsAbove.map((row) => ({ kind: 'collection' as const, row }))];
  const chain: ContentLink[] = await Promise.all(
    links.map(async (link) => ({
      defaultLevel: link.row.defaultLevel ?? null,
      grants: (await grantsForUser(ctx).load(`${userId}|${link.kind}:${link.row.id}`)) ?? [],
    })),
  );
  return resolveContentRole({ membership, chain });
}

/** After a write that changes collections, their tree or grants: later reads in this request see it. */
export function forgetContentAccess(ctx: RequestContext): void {
  ctx.loaders.forget('contentRole');
  collectionById(ctx).clearAll();
  ancestorIds(ctx).clearAll();
  grantsForUser(ctx).clearAll();
  ctx.authz.forget();
}

export function rememberCollection(ctx: RequestContext, row: CollectionRow): void {
  collectionById(ctx).clear(row.id).prime(row.id, row);
}
