import { and, eq, inArray, isNotNull, notInArray, or, type SQL } from 'drizzle-orm';
import type { Content } from '../../access-control/content';
import type { Tx } from '../../db/client';
import { newId } from '../../lib/ids';
import type { Role } from '../../domain/roles';
import { organizationMembers } from '../members/table';
import { contentGrants } from './table';

/**
 * Grant writes that other services run inside their own transactions, after they have
 * authorized the change they belong to.
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
