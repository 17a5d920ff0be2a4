import { encodeGlobalID } from '@pothos/plugin-relay';
import { pageLoader } from '../../app/loaders';
import { NotFoundError } from '../../domain/errors';
import type { Page } from '../../domain/page';
import { builder } from '../../graphql/builder';
import { orNull, runMutation, userErrorsField } from '../../graphql/errors';
import { OrganizationMemberRef, OrganizationRef, TeamMembershipRef, TeamRef, TeamRoleEnum, UserRef } from '../../graphql/refs';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../graphql/relay';
import { memberRow } from '../members/service';
import { getOrganization } from '../organizations/service';
import { getUser } from '../users/service';
import {
  countTeamMembers,
  createTeam,
  deleteTeam,
  getTeam,
  listMembersOfTeams,
  loadTeam,
  removeTeamMember,
  setTeamMember,
  updateTeam,
  updateTeamMembers,
} from './service';
import type { TeamMemberRow } from './table';

builder.node(TeamRef, {
  description: 'A group of members of an organization, managed by its owners.',
  id: { resolve: (t) => t.id },
  loadOne: async (id, ctx) => {
    const team = await loadTeam(ctx, id);
    return team ? orNull(getTeam(ctx, team.organizationId, id)) : null;
  },
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
        resolve: async (team, args, ctx) => {
          const page = await pageLoader<Page<TeamMemberRow>>(ctx, 'Team.members', connectionArgs(args), async (ids) =>
            listMembersOfTeams(ctx, (await Promise.all(ids.map((id) => loadTeam(ctx, id)))).filter((x) => x != null), connectionArgs(args), GRAPHQL_MAX),
          ).load(team.id);
          return pageToConnection(page);
        },
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
    member: t.field({
      type: OrganizationMemberRef,
      description: 'Their membership of the organization.',
      resolve: (m, _, ctx) => memberRow(ctx, m.organizationId, m.userId),
    }),
    team: t.field({ type: TeamRef, description: 'The team.', resolve: (m, _, ctx) => getTeam(ctx, m.organizationId, m.teamId) }),
    addedAt: t.expose('addedAt', { type: 'DateTime', description: 'When they were added to the team.' }),
  }),
});

/** The team behind a global ID, through the same visibility checks as REST. */
async function teamOrMissing(ctx: Parameters<typeof loadTeam>[0], id: string) {
  const team = await loadTeam(ctx, id);
  if (!team) throw new NotFoundError('Team');
  return getTeam(ctx, team.organizationId, id);
}

builder.relayMutationField(
  'teamCreate',
  {
    description: 'Input of teamCreate.',
    inputFields: (t) => ({
      organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to create the team in.' }),
      title: t.string({ required: true, description: 'Name of the team, 1 to 64 characters.' }),
      members: t.stringList({ description: 'User ids or e-mails of organization members to add.' }),
    }),
  },
  {
    description: 'Creates a team, optionally with members. Organization admins only.',
    resolve: (_, { input }, ctx) =>
      runMutation(async () => ({
        team: await createTeam(ctx, input.organizationId.id, { title: input.title, ...(input.members ? { members: input.members } : {}) }),
      })),
  },
  {
    description: 'Result of teamCreate.',
    outputFields: (t) => ({
      team: t.field({ type: TeamRef, nullable: true, description: 'The new team.', resolve: (p) => p.team ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'teamUpdate',
  {
    description: 'Input of teamUpdate.',
    inputFields: (t) => ({
      teamId: t.globalID({ for: TeamRef, required: true, description: 'The team to rename.' }),
      title: t.string({ required: true, description: 'New name, 1 to 64 characters.' }),
    }),
  },
  {
    description: 'Renames a team. Organization admins and team owners.',
    resolve: async (_, { input }, ctx) =>
      runMutation(async () => {
        const team = await teamOrMissing(ctx, input.teamId.id);
        return { team: await updateTeam(ctx, team.organizationId, team.id, { title: input.title }) };
      }),
  },
  {
    description: 'Result of teamUpdate.',
    outputFields: (t) => ({
      team: t.field({ type: TeamRef, nullable: true, description: 'The team after the change.', resolve: (p) => p.team ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'teamDelete',
  {
    description: 'Input of teamDelete.',
    inputFields: (t) => ({ teamId: t.globalID({ for: TeamRef, required: true, description: 'The team to delete.' }) }),
  },
  {
    description: 'Deletes a team; its members stay in the organization. Deleting a missing team succeeds.',
    resolve: async (_, { input }, ctx) =>
      runMutation(async () => {
        const team = await loadTeam(ctx, input.teamId.id);
        if (team) await deleteTeam(ctx, team.organizationId, team.id);
        return { deletedTeamId: encodeGlobalID('Team', input.teamId.id) };
      }),
  },
  {
    description: 'Result of teamDelete.',
    outputFields: (t) => ({
      deletedTeamId: t.id({ nullable: true, description: 'Global ID of the team that no longer exists.', resolve: (p) => p.deletedTeamId ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

const TeamMembershipRoleInput = builder.inputType('TeamMembershipRoleInput', {
  description: 'The team role to give one user.',
  fields: (t) => ({
    user: t.string({ required: true, description: 'User id or e-mail of an organization member.' }),
    role: t.field({ type: TeamRoleEnum, required: true, description: 'Their role in the team.' }),
  }),
});

builder.relayMutationField(
  'teamMembersUpdate',
  {
    description: 'Input of teamMembersUpdate.',
    inputFields: (t) => ({
      teamId: t.globalID({ for: TeamRef, required: true, description: 'The team to change.' }),
      add: t.stringList({ description: 'User ids or e-mails of organization members to add.' }),
      remove: t.stringList({ description: 'User ids or e-mails to remove.' }),
      roles: t.field({ type: [TeamMembershipRoleInput], description: 'Team roles to set, for users added now or already members.' }),
    }),
  },
  {
    description: 'Adds, removes and re-roles team members at once. A user both added and removed ends up removed.',
    resolve: async (_, { input }, ctx) =>
      runMutation(async () => {
        const team = await teamOrMissing(ctx, input.teamId.id);
        const memberships = Object.fromEntries((input.roles ?? []).map((r) => [r.user, { role: r.role }]));
        await updateTeamMembers(ctx, team.organizationId, team.id, { add: input.add ?? [], remove: input.remove ?? [], memberships });
        return { team };
      }),
  },
  {
    description: 'Result of teamMembersUpdate.',
    outputFields: (t) => ({
      team: t.field({ type: TeamRef, nullable: true, description: 'The team after the change.', resolve: (p) => p.team ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'teamMemberSet',
  {
    description: 'Input of teamMemberSet.',
    inputFields: (t) => ({
      teamId: t.globalID({ for: TeamRef, required: true, description: 'The team.' }),
      memberId: t.globalID({ for: OrganizationMemberRef, required: true, description: 'The organization member to add or change.' }),
      role: t.field({ type: TeamRoleEnum, description: 'Their role in the team; MEMBER when absent.' }),
    }),
  },
  {
    description: 'Adds an organization member to a team, or changes their team role.',
    resolve: async (_, { input }, ctx) =>
      runMutation(async () => {
        const team = await teamOrMissing(ctx, input.teamId.id);
        const userId = input.memberId.id.split('/')[1] ?? '';
        await setTeamMember(ctx, team.organizationId, team.id, userId, input.role ? { role: input.role } : {});
        return { team };
      }),
  },
  {
    description: 'Result of teamMemberSet.',
    outputFields: (t) => ({
      team: t.field({ type: TeamRef, nullable: true, description: 'The team after the change.', resolve: (p) => p.team ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'teamMemberRemove',
  {
    description: 'Input of teamMemberRemove.',
    inputFields: (t) => ({
      teamId: t.globalID({ for: TeamRef, required: true, description: 'The team.' }),
      memberId: t.globalID({ for: OrganizationMemberRef, required: true, description: 'The organization member to remove.' }),
    }),
  },
  {
    description: 'Removes someone from a team; removing a non-member succeeds.',
    resolve: async (_, { input }, ctx) =>
      runMutation(async () => {
        const team = await teamOrMissing(ctx, input.teamId.id);
        await removeTeamMember(ctx, team.organizationId, team.id, input.memberId.id.split('/')[1] ?? '');
        return { team };
      }),
  },
  {
    description: 'Result of teamMemberRemove.',
    outputFields: (t) => ({
      team: t.field({ type: TeamRef, nullable: true, description: 'The team after the change.', resolve: (p) => p.team ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);
