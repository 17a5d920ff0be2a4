import type { RequestContext } from '../../context/request-context';
import { presentMember } from '../members/present';
import { countTeamMembers, countTeamSpaces, type TeamMembership } from './service';
import type { TeamRow } from '../../db/schema/teams';

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

export async function presentTeamMembership(ctx: RequestContext, membership: TeamMembership) {
  return {
    organization: await presentMember(ctx, membership.member),
    team: { role: membership.role },
    permissions: { view: true },
  };
}
