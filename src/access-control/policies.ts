import type { Action, ActionResources, MemberResource } from '../context/actions';
import type { RequestContext } from '../context/request-context';
import { roleAtLeast, type Role } from '../domain/roles';
import type { CollectionRow } from '../db/schema/collections';
import type { SpaceRow } from '../db/schema/spaces';
import { contentRole } from './content';
import { viewerMembership } from './membership';
import { ownedTeamCount, viewerTeamRole } from './team-roles';

/**
 * Every policy, one per action. A policy takes the loaded row and answers from the request's
 * loaders (membership, team role, content chain, grants); it never goes through a service. The
 * `Authz` of src/auth/authz.ts is the only caller, and asks only for a signed-in viewer.
 */
export type Policy<A extends Action> = (ctx: RequestContext, resource: ActionResources[A]) => boolean | Promise<boolean>;

const orgRole = async (ctx: RequestContext, organizationId: string) => {
  const membership = await viewerMembership(ctx, organizationId);
  return { member: membership !== undefined, role: membership?.role ?? null };
};

const isSelf = (ctx: RequestContext, r: MemberResource) => ctx.viewer?.user.id === r.member.userId;

type SpaceAction = Extract<Action, `space:${string}`>;

/** What each space action needs: a role on the space, and for changes, a space that is not locked. */
export const SPACE_RULES: Record<SpaceAction, { role: Role; unlocked?: true }> = {
  'space:view': { role: 'read' },
  'space:readContent': { role: 'read' },
  'space:comment': { role: 'comment' },
  'space:edit': { role: 'edit', unlocked: true },
  'space:review': { role: 'review' },
  'space:merge': { role: 'edit', unlocked: true },
  'space:admin': { role: 'admin' },
};

/** Whether a role allows a space action: the one rule the policies and the permission objects share. */
export function spaceAllows(action: SpaceAction, role: Role | null, row: Pick<SpaceRow, 'editMode'>): boolean {
  const rule = SPACE_RULES[action];
  return (!rule.unlocked || row.editMode !== 'locked') && roleAtLeast(role, rule.role);
}

const spacePolicy = (action: SpaceAction) => async (ctx: RequestContext, row: SpaceRow) => spaceAllows(action, await contentRole(ctx, { kind: 'space', row }), row);

const collectionAtLeast = (needed: Role) => async (ctx: RequestContext, row: CollectionRow) =>
  roleAtLeast(await contentRole(ctx, { kind: 'collection', row }), needed);

export const policies: { [A in Action]: Policy<A> } = {
  'organization:view': async (ctx, org) => (await orgRole(ctx, org.id)).member,
  'organization:admin': async (ctx, org) => (await orgRole(ctx, org.id)).role === 'admin',
  'organization:listMembers': async (ctx, org) => (await orgRole(ctx, org.id)).role !== null,
  'organization:createContent': async (ctx, org) => roleAtLeast((await orgRole(ctx, org.id)).role, 'create'),
  'organization:ownTeam': async (ctx, org) => {
    const { member, role } = await orgRole(ctx, org.id);
    if (!member) return false;
    return role === 'admin' || ((await ownedTeamCount(ctx).load(`${org.id}:${ctx.viewer!.user.id}`)) ?? 0) > 0;
  },

  'member:view': async (ctx, r) => (await ctx.authz.can('organization:view', r.organization)) && (isSelf(ctx, r) || ctx.authz.can('organization:listMembers', r.organization)),
  'member:remove': async (ctx, r) => (await ctx.authz.can('organization:view', r.organization)) && (isSelf(ctx, r) || ctx.authz.can('organization:admin', r.organization)),

  'team:view': async (ctx, team) => {
    const { member, role } = await orgRole(ctx, team.organizationId);
    return member && (role !== null || (await viewerTeamRole(ctx, team)) !== undefined);
  },
  'team:admin': async (ctx, team) => {
    const { member, role } = await orgRole(ctx, team.organizationId);
    return member && (role === 'admin' || (await viewerTeamRole(ctx, team)) === 'owner');
  },

  'site:view': async (ctx, site) => (await orgRole(ctx, site.organizationId)).role !== null,
  'site:readPublished': async (ctx, site) => (await orgRole(ctx, site.organizationId)).role !== null,
  'site:manage': async (ctx, site) => roleAtLeast((await orgRole(ctx, site.organizationId)).role, 'create'),
  'translation:view': async (ctx, row) => (await orgRole(ctx, row.organizationId)).role !== null,
  'translation:manage': async (ctx, row) => roleAtLeast((await orgRole(ctx, row.organizationId)).role, 'create'),
  'integration:view': async (ctx, row) => row.visibility !== 'private' || (await orgRole(ctx, row.ownerId)).member,
  'integration:publish': async (ctx, row) => (await orgRole(ctx, row.ownerId)).role === 'admin',
  'integration:operate': async (ctx, row) => (await orgRole(ctx, row.ownerId)).role === 'admin',
  'installation:view': async (ctx, row) => (await orgRole(ctx, row.organizationId)).role !== null,
  'installation:manage': async (ctx, row) => (await orgRole(ctx, row.organizationId)).role === 'admin',
  'collection:view': collectionAtLeast('read'),
  'collection:create': collectionAtLeast('create'),
  'collection:admin': collectionAtLeast('admin'),

  'space:view': spacePolicy('space:view'),
  'space:readContent': spacePolicy('space:readContent'),
  'space:comment': spacePolicy('space:comment'),
  'space:edit': spacePolicy('space:edit'),
  'space:review': spacePolicy('space:review'),
  'space:merge': spacePolicy('space:merge'),
  'space:admin': spacePolicy('space:admin'),
};
