import { builder } from '../../../graphql/builder';
import { costExtensions, WEIGHTS } from '../../../graphql/cost';
import { enumValues } from '../../../graphql/enums';
import { orNull } from '../../../graphql/errors';
import { batchedConnection, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import { counted } from '../../../graphql/work-bounds';
import type { PageArgs } from '../../../domain/page';
import type { SpaceRow } from '../../../db/schema/spaces';
import { RevisionRef } from '../../content/graphql/refs';
import { contentAt, type ConflictKind, type MergeConflict, type PageChange } from '../../content/service';
import { SpaceRef } from '../../spaces/graphql/refs';
import { UserRef } from '../../users/graphql/refs';
import type { ChangeRequestStatus } from '../../../domain/change-requests';
import {
  changeRequestAuthor,
  changeRequestChanges,
  changeRequestConflicts,
  changeRequestContributors,
  changeRequestPdfUrl,
  getChangeRequestById,
  isOutdated,
  listChangeRequests,
  listChangeRequestsOf,
} from '../service';
import { ChangeRequestRef, ChangeRequestStatusEnum } from './refs';

const CHANGE_KINDS = ['added', 'removed', 'moved', 'modified'] as const;

const PageChangeKindEnum = builder.enumType('PageChangeKind', {
  description: 'How a page differs from the base of the change request.',
  values: enumValues(CHANGE_KINDS, (kind) =>
    ({ added: 'The page is new.', removed: 'The page was deleted.', moved: 'The page has another parent.', modified: 'Its title, looks or body changed.' })[kind],
  ),
});

const PageChangeRef = builder.objectRef<PageChange>('PageChange').implement({
  description: 'A page the change request adds, removes, moves or modifies, for review.',
  fields: (t) => ({
    pageId: t.exposeString('pageId', { description: 'REST id of the page.' }),
    title: t.exposeString('title', { description: 'Its title (as it was, for a removed page).' }),
    path: t.exposeString('path', { description: 'Its path in the change request (as it was, for a removed page).' }),
    kinds: t.field({ type: [PageChangeKindEnum], description: 'What changed; a page may be both moved and modified.', resolve: (c) => c.kinds }),
    diff: t.string({
      description: 'Unified diff of its markdown, base to change request; empty when the body is the same.',
      extensions: costExtensions({ weight: WEIGHTS.diff }),
      resolve: (c, _, ctx) => counted(ctx, c.diff),
    }),
  }),
});

const CONFLICT_KINDS: readonly ConflictKind[] = ['content', 'attribute', 'deleted-modified', 'moved', 'parent-deleted', 'file'];

const MergeConflictKindEnum = builder.enumType('MergeConflictKind', {
  description: 'Why a merge cannot be done without a person deciding.',
  values: enumValues(CONFLICT_KINDS, (kind) =>
    ({
      content: 'Both sides changed the same lines of the page.',
      attribute: 'Both sides changed the same field of the page (see `field`) differently.',
      'deleted-modified': 'One side deleted the page, the other changed or moved it.',
      moved:
        "Both sides moved the page, under different parents; or a side moved it into a loop the two sides make together (one moved A under B, the other B under A), which no top-level page would reach. Choosing a side for each page of the loop puts it under that side's parent.",
      'parent-deleted': 'The page would sit under a page the other side deleted.',
      file: 'Both sides changed the file differently, or one deleted it while the other changed it.',
    })[kind],
  ),
});

const MergeConflictRef = builder.objectRef<MergeConflict>('MergeConflict').implement({
  description: 'A change of the change request that clashes with a change of the space since its base.',
  fields: (t) => ({
    kind: t.field({ type: MergeConflictKindEnum, description: 'What clashes.', resolve: (c) => c.kind }),
    pageId: t.exposeString('pageId', { nullable: true, description: 'REST id of the page in conflict; null for a file.' }),
    fileId: t.exposeString('fileId', { nullable: true, description: 'REST id of the file in conflict; null for a page.' }),
    title: t.exposeString('title', { description: 'Title of the page, or name of the file.' }),
    field: t.exposeString('field', { nullable: true, description: 'The field in conflict, for an `ATTRIBUTE` conflict.' }),
    base: t.exposeString('base', { nullable: true, description: 'The text (or value) at the base; null where the page did not exist.' }),
    current: t.string({ nullable: true, description: 'The text in the space now; null where it was deleted.', resolve: (c) => c.ours }),
    proposed: t.string({ nullable: true, description: 'The text in the change request; null where it was deleted.', resolve: (c) => c.theirs }),
  }),
});

builder.node(ChangeRequestRef, {
  description: 'Proposed edits to a space, on a branch of its content, merged by a three-way merge.',
  id: { resolve: (cr) => cr.row.id },
  loadOne: (id, ctx) => orNull(getChangeRequestById(ctx, id)),
  fields: (t) => ({
    restId: t.string({ description: 'The id in the REST API.', resolve: (cr) => cr.row.id }),
    number: t.int({ description: 'Its number within the space: 1, 2, 3... REST paths accept it in place of the id.', resolve: (cr) => cr.row.number }),
    subject: t.string({ description: 'What it is about; may be empty while a draft.', resolve: (cr) => cr.row.subject }),
    status: t.field({ type: ChangeRequestStatusEnum, description: 'Where it stands.', resolve: (cr) => cr.row.status }),
    space: t.field({ type: SpaceRef, description: 'The space it changes.', resolve: (cr) => cr.space }),
    createdBy: t.field({ type: UserRef, nullable: true, description: 'Its author; null when their account is gone.', resolve: (cr, _, ctx) => changeRequestAuthor(ctx, cr.row) }),
    contributors: t.field({ type: [UserRef], description: 'Its author and everyone who edited it, first contribution first.', resolve: (cr, _, ctx) => changeRequestContributors(ctx, cr.row) }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was created.', resolve: (cr) => cr.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', description: 'When it last changed.', resolve: (cr) => cr.row.updatedAt }),
    revision: t.field({ type: RevisionRef, description: 'Its content now.', resolve: (cr, _, ctx) => contentAt(ctx, cr.space, cr.row.revisionId) }),
    revisionInitial: t.field({ type: RevisionRef, description: 'The space revision it branched from.', resolve: (cr, _, ctx) => contentAt(ctx, cr.space, cr.row.revisionInitial) }),
    revisionMergedAncestor: t.field({
      type: RevisionRef,
      nullable: true,
      description: 'The space revision last brought in by an update; null before any.',
      resolve: (cr, _, ctx) => (cr.row.revisionMergedAncestor ? contentAt(ctx, cr.space, cr.row.revisionMergedAncestor) : null),
    }),
    revisionMerged: t.field({
      type: RevisionRef,
      nullable: true,
      description: 'The space revision its merge wrote; null until merged.',
      resolve: (cr, _, ctx) => (cr.row.revisionMerged ? contentAt(ctx, cr.space, cr.row.revisionMerged) : null),
    }),
    outdated: t.boolean({ description: 'Whether the space changed since its base: an update would bring those changes in.', resolve: (cr) => isOutdated(cr) }),
    changes: t.field({ type: [PageChangeRef], description: 'The pages it adds, removes, moves or modifies, each with a diff.', resolve: (cr, _, ctx) => changeRequestChanges(ctx, cr) }),
    pdfUrl: t.string({
      description: "A link to a PDF of its pages in tree order, signed and working for an hour without a token.",
      args: {
        pageId: t.arg.string({ description: 'Only this page (REST id), with the pages inside it.' }),
        only: t.arg.boolean({ description: 'With pageId: leave the pages inside it out.' }),
      },
      resolve: (cr, args, ctx) => changeRequestPdfUrl(ctx, cr.space.id, cr.row.id, { page: args.pageId ?? undefined, only: args.only == null ? undefined : args.only ? 'true' : 'false' }),
    }),
    conflicts: t.field({
      type: [MergeConflictRef],
      description: 'What merging it now would clash on; empty when it merges cleanly, and for a merged or archived one.',
      resolve: (cr, _, ctx) => changeRequestConflicts(ctx, cr),
    }),
  }),
});

const ChangeRequestConnection = builder.connectionObject(
  { type: ChangeRequestRef, name: 'ChangeRequestConnection', description: 'A page of change requests.', fields: totalCountField },
  { name: 'ChangeRequestEdge', description: 'A change request in a page, with its cursor.' },
);

const spaceChangeRequests = batchedConnection('Space.changeRequests', (ctx, spaces: readonly SpaceRow[], { status, first, after, last, before }: PageArgs & { status: ChangeRequestStatus }) =>
  listChangeRequestsOf(ctx, spaces, status, { first, after, last, before }, GRAPHQL_MAX),
);

builder.objectFields(SpaceRef, (t) => ({
  changeRequests: t.connection(
    {
      type: ChangeRequestRef,
      description: 'Change requests of the space with one status, newest first.',
      args: {
        status: t.arg({ type: ChangeRequestStatusEnum, description: 'Their status; OPEN when absent.' }),
        contributor: t.arg.string({ description: 'Only those this user (REST id) contributed to.' }),
      },
      resolve: async (space, args, ctx, info) => {
        const filter = { status: (args.status ?? 'open') as ChangeRequestStatus, ...(args.contributor ? { contributor: args.contributor } : {}) };
        // Without a contributor filter, every space of the request shares one statement.
        if (!args.contributor) return spaceChangeRequests(space, { ...args, status: filter.status }, ctx, info);
        return pageToConnection(await listChangeRequests(ctx, space.id, filter, args, GRAPHQL_MAX));
      },
    },
    ChangeRequestConnection,
  ),
}));
