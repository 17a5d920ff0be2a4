import type { RequestContext } from '../../app/context';
import { countTeamSpaces } from '../access/service';
import { presentMember } from '../members/present';
import { memberRow } from '../members/service';
import { countTeamMembers } from './service';
import type { TeamMemberRow, TeamRow } from './table';

export async function presentTeam(ctx: RequestContext, team: TeamRow) {
  const [members, spaces, admin, view] = await Promise.all([
    countTeamMembers(ctx, team.id),
    countTeamSpaces(ctx, team.id),
    ctx.authz.can('team:admin', team),
    ctx.authz.can('team:view', team),
  ]);
  return {
    object: 'team' as const,
    id: team.id,
    title: team.title,
    members,
    spaces,
    createdAt: team.createdAt.toISOString(),
    permissions: { admin, view },
  };
}

export async function presentTeamMembership(ctx: RequestContext, row: TeamMemberRow) {
  return {
    organization: await presentMember(ctx, await memberRow(ctx, row.organizationId, row.userId)),
    team: { role: row.role },
    permissions: { view: true },
  };
}
