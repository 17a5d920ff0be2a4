import { requireViewer } from '../../../context/request-context';
import { builder } from '../../../graphql/builder';
import { orNull } from '../../../graphql/errors';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import { UserRef } from '../../users/graphql/refs';
import { getOrganization, listViewerOrganizations } from '../service';
import { OrganizationRef } from './refs';

const Viewer = builder.objectRef<{ userId: string }>('Viewer').implement({
  description: 'The person the API token belongs to.',
  fields: (t) => ({
    user: t.field({ type: UserRef, description: 'Their user account.', resolve: (_, __, ctx) => requireViewer(ctx).user }),
    organizations: t.connection(
      {
        type: OrganizationRef,
        description: 'Organizations they belong to, oldest first.',
        resolve: async (_, args, ctx) => pageToConnection(await listViewerOrganizations(ctx, connectionArgs(args), GRAPHQL_MAX)),
      },
      { name: 'OrganizationConnection', description: 'A page of organizations.', fields: totalCountField },
      { name: 'OrganizationEdge', description: 'An organization in a page, with its cursor.' },
    ),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: Viewer,
    nullable: true,
    description: 'The caller, from their API token; null without a token.',
    resolve: (_, __, ctx) => (ctx.viewer ? { userId: ctx.viewer.user.id } : null),
  }),
  organization: t.field({
    type: OrganizationRef,
    nullable: true,
    description: 'An organization by its REST id or its global ID; null when missing or not visible.',
    args: { id: t.arg.globalID({ for: OrganizationRef, required: true, description: 'The organization.' }) },
    resolve: (_, { id }, ctx) => orNull(getOrganization(ctx, id.id)),
  }),
}));
