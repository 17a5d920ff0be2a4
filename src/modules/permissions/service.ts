import { and, eq, inArray, isNotNull, type SQL } from 'drizzle-orm';
import { contentRole, forgetContentAccess, type Content } from '../../access-control/content';
import { byTimeThenId, keysetPage } from '../../db/keyset';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { NotFoundError, ValidationError } from '../../domain/errors';
import { mapPage, type Page, type PageArgs } from '../../domain/page';
import type { Role } from '../../domain/roles';
import { parseInput } from '../../domain/validate';
import { organizationMembers } from '../../db/schema/members';
import { getOrganization } from '../organizations/service';
import type { OrganizationRow } from '../../db/schema/organizations';
import { teamById } from '../teams/service';
import { teamMembers, teams, type TeamRow } from '../../db/schema/teams';
import { userById } from '../users/service';
import type { UserRow } from '../../db/schema/users';
import { grantInviteSchema, grantRoleSchema, type GrantInviteInput, type GrantRoleInput } from './input';
import { forGrantee, onContent, writeGrants, type Grantee } from '../../access-control/grants';
import { contentGrants, type ContentGrantRow } from '../../db/schema/permissions';

export type { Content } from '../../access-control/content';
export type { Grantee } from '../../access-control/grants';

/** The viewer's role on a space or collection; null when they have none. */
export function viewerContentRole(ctx: RequestContext, content: Content): Promise<Role | null> {
  return contentRole(ctx, content);
}

async function assertAdmin(ctx: RequestContext, content: Content): Promise<void> {
  if (content.kind === 'space') await ctx.authz.assert('space:admin', content.row, 'Only admins of this space can manage who has access');
  else await ctx.authz.assert('collection:admin', content.row, 'Only admins of this collection can manage who has access');
}

/**
 * Refuses users who are not members of the organization (guests are) and teams of other
 * organizations. The error's field names the refused entry by its place in the input list.
 */
async function checkGrantees(ctx: RequestContext, organizationId: string, userIds: string[], teamIds: string[]): Promise<void> {
  if (userIds.length) {
    const rows = await ctx.db
      .select({ id: organizationMembers.userId })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), inArray(organizationMembers.userId, userIds)));
    const found = new Set(rows.map((r) => r.id));
    const missing = userIds.find((u) => !found.has(u));
    if (missing) throw new ValidationError(`The user "${missing}" is not a member of the organization`, ['users', String(userIds.indexOf(missing))]);
  }
  if (teamIds.length) {
    const rows = await ctx.db.select({ id: teams.id }).from(teams).where(and(eq(teams.organizationId, organizationId), inArray(teams.id, teamIds)));
    const found = new Set(rows.map((r) => r.id));
    const missing = teamIds.find((id) => !found.has(id));
    if (missing) throw new ValidationError(`The team "${missing}" is not a team of the organization`, ['teams', String(teamIds.indexOf(missing))]);
  }
}

async function setGrants(ctx: RequestContext, content: Content, grantees: Grantee[], role: Role | null): Promise<void> {
  await ctx.db.transaction((tx) => writeGrants(tx, content, grantees, role, ctx.now()));
  forgetContentAccess(ctx);
}

/**
 * Gives users and teams a role on content the caller can see; a null role takes their access
 * away. Either every grantee is valid and all are written, or nothing is.
 */
export async function inviteToContent(ctx: RequestContext, content: Content, input: GrantInviteInput): Promise<void> {
  await assertAdmin(ctx, content);
  const { role, users = [], teams: teamIds = [] } = parseInput(grantInviteSchema, input);
  await checkGrantees(ctx, content.row.organizationId, users, teamIds);
  const userIds = [...new Set(users)];
  const uniqueTeams = [...new Set(teamIds)];
  const grantees: Grantee[] = [...userIds.map((id) => ({ kind: 'user' as const, id })), ...uniqueTeams.map((id) => ({ kind: 'team' as const, id }))];
  await setGrants(ctx, content, grantees, role);
}

/** The grantee a path names, which must belong to the content's organization: NOT_FOUND otherwise. */
async function assertGranteeInOrganization(ctx: RequestContext, content: Content, grantee: Grantee): Promise<void> {
  const organizationId = content.row.organizationId;
  const found =
    grantee.kind === 'user'
      ? await ctx.db
          .select({ id: organizationMembers.userId })
          .from(organizationMembers)
          .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, grantee.id)))
      : await ctx.db.select({ id: teams.id }).from(teams).where(and(eq(teams.organizationId, organizationId), eq(teams.id, grantee.id)));
  if (found.length === 0) throw new NotFoundError(grantee.kind === 'user' ? 'Member' : 'Team');
}

/** Changes one grantee's role on the content; a user or team outside the organization is NOT_FOUND. */
export async function setContentGrant(ctx: RequestContext, content: Content, grantee: Grantee, input: GrantRoleInput): Promise<void> {
  await assertAdmin(ctx, content);
  const { role } = parseInput(grantRoleSchema, input);
  await assertGranteeInOrganization(ctx, content, grantee);
  await setGrants(ctx, content, [grantee], role);
}

/**
 * Removes one grantee's access to the content. Removing access a member or team of the
 * organization does not have succeeds; one outside the organization is NOT_FOUND, as for a change.
 */
export async function removeContentGrant(ctx: RequestContext, content: Content, grantee: Grantee): Promise<void> {
  await assertAdmin(ctx, content);
  await assertGranteeInOrganization(ctx, content, grantee);
  await ctx.db.delete(contentGrants).where(and(onContent(content), forGrantee(grantee)));
  forgetContentAccess(ctx);
}

export interface UserGrant {
  role: Role;
  user: UserRow;
  grantedAt: Date;
}

export interface TeamGrant {
  role: Role;
  team: TeamRow;
  grantedAt: Date;
}

function grantsPage(ctx: RequestContext, where: SQL | undefined, args: PageArgs, max: number): Promise<Page<ContentGrantRow>> {
  return keysetPage<ContentGrantRow>(
    ctx.db,
    { table: contentGrants, where, keys: byTimeThenId(contentGrants.createdAt, (g) => g.createdAt, contentGrants.id), direction: 'asc' },
    args,
    max,
  );
}

/** Grants to users on content the caller can see, oldest first. */
export async function listUserGrants(ctx: RequestContext, content: Content, args: PageArgs, max: number): Promise<Page<UserGrant>> {
  requireViewer(ctx);
  const page = await grantsPage(ctx, and(onContent(content), isNotNull(contentGrants.userId)), args, max);
  const users = await userById(ctx).loadMany(page.items.map((g) => g.userId!));
  return mapPage(page, (g, i) => ({ role: g.role, user: users[i] as UserRow, grantedAt: g.createdAt }));
}

/**
 * Grants to teams on content the caller can see, oldest first. Only teams the caller may see are
 * listed: all of the organization's for members with a role, their own teams for guests.
 */
export async function listTeamGrants(ctx: RequestContext, content: Content, args: PageArgs, max: number): Promise<Page<TeamGrant>> {
  const viewer = requireViewer(ctx);
  const org: OrganizationRow = await getOrganization(ctx, content.row.organizationId);
  const seenTeams = (await ctx.authz.can('organization:listMembers', org))
    ? undefined
    : inArray(contentGrants.teamId, ctx.db.select({ id: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, viewer.user.id)));
  const page = await grantsPage(ctx, and(onContent(content), isNotNull(contentGrants.teamId), seenTeams), args, max);
  const rows = await teamById(ctx).loadMany(page.items.map((g) => g.teamId!));
  return mapPage(page, (g, i) => ({ role: g.role, team: rows[i] as TeamRow, grantedAt: g.createdAt }));
}

/** Grantees named by ids in a path, for the REST operations on one grant. */
export function userGrantee(id: string): Grantee {
  return { kind: 'user', id };
}

export function teamGrantee(id: string): Grantee {
  return { kind: 'team', id };
}
