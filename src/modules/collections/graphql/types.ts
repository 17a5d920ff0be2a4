import { builder } from '../../../graphql/builder';
import { ContentDefaultLevelEnum, toContentDefaultLevel } from '../../../graphql/enums';
import { orNull } from '../../../graphql/errors';
import { batchedConnection, GRAPHQL_MAX, totalCountField } from '../../../graphql/relay';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getCollection, listCollectionsOfOrganizations } from '../service';
import { CollectionRef, placementFields } from './refs';

builder.node(CollectionRef, {
  description: 'A folder of spaces and other collections in an organization; its access applies to all it contains.',
  id: { resolve: (c) => c.id },
  loadOne: (id, ctx) => orNull(getCollection(ctx, id)),
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of this collection in the REST API (`/v1/collections/{collectionId}`).' }),
    title: t.exposeString('title', { description: 'Name of the collection.' }),
    description: t.exposeString('description', { nullable: true, description: 'Short description, when one is set.' }),
    defaultLevel: t.field({
      type: ContentDefaultLevelEnum,
      description: 'Access members get by default to the collection and what it contains.',
      resolve: (c) => toContentDefaultLevel(c.defaultLevel),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the collection was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the collection was last changed or moved.' }),
    ...placementFields(t, 'collection'),
    viewerCanView: t.boolean({ description: 'Whether the viewer may see the collection.', resolve: (c, _, ctx) => ctx.authz.can('collection:view', c) }),
    viewerCanCreate: t.boolean({
      description: 'Whether the viewer may create spaces and collections inside it.',
      resolve: (c, _, ctx) => ctx.authz.can('collection:create', c),
    }),
    viewerCanAdminister: t.boolean({
      description: 'Whether the viewer may rename, move, transfer and delete it, and set its default level.',
      resolve: (c, _, ctx) => ctx.authz.can('collection:admin', c),
    }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  collections: t.connection(
    {
      type: CollectionRef,
      description: 'Collections of the organization the viewer may see.',
      args: {
        nested: t.arg.boolean({
          defaultValue: true,
          description: 'True for every collection, sub-collections included, oldest first; false for the top-level ones only, in display order.',
        }),
      },
      resolve: batchedConnection('Organization.collections', (ctx, orgs, { nested, ...window }) =>
        listCollectionsOfOrganizations(ctx, orgs, nested ?? true, window, GRAPHQL_MAX),
      ),
    },
    { name: 'CollectionConnection', description: 'A page of collections.', fields: totalCountField },
    { name: 'CollectionEdge', description: 'A collection in a page, with its cursor.' },
  ),
}));
