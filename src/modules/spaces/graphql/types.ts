import type { PageArgs } from '../../../domain/page';
import { builder } from '../../../graphql/builder';
import { ContentDefaultLevelEnum, enumValues, toContentDefaultLevel } from '../../../graphql/enums';
import { orNull } from '../../../graphql/errors';
import { batchedConnection, GRAPHQL_MAX, type ConnectionSelection } from '../../../graphql/relay';
import { CollectionRef, placementFields } from '../../collections/graphql/refs';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getSpaceOrRestorable, listSpacesOfCollections, listSpacesOfOrganizations, spaceCounters } from '../service';
import { EDIT_MODES, type SpaceVisibility } from '../../../domain/spaces';
import { SpaceConnection, SpaceRef } from './refs';

const VISIBILITY_DESCRIPTIONS: Record<SpaceVisibility, string> = {
  public: 'Anyone on the internet, and search engines.',
  unlisted: 'Anyone with its address; kept out of search engines.',
  'share-link': 'Anyone with a secret share link.',
  'visitor-auth': 'Visitors signed in through the authentication the organization set up.',
  'in-collection': 'Follows the visibility of the collection holding it.',
  private: 'Nobody outside the people with access to the space.',
};

export const SpaceVisibilityEnum = builder.enumType('SpaceVisibility', {
  description: 'Who may read the published content of a space. Access to the space itself follows roles and grants.',
  values: {
    PUBLIC: { value: 'public' as const, description: VISIBILITY_DESCRIPTIONS.public },
    UNLISTED: { value: 'unlisted' as const, description: VISIBILITY_DESCRIPTIONS.unlisted },
    SHARE_LINK: { value: 'share-link' as const, description: VISIBILITY_DESCRIPTIONS['share-link'] },
    VISITOR_AUTH: { value: 'visitor-auth' as const, description: VISIBILITY_DESCRIPTIONS['visitor-auth'] },
    IN_COLLECTION: { value: 'in-collection' as const, description: VISIBILITY_DESCRIPTIONS['in-collection'] },
    PRIVATE: { value: 'private' as const, description: VISIBILITY_DESCRIPTIONS.private },
  },
});

export const SpaceEditModeEnum = builder.enumType('SpaceEditMode', {
  description: 'Whether the content of a space may change.',
  values: enumValues(EDIT_MODES, (mode) =>
    mode === 'live'
      ? 'People with the edit role or more may change the content and merge change requests.'
      : 'Nobody may change the content or merge change requests until it is unlocked.',
  ),
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
  // As `GET /v1/spaces/{id}`: a deleted space is still found while it can be restored, with `deletedAt` set.
  loadOne: (id, ctx) => orNull(getSpaceOrRestorable(ctx, id)),
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
    deletedAt: t.expose('deletedAt', { type: 'DateTime', nullable: true, description: 'When it was deleted: it can be restored for 7 days after; null for a space that is not deleted.' }),
    counters: t.field({ type: SpaceCountersRef, description: 'How many discussions and change requests it has.', resolve: (s, _, ctx) => spaceCounters(ctx, s) }),
    ...placementFields(t, 'space'),
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

/** What a query's selection of spaces asks to bring along with each one. */
const along = (selection: ConnectionSelection) => ({ withParents: selection.nodeFields.has('parent') });

builder.objectFields(OrganizationRef, (t) => ({
  spaces: t.connection(
    {
      type: SpaceRef,
      description: 'Spaces of the organization the viewer may see, wherever they sit, oldest first. Spaces in the trash are left out.',
      resolve: batchedConnection('Organization.spaces', (ctx, orgs, args: PageArgs, selection) => listSpacesOfOrganizations(ctx, orgs, args, GRAPHQL_MAX, along(selection))),
    },
    SpaceConnection,
  ),
}));

builder.objectFields(CollectionRef, (t) => ({
  spaces: t.connection(
    {
      type: SpaceRef,
      description: 'Spaces directly in the collection that the viewer may see, in display order. Spaces in the trash are left out.',
      resolve: batchedConnection('Collection.spaces', (ctx, collections, args: PageArgs, selection) => listSpacesOfCollections(ctx, collections, args, GRAPHQL_MAX, along(selection))),
    },
    SpaceConnection,
  ),
}));
