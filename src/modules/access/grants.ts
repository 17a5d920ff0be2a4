import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { RequestContext } from '../../app/context';
import { keysetPage, type KeysetSpec } from '../../db/keyset';
import { NotFoundError, ValidationError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { Page, PageArgs } from '../../domain/page';
import type { Role } from '../../domain/roles';
import { parseInput } from '../../domain/validate';
import { organizationMembers } from '../members/table';
import { spaces } from '../spaces/table';
import { teams } from '../teams/table';
import { spaceGrantsByMember, spaceGrantsByTeam } from './loaders';
import { forgetContent, type Content, type Tx } from './service';
import { viewerMembership } from '../members/service';
import { visibleSpaces } from './visibility';
import { requireViewer } from '../../domain/authz';
import { grantInviteSchema, grantRoleSchema } from './input';
import { contentGrants, type ContentGrantRow } from './table';

export type Grantee = { kind: 'user'; id: string } | { kind: 'team'; id: string };

const onContent = (content: Content) =>
  content.kind === 'space' ? eq(contentGrants.spaceId, content.row.id) : eq(contentGrants.collectionId, content.row.id);
const forGrantee = (grantee: Grantee) => (grantee.kind === 'user' ? eq(contentGrants.userId, grantee.id) : eq(contentGrants.teamId, grantee.id));

async function assertAdmin(ctx: RequestContext, content: Content): Promise<void> {
  if (content.kind === 'space') await ctx.authz.assert('space:admin', content.row, 'Only admins of this space can manage who has access');
  else await ctx.authz.assert('collection:admin', content.row, 'Only admins of this collection can manage who has access');
}

/** The users among `ids` who are members of the organization (guests included); others are refused. */
async function checkGrantees(ctx: RequestContext, organizationId: string, users: string[], teamIds: string[]): Promise<void> {
  if (users.length) {
    const found = new Set(
      (
        await ctx.db
          .select({ id: organizationMembers.userId })
          .from(organizationMembers)
          .where(and(eq(organizationMembers.organizationId, organizationId), inArray(organizationMembers.userId, users)))
      ).map((r) => r.id),
    );
    const missing = users.find((u) => !found.has(u));
    if (missing) throw new ValidationError(`users: "${missing}" is not a member of the organization`, ['users']);
  }
  if (teamIds.length) {
    const found = new Set(
      (await ctx.db.select({ id: teams.id }).from(teams).where(and(eq(teams.organizationId, organizationId), inArray(teams.id, teamIds)))).map((r) => r.id),
    );
    const missing = teamIds.find((id) => !found.has(id));
    if (missing) throw new ValidationError(`teams: "${missing}" is not a team of the organization`, ['teams']);
  }
}

async function setGrants(ctx: RequestContext, content: Content, grantees: Grantee[], role: Role | null): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    for (const grantee of grantees) {
      await tx.delete(contentGrants).where(and(onContent(content), forGrantee(grantee)));
      if (role) {
        await tx.insert(contentGrants).values({
          id: newId(),
          organizationId: content.row.organizationId,
          spaceId: content.kind === 'space' ? content.row.id : null,
          collectionId: content.kind === 'collection' ? content.row.id : null,
          userId: grantee.kind === 'user' ? grantee.id : null,
          teamId: grantee.kind === 'team' ? grantee.id : null,
          role,
          createdAt: ctx.now(),
        });
      }
    }
  });
  forgetContent(ctx);
}

/** Gives users and teams a role on the content; a null role takes their access away. */
export async function inviteToContent(ctx: RequestContext, content: Content, input: unknown): Promise<void> {
  const { role, users = [], teams: teamIds = [] } = parseInput(grantInviteSchema, input);
  await assertAdmin(ctx, content);
  await checkGrantees(ctx, content.row.organizationId, [...new Set(users)], [...new Set(teamIds)]);
  const grantees: Grantee[] = [
    ...[...new Set(users)].map((id) => ({ kind: 'user' as const, id })),
    ...[...new Set(teamIds)].map((id) => ({ kind: 'team' as const, id })),
  ];
  await setGrants(ctx, content, grantees, role);
}

/** Changes one grantee's role on the content; the user or team must belong to the organization. */
export async function setContentGrant(ctx: RequestContext, content: Content, grantee: Grantee, input: unknown): Promise<void> {
  const { role } = parseInput(grantRoleSchema, input);
  await assertAdmin(ctx, content);
  try {
    await checkGrantees(ctx, content.row.organizationId, grantee.kind === 'user' ? [grantee.id] : [], grantee.kind === 'team' ? [grantee.id] : []);
  } catch {
    throw new NotFoundError(grantee.kind === 'user' ? 'Member' : 'Team');
  }
  await setGrants(ctx, content, [grantee], role);
}

/** Removing access someone does not have succeeds. */
export async function removeContentGrant(ctx: RequestContext, content: Content, grantee: Grantee): Promise<void> {
  await assertAdmin(ctx, content);
  await ctx.db.delete(contentGrants).where(and(onContent(content), forGrantee(grantee)));
  forgetContent(ctx);
}

/** Grants in the order they were given; the id breaks ties. */
const byGrantTime: KeysetSpec<ContentGrantRow>['keys'] = [
  { column: contentGrants.createdAt, value: (g) => g.createdAt },
  { column: contentGrants.id, value: (g) => g.id },
];

/** Grants on the content to users (`kind: 'user'`) or to teams, oldest first. */
export async function listContentGrants(ctx: RequestContext, content: Content, kind: Grantee['kind'], args: PageArgs, max: number): Promise<Page<ContentGrantRow>> {
  return keysetPage<ContentGrantRow>(
    ctx.db,
    {
      table: contentGrants,
      where: and(onContent(content), kind === 'user' ? isNotNull(contentGrants.userId) : isNotNull(contentGrants.teamId)),
      keys: byGrantTime,
      direction: 'asc',
    },
    args,
    max,
  );
}


/**
 * The spaces a member was given access to directly, with the role; newest first unless asked. Only
 * spaces the viewer may see themselves are listed.
 */
export async function listUserSpaceGrants(ctx: RequestContext, organizationId: string, userId: string, order: 'asc' | 'desc', args: PageArgs, max: number): Promise<Page<ContentGrantRow>> {
  const viewer = requireViewer(ctx);
  const seen = sql`exists (select 1 from ${spaces} where ${spaces.id} = ${contentGrants.spaceId} and ${spaces.deletedAt} is null and ${visibleSpaces(viewer.user.id)})`;
  return keysetPage<ContentGrantRow>(
    ctx.db,
    {
      table: contentGrants,
      where: and(eq(contentGrants.organizationId, organizationId), eq(contentGrants.userId, userId), isNotNull(contentGrants.spaceId), seen),
      keys: byGrantTime,
      direction: order,
    },
    args,
    max,
  );
}

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
export async function grantCreator(ctx: RequestContext, tx: Tx, content: Content): Promise<void> {
  const viewer = requireViewer(ctx);
  if ((await viewerMembership(ctx, content.row.organizationId))?.role === 'admin') return;
  const grantee: Grantee = { kind: 'user', id: viewer.user.id };
  await tx.delete(contentGrants).where(and(onContent(content), forGrantee(grantee)));
  await tx.insert(contentGrants).values({
    id: newId(),
    organizationId: content.row.organizationId,
    spaceId: content.kind === 'space' ? content.row.id : null,
    collectionId: content.kind === 'collection' ? content.row.id : null,
    userId: viewer.user.id,
    role: 'admin',
    createdAt: ctx.now(),
  });
}
