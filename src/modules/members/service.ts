import { and, count, eq, ilike, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { SignJWT } from 'jose';
import type { RequestContext } from '../../app/context';
import type { Db } from '../../db/client';
import { keysetPage, keysetPages, type KeysetSpec } from '../../db/keyset';
import { serverSecret } from '../../db/secrets';
import { requireViewer } from '../../domain/authz';
import { ConflictError, ForbiddenError, NotFoundError } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import type { Role } from '../../domain/roles';
import { parseInput } from '../../domain/validate';
import { countMemberSpaces, listUserSpaceGrants } from '../access/service';
import { contentGrants, type ContentGrantRow } from '../access/table';
import { getOrganization } from '../organizations/service';
import type { OrganizationRow } from '../organizations/table';
import { teamMembers } from '../teams/table';
import { ensureUser } from '../users/service';
import { users } from '../users/table';
import { inviteUsersSchema, memberListFilterSchema, memberUpdateSchema, orderSchema, type MemberListFilter } from './input';
import { memberByKey, teamCountByMember } from './loaders';
import './policy';
import { organizationMembers, type MemberRow } from './table';

/** The viewer's own membership of an organization; undefined for outsiders and disabled members. */
export async function viewerMembership(ctx: RequestContext, organizationId: string): Promise<MemberRow | undefined> {
  if (!ctx.viewer) return undefined;
  const row = await memberByKey(ctx).load({ organizationId, userId: ctx.viewer.user.id });
  return row && !row.disabled ? row : undefined;
}

function memberListSpec(filterInput: MemberListFilter): KeysetSpec<MemberRow> {
  const filter = parseInput(memberListFilterSchema, filterInput);
  const m = organizationMembers;
  const conditions: (SQL | undefined)[] = [];
  if (filter.role === 'guest') conditions.push(isNull(m.role));
  else if (filter.role) conditions.push(eq(m.role, filter.role));
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      sql`exists (select 1 from ${users} where ${users.id} = ${m.userId} and (${ilike(users.displayName, pattern)} or ${ilike(users.email, pattern)}))`,
    );
  }
  // Sorting by last activity lists only members who have been active.
  if (filter.sort === 'lastSeenAt') conditions.push(isNotNull(m.lastSeenAt));
  const sortColumn = filter.sort === 'lastSeenAt' ? m.lastSeenAt : m.joinedAt;
  return {
    table: m,
    where: and(...conditions),
    keys: [
      { column: sortColumn, value: (r) => (filter.sort === 'lastSeenAt' ? r.lastSeenAt : r.joinedAt) },
      { column: m.userId, value: (r) => r.userId },
    ],
    direction: filter.order,
  };
}

export async function listMembers(
  ctx: RequestContext,
  organizationId: string,
  filter: MemberListFilter,
  args: PageArgs,
  max: number,
): Promise<Page<MemberRow>> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:listMembers', org, 'Guests cannot list the members of an organization');
  const spec = memberListSpec(filter);
  return keysetPage(ctx.db, { ...spec, where: and(eq(organizationMembers.organizationId, org.id), spec.where) }, args, max);
}

/** The same list for many organizations at once (nested GraphQL); refusals come back per organization. */
export async function listMembersOfOrganizations(
  ctx: RequestContext,
  orgs: readonly OrganizationRow[],
  filter: MemberListFilter,
  args: PageArgs,
  max: number,
): Promise<Map<string, Page<MemberRow> | Error>> {
  const spec = memberListSpec(filter);
  const ids = (await ctx.authz.allowed('organization:listMembers', orgs)).map((o) => o.id);
  const pages = await keysetPages(
    ctx.db,
    { ...spec, partition: organizationMembers.organizationId, parentIds: ids, parentOf: (r) => r.organizationId },
    args,
    max,
  );
  return new Map(orgs.map((o) => [o.id, pages.get(o.id) ?? new ForbiddenError('Guests cannot list the members of an organization')]));
}

async function loadMember(ctx: RequestContext, org: OrganizationRow, userId: string): Promise<MemberRow> {
  const member = await memberByKey(ctx).load({ organizationId: org.id, userId });
  if (!member) throw new NotFoundError('Member');
  return member;
}

export async function getMember(ctx: RequestContext, organizationId: string, userId: string): Promise<MemberRow> {
  const org = await getOrganization(ctx, organizationId);
  const member = await loadMember(ctx, org, userId);
  await ctx.authz.assert('member:view', { organization: org, member }, 'Guests can only see their own membership');
  return member;
}

async function assertNotLastAdmin(db: Db, member: MemberRow, field?: string[]): Promise<void> {
  if (member.role !== 'admin') return;
  const [row] = await db
    .select({ n: count() })
    .from(organizationMembers)
    .where(
      and(
        eq(organizationMembers.organizationId, member.organizationId),
        eq(organizationMembers.role, 'admin'),
        eq(organizationMembers.disabled, false),
        ne(organizationMembers.userId, member.userId),
      ),
    );
  if (Number(row.n) === 0) throw new ConflictError('An organization must keep at least one admin', field);
}

export async function updateMemberRole(ctx: RequestContext, organizationId: string, userId: string, input: unknown): Promise<MemberRow> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:admin', org, 'Only organization admins can change roles');
  const { role } = parseInput(memberUpdateSchema, input);
  const member = await loadMember(ctx, org, userId);
  if (role !== 'admin') await assertNotLastAdmin(ctx.db, member, ['role']);
  const [updated] = await ctx.db
    .update(organizationMembers)
    .set({ role })
    .where(and(eq(organizationMembers.organizationId, org.id), eq(organizationMembers.userId, userId)))
    .returning();
  memberByKey(ctx).clear({ organizationId: org.id, userId }).prime({ organizationId: org.id, userId }, updated);
  return updated;
}

/**
 * Removes a member, their team memberships and the access they were given to spaces and
 * collections, so that joining again starts afresh. Removing someone who is not a member succeeds.
 */
export async function removeMember(ctx: RequestContext, organizationId: string, userId: string): Promise<void> {
  const org = await getOrganization(ctx, organizationId);
  const member = await memberByKey(ctx).load({ organizationId: org.id, userId });
  if (!member) {
    await ctx.authz.assert('organization:admin', org, 'Only organization admins can remove members');
    return;
  }
  await ctx.authz.assert('member:remove', { organization: org, member }, 'Only organization admins can remove other members');
  await assertNotLastAdmin(ctx.db, member);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(teamMembers).where(and(eq(teamMembers.organizationId, org.id), eq(teamMembers.userId, userId)));
    await tx.delete(contentGrants).where(and(eq(contentGrants.organizationId, org.id), eq(contentGrants.userId, userId)));
    await tx.delete(organizationMembers).where(and(eq(organizationMembers.organizationId, org.id), eq(organizationMembers.userId, userId)));
  });
  memberByKey(ctx).clear({ organizationId: org.id, userId });
  // Decisions taken before the removal (for instance that the leaver may see the organization) no longer hold.
  ctx.authz.forget();
}

export async function setMemberSso(ctx: RequestContext, organizationId: string, userId: string): Promise<MemberRow> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:admin', org, 'Only organization admins can manage SSO members');
  await loadMember(ctx, org, userId);
  const [updated] = await ctx.db
    .update(organizationMembers)
    .set({ sso: true })
    .where(and(eq(organizationMembers.organizationId, org.id), eq(organizationMembers.userId, userId)))
    .returning();
  memberByKey(ctx).clear({ organizationId: org.id, userId }).prime({ organizationId: org.id, userId }, updated);
  return updated;
}

export interface InviteResult {
  /** Ids of the users now members, in the order asked. */
  users: string[];
  /** How many of them were not members before. */
  invited: number;
  failedSSOEmails: string[];
}

/**
 * Adds people to the organization by e-mail. Unknown addresses become new users; people who are
 * already members keep their role. Everything is checked before anything is written.
 */
export async function inviteUsers(ctx: RequestContext, organizationId: string, input: unknown): Promise<InviteResult> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:admin', org, 'Only organization admins can invite members');
  const parsed = parseInput(inviteUsersSchema, input);
  const fallback: Role | null = parsed.role !== undefined ? parsed.role : ((org.defaultRole as Role | null) ?? null);
  const wanted = new Map<string, Role | null>();
  for (const entry of parsed.emails) {
    const [email, role] = typeof entry === 'string' ? [entry, fallback] : [entry.email, entry.role];
    if (!wanted.has(email)) wanted.set(email, role);
  }
  return ctx.db.transaction(async (tx) => {
    const ids: string[] = [];
    let invited = 0;
    for (const [email, role] of wanted) {
      const { user } = await ensureUser(tx as unknown as Db, { email });
      const [added] = await tx
        .insert(organizationMembers)
        .values({ organizationId: org.id, userId: user.id, role, sso: parsed.sso ?? false, joinedAt: ctx.now() })
        .onConflictDoNothing()
        .returning();
      if (added) invited += 1;
      ids.push(user.id);
    }
    return { users: ids, invited, failedSSOEmails: [] };
  });
}

/** Adds a user to an organization with a role, or changes the role of an existing member. System use. */
export async function upsertMember(db: Db, organizationId: string, userId: string, role: Role | null): Promise<MemberRow> {
  const [row] = await db
    .insert(organizationMembers)
    .values({ organizationId, userId, role })
    .onConflictDoUpdate({ target: [organizationMembers.organizationId, organizationMembers.userId], set: { role } })
    .returning();
  return row;
}

/** The spaces a member was given access to directly, with their role on each. */
export async function listMemberSpaces(
  ctx: RequestContext,
  organizationId: string,
  userId: string,
  input: { order?: string | null },
  args: PageArgs,
  max: number,
): Promise<Page<ContentGrantRow>> {
  const org = await getOrganization(ctx, organizationId);
  const member = await loadMember(ctx, org, userId);
  await ctx.authz.assert('member:view', { organization: org, member }, 'Guests can only see their own memberships');
  const { order } = parseInput(orderSchema, { order: input.order ?? undefined });
  return listUserSpaceGrants(ctx, org.id, member.userId, order, args, max);
}

/**
 * Records that the viewer was active in the organization and hands back a short-lived signed
 * token of their visitor claims, for published content that adapts to its reader.
 */
export async function pingOrganization(ctx: RequestContext, organizationId: string): Promise<{ visitorClaims: string }> {
  const viewer = requireViewer(ctx);
  const org = await getOrganization(ctx, organizationId);
  const now = ctx.now();
  const [member] = await ctx.db
    .update(organizationMembers)
    .set({ lastSeenAt: now })
    .where(and(eq(organizationMembers.organizationId, org.id), eq(organizationMembers.userId, viewer.user.id)))
    .returning();
  memberByKey(ctx).clear({ organizationId: org.id, userId: viewer.user.id }).prime({ organizationId: org.id, userId: viewer.user.id }, member);
  const key = await serverSecret(ctx.db, 'visitor-claims');
  const visitorClaims = await new SignJWT({ organization: org.id, role: member.role, email: viewer.user.email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(viewer.user.id)
    .setIssuer(ctx.config.publicUrl)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(now.getTime() / 1000) + 3600)
    .sign(key);
  return { visitorClaims };
}

export async function verifyVisitorClaims(db: Db, token: string) {
  const { jwtVerify } = await import('jose');
  return jwtVerify(token, await serverSecret(db, 'visitor-claims'));
}


export async function memberTeamCount(ctx: RequestContext, member: MemberRow): Promise<number> {
  return (await teamCountByMember(ctx).load({ organizationId: member.organizationId, userId: member.userId })) ?? 0;
}

/** How many spaces the member was given access to directly. */
export async function memberSpaceCount(ctx: RequestContext, member: MemberRow): Promise<number> {
  return countMemberSpaces(ctx, member.organizationId, member.userId);
}

/** A membership row by key, or null; no access check, for services that did their own. */
export async function findMemberRow(ctx: RequestContext, organizationId: string, userId: string): Promise<MemberRow | null> {
  return memberByKey(ctx).load({ organizationId, userId });
}

/** A membership row by key, for presenting lists whose access was already checked. */
export async function memberRow(ctx: RequestContext, organizationId: string, userId: string): Promise<MemberRow> {
  const row = await memberByKey(ctx).load({ organizationId, userId });
  if (!row) throw new NotFoundError('Member');
  return row;
}
