import { and, count, eq, inArray, isNotNull, or, param, sql } from 'drizzle-orm';
import { anyOf } from '../../db/any';
import { byKey, defineLoader } from '../../app/loaders';
import type { Role } from '../../domain/roles';
import { collections, type CollectionRow } from '../collections/table';
import { spaces } from '../spaces/table';
import { teamMembers } from '../teams/table';
import { contentGrants } from './table';

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

/** Content is keyed `space:<id>` or `collection:<id>`; a grant key also names the user it is for. */
export type ContentKey = `${'space' | 'collection'}:${string}`;

/**
 * The roles granted on each piece of content to one user, directly or through their teams. Keys
 * are `<userId>|<content key>`; a request has one viewer, so a batch holds one user.
 */
export const grantsForUser = defineLoader<string, Role[]>('grantsForUser', async (db, keys) => {
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
            inArray(contentGrants.teamId, db.select({ id: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, userId))),
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

/** Grants on spaces still out of the trash. */
export const liveSpace = sql`exists (select 1 from ${spaces} where ${spaces.id} = ${contentGrants.spaceId} and ${spaces.deletedAt} is null)`;

/** How many live spaces each member was given directly. Keyed `<organizationId>:<userId>`. */
export const spaceGrantsByMember = defineLoader<string, number>('spaceGrantsByMember', async (db, keys) => {
  const pairs = keys.map((k) => k.split(':') as [string, string]);
  const rows = await db
    .select({ organizationId: contentGrants.organizationId, userId: contentGrants.userId, n: count() })
    .from(contentGrants)
    .where(
      and(
        anyOf(contentGrants.organizationId, [...new Set(pairs.map((p) => p[0]))]),
        anyOf(contentGrants.userId, [...new Set(pairs.map((p) => p[1]))]),
        isNotNull(contentGrants.spaceId),
        liveSpace,
      ),
    )
    .groupBy(contentGrants.organizationId, contentGrants.userId);
  return byKey(keys, rows, (r) => `${r.organizationId}:${r.userId}`).map((r) => Number(r?.n ?? 0));
});

/** How many live spaces each team was given. */
export const spaceGrantsByTeam = defineLoader<string, number>('spaceGrantsByTeam', async (db, ids) => {
  const rows = await db
    .select({ teamId: contentGrants.teamId, n: count() })
    .from(contentGrants)
    .where(and(anyOf(contentGrants.teamId, ids), isNotNull(contentGrants.spaceId), liveSpace))
    .groupBy(contentGrants.teamId);
  return byKey(ids, rows, (r) => r.teamId!).map((r) => Number(r?.n ?? 0));
});

