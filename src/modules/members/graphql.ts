import { encodeGlobalID } from '@pothos/plugin-relay';
import { DomainError } from '../../domain/errors';
import { builder } from '../../graphql/builder';
import { orNull, runMutation, userErrorsField } from '../../graphql/errors';
import { OrganizationMemberRef, OrganizationRef, RoleEnum, UserRef } from '../../graphql/refs';
import { getOrganization } from '../organizations/service';
import { getUser } from '../users/service';
import {
  getMember,
  inviteUsers,
  memberTeamCount,
  pingOrganization,
  removeMember,
  setMemberSso,
  updateMemberRole,
} from './service';

/** A member's global ID stands for the pair (organization, user). */
const memberNodeId = (organizationId: string, userId: string) => `${organizationId}/${userId}`;
const splitMemberNodeId = (id: string) => {
  const [organizationId, userId] = id.split('/');
  return { organizationId: organizationId ?? '', userId: userId ?? '' };
};

builder.node(OrganizationMemberRef, {
  description: "A user's membership of an organization, with their role there.",
  id: { resolve: (m) => memberNodeId(m.organizationId, m.userId) },
  loadOne: (id, ctx) => {
    const { organizationId, userId } = splitMemberNodeId(id);
    return orNull(getMember(ctx, organizationId, userId));
  },
  fields: (t) => ({
    restId: t.exposeString('userId', { description: 'The id of this member in the REST API: the user id.' }),
    role: t.field({ type: RoleEnum, nullable: true, description: 'Role in the organization; null for a guest.', resolve: (m) => m.role }),
    user: t.field({ type: UserRef, description: 'The user.', resolve: (m, _, ctx) => getUser(ctx, m.userId) }),
    organization: t.field({ type: OrganizationRef, description: 'The organization.', resolve: (m, _, ctx) => getOrganization(ctx, m.organizationId) }),
    disabled: t.exposeBoolean('disabled', { description: 'Whether the membership is disabled, blocking access to content.' }),
    sso: t.exposeBoolean('sso', { description: 'Whether the member signs in with single sign-on.' }),
    joinedAt: t.expose('joinedAt', { type: 'DateTime', description: 'When they joined.' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', nullable: true, description: 'When they were last active here.' }),
    teamCount: t.int({ description: 'How many teams of the organization they belong to.', resolve: (m, _, ctx) => memberTeamCount(ctx, m) }),
  }),
});

builder.relayMutationField(
  'memberUpdateRole',
  {
    description: 'Input of memberUpdateRole.',
    inputFields: (t) => ({
      memberId: t.globalID({ for: OrganizationMemberRef, required: true, description: 'The membership to change.' }),
      role: t.field({ type: RoleEnum, description: 'The new role; null (or absent) makes the member a guest.' }),
    }),
  },
  {
    description: "Changes a member's role. Admins only; the last admin cannot be demoted.",
    resolve: (_, { input }, ctx) => {
      const { organizationId, userId } = splitMemberNodeId(input.memberId.id);
      return runMutation(async () => ({ member: await updateMemberRole(ctx, organizationId, userId, { role: input.role ?? null }) }));
    },
  },
  {
    description: 'Result of memberUpdateRole.',
    outputFields: (t) => ({
      member: t.field({ type: OrganizationMemberRef, nullable: true, description: 'The membership after the change.', resolve: (p) => p.member ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'memberRemove',
  {
    description: 'Input of memberRemove.',
    inputFields: (t) => ({
      memberId: t.globalID({ for: OrganizationMemberRef, required: true, description: 'The membership to end.' }),
    }),
  },
  {
    description: 'Removes a member from the organization (admins), or leaves it (yourself). Their team memberships go too.',
    resolve: (_, { input }, ctx) => {
      const { organizationId, userId } = splitMemberNodeId(input.memberId.id);
      return runMutation(async () => {
        await removeMember(ctx, organizationId, userId);
        return { removedMemberId: input.memberId.id, organizationId };
      });
    },
  },
  {
    description: 'Result of memberRemove.',
    outputFields: (t) => ({
      removedMemberId: t.id({
        nullable: true,
        description: 'Global ID of the membership that no longer exists.',
        resolve: (p) => (p.removedMemberId ? encodeGlobalID('OrganizationMember', p.removedMemberId) : null),
      }),
      organization: t.field({
        type: OrganizationRef,
        nullable: true,
        description: 'The organization, as the caller now sees it (null after leaving).',
        resolve: (p, _, ctx) => (p.organizationId ? orNull(getOrganization(ctx, p.organizationId)) : null),
      }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'memberSetSso',
  {
    description: 'Input of memberSetSso.',
    inputFields: (t) => ({
      memberId: t.globalID({ for: OrganizationMemberRef, required: true, description: 'The membership to change.' }),
    }),
  },
  {
    description: 'Marks a member as signing in with single sign-on. Admins only.',
    resolve: (_, { input }, ctx) => {
      const { organizationId, userId } = splitMemberNodeId(input.memberId.id);
      return runMutation(async () => ({ member: await setMemberSso(ctx, organizationId, userId) }));
    },
  },
  {
    description: 'Result of memberSetSso.',
    outputFields: (t) => ({
      member: t.field({ type: OrganizationMemberRef, nullable: true, description: 'The membership after the change.', resolve: (p) => p.member ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

const InviteeInput = builder.inputType('OrganizationInviteeInput', {
  description: 'One person to invite, with the role they get.',
  fields: (t) => ({
    email: t.string({ required: true, description: 'Their e-mail address.' }),
    role: t.field({ type: RoleEnum, description: 'Their role; null makes them a guest. Absent: the mutation-wide role.' }),
  }),
});

builder.relayMutationField(
  'organizationInviteUsers',
  {
    description: 'Input of organizationInviteUsers.',
    inputFields: (t) => ({
      organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to invite into.' }),
      invitees: t.field({ type: [InviteeInput], required: true, description: 'Who to invite (1 to 100 people).' }),
      role: t.field({ type: RoleEnum, description: "Role for invitees without their own; the organization's default role when absent." }),
      sso: t.boolean({ description: 'Invite them as single sign-on members.' }),
    }),
  },
  {
    description: 'Adds people to an organization by e-mail; unknown addresses get new accounts. Admins only.',
    resolve: (_, { input }, ctx) =>
      runMutation(async () => {
        const emails = input.invitees.map((i) => (i.role === undefined ? i.email : { email: i.email, role: i.role }));
        const result = await inviteUsers(ctx, input.organizationId.id, {
          emails,
          ...(input.role !== undefined ? { role: input.role } : {}),
          ...(input.sso != null ? { sso: input.sso } : {}),
        }).catch((error: unknown) => {
          // The service names the REST body's `emails`; userErrors point at this input instead.
          if (!(error instanceof DomainError) || error.field?.[0] !== 'emails') throw error;
          throw new DomainError(error.code, error.message, error.field.length > 1 ? ['invitees', error.field[1], 'email'] : ['invitees']);
        });
        const members = await Promise.all(result.users.map((userId) => getMember(ctx, input.organizationId.id, userId)));
        return { members, invitedCount: result.invited };
      }),
  },
  {
    description: 'Result of organizationInviteUsers.',
    outputFields: (t) => ({
      members: t.field({ type: [OrganizationMemberRef], nullable: true, description: 'The memberships of everyone named, in order.', resolve: (p) => p.members ?? null }),
      invitedCount: t.int({ nullable: true, description: 'How many of them were not members before.', resolve: (p) => p.invitedCount ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'organizationPing',
  {
    description: 'Input of organizationPing.',
    inputFields: (t) => ({
      organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization the viewer is active in.' }),
    }),
  },
  {
    description: "Records the viewer's activity in the organization and returns signed visitor claims.",
    resolve: (_, { input }, ctx) =>
      runMutation(async () => ({
        ...(await pingOrganization(ctx, input.organizationId.id)),
        member: await getMember(ctx, input.organizationId.id, ctx.viewer!.user.id),
      })),
  },
  {
    description: 'Result of organizationPing.',
    outputFields: (t) => ({
      visitorClaims: t.string({ nullable: true, description: 'A signed JWT of the claims to attach to the viewer, valid one hour.', resolve: (p) => p.visitorClaims ?? null }),
      member: t.field({ type: OrganizationMemberRef, nullable: true, description: "The viewer's membership, with its new last-seen time.", resolve: (p) => p.member ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);
