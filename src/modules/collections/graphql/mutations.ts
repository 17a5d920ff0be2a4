import { encodeGlobalID } from '@pothos/plugin-relay';
import { ContentDefaultLevelEnum, fromContentDefaultLevel } from '../../../graphql/enums';
import { defineMutation } from '../../../graphql/mutation';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { MOVE_FIELDS } from '../../placement/graphql/refs';
import { createCollection, deleteCollection, updateCollection } from '../service';
import { CollectionRef } from './refs';

defineMutation('collectionCreate', {
  description: 'Creates a collection, last among the children of its parent. Needs the create role where it goes.',
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to create the collection in.' }),
    parentId: t.globalID({
      for: CollectionRef,
      description: 'The collection to create it in; absent for the top level, which needs the create role in the organization.',
    }),
    title: t.string({ description: 'Name, 1 to 50 characters; "Untitled collection" when absent.' }),
  }),
  fields: MOVE_FIELDS,
  payload: { collection: { type: CollectionRef, description: 'The new collection.' } },
  resolve: async ({ organizationId, parentId, title }, ctx) => ({
    collection: await createCollection(ctx, organizationId.id, { title: title ?? undefined, parent: parentId?.id }),
  }),
});

defineMutation('collectionUpdate', {
  inputDescription: 'Input of collectionUpdate. Absent fields stay as they are.',
  description: 'Changes the name, description or default level of a collection. Collection admins only.',
  input: (t) => ({
    collectionId: t.globalID({ for: CollectionRef, required: true, description: 'The collection to change.' }),
    title: t.string({ description: 'New name, 1 to 50 characters.' }),
    description: t.string({ description: 'New description, at most 100 characters.' }),
    defaultLevel: t.field({ type: ContentDefaultLevelEnum, description: 'Access members get by default; null leaves it unchanged.' }),
  }),
  payload: { collection: { type: CollectionRef, description: 'The collection after the change.' } },
  resolve: async ({ collectionId, title, description, defaultLevel }, ctx) => ({
    collection: await updateCollection(ctx, collectionId.id, {
      title: title as string | undefined,
      description: description as string | undefined,
      ...(defaultLevel != null ? { defaultLevel: fromContentDefaultLevel(defaultLevel) } : {}),
    }),
  }),
});

defineMutation('collectionDelete', {
  description:
    'Deletes a collection and its sub-collections; the spaces they hold go to the trash, restorable for 7 days. ' +
    'Deleting a missing collection succeeds. Collection admins only.',
  input: (t) => ({ collectionId: t.globalID({ for: CollectionRef, required: true, description: 'The collection to delete.' }) }),
  payload: { deletedCollectionId: { type: 'ID', description: 'Global ID of the collection that no longer exists.' } },
  resolve: async ({ collectionId }, ctx) => {
    await deleteCollection(ctx, collectionId.id);
    return { deletedCollectionId: encodeGlobalID('Collection', collectionId.id) };
  },
});
