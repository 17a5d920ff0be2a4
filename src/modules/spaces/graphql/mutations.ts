import { encodeGlobalID } from '@pothos/plugin-relay';
import { ContentDefaultLevelEnum, fromContentDefaultLevel } from '../../../graphql/enums';
import { defineMutation } from '../../../graphql/mutation';
import { CollectionRef } from '../../collections/graphql/refs';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { MOVE_FIELDS } from '../../placement/graphql/refs';
import type { SpaceUpdateInput } from '../input';
import { createSpace, deleteSpace, duplicateSpace, restoreSpace, updateSpace } from '../service';
import { SpaceRef } from './refs';
import { SpaceEditModeEnum } from './types';

const spacePayload = (description: string) => ({ space: { type: SpaceRef, description } });

defineMutation('spaceCreate', {
  description: 'Creates an empty space, last among the children of its parent. Needs the create role where it goes.',
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to create the space in.' }),
    parentId: t.globalID({
      for: CollectionRef,
      description: 'The collection to create it in; absent for the top level, which needs the create role in the organization.',
    }),
    title: t.string({ description: 'Title, at most 50 characters; "Untitled space" when absent or empty.' }),
    emoji: t.string({ description: 'Emoji shown with the title.' }),
    language: t.string({ description: 'Language code of the content, such as `en`, `fr` or `pt-br`.' }),
    editMode: t.field({ type: SpaceEditModeEnum, description: 'Whether its content may change; LIVE when absent.' }),
  }),
  fields: MOVE_FIELDS,
  payload: spacePayload('The new space.'),
  resolve: async ({ organizationId, parentId, title, emoji, language, editMode }, ctx) => ({
    space: await createSpace(ctx, organizationId.id, {
      parent: parentId?.id,
      title: title ?? undefined,
      emoji: emoji ?? undefined,
      language: (language ?? undefined) as never,
      editMode: editMode ?? undefined,
    }),
  }),
});

defineMutation('spaceUpdate', {
  inputDescription: 'Input of spaceUpdate. Absent fields stay as they are.',
  description: 'Changes the settings of a space. Space admins only.',
  input: (t) => ({
    spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to change.' }),
    title: t.string({ description: 'New title, at most 50 characters.' }),
    emoji: t.string({ description: 'Emoji to show with the title, replacing any icon; null removes the emoji.' }),
    icon: t.string({ description: 'URL of an icon to show instead of an emoji, replacing any emoji; null removes the icon.' }),
    editMode: t.field({ type: SpaceEditModeEnum, description: 'Lock or unlock the content.' }),
    defaultLevel: t.field({ type: ContentDefaultLevelEnum, description: 'Access members get by default; null leaves it unchanged.' }),
    language: t.string({ description: 'Language code of the content, such as `en`, `fr` or `pt-br`.' }),
  }),
  payload: spacePayload('The space after the change.'),
  resolve: async ({ spaceId, defaultLevel, ...changes }, ctx) => ({
    space: await updateSpace(ctx, spaceId.id, {
      ...(changes as SpaceUpdateInput),
      ...(defaultLevel != null ? { defaultLevel: fromContentDefaultLevel(defaultLevel) } : {}),
    }),
  }),
});

defineMutation('spaceDelete', {
  description: 'Puts a space in the trash, from where spaceRestore brings it back for 7 days. Deleting a missing space succeeds. Space admins only.',
  input: (t) => ({ spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to delete.' }) }),
  payload: { deletedSpaceId: { type: 'ID', description: 'Global ID of the space now in the trash.' } },
  resolve: async ({ spaceId }, ctx) => {
    await deleteSpace(ctx, spaceId.id);
    return { deletedSpaceId: encodeGlobalID('Space', spaceId.id) };
  },
});

defineMutation('spaceRestore', {
  description:
    'Takes a space out of the trash, within 7 days of its deletion; if its collection is gone it comes back at the top level. ' +
    'Restoring a space that is not deleted changes nothing. Space admins only.',
  input: (t) => ({ spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to take out of the trash.' }) }),
  payload: spacePayload('The restored space.'),
  resolve: async ({ spaceId }, ctx) => ({ space: await restoreSpace(ctx, spaceId.id) }),
});

defineMutation('spaceDuplicate', {
  description: 'Copies a space, its content and who has access, right after the original. Needs the create role where the original sits.',
  input: (t) => ({ spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to copy.' }) }),
  payload: spacePayload('The copy.'),
  resolve: async ({ spaceId }, ctx) => ({ space: await duplicateSpace(ctx, spaceId.id) }),
});
