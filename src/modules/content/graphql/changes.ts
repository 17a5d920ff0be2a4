import { builder } from '../../../graphql/builder';
import { changesOfRevision, MAX_CHANGES, type ChangedPage, type SemanticChange } from '../service';
import { FileRef, RevisionChangeRef, RevisionRef } from './refs';

/*
 * `Revision.changes`: the twin of `GET /v1/spaces/{id}/revisions/{id}/changes`, what a revision
 * changed from its parent, as notifications tell it.
 */

const ChangedPageRef = builder.objectRef<ChangedPage>('RevisionChangedPage').implement({
  description: 'A page as a change names it: it may no longer exist in the revision (deleted), so not a Page.',
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The REST id of the page.' }),
    type: t.exposeString('type', { description: '`document`, `group`, `link` or `computed`.' }),
    title: t.exposeString('title', { description: 'Its title in the revision (before it, for a deleted page).' }),
    path: t.string({ nullable: true, description: 'Slugs from the top, joined by `/`; null for a link page.', resolve: (p) => p.path ?? null }),
  }),
});

const pageOf = (change: SemanticChange) => ('page' in change ? change.page : null);

RevisionChangeRef.implement({
  description: "One change a revision made from its parent, as the platform's RevisionSemanticChange.",
  fields: (t) => ({
    type: t.string({
      description: '`page_created`, `page_edited`, `page_moved`, `page_deleted`, `file_created`, `file_edited`, `file_deleted` or `variables_edited`.',
      resolve: (c) => c.change.type,
    }),
    page: t.field({ type: ChangedPageRef, nullable: true, description: 'The page changed; null for files and variables.', resolve: (c) => pageOf(c.change) }),
    parentBefore: t.field({ type: ChangedPageRef, nullable: true, description: 'For a move: the parent it left; null when it was at the top.', resolve: (c) => (c.change.type === 'page_moved' ? (c.change.parent.before ?? null) : null) }),
    parentAfter: t.field({ type: ChangedPageRef, nullable: true, description: 'For a move: its new parent; null when it is now at the top.', resolve: (c) => (c.change.type === 'page_moved' ? (c.change.parent.after ?? null) : null) }),
    file: t.field({ type: FileRef, nullable: true, description: 'The file changed; null for pages and variables.', resolve: (c) => ('file' in c.change ? { ...c.content, file: c.change.file } : null) }),
    attributes: t.field({
      type: 'JSON',
      nullable: true,
      description: 'For an edit: each changed attribute with its `before` and `after` (`document` is the body, named by its hash); null otherwise.',
      resolve: (c) => ('attributes' in c.change ? c.change.attributes : null),
    }),
    variables: t.field({ type: 'JSON', nullable: true, description: 'For `variables_edited`: each changed variable with its `before` and `after`.', resolve: (c) => (c.change.type === 'variables_edited' ? c.change.variables : null) }),
  }),
});

builder.objectField(RevisionRef, 'changes', (t) =>
  t.field({
    type: [RevisionChangeRef],
    description: `What this revision changed from its first parent (from nothing for a space's first revision): pages, then files, then variables. At most \`limit\` (1 to ${MAX_CHANGES}).`,
    args: { limit: t.arg.int({ defaultValue: 10, description: `How many changes to list, 1 to ${MAX_CHANGES}.` }) },
    resolve: async (r, { limit }, ctx) => (await changesOfRevision(ctx, r.tree.revision, { limit: limit ?? 10 })).changes.map((change) => ({ content: r, change })),
  }),
);
