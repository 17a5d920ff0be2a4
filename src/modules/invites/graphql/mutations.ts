import { builder } from '../../../graphql/builder';
import { RoleEnum } from '../../../graphql/enums';
import { defineMutation } from '../../../graphql/mutation';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { createLinkInvite, deleteLinkInvite } from '../service';
import type { LinkInviteRow } from '../../../db/schema/invites';

const LinkInvite = builder.objectRef<LinkInviteRow>('OrganizationLinkInvite').implement({
  description: 'An invite link: whoever holds it may join the organization with its role.',
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of the invite in the REST API; also the secret part of the link.' }),
    role: t.field({ type: RoleEnum, nullable: true, description: 'Role given to people who join; null makes them guests.', resolve: (i) => i.role }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the link was created.' }),
  }),
});

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
  resolve: async ({ organizationId, inviteId }, ctx) => {
    await deleteLinkInvite(ctx, organizationId.id, inviteId);
    return { deletedInviteId: inviteId };
  },
});
