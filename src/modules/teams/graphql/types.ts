import type { PageArgs } from '../../../domain/page';
import { builder } from '../../../graphql/builder';
import { TeamRoleEnum } from '../../../graphql/enums';
import { orNull } from '../../../graphql/errors';
import { batchedConnection, GRAPHQL_MAX, totalCountField } from '../../../graphql/relay';
import { OrganizationMemberRef } from '../../members/graphql/refs';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getOrganization } from '../../organizations/service';
import { UserRef } from '../../users/graphql/refs';
import { getUser } from '../../users/service';
import { countTeamMembers, getTeam, getTeamById, listMembersOfTeams, listTeamsOfOrganizations } from '../service';
import { TeamMembershipRef, TeamRef } from './refs';

builder.node(TeamRef, {
  description: 'A group of members of an organization, managed by its owners.',
  id: { resolve: (t) => t.id },
  loadOne: (id, ctx) => orNull(getTeamById(ctx, id)),
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of this team in the REST API (`/v1/orgs/{organizationId}/teams/{teamId}`).' }),
    title: t.exposeString('title', { description: 'Name of the team.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the team was created.' }),
    organization: t.field({ type: OrganizationRef, description: 'The organization the team belongs to.', resolve: (team, _, ctx) => getOrganization(ctx, team.organizationId) }),
    memberCount: t.int({ description: 'How many members the team has.', resolve: (team, _, ctx) => countTeamMembers(ctx, team.id) }),
    viewerCanAdminister: t.boolean({
      description: 'Whether the viewer may rename the team, delete it and manage its members.',
      resolve: (team, _, ctx) => ctx.authz.can('team:admin', team),
    }),
    members: t.connection(
      {
        type: TeamMembershipRef,
        description: 'Members of the team, in the order they were added.',
        resolve: batchedConnection('Team.members', (ctx, teams, args: PageArgs) => listMembersOfTeams(ctx, teams, args, GRAPHQL_MAX)),
      },
      { name: 'TeamMembershipConnection', description: 'A page of team members.', fields: totalCountField },
      { name: 'TeamMembershipEdge', description: 'A team member in a page, with its cursor.' },
    ),
  }),
});

TeamMembershipRef.implement({
  description: "A member's place in a team.",
  fields: (t) => ({
    role: t.field({ type: TeamRoleEnum, description: 'Their role in the team.', resolve: (m) => m.role }),
    user: t.field({ type: UserRef, description: 'The user.', resolve: (m, _, ctx) => getUser(ctx, m.userId) }),
    member: t.field({ type: OrganizationMemberRef, description: 'Their membership of the organization.', resolve: (m) => m.member }),
    team: t.field({ type: TeamRef, description: 'The team.', resolve: (m, _, ctx) => getTeam(ctx, m.organizationId, m.teamId) }),
    addedAt: t.expose('addedAt', { type: 'DateTime', description: 'When they were added to the team.' }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  teams: t.connection(
    {
      type: TeamRef,
      description: 'Teams of the organization, oldest first. Guests cannot list teams.',
      args: { title: t.arg.string({ description: 'Only teams whose title contains this text (case-insensitive).' }) },
      resolve: batchedConnection('Organization.teams', (ctx, orgs, { title, ...window }) =>
        listTeamsOfOrganizations(ctx, orgs, { title: title ?? undefined }, window, GRAPHQL_MAX),
      ),
    },
    { name: 'TeamConnection', description: 'A page of teams.', fields: totalCountField },
    { name: 'TeamEdge', description: 'A team in a page, with its cursor.' },
  ),
}));
