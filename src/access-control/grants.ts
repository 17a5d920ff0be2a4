import { and, count, eq, inArray, isNotNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Content } from './content';
import type { Tx } from '../db/client';
import { anyOf } from '../db/any';
import { defineLoader } from '../db/loader';
import { requireViewer, type RequestContext } from '../context/request-context';
import { byKey } from '../lib/loaders';
import { newId } from '../lib/ids';
import type { Role } from '../domain/roles';
import { organizationMembers } from '../db/schema/members';
import type { OrganizationRow } from '../db/schema/organizations';
import { contentGrants } from '../db/schema/permissions';
import { spaces } from '../db/schema/spaces';

/*
 * The grants of content roles (content_grants), as the modules that own content keep them: the
 * writes that creating, duplicating and moving spaces and collections make inside their own
 * transactions, after their own permission checks, and the counts members and teams show.
 * Granting and revoking on request is the permissions module's.
 */

export type Grantee = { kind: 'user'; id: string } | { kind: 'team'; id: string };

export const onContent = (content: Content): SQL =>
  content.kind === 'space' ? eq(contentGrants.spaceId, content.row.id) : eq(contentGrants.collectionId, content.row.id);

export const forGrantee = (grantee: Grantee): SQL => (grantee.kind === 'user' ? eq(contentGrants.userId, grantee.id) : eq(contentGrants.teamId, grantee.id));

/** Replaces each grantee's grant on the content with `role`; a null role only removes it. */
export async function writeGrants(tx: Tx, content: Content, grantees: readonly Grantee[], role: Role | null, at: Date): Promise<void> {
  for (const grantee of grantees) {
    await tx.delete(contentGrants).where(and(onContent(content), forGrantee(grantee)));
    if (!role) continue;
    await tx.insert(contentGrants).values({
      id: newId(),
      organizationId: content.row.organizationId,
      spaceId: content.kind === 'space' ? content.row.id : null,
      collectionId: content.kind === 'collection' ? content.row.id : null,
      userId: grantee.kind === 'user' ? grantee.id : null,
      teamId: grantee.kind === 'team' ? grantee.id : null,
      role,
      createdAt: at,
    });
  }
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
  const members = tx.select({ id: organizationMembers.userId }).from(organizationMembers).where(eq(organizationMembers.organizationId, organizationId));
  await tx.delete(contentGrants).where(and(on, or(isNotNull(contentGrants.teamId), notInArray(contentGrants.userId, members))));
  await tx.update(contentGrants).set({ organizationId }).where(on);
}

/** Copies the grants of one space onto another, for duplicates. */
export async function copySpaceGrants(tx: Tx, fromSpaceId: string, toSpaceId: string): Promise<void> {
  const rows = await tx.select().from(contentGrants).where(eq(contentGrants.spaceId, fromSpaceId));
  if (rows.length) await tx.insert(contentGrants).values(rows.map((g) => ({ ...g, id: newId(), spaceId: toSpaceId })));
}

/** Grants on spaces still out of the trash. */
const liveSpace = sql`exists (select 1 from ${spaces} where ${spaces.id} = ${contentGrants.spaceId} and ${spaces.deletedAt} is null)`;

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

export async function countMemberSpaces(ctx: RequestContext, organizationId: string, userId: string): Promise<number> {
  return (await spaceGrantsByMember(ctx).load(`${organizationId}:${userId}`)) ?? 0;
}

export async function countTeamSpaces(ctx: RequestContext, teamId: string): Promise<number> {
  return (await spaceGrantsByTeam(ctx).load(teamId)) ?? 0;
}

/**
 * Whoever creates a space or collection administers it, as on the platform: a `create` member may
 * then rename, move and share what they made. Organization admins need no grant.
 */
export async function grantCreator(ctx: RequestContext, tx: Tx, org: OrganizationRow, content: Content): Promise<void> {
  const viewer = requireViewer(ctx);
  if (await ctx.authz.can('organization:admin', org)) return;
  await writeGrants(tx, content, [{ kind: 'user', id: viewer.user.id }], 'admin', ctx.now());
}

