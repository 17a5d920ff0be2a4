import { and, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { RequestContext } from '../../app/context';
import { keysetPage, keysetPages, type KeysetSpec } from '../../db/keyset';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { Page, PageArgs } from '../../domain/page';
import type { TeamRole } from '../../domain/roles';
import { parseInput } from '../../domain/validate';
import { findMemberRow, getMember } from '../members/service';
import { organizationMembers } from '../members/table';
import { getOrganization } from '../organizations/service';
import type { OrganizationRow } from '../organizations/table';
import { users } from '../users/table';
import { teamCreateSchema, teamListFilterSchema, teamMemberSetSchema, teamMembersUpdateSchema, teamTitleSchema, teamUpdateSchema } from './input';
import type { Db } from '../../db/client';
import { memberCountByTeam, ownedTeamCount, teamById, teamMemberByKey } from './loaders';
import './policy';
import { teamMembers, teams, type TeamMemberRow, type TeamRow } from './table';

export async function countOwnedTeams(ctx: RequestContext, organizationId: string, userId: string): Promise<number> {
  return (await ownedTeamCount(ctx).load(`${organizationId}:${userId}`)) ?? 0;
}

export async function countTeamMembers(ctx: RequestContext, teamId: string): Promise<number> {
  return (await memberCountByTeam(ctx).load(teamId)) ?? 0;
}

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

async function teamListSpec(ctx: RequestContext, org: OrganizationRow | null, filterInput: unknown): Promise<KeysetSpec<TeamRow>> {
  const filter = parseInput(teamListFilterSchema, filterInput);
  const conditions: (SQL | undefined)[] = [];
  if (filter.title) conditions.push(ilike(teams.title, likePattern(filter.title)));
  if (filter.owner && org) {
    // "Teams this member can manage": all of them for an admin, the ones they own otherwise.
    const owner = await findMemberRow(ctx, org.id, filter.owner);
    if (!owner) throw new ValidationError('owner must be a member of the organization', ['owner']);
    if (owner.role !== 'admin') {
      conditions.push(
        inArray(
          teams.id,
          ctx.db
            .select({ id: teamMembers.teamId })
            .from(teamMembers)
            .where(and(eq(teamMembers.userId, owner.userId), eq(teamMembers.role, 'owner'))),
        ),
      );
    }
  }
  return {
    table: teams,
    where: and(...conditions),
    keys: [
      { column: teams.createdAt, value: (t) => t.createdAt },
      { column: teams.id, value: (t) => t.id },
    ],
    direction: 'asc',
  };
}

export async function listTeams(ctx: RequestContext, organizationId: string, filter: unknown, args: PageArgs, max: number): Promise<Page<TeamRow>> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:listMembers', org, 'Guests cannot list the teams of an organization');
  const spec = await teamListSpec(ctx, org, filter);
  const page = await keysetPage(ctx.db, { ...spec, where: and(eq(teams.organizationId, org.id), spec.where) }, args, max);
  for (const team of page.items) teamById(ctx).prime(team.id, team);
  return page;
}

/** Teams of many organizations in one query, for nested GraphQL. */
export async function listTeamsOfOrganizations(
  ctx: RequestContext,
  orgs: readonly OrganizationRow[],
  filter: unknown,
  args: PageArgs,
  max: number,
): Promise<Map<string, Page<TeamRow> | Error>> {
  const spec = await teamListSpec(ctx, null, filter);
  const ids = (await ctx.authz.allowed('organization:listMembers', orgs)).map((o) => o.id);
  const pages = await keysetPages(ctx.db, { ...spec, partition: teams.organizationId, parentIds: ids, parentOf: (t) => t.organizationId }, args, max);
  for (const page of pages.values()) for (const team of page.items) teamById(ctx).prime(team.id, team);
  return new Map(orgs.map((o) => [o.id, pages.get(o.id) ?? new ForbiddenError('Guests cannot list the teams of an organization')]));
}

/** A team of that organization the viewer may see; a team of another organization is NOT_FOUND. */
export async function getTeam(ctx: RequestContext, organizationId: string, teamId: string): Promise<TeamRow> {
  const org = await getOrganization(ctx, organizationId);
  const team = await teamById(ctx).load(teamId);
  if (!team || team.organizationId !== org.id) throw new NotFoundError('Team');
  await ctx.authz.assert('team:view', team, 'You cannot see this team');
  return team;
}

/** Resolves user ids or e-mails to members of the organization; anything else is a validation error. */
async function resolveMembers(ctx: RequestContext, org: OrganizationRow, identifiers: string[], field: string): Promise<Map<string, string>> {
  const unique = [...new Set(identifiers)];
  if (unique.length === 0) return new Map();
  const emails = unique.filter((i) => i.includes('@')).map((e) => e.toLowerCase());
  const rows = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(
      and(
        eq(organizationMembers.organizationId, org.id),
        or(inArray(users.id, unique), emails.length ? inArray(users.email, emails) : undefined),
      ),
    );
  const resolved = new Map<string, string>();
  for (const ident of unique) {
    const row = rows.find((r) => r.id === ident || r.email === ident.toLowerCase());
    if (!row) throw new ValidationError(`${field}: "${ident}" is not a member of the organization`, [field]);
    resolved.set(ident, row.id);
  }
  return resolved;
}

export async function createTeam(ctx: RequestContext, organizationId: string, input: unknown): Promise<TeamRow> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:admin', org, 'Only organization admins can create teams');
  const { title, members = [] } = parseInput(teamCreateSchema, input);
  const memberIds = [...new Set((await resolveMembers(ctx, org, members, 'members')).values())];
  const team = await ctx.db.transaction(async (tx) => {
    const [created] = await tx.insert(teams).values({ id: newId(), organizationId: org.id, title, createdAt: ctx.now() }).returning();
    if (memberIds.length) {
      await tx.insert(teamMembers).values(memberIds.map((userId) => ({ teamId: created.id, organizationId: org.id, userId, role: 'member' as const, addedAt: ctx.now() })));
    }
    return created;
  });
  teamById(ctx).prime(team.id, team);
  return team;
}

export async function updateTeam(ctx: RequestContext, organizationId: string, teamId: string, input: unknown): Promise<TeamRow> {
  const team = await getTeam(ctx, organizationId, teamId);
  await ctx.authz.assert('team:admin', team, 'Only organization admins and team owners can rename a team');
  const { title } = parseInput(teamUpdateSchema, input);
  const [updated] = await ctx.db.update(teams).set({ title }).where(eq(teams.id, team.id)).returning();
  teamById(ctx).clear(teamId).prime(teamId, updated);
  return updated;
}

/** Deleting a team that does not exist (or belongs elsewhere) succeeds: the result is the same. */
export async function deleteTeam(ctx: RequestContext, organizationId: string, teamId: string): Promise<void> {
  const org = await getOrganization(ctx, organizationId);
  const team = await teamById(ctx).load(teamId);
  if (!team || team.organizationId !== org.id) {
    // Like removing a non-member: only someone who may delete teams at all hears that it is gone.
    if ((await countOwnedTeams(ctx, org.id, ctx.viewer!.user.id)) === 0) {
      await ctx.authz.assert('organization:admin', org, 'Only organization admins and team owners can delete a team');
    }
    return;
  }
  await ctx.authz.assert('team:admin', team, 'Only organization admins and team owners can delete a team');
  await ctx.db.delete(teams).where(eq(teams.id, team.id));
  teamById(ctx).clear(teamId);
}

export async function listTeamMembers(ctx: RequestContext, organizationId: string, teamId: string, args: PageArgs, max: number): Promise<Page<TeamMemberRow>> {
  const team = await getTeam(ctx, organizationId, teamId);
  return keysetPage<TeamMemberRow>(
    ctx.db,
    {
      table: teamMembers,
      where: eq(teamMembers.teamId, team.id),
      keys: [
        { column: teamMembers.addedAt, value: (m) => m.addedAt },
        { column: teamMembers.userId, value: (m) => m.userId },
      ],
      direction: 'asc',
    },
    args,
    max,
  );
}

/** Team members of many teams at once, for nested GraphQL. */
export async function listMembersOfTeams(ctx: RequestContext, teamRows: readonly TeamRow[], args: PageArgs, max: number): Promise<Map<string, Page<TeamMemberRow> | Error>> {
  const ids = (await ctx.authz.allowed('team:view', teamRows)).map((t) => t.id);
  const pages = await keysetPages<TeamMemberRow>(
    ctx.db,
    {
      table: teamMembers,
      partition: teamMembers.teamId,
      parentIds: ids,
      parentOf: (m) => m.teamId,
      keys: [
        { column: teamMembers.addedAt, value: (m) => m.addedAt },
        { column: teamMembers.userId, value: (m) => m.userId },
      ],
      direction: 'asc',
    },
    args,
    max,
  );
  return new Map(teamRows.map((t) => [t.id, pages.get(t.id) ?? new ForbiddenError('You cannot see this team')]));
}

/**
 * Adds, removes and re-roles team members in one go. A user named in both `add` and `remove` ends
 * up removed; `memberships` sets roles of users added now or already in the team.
 */
export async function updateTeamMembers(ctx: RequestContext, organizationId: string, teamId: string, input: unknown): Promise<void> {
  const team = await getTeam(ctx, organizationId, teamId);
  await ctx.authz.assert('team:admin', team, 'Only organization admins and team owners can manage team members');
  const org = await getOrganization(ctx, organizationId);
  const { add = [], remove = [], memberships = {} } = parseInput(teamMembersUpdateSchema, input);
  const added = await resolveMembers(ctx, org, add, 'add');
  const roleTargets = await resolveMembers(ctx, org, Object.keys(memberships), 'memberships');
  // Removing someone who is not in the organization is a no-op, like every other delete.
  const removedIds = new Set(
    (
      await ctx.db
        .select({ id: users.id })
        .from(users)
        .where(or(inArray(users.id, remove.length ? remove : ['']), inArray(users.email, remove.map((r) => r.toLowerCase()).concat(['']))))
    ).map((r) => r.id),
  );
  const roles = new Map<string, TeamRole>();
  for (const [ident, { role }] of Object.entries(memberships)) roles.set(roleTargets.get(ident)!, role);
  const toAdd = [...new Set(added.values())].filter((id) => !removedIds.has(id));
  await ctx.db.transaction(async (tx) => {
    if (removedIds.size) await tx.delete(teamMembers).where(and(eq(teamMembers.teamId, team.id), inArray(teamMembers.userId, [...removedIds])));
    if (toAdd.length) {
      await tx
        .insert(teamMembers)
        .values(toAdd.map((userId) => ({ teamId: team.id, organizationId: org.id, userId, role: roles.get(userId) ?? 'member', addedAt: ctx.now() })))
        .onConflictDoNothing();
    }
    for (const [userId, role] of roles) {
      if (removedIds.has(userId)) continue;
      await tx.update(teamMembers).set({ role }).where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, userId)));
    }
  });
}

/** Adds one member to the team, or changes their team role. */
export async function setTeamMember(ctx: RequestContext, organizationId: string, teamId: string, userId: string, input: unknown): Promise<void> {
  const team = await getTeam(ctx, organizationId, teamId);
  await ctx.authz.assert('team:admin', team, 'Only organization admins and team owners can manage team members');
  const { role = 'member' } = parseInput(teamMemberSetSchema, input ?? {});
  const member = await findMemberRow(ctx, team.organizationId, userId);
  if (!member) throw new NotFoundError('Member');
  await ctx.db
    .insert(teamMembers)
    .values({ teamId: team.id, organizationId: team.organizationId, userId, role, addedAt: ctx.now() })
    .onConflictDoUpdate({ target: [teamMembers.teamId, teamMembers.userId], set: { role } });
  teamMemberByKey(ctx).clear({ teamId: team.id, userId });
}

/** Removing someone who is not in the team succeeds. */
export async function removeTeamMember(ctx: RequestContext, organizationId: string, teamId: string, userId: string): Promise<void> {
  const team = await getTeam(ctx, organizationId, teamId);
  await ctx.authz.assert('team:admin', team, 'Only organization admins and team owners can manage team members');
  await ctx.db.delete(teamMembers).where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, userId)));
  teamMemberByKey(ctx).clear({ teamId: team.id, userId });
}

/** The teams a member belongs to, with their role in each. */
export async function listMemberTeams(
  ctx: RequestContext,
  organizationId: string,
  userId: string,
  filterInput: { title?: string | null },
  args: PageArgs,
  max: number,
): Promise<Page<TeamMemberRow>> {
  await getMember(ctx, organizationId, userId);
  const filter = parseInput(teamListFilterSchema, { title: filterInput.title ?? undefined });
  const page = await keysetPage<TeamMemberRow>(
    ctx.db,
    {
      table: teamMembers,
      where: and(
        eq(teamMembers.organizationId, organizationId),
        eq(teamMembers.userId, userId),
        filter.title
          ? inArray(teamMembers.teamId, ctx.db.select({ id: teams.id }).from(teams).where(ilike(teams.title, likePattern(filter.title))))
          : undefined,
      ),
      keys: [
        { column: teamMembers.addedAt, value: (m) => m.addedAt },
        { column: teamMembers.teamId, value: (m) => m.teamId },
      ],
      direction: 'asc',
    },
    args,
    max,
  );
  return page;
}

export async function loadTeam(ctx: RequestContext, teamId: string): Promise<TeamRow | null> {
  return teamById(ctx).load(teamId);
}

/** A team with members, for seeding. System use: no caller to authorize. */
export async function bootstrapTeam(db: Db, organizationId: string, title: string, members: { userId: string; role: TeamRole }[]): Promise<TeamRow> {
  const [team] = await db.insert(teams).values({ id: newId(), organizationId, title: parseInput(teamTitleSchema, title) }).returning();
  if (members.length) await db.insert(teamMembers).values(members.map((m) => ({ teamId: team.id, organizationId, ...m })));
  return team;
}
