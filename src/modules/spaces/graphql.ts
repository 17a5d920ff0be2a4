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
  SpaceRef,
  toContentDefaultLevel,
} from '../../graphql/refs';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../graphql/relay';
import { getParentCollection, loadCollection } from '../collections/service';
import { getOrganization } from '../organizations/service';
import {
  createSpace,
  deleteSpace,
  duplicateSpace,
  getSpace,
  listSpacesOfCollections,
  listSpacesOfOrganizations,
  moveSpace,
  restoreSpace,
  spaceCounters,
  transferSpace,
  updateSpace,
} from './service';
import type { SpaceRow } from './table';

const SpaceVisibilityEnum = builder.enumType('SpaceVisibility', {
  description: 'Who may read the published content of a space. Access to the space itself follows roles and grants.',
  values: {
    PUBLIC: { value: 'public', description: 'Anyone on the internet, and search engines.' },
    UNLISTED: { value: 'unlisted', description: 'Anyone with its address; kept out of search engines.' },
    SHARE_LINK: { value: 'share-link', description: 'Anyone with a secret share link.' },
    VISITOR_AUTH: { value: 'visitor-auth', description: 'Visitors signed in through the authentication the organization set up.' },
    IN_COLLECTION: { value: 'in-collection', description: 'Follows the visibility of the collection holding it.' },
    PRIVATE: { value: 'private', description: 'Nobody outside the people with access to the space.' },
  } as const,
});

const SpaceEditModeEnum = builder.enumType('SpaceEditMode', {
  description: 'Whether the content of a space may change.',
  values: {
    LIVE: { value: 'live', description: 'People with the edit role or more may change the content and merge change requests.' },
    LOCKED: { value: 'locked', description: 'Nobody may change the content or merge change requests until it is unlocked.' },
  } as const,
});

type SpaceCounters = Awaited<ReturnType<typeof spaceCounters>>;

const SpaceCountersRef = builder.objectRef<SpaceCounters>('SpaceCounters').implement({
  description: 'How many discussions and change requests a space has.',
  fields: (t) => ({
    comments: t.exposeInt('comments', { description: 'Comments on its content.' }),
    changeRequests: t.exposeInt('changeRequests', { description: 'Change requests, whatever their status.' }),
    changeRequestsOpen: t.exposeInt('changeRequestsOpen', { description: 'Change requests open for review.' }),
    changeRequestsDraft: t.exposeInt('changeRequestsDraft', { description: 'Change requests still in draft.' }),
  }),
});

builder.node(SpaceRef, {
  description: 'A space: a body of content in an organization, at its top level or in a collection.',
  id: { resolve: (s) => s.id },
  loadOne: (id, ctx) => orNull(getSpace(ctx, id)),
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of this space in the REST API (`/v1/spaces/{spaceId}`).' }),
    title: t.exposeString('title', { description: 'Title of the space.' }),
    emoji: t.exposeString('emoji', { nullable: true, description: 'Emoji shown with the title; null when there is none.' }),
    icon: t.exposeString('icon', { nullable: true, description: 'URL of an icon shown instead of an emoji; null when there is none.' }),
    visibility: t.field({ type: SpaceVisibilityEnum, description: 'Who may read its published content.', resolve: (s) => s.visibility }),
    editMode: t.field({ type: SpaceEditModeEnum, description: 'Whether its content may change.', resolve: (s) => s.editMode }),
    language: t.exposeString('language', { nullable: true, description: 'Language code of the content, such as `en` or `pt-br`; null when unset.' }),
    defaultLevel: t.field({
      type: ContentDefaultLevelEnum,
      description: 'Access members get to the space by default.',
      resolve: (s) => toContentDefaultLevel(s.defaultLevel),
    }),
    revisionId: t.exposeString('revisionId', { description: 'REST id of the current revision of the content.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the space was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its settings or place last changed.' }),
    counters: t.field({ type: SpaceCountersRef, description: 'How many discussions and change requests it has.', resolve: (s, _, ctx) => spaceCounters(ctx, s) }),
    organization: t.field({
      type: OrganizationRef,
      description: 'The organization the space belongs to.',
      resolve: (s, _, ctx) => getOrganization(ctx, s.organizationId),
    }),
    parent: t.field({
      type: CollectionRef,
      nullable: true,
      description: 'The collection holding the space; null at the top level of the organization or when the viewer may not see it.',
      resolve: (s, _, ctx) => getParentCollection(ctx, s),
    }),
    viewerCanView: t.boolean({ description: 'Whether the viewer may read the space.', resolve: (s, _, ctx) => ctx.authz.can('space:view', s) }),
    viewerCanComment: t.boolean({ description: 'Whether the viewer may take part in discussions.', resolve: (s, _, ctx) => ctx.authz.can('space:comment', s) }),
    viewerCanEdit: t.boolean({
      description: 'Whether the viewer may change the content; false for everyone while the space is locked.',
      resolve: (s, _, ctx) => ctx.authz.can('space:edit', s),
    }),
    viewerCanReview: t.boolean({ description: 'Whether the viewer may review change requests.', resolve: (s, _, ctx) => ctx.authz.can('space:review', s) }),
    viewerCanMerge: t.boolean({
      description: 'Whether the viewer may merge change requests; false for everyone while the space is locked.',
      resolve: (s, _, ctx) => ctx.authz.can('space:merge', s),
    }),
    viewerCanAdminister: t.boolean({
      description: 'Whether the viewer may change its settings, move, transfer, delete and restore it, and manage who has access.',
      resolve: (s, _, ctx) => ctx.authz.can('space:admin', s),
    }),
  }),
});

/** One connection type for the spaces of an organization and of a collection. */
const SpaceConnection = builder.connectionObject(
  { type: SpaceRef, name: 'SpaceConnection', description: 'A page of spaces.', fields: totalCountField },
  { name: 'SpaceEdge', description: 'A space in a page, with its cursor.' },
);

builder.objectFields(OrganizationRef, (t) => ({
  spaces: t.connection(
    {
      type: SpaceRef,
      description: 'Spaces of the organization the viewer may see, wherever they sit, oldest first. Spaces in the trash are left out.',
      resolve: async (org, args, ctx) => {
        const page = await pageLoader<Page<SpaceRow>>(ctx, 'Organization.spaces', connectionArgs(args), async (ids) =>
          listSpacesOfOrganizations(ctx, await Promise.all(ids.map((id) => getOrganization(ctx, id))), connectionArgs(args), GRAPHQL_MAX),
        ).load(org.id);
        return pageToConnection(page);
      },
    },
    SpaceConnection,
  ),
}));

builder.objectFields(CollectionRef, (t) => ({
  spaces: t.connection(
    {
      type: SpaceRef,
      description: 'Spaces directly in the collection that the viewer may see, in display order. Spaces in the trash are left out.',
      resolve: async (collection, args, ctx) => {
        const page = await pageLoader<Page<SpaceRow>>(ctx, 'Collection.spaces', connectionArgs(args), async (ids) =>
          listSpacesOfCollections(
            ctx,
            (await Promise.all(ids.map((id) => loadCollection(ctx, id)))).filter((c) => c != null),
            connectionArgs(args),
            GRAPHQL_MAX,
          ),
        ).load(collection.id);
        return pageToConnection(page);
      },
    },
    SpaceConnection,
  ),
}));

builder.relayMutationField(
  'spaceCreate',
  {
    description: 'Input of spaceCreate.',
    inputFields: (t) => ({
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
  },
  {
    description: 'Creates an empty space, last among the children of its parent. Needs the create role where it goes.',
    resolve: (_, { input }, ctx) => {
      const body: Record<string, unknown> = {};
      if (input.parentId) body.parent = input.parentId.id;
      for (const key of ['title', 'emoji', 'language', 'editMode'] as const) if (input[key] != null) body[key] = input[key];
      return runContentMutation(async () => ({ space: await createSpace(ctx, input.organizationId.id, body) }));
    },
  },
  {
    description: 'Result of spaceCreate.',
    outputFields: (t) => ({
      space: t.field({ type: SpaceRef, nullable: true, description: 'The new space.', resolve: (p) => p.space ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'spaceUpdate',
  {
    description: 'Input of spaceUpdate. Absent fields stay as they are.',
    inputFields: (t) => ({
      spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to change.' }),
      title: t.string({ description: 'New title, at most 50 characters.' }),
      emoji: t.string({ description: 'Emoji to show with the title, replacing any icon; null removes the emoji.' }),
      icon: t.string({ description: 'URL of an icon to show instead of an emoji, replacing any emoji; null removes the icon.' }),
      editMode: t.field({ type: SpaceEditModeEnum, description: 'Lock or unlock the content.' }),
      defaultLevel: t.field({ type: ContentDefaultLevelEnum, description: 'Access members get by default; null leaves it unchanged.' }),
      language: t.string({ description: 'Language code of the content, such as `en`, `fr` or `pt-br`.' }),
    }),
  },
  {
    description: 'Changes the settings of a space. Space admins only.',
    resolve: (_, { input }, ctx) => {
      const patch: Record<string, unknown> = {};
      for (const key of ['title', 'emoji', 'icon', 'editMode', 'language'] as const) if (input[key] !== undefined) patch[key] = input[key];
      if (input.defaultLevel != null) patch.defaultLevel = fromContentDefaultLevel(input.defaultLevel);
      return runContentMutation(async () => ({ space: await updateSpace(ctx, input.spaceId.id, patch) }));
    },
  },
  {
    description: 'Result of spaceUpdate.',
    outputFields: (t) => ({
      space: t.field({ type: SpaceRef, nullable: true, description: 'The space after the change.', resolve: (p) => p.space ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'spaceDelete',
  {
    description: 'Input of spaceDelete.',
    inputFields: (t) => ({ spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to delete.' }) }),
  },
  {
    description: 'Puts a space in the trash, from where spaceRestore brings it back for 7 days. Deleting a missing space succeeds. Space admins only.',
    resolve: (_, { input }, ctx) =>
      runContentMutation(async () => {
        await deleteSpace(ctx, input.spaceId.id);
        return { deletedSpaceId: encodeGlobalID('Space', input.spaceId.id) };
      }),
  },
  {
    description: 'Result of spaceDelete.',
    outputFields: (t) => ({
      deletedSpaceId: t.id({ nullable: true, description: 'Global ID of the space now in the trash.', resolve: (p) => p.deletedSpaceId ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'spaceRestore',
  {
    description: 'Input of spaceRestore.',
    inputFields: (t) => ({ spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to take out of the trash.' }) }),
  },
  {
    description:
      'Takes a space out of the trash, within 7 days of its deletion; if its collection is gone it comes back at the top level. ' +
      'Restoring a space that is not deleted changes nothing. Space admins only.',
    resolve: (_, { input }, ctx) => runContentMutation(async () => ({ space: await restoreSpace(ctx, input.spaceId.id) })),
  },
  {
    description: 'Result of spaceRestore.',
    outputFields: (t) => ({
      space: t.field({ type: SpaceRef, nullable: true, description: 'The restored space.', resolve: (p) => p.space ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'spaceDuplicate',
  {
    description: 'Input of spaceDuplicate.',
    inputFields: (t) => ({ spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to copy.' }) }),
  },
  {
    description: 'Copies a space, its content and who has access, right after the original. Needs the create role where the original sits.',
    resolve: (_, { input }, ctx) => runContentMutation(async () => ({ space: await duplicateSpace(ctx, input.spaceId.id) })),
  },
  {
    description: 'Result of spaceDuplicate.',
    outputFields: (t) => ({
      space: t.field({ type: SpaceRef, nullable: true, description: 'The copy.', resolve: (p) => p.space ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'spaceMove',
  {
    description: 'Input of spaceMove. Give a parent, a position or both.',
    inputFields: (t) => ({
      spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to move.' }),
      parentId: t.globalID({
        for: CollectionRef,
        description: 'The collection to move it into; null for the top level of the organization; absent to keep its parent.',
      }),
      position: t.field({ type: ContentPositionInput, description: 'Where among the children of the parent; last when absent.' }),
    }),
  },
  {
    description:
      'Moves a space within its organization: to another collection, to another place among its siblings, or both. A space ' +
      'that followed the visibility of its collection becomes private at the top level. Needs admin on the space and the ' +
      'create role where it goes.',
    resolve: (_, { input }, ctx) => {
      const body: Record<string, unknown> = {};
      if (input.parentId !== undefined) body.parent = input.parentId?.id ?? null;
      if (input.position) body.position = contentPosition(input.position);
      return runContentMutation(async () => ({ space: await moveSpace(ctx, input.spaceId.id, body) }));
    },
  },
  {
    description: 'Result of spaceMove.',
    outputFields: (t) => ({
      space: t.field({ type: SpaceRef, nullable: true, description: 'The space at its new place.', resolve: (p) => p.space ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'spaceTransfer',
  {
    description: 'Input of spaceTransfer.',
    inputFields: (t) => ({
      spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to transfer.' }),
      organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to transfer it to; the viewer must administer it.' }),
    }),
  },
  {
    description:
      'Moves a space to the top level of another organization. Access granted to teams, or to people who are not members ' +
      'there, is dropped. Needs admin on the space and on the target organization.',
    resolve: (_, { input }, ctx) =>
      runContentMutation(async () => ({ space: await transferSpace(ctx, input.spaceId.id, { organization: input.organizationId.id }) })),
  },
  {
    description: 'Result of spaceTransfer.',
    outputFields: (t) => ({
      space: t.field({ type: SpaceRef, nullable: true, description: 'The space in its new organization.', resolve: (p) => p.space ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);
