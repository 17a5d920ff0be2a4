import { requireViewer } from '../../../context/request-context';
import { builder } from '../../../graphql/builder';
import { orNull } from '../../../graphql/errors';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import { UserRef } from '../../users/graphql/refs';
import { getOrganization, listOrganizationsForEmailDomain, listViewerOrganizations } from '../service';
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
  organizationsByEmailDomain: t.field({
    type: [OrganizationRef],
    description:
      'Organizations that let people of an e-mail domain join, oldest first, at most 100: for your own domain all of them, for another domain only those you belong to. ' +
      'Takes a user token; an invalid domain is a VALIDATION_FAILED error.',
    args: { emailDomain: t.arg.string({ required: true, description: 'The domain, such as example.com.' }) },
    resolve: (_, { emailDomain }, ctx) => listOrganizationsForEmailDomain(ctx, emailDomain),
  }),
}));
