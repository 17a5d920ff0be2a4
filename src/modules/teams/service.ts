import { and, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { memberByKey } from '../../access-control/membership';
import { forgetTeamRoles } from '../../access-control/team-roles';
import type { Db } from '../../db/client';
import { byTimeThenId, keysetPage, keysetPages, type KeysetKey, type KeysetSpec } from '../../db/keyset';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { ForbiddenError, NotFoundError, ValidationError, hiddenAsMissing } from '../../domain/errors';
import { mapPage, type Page, type PageArgs } from '../../domain/page';
import type { TeamRole } from '../../domain/roles';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { getMember } from '../members/service';
import { organizationMembers, type MemberRow } from '../../db/schema/members';
import { getOrganization } from '../organizations/service';
import type { OrganizationRow } from '../../db/schema/organizations';
import { users } from '../../db/schema/users';
import {
  teamCreateSchema,
  teamListFilterSchema,
  teamMemberSetSchema,
  teamMembersUpdateSchema,
  teamTitleSchema,
  teamUpdateSchema,
  type TeamCreateInput,
  type TeamListFilter,
  type TeamMemberSetInput,
  type TeamMembersUpdateInput,
  type TeamUpdateInput,
} from './input';
import { memberCountByTeam, teamById } from './loaders';

export { countTeamSpaces } from '../../access-control/grants';
import { teamMembers, teams, type TeamMemberRow, type TeamRow } from '../../db/schema/teams';

/** Teams by id, unchecked: for services that decide who sees what themselves. */
export { teamById } from './loaders';

/** A member of a team, with their membership of the organization. */
export type TeamMembership = TeamMemberRow & { member: MemberRow };

export async function countTeamMembers(ctx: RequestContext, teamId: string): Promise<number> {
  return (await memberCountByTeam(ctx).load(teamId)) ?? 0;
}

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const teamOrder = byTimeThenId<TeamRow>(teams.createdAt, (t) => t.createdAt, teams.id);
/** A member's teams, in the order they joined them. */
const memberTeamOrder: KeysetKey<TeamMemberRow>[] = [
  { column: teamMembers.addedAt, value: (m) => m.addedAt },
  { column: teamMembers.teamId, value: (m) => m.teamId },
];

const teamMemberOrder: KeysetKey<TeamMemberRow>[] = [
  { column: teamMembers.addedAt, value: (m) => m.addedAt },
  { column: teamMembers.userId, value: (m) => m.userId },
];

async function teamListSpec(ctx: RequestContext, org: OrganizationRow | null, filterInput: TeamListFilter): Promise<KeysetSpec<TeamRow>> {
  const filter = parseInput(teamListFilterSchema, filterInput);
  const conditions: (SQL | undefined)[] = [];
  if (filter.title) conditions.push(ilike(teams.title, likePattern(filter.title)));
  if (filter.owner && org) {
    // "Teams this member can manage": all of them for an admin, the ones they own otherwise.
    const owner = await memberByKey(ctx).load({ organizationId: org.id, userId: filter.owner });
    if (!owner) throw new ValidationError('owner must be a member of the organization', ['owner']);
    if (owner.role !== 'admin') {
      conditions.push(
        inArray(teams.id, ctx.db.select({ id: teamMembers.teamId }).from(teamMembers).where(and(eq(teamMembers.userId, owner.userId), eq(teamMembers.role, 'owner')))),
      );
    }
  }
  return { table: teams, where: and(...conditions), keys: teamOrder, direction: 'asc' };
}

function rememberTeams(ctx: RequestContext, rows: Iterable<TeamRow>): void {
  for (const team of rows) teamById(ctx).prime(team.id, team);
}

export async function listTeams(ctx: RequestContext, organizationId: string, filter: TeamListFilter, args: PageArgs, max: number): Promise<Page<TeamRow>> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:listMembers', org, 'Guests cannot list the teams of an organization');
  const spec = await teamListSpec(ctx, org, filter);
  const page = await keysetPage(ctx.db, { ...spec, where: and(eq(teams.organizationId, org.id), spec.where) }, args, max);
  rememberTeams(ctx, page.items);
  return page;
}

/** Teams of many organizations in one query, for nested GraphQL. */
export async function listTeamsOfOrganizations(
  ctx: RequestContext,
  orgs: readonly OrganizationRow[],
  filter: TeamListFilter,
  args: PageArgs,
  max: number,
): Promise<Map<string, Page<TeamRow> | Error>> {
  const spec = await teamListSpec(ctx, null, filter);
  const ids = (await ctx.authz.allowed('organization:listMembers', orgs)).map((o) => o.id);
  const pages = await keysetPages(ctx.db, { ...spec, partition: teams.organizationId, parentIds: ids, parentOf: (t) => t.organizationId }, args, max);
  for (const page of pages.values()) rememberTeams(ctx, page.items);
  return new Map(orgs.map((o) => [o.id, pages.get(o.id) ?? new ForbiddenError('Guests cannot list the teams of an organization')]));
}

/** A team of that organization the viewer may see; a team of another organization is NOT_FOUND. */
export async function getTeam(ctx: RequestContext, organizationId: string, teamId: string): Promise<TeamRow> {
  const org = await getOrganization(ctx, organizationId);
  const team = await teamById(ctx).load(teamId);
  if (!team || team.organizationId !== org.id) throw new NotFoundError('Team');
  await ctx.authz.assertVisible('team:view', team, 'Team');
  return team;
}

/** A team by its id alone (GraphQL), through the same checks: another organization's team is NOT_FOUND. */
export async function getTeamById(ctx: RequestContext, teamId: string): Promise<TeamRow> {
  requireViewer(ctx);
  const team = await teamById(ctx).load(teamId);
  if (!team) throw new NotFoundError('Team');
  return hiddenAsMissing(getTeam(ctx, team.organizationId, teamId), 'Team');
}

/** Resolves user ids or e-mails to members of the organization; anything else is a validation error. */
async function resolveMembers(ctx: RequestContext, organizationId: string, identifiers: string[], field: string): Promise<Map<string, string>> {
  const unique = [...new Set(identifiers)];
  if (unique.length === 0) return new Map();
  const emails = unique.filter((i) => i.includes('@')).map((e) => e.toLowerCase());
  const rows = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(and(eq(organizationMembers.organizationId, organizationId), or(inArray(users.id, unique), emails.length ? inArray(users.email, emails) : undefined)));
  const resolved = new Map<string, string>();
  for (const ident of unique) {
    const row = rows.find((r) => r.id === ident || r.email === ident.toLowerCase());
    if (!row) throw new ValidationError(`${field}: "${ident}" is not a member of the organization`, [field]);
    resolved.set(ident, row.id);
  }
  return resolved;
}

export async function createTeam(ctx: RequestContext, organizationId: string, input: TeamCreateInput): Promise<TeamRow> {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:admin', org, 'Only organization admins can create teams');
  const { title, members = [] } = parseInput(teamCreateSchema, input);
  const memberIds = [...new Set((await resolveMembers(ctx, org.id, members, 'members')).values())];
  const team = await ctx.db.transaction(async (tx) => {
    const [created] = await tx.insert(teams).values({ id: newId(), organizationId: org.id, title, createdAt: ctx.now() }).returning();
    if (memberIds.length) {
      await tx.insert(teamMembers).values(memberIds.map((userId) => ({ teamId: created.id, organizationId: org.id, userId, role: 'member' as const, addedAt: ctx.now() })));
    }
    return created;
  });
  rememberTeams(ctx, [team]);
  forgetTeamRoles(ctx);
  return team;
}

/** Refuses unless the viewer may manage the team (loaded by `getTeam`/`getTeamById`). */
async function assertManagesTeam(ctx: RequestContext, team: TeamRow, doing: string): Promise<void> {
  await ctx.authz.assert('team:admin', team, `Only organization admins and team owners can ${doing}`);
}

export async function updateTeam(ctx: RequestContext, team: TeamRow, input: TeamUpdateInput): Promise<TeamRow> {
  await assertManagesTeam(ctx, team, 'rename a team');
  const { title } = parseInput(teamUpdateSchema, input);
  const [updated] = await ctx.db.update(teams).set({ title }).where(eq(teams.id, team.id)).returning();
  teamById(ctx).clear(team.id).prime(team.id, updated);
  return updated;
}

/** Deletes a team; its members stay in the organization. */
export async function deleteTeam(ctx: RequestContext, team: TeamRow): Promise<void> {
  await assertManagesTeam(ctx, team, 'delete a team');
  await ctx.db.delete(teams).where(eq(teams.id, team.id));
  teamById(ctx).clear(team.id);
  forgetTeamRoles(ctx);
}

/** Attaches each team member's membership of the organization, loaded in one batch. */
async function withMembers(ctx: RequestContext, page: Page<TeamMemberRow>): Promise<Page<TeamMembership>> {
  const members = await memberByKey(ctx).loadMany(page.items.map((m) => ({ organizationId: m.organizationId, userId: m.userId })));
  return mapPage(page, (row, i) => ({ ...row, member: members[i] as MemberRow }));
}

export async function listTeamMembers(ctx: RequestContext, organizationId: string, teamId: string, args: PageArgs, max: number): Promise<Page<TeamMembership>> {
  const team = await getTeam(ctx, organizationId, teamId);
  return withMembers(ctx, await keysetPage<TeamMemberRow>(ctx.db, { table: teamMembers, where: eq(teamMembers.teamId, team.id), keys: teamMemberOrder, direction: 'asc' }, args, max));
}

/** Team members of many teams at once, for nested GraphQL. */
export async function listMembersOfTeams(ctx: RequestContext, teamRows: readonly TeamRow[], args: PageArgs, max: number): Promise<Map<string, Page<TeamMembership> | Error>> {
  const ids = (await ctx.authz.allowed('team:view', teamRows)).map((t) => t.id);
  const pages = await keysetPages<TeamMemberRow>(
    ctx.db,
    { table: teamMembers, partition: teamMembers.teamId, parentIds: ids, parentOf: (m) => m.teamId, keys: teamMemberOrder, direction: 'asc' },
    args,
    max,
  );
  const withRows = new Map<string, Page<TeamMembership>>();
  await Promise.all([...pages].map(async ([id, page]) => withRows.set(id, await withMembers(ctx, page))));
  return new Map(teamRows.map((t) => [t.id, withRows.get(t.id) ?? new ForbiddenError('You cannot see this team')]));
}

/**
 * Adds, removes and re-roles team members in one go. A user named in both `add` and `remove` ends
 * up removed; `memberships` sets roles of users added now or already in the team.
 */
export async function updateTeamMembers(ctx: RequestContext, team: TeamRow, input: TeamMembersUpdateInput): Promise<TeamRow> {
  await assertManagesTeam(ctx, team, 'manage team members');
  const { add = [], remove = [], memberships = {} } = parseInput(teamMembersUpdateSchema, input);
  const added = await resolveMembers(ctx, team.organizationId, add, 'add');
  const roleTargets = await resolveMembers(ctx, team.organizationId, Object.keys(memberships), 'memberships');
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
        .values(toAdd.map((userId) => ({ teamId: team.id, organizationId: team.organizationId, userId, role: roles.get(userId) ?? 'member', addedAt: ctx.now() })))
        .onConflictDoNothing();
    }
    for (const [userId, role] of roles) {
      if (removedIds.has(userId)) continue;
      await tx.update(teamMembers).set({ role }).where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, userId)));
    }
  });
  forgetTeamRoles(ctx);
  return team;
}

/** Adds one member of the organization to the team, or changes their team role. */
export async function setTeamMember(ctx: RequestContext, team: TeamRow, userId: string, input: TeamMemberSetInput): Promise<TeamRow> {
  await assertManagesTeam(ctx, team, 'manage team members');
  const { role = 'member' } = parseInput(teamMemberSetSchema, input ?? {});
  const member = await memberByKey(ctx).load({ organizationId: team.organizationId, userId });
  if (!member) throw new NotFoundError('Member');
  await ctx.db
    .insert(teamMembers)
    .values({ teamId: team.id, organizationId: team.organizationId, userId, role, addedAt: ctx.now() })
    .onConflictDoUpdate({ target: [teamMembers.teamId, teamMembers.userId], set: { role } });
  forgetTeamRoles(ctx, { teamId: team.id, userId });
  return team;
}

/** Removing someone who is not in the team succeeds. */
export async function removeTeamMember(ctx: RequestContext, team: TeamRow, userId: string): Promise<TeamRow> {
  await assertManagesTeam(ctx, team, 'manage team members');
  await ctx.db.delete(teamMembers).where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, userId)));
  forgetTeamRoles(ctx, { teamId: team.id, userId });
  return team;
}

/** The teams a member belongs to, with their role in each. */
/** The key of a member in listTeamsOfMembers' answer. */
export const memberKey = (m: { organizationId: string; userId: string }) => `${m.organizationId}:${m.userId}`;

/**
 * The teams of several members, a page each, as listMemberTeams answers for one: one statement per
 * organization among them, so that a page of members with their teams costs a statement, not one
 * per member. Keyed by memberKey; a member the caller may not see answers like a missing one.
 */
export async function listTeamsOfMembers(
  ctx: RequestContext,
  members: readonly MemberRow[],
  filterInput: TeamListFilter,
  args: PageArgs,
  max: number,
): Promise<Map<string, Page<{ role: TeamRole; team: TeamRow }> | Error>> {
  const filter = parseInput(teamListFilterSchema, filterInput);
  const answers = new Map<string, Page<{ role: TeamRole; team: TeamRow }> | Error>();
  const byOrganization = new Map<string, MemberRow[]>();
  for (const member of members) {
    const visible = await ctx.authz
      .assertVisible('member:view', { organization: await getOrganization(ctx, member.organizationId), member }, 'Member')
      .then(() => true, (error: unknown) => (answers.set(memberKey(member), error as Error), false));
    if (visible) byOrganization.set(member.organizationId, [...(byOrganization.get(member.organizationId) ?? []), member]);
  }
  for (const [organizationId, inOrganization] of byOrganization) {
    const pages = await keysetPages<TeamMemberRow>(
      ctx.db,
      {
        table: teamMembers,
        partition: teamMembers.userId,
        parentIds: inOrganization.map((m) => m.userId),
        parentOf: (m) => m.userId,
        where: and(
          eq(teamMembers.organizationId, organizationId),
          filter.title ? inArray(teamMembers.teamId, ctx.db.select({ id: teams.id }).from(teams).where(ilike(teams.title, likePattern(filter.title)))) : undefined,
        ),
        keys: memberTeamOrder,
        direction: 'asc',
      },
      args,
      max,
    );
    const rows = await teamById(ctx).loadMany([...pages.values()].flatMap((page) => page.items.map((m) => m.teamId)));
    const byId = new Map(rows.filter((r): r is TeamRow => !(r instanceof Error)).map((r) => [r.id, r]));
    for (const [userId, page] of pages) answers.set(`${organizationId}:${userId}`, mapPage(page, (m) => ({ role: m.role, team: byId.get(m.teamId)! })));
  }
  return answers;
}

export async function listMemberTeams(
  ctx: RequestContext,
  organizationId: string,
  userId: string,
  filterInput: TeamListFilter,
  args: PageArgs,
  max: number,
): Promise<Page<{ role: TeamRole; team: TeamRow }>> {
  await getMember(ctx, organizationId, userId);
  const filter = parseInput(teamListFilterSchema, filterInput);
  const page = await keysetPage<TeamMemberRow>(
    ctx.db,
    {
      table: teamMembers,
      where: and(
        eq(teamMembers.organizationId, organizationId),
        eq(teamMembers.userId, userId),
        filter.title ? inArray(teamMembers.teamId, ctx.db.select({ id: teams.id }).from(teams).where(ilike(teams.title, likePattern(filter.title)))) : undefined,
      ),
      keys: memberTeamOrder,
      direction: 'asc',
    },
    args,
    max,
  );
  const rows = await teamById(ctx).loadMany(page.items.map((m) => m.teamId));
  return mapPage(page, (m, i) => ({ role: m.role, team: rows[i] as TeamRow }));
}

/** A team with members, for seeding. System use: no caller to authorize. */
export async function bootstrapTeam(db: Db, organizationId: string, title: string, members: { userId: string; role: TeamRole }[]): Promise<TeamRow> {
  const [team] = await db.insert(teams).values({ id: newId(), organizationId, title: parseInput(teamTitleSchema, title) }).returning();
  if (members.length) await db.insert(teamMembers).values(members.map((m) => ({ teamId: team.id, organizationId, ...m })));
  return team;
}
