import { definePolicies } from '../../domain/authz';
import { getOrganization } from '../organizations/service';
import { teamMemberByKey } from './loaders';
import type { TeamRow } from './table';

declare module '../../domain/authz' {
  interface ActionResources {
    /** See a team and its members: members who may list teams, and the team's own members. */
    'team:view': TeamRow;
    /** Rename, delete and manage members: organization admins and the team's owners. */
    'team:admin': TeamRow;
  }
}

async function viewerTeamRole(ctx: Parameters<typeof getOrganization>[0], team: TeamRow): Promise<string | undefined> {
  if (!ctx.viewer) return undefined;
  return (await teamMemberByKey(ctx).load({ teamId: team.id, userId: ctx.viewer.user.id }))?.role;
}

definePolicies({
  'team:view': async (ctx, team) => {
    const org = await getOrganization(ctx, team.organizationId);
    return (await ctx.authz.can('organization:listMembers', org)) || (await viewerTeamRole(ctx, team)) !== undefined;
  },
  'team:admin': async (ctx, team) => {
    const org = await getOrganization(ctx, team.organizationId);
    return (await ctx.authz.can('organization:admin', org)) || (await viewerTeamRole(ctx, team)) === 'owner';
  },
});
