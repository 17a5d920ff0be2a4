import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../../graphql/builder';
import { RoleEnum } from '../../../graphql/enums';
import { orNull } from '../../../graphql/errors';
import { defineMutation } from '../../../graphql/mutation';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getOrganization } from '../../organizations/service';
import { getMember, inviteUsers, pingOrganization, removeMember, setMemberSso, updateMemberRole } from '../service';
import { OrganizationMemberRef, splitMemberNodeId } from './refs';

defineMutation('memberUpdateRole', {
  description: "Changes a member's role. Admins only; the last admin cannot be demoted.",
  input: (t) => ({
    memberId: t.globalID({ for: OrganizationMemberRef, required: true, description: 'The membership to change.' }),
    role: t.field({ type: RoleEnum, description: 'The new role; null (or absent) makes the member a guest.' }),
  }),
  payload: { member: { type: OrganizationMemberRef, description: 'The membership after the change.' } },
  resolve: async ({ memberId, role }, ctx) => {
    const { organizationId, userId } = splitMemberNodeId(memberId.id);
    return { member: await updateMemberRole(ctx, organizationId, userId, { role: role ?? null }) };
  },
});

defineMutation('memberRemove', {
  description: 'Removes a member from the organization (admins), or leaves it (yourself). Their team memberships go too.',
  input: (t) => ({ memberId: t.globalID({ for: OrganizationMemberRef, required: true, description: 'The membership to end.' }) }),
  payload: {
    removedMemberId: { type: 'ID', description: 'Global ID of the membership that no longer exists.' },
    organization: { type: OrganizationRef, description: 'The organization, as the caller now sees it (null after leaving).' },
  },
  gone: ({ memberId }) => ({ removedMemberId: encodeGlobalID('OrganizationMember', memberId.id), organization: null }),
  resolve: async ({ memberId }, ctx) => {
    const { organizationId, userId } = splitMemberNodeId(memberId.id);
    await removeMember(ctx, organizationId, userId);
    return { removedMemberId: encodeGlobalID('OrganizationMember', memberId.id), organization: await orNull(getOrganization(ctx, organizationId)) };
  },
});

defineMutation('memberSetSso', {
  description: 'Marks a member as signing in with single sign-on. Admins only.',
  input: (t) => ({ memberId: t.globalID({ for: OrganizationMemberRef, required: true, description: 'The membership to change.' }) }),
  payload: { member: { type: OrganizationMemberRef, description: 'The membership after the change.' } },
  resolve: async ({ memberId }, ctx) => {
    const { organizationId, userId } = splitMemberNodeId(memberId.id);
    return { member: await setMemberSso(ctx, organizationId, userId) };
  },
});

const InviteeInput = builder.inputType('OrganizationInviteeInput', {
  description: 'One person to invite, with the role they get.',
  fields: (t) => ({
    email: t.string({ required: true, description: 'Their e-mail address.' }),
    role: t.field({ type: RoleEnum, description: 'Their role; null makes them a guest. Absent: the mutation-wide role.' }),
  }),
});

defineMutation('organizationInviteUsers', {
  description: 'Adds people to an organization by e-mail; unknown addresses get new accounts. Admins only.',
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to invite into.' }),
    invitees: t.field({ type: [InviteeInput], required: true, description: 'Who to invite (1 to 100 people).' }),
    role: t.field({ type: RoleEnum, description: "Role for invitees without their own; the organization's default role when absent." }),
    sso: t.boolean({ description: 'Invite them as single sign-on members.' }),
  }),
  fields: { emails: 'invitees' },
  payload: {
    members: { type: [OrganizationMemberRef], description: 'The memberships of everyone named, in order.' },
    invitedCount: { type: 'Int', description: 'How many of them were not members before.' },
  },
  resolve: async ({ organizationId, invitees, role, sso }, ctx) => {
    const result = await inviteUsers(ctx, organizationId.id, {
      emails: invitees.map((i) => ({ email: i.email, role: i.role })),
      role,
      sso: sso ?? undefined,
    });
    const members = await Promise.all(result.users.map((userId) => getMember(ctx, organizationId.id, userId)));
    return { members, invitedCount: result.invited };
  },
});

defineMutation('organizationPing', {
  description: "Records the viewer's activity in the organization and returns signed visitor claims.",
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization the viewer is active in.' }),
  }),
  payload: {
    visitorClaims: { type: 'String', description: 'A signed JWT of the claims to attach to the viewer, valid one hour.' },
    member: { type: OrganizationMemberRef, description: "The viewer's membership, with its new last-seen time." },
  },
  resolve: ({ organizationId }, ctx) => pingOrganization(ctx, organizationId.id),
});
