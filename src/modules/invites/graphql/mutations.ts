import { RoleEnum } from '../../../graphql/enums';
import { defineMutation } from '../../../graphql/mutation';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getOrganization } from '../../organizations/service';
import { createLinkInvite, deleteLinkInvite, joinWithLinkInvite, updateLinkInvite } from '../service';
import { LinkInvite } from './refs';

defineMutation('organizationLinkInviteCreate', {
  description: 'Creates an invite link. Organization admins only.',
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to invite into.' }),
    role: t.field({ type: RoleEnum, description: 'Role for people who join through it; null (or absent) for guests.' }),
  }),
  payload: { invite: { type: LinkInvite, description: 'The new invite link.' } },
  resolve: async ({ organizationId, role }, ctx) => ({ invite: await createLinkInvite(ctx, organizationId.id, { role: role ?? null }) }),
});

defineMutation('organizationLinkInviteDelete', {
  description: 'Revokes an invite link; revoking a missing one succeeds. Organization admins only.',
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization.' }),
    inviteId: t.string({ required: true, description: 'REST id of the invite link.' }),
  }),
  payload: { deletedInviteId: { type: 'String', description: 'REST id of the revoked link.' } },
  gone: ({ inviteId }) => ({ deletedInviteId: inviteId }),
  resolve: async ({ organizationId, inviteId }, ctx) => {
    await deleteLinkInvite(ctx, organizationId.id, inviteId);
    return { deletedInviteId: inviteId };
  },
});

defineMutation('organizationLinkInviteUpdate', {
  description: 'Changes the role an invite link gives. Organization admins only.',
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization.' }),
    inviteId: t.string({ required: true, description: 'REST id of the invite link.' }),
    role: t.field({ type: RoleEnum, description: 'Role for people who join through it from now on; null (or absent) for guests.' }),
  }),
  payload: { invite: { type: LinkInvite, description: 'The invite link after the change.' } },
  resolve: async ({ organizationId, inviteId, role }, ctx) => ({ invite: await updateLinkInvite(ctx, organizationId.id, inviteId, { role: role ?? null }) }),
});

defineMutation('organizationJoin', {
  description:
    "Joins an organization through one of its invite links, with the link's role; joining one you already belong to changes nothing. Refused when the organization turned invite links off, for an integration's token, and for a single sign-on token of another organization.",
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to join.' }),
    inviteId: t.string({ required: true, description: 'REST id of the invite link: the secret part of the link.' }),
  }),
  payload: { organization: { type: OrganizationRef, description: 'The organization joined.' } },
  resolve: async ({ organizationId, inviteId }, ctx) => {
    await joinWithLinkInvite(ctx, organizationId.id, inviteId);
    return { organization: await getOrganization(ctx, organizationId.id) };
  },
});
