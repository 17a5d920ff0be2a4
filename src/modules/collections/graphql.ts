import { encodeGlobalID } from '@pothos/plugin-relay';
import { pageLoader } from '../../app/loaders';
import type { Page } from '../../domain/page';
import { builder } from '../../graphql/builder';
import { orNull, userErrorsField } from '../../graphql/errors';
import {
  CollectionRef,
  ContentDefaultLevelEnum,
  ContentPositionInput,
  contentPosition,
  fromContentDefaultLevel,
  OrganizationRef,
  runContentMutation,
  toContentDefaultLevel,
} from '../../graphql/refs';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../graphql/relay';
import { getOrganization } from '../organizations/service';
import {
  createCollection,
  deleteCollection,
  getCollection,
  getParentCollection,
  listCollectionsOfOrganizations,
  moveCollection,
  transferCollection,
  updateCollection,
} from './service';
import type { CollectionRow } from './table';

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
    organization: t.field({
      type: OrganizationRef,
      description: 'The organization the collection belongs to.',
      resolve: (c, _, ctx) => getOrganization(ctx, c.organizationId),
    }),
    parent: t.field({
      type: CollectionRef,
      nullable: true,
      description: 'The collection holding this one; null at the top level of the organization or when the viewer may not see it.',
      resolve: (c, _, ctx) => getParentCollection(ctx, c),
    }),
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
      resolve: async (org, args, ctx) => {
        const nested = args.nested ?? true;
        const page = await pageLoader<Page<CollectionRow>>(ctx, 'Organization.collections', { nested, ...connectionArgs(args) }, async (ids) =>
          listCollectionsOfOrganizations(ctx, await Promise.all(ids.map((id) => getOrganization(ctx, id))), nested, connectionArgs(args), GRAPHQL_MAX),
        ).load(org.id);
        return pageToConnection(page);
      },
    },
    { name: 'CollectionConnection', description: 'A page of collections.', fields: totalCountField },
    { name: 'CollectionEdge', description: 'A collection in a page, with its cursor.' },
  ),
}));

builder.relayMutationField(
  'collectionCreate',
  {
    description: 'Input of collectionCreate.',
    inputFields: (t) => ({
      organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to create the collection in.' }),
      parentId: t.globalID({
        for: CollectionRef,
        description: 'The collection to create it in; absent for the top level, which needs the create role in the organization.',
      }),
      title: t.string({ description: 'Name, 1 to 50 characters; "Untitled collection" when absent.' }),
    }),
  },
  {
    description: 'Creates a collection, last among the children of its parent. Needs the create role where it goes.',
    resolve: (_, { input }, ctx) =>
      runContentMutation(async () => ({
        collection: await createCollection(ctx, input.organizationId.id, {
          ...(input.title != null ? { title: input.title } : {}),
          ...(input.parentId ? { parent: input.parentId.id } : {}),
        }),
      })),
  },
  {
    description: 'Result of collectionCreate.',
    outputFields: (t) => ({
      collection: t.field({ type: CollectionRef, nullable: true, description: 'The new collection.', resolve: (p) => p.collection ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'collectionUpdate',
  {
    description: 'Input of collectionUpdate. Absent fields stay as they are.',
    inputFields: (t) => ({
      collectionId: t.globalID({ for: CollectionRef, required: true, description: 'The collection to change.' }),
      title: t.string({ description: 'New name, 1 to 50 characters.' }),
      description: t.string({ description: 'New description, at most 100 characters.' }),
      defaultLevel: t.field({ type: ContentDefaultLevelEnum, description: 'Access members get by default; null leaves it unchanged.' }),
    }),
  },
  {
    description: 'Changes the name, description or default level of a collection. Collection admins only.',
    resolve: (_, { input }, ctx) => {
      const patch: Record<string, unknown> = {};
      if (input.title !== undefined) patch.title = input.title;
      if (input.description !== undefined) patch.description = input.description;
      if (input.defaultLevel != null) patch.defaultLevel = fromContentDefaultLevel(input.defaultLevel);
      return runContentMutation(async () => ({ collection: await updateCollection(ctx, input.collectionId.id, patch) }));
    },
  },
  {
    description: 'Result of collectionUpdate.',
    outputFields: (t) => ({
      collection: t.field({ type: CollectionRef, nullable: true, description: 'The collection after the change.', resolve: (p) => p.collection ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'collectionDelete',
  {
    description: 'Input of collectionDelete.',
    inputFields: (t) => ({ collectionId: t.globalID({ for: CollectionRef, required: true, description: 'The collection to delete.' }) }),
  },
  {
    description:
      'Deletes a collection and its sub-collections; the spaces they hold go to the trash, restorable for 7 days. ' +
      'Deleting a missing collection succeeds. Collection admins only.',
    resolve: (_, { input }, ctx) =>
      runContentMutation(async () => {
        await deleteCollection(ctx, input.collectionId.id);
        return { deletedCollectionId: encodeGlobalID('Collection', input.collectionId.id) };
      }),
  },
  {
    description: 'Result of collectionDelete.',
    outputFields: (t) => ({
      deletedCollectionId: t.id({
        nullable: true,
        description: 'Global ID of the collection that no longer exists.',
        resolve: (p) => p.deletedCollectionId ?? null,
      }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'collectionMove',
  {
    description: 'Input of collectionMove. Give a parent, a position or both.',
    inputFields: (t) => ({
      collectionId: t.globalID({ for: CollectionRef, required: true, description: 'The collection to move.' }),
      parentId: t.globalID({
        for: CollectionRef,
        description: 'The collection to move it into; null for the top level of the organization; absent to keep its parent.',
      }),
      position: t.field({ type: ContentPositionInput, description: 'Where among the children of the parent; last when absent.' }),
    }),
  },
  {
    description:
      'Moves a collection within its organization: to another parent, to another place among its siblings, or both. ' +
      'Needs admin on the collection and the create role where it goes; it cannot go inside itself.',
    resolve: (_, { input }, ctx) => {
      const body: Record<string, unknown> = {};
      if (input.parentId !== undefined) body.parent = input.parentId?.id ?? null;
      if (input.position) body.position = contentPosition(input.position);
      return runContentMutation(async () => ({ collection: await moveCollection(ctx, input.collectionId.id, body) }));
    },
  },
  {
    description: 'Result of collectionMove.',
    outputFields: (t) => ({
      collection: t.field({ type: CollectionRef, nullable: true, description: 'The collection at its new place.', resolve: (p) => p.collection ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'collectionTransfer',
  {
    description: 'Input of collectionTransfer.',
    inputFields: (t) => ({
      collectionId: t.globalID({ for: CollectionRef, required: true, description: 'The collection to transfer.' }),
      organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to transfer it to; the viewer must administer it.' }),
    }),
  },
  {
    description:
      'Moves a collection, with everything inside it, to the top level of another organization. Access granted to teams, ' +
      'or to people who are not members there, is dropped. Needs admin on the collection and on the target organization.',
    resolve: (_, { input }, ctx) =>
      runContentMutation(async () => ({
        collection: await transferCollection(ctx, input.collectionId.id, { organization: input.organizationId.id }),
      })),
  },
  {
    description: 'Result of collectionTransfer.',
    outputFields: (t) => ({
      collection: t.field({ type: CollectionRef, nullable: true, description: 'The collection in its new organization.', resolve: (p) => p.collection ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);
