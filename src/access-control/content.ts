import { param, sql } from 'drizzle-orm';
import { anyOf } from '../db/any';
import { rowAsJson, rowFromJson } from '../db/json-row';
import { defineLoader } from '../db/loader';
import { rowsOf } from '../db/rows';
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
    ) select leaf, id from chain order by leaf, depth`));
  const rows = rowsOf<{ leaf: string; id: string }>(result);
  const chains = new Map<string, string[]>();
  for (const row of rows) {
    const chain = chains.get(row.leaf) ?? [];
    chain.push(row.id);
    chains.set(row.leaf, chain);
  }
  return ids.map((id) => chains.get(id) ?? null);
});

/** What a role is resolved from, for one piece of content: the collections above it and the grants on each link. */
interface AccessChain {
  /** The collections from the content's own (a collection) or its parent (a space) up, nearest first. */
  collections: CollectionRow[];
  /** Roles granted to the user, directly or through a team, by `space:<id>` or `collection:<id>`. */
  grants: Map<string, Role[]>;
}

/**
 * Everything `contentRole` needs beyond the membership, for many pieces of content in one
 * statement: the collection chains above them (rows included) and the user's grants on every link.
 * Keys are `<userId>|<organizationId>|space:<id>|<parentId or empty>` or `...|collection:<id>|<id>`; a request
 * has one viewer, so a batch holds one user. It was four statements per page of spaces for a reader
 * (ancestors, collections, then grants twice), where an admin pays none.
 */
const accessChains = defineLoader<string, AccessChain>('contentAccessChains', async (db, keys) => {
  const parsed = keys.map((key) => {
    const [userId, organizationId, content, start] = key.split('|');
    return { userId, organizationId, content, start };
  });
  const answers = new Map<string, AccessChain>();
  for (const userId of new Set(parsed.map((p) => p.userId))) {
    const mine = parsed.filter((p) => p.userId === userId);
    const starts = [...new Set(mine.map((p) => p.start).filter(Boolean))];
    const spaceIds = mine.filter((p) => p.content.startsWith('space:')).map((p) => p.content.slice('space:'.length));
    // Grants and team memberships of the organizations asked about only: the chain's collections are theirs.
    const organizationIds = [...new Set(mine.map((p) => p.organizationId))];
    const result = (await db.execute(sql`with recursive chain(leaf, id, parent, depth) as (
        select id, id, parent_id, 0 from collections where id = any(${param(starts)}::text[])
        union all
        select chain.leaf, c.id, c.parent_id, chain.depth + 1 from collections c join chain on c.id = chain.parent
        where chain.depth < 64
      )
      select
        (select coalesce(json_agg(json_build_object('leaf', leaf, 'id', id) order by leaf, depth), '[]'::json) from chain) as chains,
        (select coalesce(json_agg(${rowAsJson(collections)}), '[]'::json) from ${collections} where ${collections.id} in (select id from chain)) as rows,
        (select coalesce(json_agg(json_build_object('space', ${contentGrants.spaceId}, 'collection', ${contentGrants.collectionId}, 'role', ${contentGrants.role})), '[]'::json)
          from ${contentGrants}
          where ${anyOf(contentGrants.organizationId, organizationIds)}
            and (${contentGrants.spaceId} = any(${param(spaceIds)}::text[]) or ${contentGrants.collectionId} in (select id from chain))
            and (${contentGrants.userId} = ${userId}
              or exists (select 1 from ${teamMembers} where ${anyOf(teamMembers.organizationId, organizationIds)}
                and ${teamMembers.teamId} = ${contentGrants.teamId} and ${teamMembers.userId} = ${userId}))) as grants`));
    const [row] = rowsOf<AccessRow>(result);
    const rows = new Map(row.rows.map((json) => [json.id as string, rowFromJson<CollectionRow>(collections, json)]));
    const chains = new Map<string, CollectionRow[]>();
    for (const { leaf, id } of row.chains) {
      const chain = chains.get(leaf) ?? [];
      const collection = rows.get(id);
      if (collection) chain.push(collection);
      chains.set(leaf, chain);
    }
    const grants = new Map<string, Role[]>();
    for (const grant of row.grants) {
      const link = grant.space ? `space:${grant.space}` : `collection:${grant.collection}`;
      grants.set(link, [...(grants.get(link) ?? []), grant.role]);
    }
    for (const p of mine) answers.set(`${p.userId}|${p.organizationId}|${p.content}|${p.start}`, { collections: p.start ? (chains.get(p.start) ?? []) : [], grants });
  }
  return keys.map((key) => answers.get(key) ?? null);
});

interface AccessRow {
  chains: { leaf: string; id: string }[];
  rows: Record<string, unknown>[];
  grants: { space: string | null; collection: string | null; role: Role }[];
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
  const start = content.kind === 'space' ? (content.row.parentId ?? '') : content.row.id;
  const access = (await accessChains(ctx).load(`${ctx.viewer.user.id}|${content.row.organizationId}|${content.kind}:${content.row.id}|${start}`))!;
  const links: Content[] = [...(content.kind === 'space' ? [content] : []), ...access.collections.map((row) => ({ kind: 'collection' as const, row }))];
  const chain: ContentLink[] = links.map((link) => ({ defaultLevel: link.row.defaultLevel ?? null, grants: access.grants.get(`${link.kind}:${link.row.id}`) ?? [] }));
  return resolveContentRole({ membership, chain });
}

/** After a write that changes collections, their tree or grants: later reads in this request see it. */
export function forgetContentAccess(ctx: RequestContext): void {
  ctx.loaders.forget('contentRole');
  collectionById(ctx).clearAll();
  ancestorIds(ctx).clearAll();
  accessChains(ctx).clearAll();
  ctx.authz.forget();
}

export function rememberCollection(ctx: RequestContext, row: CollectionRow): void {
  collectionById(ctx).clear(row.id).prime(row.id, row);
}
