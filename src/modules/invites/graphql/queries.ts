import { builder } from '../../../graphql/builder';
import { orNull } from '../../../graphql/errors';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getLinkInvite, listLinkInvites } from '../service';
import { LinkInvite } from './refs';

builder.objectFields(OrganizationRef, (t) => ({
  linkInvites: t.connection(
    {
      type: LinkInvite,
      description: 'Its invite links, oldest first. Organization admins only.',
      resolve: async (org, args, ctx) => pageToConnection(await listLinkInvites(ctx, org.id, connectionArgs(args), GRAPHQL_MAX)),
    },
    { name: 'OrganizationLinkInviteConnection', description: 'A page of invite links.', fields: totalCountField },
    { name: 'OrganizationLinkInviteEdge', description: 'An invite link in a page, with its cursor.' },
  ),
  linkInvite: t.field({
    type: LinkInvite,
    nullable: true,
    description: 'One of its invite links; null when there is none with this id. Organization admins only.',
    args: { id: t.arg.string({ required: true, description: 'REST id of the invite link.' }) },
    resolve: (org, { id }, ctx) => orNull(getLinkInvite(ctx, org.id, id)),
  }),
}));
