import { connectionArgs, GRAPHQL_MAX, pageToConnection } from '../../../graphql/relay';
import { ChangeRequestRef } from '../../change-requests/graphql/refs';
import { OrganizationMemberConnection, OrganizationMemberRef } from '../../members/graphql/refs';
import { SpaceRef } from '../../spaces/graphql/refs';
import { builder } from '../../../graphql/builder';
import { getDiscussion, listCommenters } from '../service';

/* Who took part in a discussion, as REST's /commenters lists them. */

builder.objectFields(SpaceRef, (t) => ({
  commenters: t.connection(
    {
      type: OrganizationMemberRef,
      description: "Members who posted comments or replies in the space's own discussion.",
      resolve: async (space, args, ctx) => pageToConnection(await listCommenters(ctx, await getDiscussion(ctx, space.id), connectionArgs(args), GRAPHQL_MAX)),
    },
    OrganizationMemberConnection,
  ),
}));

builder.objectFields(ChangeRequestRef, (t) => ({
  commenters: t.connection(
    {
      type: OrganizationMemberRef,
      description: 'Members who posted comments or replies in the discussion of the change request.',
      resolve: async (cr, args, ctx) => pageToConnection(await listCommenters(ctx, await getDiscussion(ctx, cr.space.id, cr.row.id), connectionArgs(args), GRAPHQL_MAX)),
    },
    OrganizationMemberConnection,
  ),
}));
