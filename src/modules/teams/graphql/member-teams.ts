import { builder } from '../../../graphql/builder';
import { TeamRoleEnum } from '../../../graphql/enums';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import { OrganizationMemberRef } from '../../members/graphql/refs';
import type { TeamRow } from '../../../db/schema/teams';
import type { TeamRole } from '../../../domain/roles';
import { listMemberTeams } from '../service';
import { TeamRef } from './refs';

/* The teams of one member, as REST's /orgs/{id}/members/{userId}/teams lists them. */

const MemberTeamRef = builder.objectRef<{ role: TeamRole; team: TeamRow }>('OrganizationMemberTeam').implement({
  description: 'A team a member belongs to, with their role in it.',
  fields: (t) => ({
    team: t.field({ type: TeamRef, description: 'The team.', resolve: (m) => m.team }),
    role: t.field({ type: TeamRoleEnum, description: 'Their role in the team.', resolve: (m) => m.role }),
  }),
});

builder.objectFields(OrganizationMemberRef, (t) => ({
  teams: t.connection(
    {
      type: MemberTeamRef,
      description: 'The teams of the organization they belong to, in the order they joined them.',
      args: { title: t.arg.string({ description: 'Only teams whose title contains this text.' }) },
      resolve: async (m, args, ctx) =>
        pageToConnection(await listMemberTeams(ctx, m.organizationId, m.userId, { title: args.title ?? undefined }, connectionArgs(args), GRAPHQL_MAX)),
    },
    { name: 'OrganizationMemberTeamConnection', description: "A page of a member's teams.", fields: totalCountField },
    { name: 'OrganizationMemberTeamEdge', description: "One of a member's teams, with its cursor." },
  ),
}));
