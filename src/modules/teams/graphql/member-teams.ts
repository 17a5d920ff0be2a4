import { builder } from '../../../graphql/builder';
import { TeamRoleEnum } from '../../../graphql/enums';
import { batchedConnection, GRAPHQL_MAX, totalCountField } from '../../../graphql/relay';
import type { MemberRow } from '../../../db/schema/members';
import { OrganizationMemberRef } from '../../members/graphql/refs';
import type { TeamRow } from '../../../db/schema/teams';
import type { PageArgs } from '../../../domain/page';
import type { TeamRole } from '../../../domain/roles';
import { listTeamsOfMembers, memberKey } from '../service';
import { TeamRef } from './refs';

/* The teams of one member, as REST's /orgs/{id}/members/{userId}/teams lists them. */

const MemberTeamRef = builder.objectRef<{ role: TeamRole; team: TeamRow }>('OrganizationMemberTeam').implement({
  description: 'A team a member belongs to, with their role in it.',
  fields: (t) => ({
    team: t.field({ type: TeamRef, description: 'The team.', resolve: (m) => m.team }),
    role: t.field({ type: TeamRoleEnum, description: 'Their role in the team.', resolve: (m) => m.role }),
  }),
});

/** One statement for the teams of every member of a page, not one per member. */
const teamsOfMembers = batchedConnection<{ id: string; member: MemberRow }, { role: TeamRole; team: TeamRow }, PageArgs & { title?: string | null }>(
  'memberTeams',
  (ctx, parents, args) => listTeamsOfMembers(ctx, parents.map((p) => p.member), { title: args.title ?? undefined }, args, GRAPHQL_MAX),
);

builder.objectFields(OrganizationMemberRef, (t) => ({
  teams: t.connection(
    {
      type: MemberTeamRef,
      description: 'The teams of the organization they belong to, in the order they joined them.',
      args: { title: t.arg.string({ description: 'Only teams whose title contains this text.' }) },
      resolve: (m, args, ctx, info) => teamsOfMembers({ id: memberKey(m), member: m }, args, ctx, info),
    },
    { name: 'OrganizationMemberTeamConnection', description: "A page of a member's teams.", fields: totalCountField },
    { name: 'OrganizationMemberTeamEdge', description: "One of a member's teams, with its cursor." },
  ),
}));
