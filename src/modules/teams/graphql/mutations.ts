import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../../graphql/builder';
import { TeamRoleEnum } from '../../../graphql/enums';
import { defineMutation } from '../../../graphql/mutation';
import { OrganizationMemberRef, splitMemberNodeId } from '../../members/graphql/refs';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { createTeam, deleteTeam, getTeamById, removeTeamMember, setTeamMember, updateTeam, updateTeamMembers } from '../service';
import { TeamRef } from './refs';

const teamPayload = (description: string) => ({ team: { type: TeamRef, description } });

defineMutation('teamCreate', {
  description: 'Creates a team, optionally with members. Organization admins only.',
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to create the team in.' }),
    title: t.string({ required: true, description: 'Name of the team, 1 to 64 characters.' }),
    members: t.stringList({ description: 'User ids or e-mails of organization members to add.' }),
  }),
  payload: teamPayload('The new team.'),
  resolve: async ({ organizationId, title, members }, ctx) => ({ team: await createTeam(ctx, organizationId.id, { title, members: members ?? undefined }) }),
});

defineMutation('teamUpdate', {
  description: 'Renames a team. Organization admins and team owners.',
  input: (t) => ({
    teamId: t.globalID({ for: TeamRef, required: true, description: 'The team to rename.' }),
    title: t.string({ required: true, description: 'New name, 1 to 64 characters.' }),
  }),
  payload: teamPayload('The team after the change.'),
  resolve: async ({ teamId, title }, ctx) => ({ team: await updateTeam(ctx, await getTeamById(ctx, teamId.id), { title }) }),
});

defineMutation('teamDelete', {
  description: 'Deletes a team; its members stay in the organization. Organization admins and team owners.',
  input: (t) => ({ teamId: t.globalID({ for: TeamRef, required: true, description: 'The team to delete.' }) }),
  payload: { deletedTeamId: { type: 'ID', description: 'Global ID of the team that no longer exists.' } },
  gone: ({ teamId }) => ({ deletedTeamId: encodeGlobalID('Team', teamId.id) }),
  resolve: async ({ teamId }, ctx) => {
    const team = await getTeamById(ctx, teamId.id);
    await deleteTeam(ctx, team);
    return { deletedTeamId: encodeGlobalID('Team', team.id) };
  },
});

const TeamMembershipRoleInput = builder.inputType('TeamMembershipRoleInput', {
  description: 'The team role to give one user.',
  fields: (t) => ({
    user: t.string({ required: true, description: 'User id or e-mail of an organization member.' }),
    role: t.field({ type: TeamRoleEnum, required: true, description: 'Their role in the team.' }),
  }),
});

defineMutation('teamMembersUpdate', {
  description: 'Adds, removes and re-roles team members at once. A user both added and removed ends up removed.',
  input: (t) => ({
    teamId: t.globalID({ for: TeamRef, required: true, description: 'The team to change.' }),
    add: t.stringList({ description: 'User ids or e-mails of organization members to add.' }),
    remove: t.stringList({ description: 'User ids or e-mails to remove.' }),
    roles: t.field({ type: [TeamMembershipRoleInput], description: 'Team roles to set, for users added now or already members.' }),
  }),
  fields: { memberships: 'roles' },
  payload: teamPayload('The team after the change.'),
  resolve: async ({ teamId, add, remove, roles }, ctx) => {
    const team = await getTeamById(ctx, teamId.id);
    const memberships = Object.fromEntries((roles ?? []).map((r) => [r.user, { role: r.role }]));
    return { team: await updateTeamMembers(ctx, team, { add: add ?? [], remove: remove ?? [], memberships }) };
  },
});

defineMutation('teamMemberSet', {
  description: 'Adds an organization member to a team, or changes their team role.',
  input: (t) => ({
    teamId: t.globalID({ for: TeamRef, required: true, description: 'The team.' }),
    memberId: t.globalID({ for: OrganizationMemberRef, required: true, description: 'The organization member to add or change.' }),
    role: t.field({ type: TeamRoleEnum, description: 'Their role in the team; MEMBER when absent.' }),
  }),
  payload: teamPayload('The team after the change.'),
  resolve: async ({ teamId, memberId, role }, ctx) => ({
    team: await setTeamMember(ctx, await getTeamById(ctx, teamId.id), splitMemberNodeId(memberId.id).userId, { role: role ?? undefined }),
  }),
});

defineMutation('teamMemberRemove', {
  description: 'Removes someone from a team; removing a non-member succeeds.',
  input: (t) => ({
    teamId: t.globalID({ for: TeamRef, required: true, description: 'The team.' }),
    memberId: t.globalID({ for: OrganizationMemberRef, required: true, description: 'The organization member to remove.' }),
  }),
  payload: teamPayload('The team after the change.'),
  gone: () => ({}),
  resolve: async ({ teamId, memberId }, ctx) => ({
    team: await removeTeamMember(ctx, await getTeamById(ctx, teamId.id), splitMemberNodeId(memberId.id).userId),
  }),
});
