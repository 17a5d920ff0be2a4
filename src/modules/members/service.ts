import { and, count, eq, ilike, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import { memberByKey, rememberMember } from '../../access-control/membership';
import type { Db, Tx } from '../../db/client';
import { keysetPage, keysetPages, type KeysetSpec } from '../../db/keyset';
import { serverSecret } from '../../db/secrets';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { ConflictError, ForbiddenError, NotFoundError } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import type { Role } from '../../domain/roles';
import { parseInput } from '../../domain/validate';
import { getOrganization, insertOrganization } from '../organizations/service';
import type { OrganizationRow } from '../../db/schema/organizations';
import { countMemberSpaces } from '../../access-control/grants';
import { ensureUser } from '../users/service';
import { users } from '../../db/schema/users';
import { inviteUsersSchema, memberListFilterSchema, memberUpdateSchema, type InviteUsersInput, type MemberListFilter, type MemberUpdateInput } from './input';
import { teamCountByMember } from './loaders';
import { organizationMembers, type MemberRow } from '../../db/schema/members';

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function memberListSpec(filterInput: MemberListFilter): KeysetSpec<MemberRow> {
  const filter = parseInput(memberListFilterSchema, filterInput);
  const m = organizationMembers;
  const conditions: (SQL | undefined)[] = [];
  if (filter.role === 'guest') conditions.push(isNull(m.role));
  else if (filter.role) conditions.push(eq(m.role, filter.role));
  if (filter.search) {
    const pattern = likePattern(filter.search);
    conditions.push(
      sql`exists (select 1 from ${users} where ${users.id} = ${m.userId} and (${ilike(users.displayName, pattern)} or ${ilike(users.email, pattern)}))`,
    );
  }
  // Sorting by last activity lists only members who have been active.
  if (filter.sort === 'lastSeenAt') conditions.push(isNotNull(m.lastSeenAt));
  const bySeen = filter.sort === 'lastSeenAt';
  return {
    table: m,
    where: and(...conditions),
    keys: [
      { column: bySeen ? m.lastSeenAt : m.joinedAt, value: (r) => (bySeen ? r.lastSeenAt : r.joinedAt) },
      { column: m.userId, value: (r) => r.userId },
    ],
    direction: filter.order,
  };
}

export async function listMembers(ctx: RequestContext, organizationId: string, filter: MemberListFilter, args: PageArgs, max: number): Promise<Page<MemberRow>> {
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
  const allowed = await ctx.authz.allowed('organization:listMembers', orgs);
  const pages = await keysetPages(ctx.db, { ...spec, partition: organizationMembers.organizationId, parentIds: allowed.map((o) => o.id), parentOf: (r) => r.organizationId }, args, max);
  // The whole list's size is the organization's own counter (kept by a trigger); a filtered one is counted.
  if (!spec.where) for (const org of allowed) pages.get(org.id)!.count = async () => org.membersCount;
  return new Map(orgs.map((o) => [o.id, pages.get(o.id) ?? new ForbiddenError('Guests cannot list the members of an organization')]));
}

/** The organization and the membership named by a path: each NOT_FOUND when missing or not visible. */
async function findMember(ctx: RequestContext, organizationId: string, userId: string): Promise<{ org: OrganizationRow; member: MemberRow | null }> {
  const org = await getOrganization(ctx, organizationId);
  return { org, member: await memberByKey(ctx).load({ organizationId: org.id, userId }) };
}

async function loadMember(ctx: RequestContext, organizationId: string, userId: string): Promise<{ org: OrganizationRow; member: MemberRow }> {
  const { org, member } = await findMember(ctx, organizationId, userId);
  if (!member) throw new NotFoundError('Member');
  return { org, member };
}

export async function getMember(ctx: RequestContext, organizationId: string, userId: string): Promise<MemberRow> {
  const { org, member } = await loadMember(ctx, organizationId, userId);
  // Guests see only their own membership: anyone else's answers like a missing one.
  await ctx.authz.assertVisible('member:view', { organization: org, member }, 'Member');
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

async function setMemberColumns(ctx: RequestContext, member: MemberRow, values: Partial<Pick<MemberRow, 'role' | 'sso' | 'lastSeenAt'>>): Promise<MemberRow> {
  const key = { organizationId: member.organizationId, userId: member.userId };
  const [updated] = await ctx.db
    .update(organizationMembers)
    .set(values)
    .where(and(eq(organizationMembers.organizationId, key.organizationId), eq(organizationMembers.userId, key.userId)))
    .returning();
  rememberMember(ctx, key, updated);
  return updated;
}

export async function updateMemberRole(ctx: RequestContext, organizationId: string, userId: string, input: MemberUpdateInput): Promise<MemberRow> {
  const { org, member } = await loadMember(ctx, organizationId, userId);
  await ctx.authz.assert('organization:admin', org, 'Only organization admins can change roles');
  const { role } = parseInput(memberUpdateSchema, input);
  if (role !== 'admin') await assertNotLastAdmin(ctx.db, member, ['role']);
  return setMemberColumns(ctx, member, { role });
}

/**
 * Removes a member. Their team memberships and the access they were given to spaces and
 * collections end with the membership (the database cascades), so joining again starts afresh.
 * Removing someone who is not a member succeeds.
 */
export async function removeMember(ctx: RequestContext, organizationId: string, userId: string): Promise<void> {
  const { org, member } = await findMember(ctx, organizationId, userId);
  if (!member) {
    await ctx.authz.assert('organization:admin', org, 'Only organization admins can remove members');
    return;
  }
  await ctx.authz.assert('member:remove', { organization: org, member }, 'Only organization admins can remove other members');
  await assertNotLastAdmin(ctx.db, member);
  await ctx.db.delete(organizationMembers).where(and(eq(organizationMembers.organizationId, org.id), eq(organizationMembers.userId, userId)));
  rememberMember(ctx, { organizationId: org.id, userId }, null);
}

export async function setMemberSso(ctx: RequestContext, organizationId: string, userId: string): Promise<MemberRow> {
  const { org, member } = await loadMember(ctx, organizationId, userId);
  await ctx.authz.assert('organization:admin', org, 'Only organization admins can manage SSO members');
  return setMemberColumns(ctx, member, { sso: true });
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
export async function inviteUsers(ctx: RequestContext, organizationId: string, input: InviteUsersInput): Promise<InviteResult> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:admin', org, 'Only organization admins can invite members');
  const parsed = parseInput(inviteUsersSchema, input);
  const fallback: Role | null = parsed.role !== undefined ? parsed.role : (org.defaultRole ?? null);
  const wanted = new Map<string, Role | null>();
  for (const entry of parsed.emails) {
    const [email, role] = typeof entry === 'string' ? [entry, fallback] : [entry.email, entry.role === undefined ? fallback : entry.role];
    if (!wanted.has(email)) wanted.set(email, role);
  }
  const { ids, added } = await ctx.db.transaction(async (tx) => {
    const ids: string[] = [];
    const added: MemberRow[] = [];
    for (const [email, role] of wanted) {
      const { user } = await ensureUser(tx as unknown as Db, { email });
      const row = await addMembership(tx, { organizationId: org.id, userId: user.id, role, sso: parsed.sso ?? false, joinedAt: ctx.now() });
      if (row) added.push(row);
      ids.push(user.id);
    }
    return { ids, added };
  });
  for (const row of added) rememberMember(ctx, { organizationId: row.organizationId, userId: row.userId }, row);
  return { users: ids, invited: added.length, failedSSOEmails: [] };
}

/**
 * Adds a membership unless the user already has one; answers the new row, or null when they were
 * a member already. For joins and invites, inside their transaction.
 */
export async function addMembership(tx: Tx, values: { organizationId: string; userId: string; role: Role | null; sso?: boolean; joinedAt: Date }): Promise<MemberRow | null> {
  const [added] = await tx.insert(organizationMembers).values(values).onConflictDoNothing().returning();
  return added ?? null;
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

/**
 * A new organization with its first admin. System use (command line, first start): it is how
 * the very first user of a server comes to exist, so it has no caller to authorize.
 */
export async function bootstrapOrganization(db: Db, input: { title: string; adminUserId: string; role?: Role }): Promise<OrganizationRow> {
  return db.transaction(async (tx) => {
    const org = await insertOrganization(tx, { title: input.title });
    await tx.insert(organizationMembers).values({ organizationId: org.id, userId: input.adminUserId, role: input.role ?? 'admin' });
    return org;
  });
}

/**
 * Records that the viewer was active in the organization and hands back a short-lived signed
 * token of their visitor claims, for published content that adapts to its reader.
 */
export async function pingOrganization(ctx: RequestContext, organizationId: string): Promise<{ visitorClaims: string; member: MemberRow }> {
  const viewer = requireViewer(ctx);
  const { member } = await loadMember(ctx, organizationId, viewer.user.id);
  const now = ctx.now();
  const updated = await setMemberColumns(ctx, member, { lastSeenAt: now });
  const key = await serverSecret(ctx.db, 'visitor-claims');
  const visitorClaims = await new SignJWT({ organization: updated.organizationId, role: updated.role, email: viewer.user.email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(viewer.user.id)
    .setIssuer(ctx.config.publicUrl)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(now.getTime() / 1000) + 3600)
    .sign(key);
  return { visitorClaims, member: updated };
}

export async function verifyVisitorClaims(db: Db, token: string) {
  return jwtVerify(token, await serverSecret(db, 'visitor-claims'));
}

export async function memberTeamCount(ctx: RequestContext, member: MemberRow): Promise<number> {
  return (await teamCountByMember(ctx).load({ organizationId: member.organizationId, userId: member.userId })) ?? 0;
}

/** How many spaces the member was given access to directly. */
export async function memberSpaceCount(ctx: RequestContext, member: MemberRow): Promise<number> {
  return countMemberSpaces(ctx, member.organizationId, member.userId);
}
