import { builder } from '../../graphql/builder';
import { runMutation, userErrorsField } from '../../graphql/errors';
import { OrganizationRef, RoleEnum } from '../../graphql/refs';
import { createLinkInvite, deleteLinkInvite } from './service';
import type { LinkInviteRow } from './table';

const LinkInvite = builder.objectRef<LinkInviteRow>('OrganizationLinkInvite').implement({
  description: 'An invite link: whoever holds it may join the organization with its role.',
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of the invite in the REST API; also the secret part of the link.' }),
    role: t.field({ type: RoleEnum, nullable: true, description: 'Role given to people who join; null makes them guests.', resolve: (i) => i.role }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the link was created.' }),
  }),
});

builder.relayMutationField(
  'organizationLinkInviteCreate',
  {
    description: 'Input of organizationLinkInviteCreate.',
    inputFields: (t) => ({
      organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to invite into.' }),
      role: t.field({ type: RoleEnum, description: 'Role for people who join through it; null (or absent) for guests.' }),
    }),
  },
  {
    description: 'Creates an invite link. Organization admins only.',
    resolve: (_, { input }, ctx) =>
      runMutation(async () => ({ invite: await createLinkInvite(ctx, input.organizationId.id, { role: input.role ?? null }) })),
  },
  {
    description: 'Result of organizationLinkInviteCreate.',
    outputFields: (t) => ({
      invite: t.field({ type: LinkInvite, nullable: true, description: 'The new invite link.', resolve: (p) => p.invite ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'organizationLinkInviteDelete',
  {
    description: 'Input of organizationLinkInviteDelete.',
    inputFields: (t) => ({
      organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization.' }),
      inviteId: t.string({ required: true, description: 'REST id of the invite link.' }),
    }),
  },
  {
    description: 'Revokes an invite link; revoking a missing one succeeds. Organization admins only.',
    resolve: (_, { input }, ctx) =>
      runMutation(async () => {
        await deleteLinkInvite(ctx, input.organizationId.id, input.inviteId);
        return { deletedInviteId: input.inviteId };
      }),
  },
  {
    description: 'Result of organizationLinkInviteDelete.',
    outputFields: (t) => ({
      deletedInviteId: t.string({ nullable: true, description: 'REST id of the revoked link.', resolve: (p) => p.deletedInviteId ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);
