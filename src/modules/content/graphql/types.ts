import { builder } from '../../../graphql/builder';
import { costExtensions, WEIGHTS } from '../../../graphql/cost';
import { orNull } from '../../../graphql/errors';
import { SpaceRef } from '../../spaces/graphql/refs';
import { answerDocument, answerMarkdown, fileDownloadUrl, getContent, getRevisionContent, type PageEntry, type SpaceContent } from '../service';
import { contentNodeId, FileRef, PageRef, PageTypeEnum, RevisionRef, splitContentNodeId } from './refs';


const pageOf = (content: SpaceContent, entry: PageEntry | undefined) => (entry ? { ...content, entry } : null);

const REVISION_TYPES_DESCRIPTION = 'How the revision came to be: `edits`, `merge`, `update`, `rollback` or `computed`.';

builder.node(RevisionRef, {
  description: 'An immutable snapshot of the content of a space: its page tree and its files.',
  id: { resolve: (r) => r.tree.revision.id },
  loadOne: (id, ctx) => orNull(getRevisionContent(ctx, id)),
  fields: (t) => ({
    restId: t.string({ description: 'The id of this revision in the REST API.', resolve: (r) => r.tree.revision.id }),
    type: t.string({ description: REVISION_TYPES_DESCRIPTION, resolve: (r) => r.tree.revision.type }),
    parents: t.stringList({ description: 'REST ids of the revisions this one was made from.', resolve: (r) => r.tree.revision.parents }),
    createdAt: t.field({ type: 'DateTime', description: 'When the revision was written.', resolve: (r) => r.tree.revision.createdAt }),
    space: t.field({ type: SpaceRef, description: 'The space the revision belongs to.', resolve: (r) => r.space }),
    pages: t.field({
      type: [PageRef],
      description: 'The top-level pages, in order; each holds its own pages.',
      extensions: costExtensions({ group: 'page-tree' }),
      resolve: (r) => r.tree.pages.map((p) => pageOf(r, r.tree.byId.get(p.data.id))!),
    }),
    pageCount: t.int({ description: 'How many pages the revision holds, at every level.', resolve: (r) => r.tree.byId.size }),
    page: t.field({
      type: PageRef,
      nullable: true,
      description: 'A page by its path (`getting-started/install`); null when there is none.',
      args: { path: t.arg.string({ required: true, description: 'Slugs from the top, joined by `/`.' }) },
      resolve: (r, { path }) => pageOf(r, r.tree.byPath.get(path.replace(/^\/+|\/+$/g, ''))),
    }),
    pageById: t.field({
      type: PageRef,
      nullable: true,
      description: 'A page by its REST id; null when the revision has none.',
      args: { id: t.arg.string({ required: true, description: 'REST id of the page.' }) },
      resolve: (r, { id }) => pageOf(r, r.tree.byId.get(id)),
    }),
    files: t.field({
      type: [FileRef],
      description: 'The files of the revision, in the order they were added.',
      resolve: (r) => r.tree.files.map((file) => ({ ...r, file })),
    }),
  }),
});

builder.node(PageRef, {
  description: 'A page of a revision. Its global ID names the revision: the same page in a later revision is another node.',
  id: { resolve: (p) => contentNodeId(p.tree.revision.id, p.entry.page.data.id) },
  loadOne: async (id, ctx) => {
    const { revisionId, id: pageId } = splitContentNodeId(id);
    const content = await orNull(getRevisionContent(ctx, revisionId));
    return content ? pageOf(content, content.tree.byId.get(pageId)) : null;
  },
  fields: (t) => ({
    restId: t.string({ description: 'The id of the page in the REST API; the same in every revision.', resolve: (p) => p.entry.page.data.id }),
    type: t.field({ type: PageTypeEnum, description: 'What the page is.', resolve: (p) => p.entry.page.data.type }),
    title: t.string({ description: 'Title of the page.', resolve: (p) => p.entry.page.data.title }),
    slug: t.string({ nullable: true, description: 'The page in its path: unique among its siblings; null for a link.', resolve: (p) => p.entry.page.data.slug ?? null }),
    path: t.string({ description: 'Slugs from the top of the space, joined by `/`; empty for a link.', resolve: (p) => p.entry.path }),
    emoji: t.string({ nullable: true, description: 'Emoji shown with the title.', resolve: (p) => p.entry.page.data.emoji ?? null }),
    icon: t.string({ nullable: true, description: 'Icon shown with the title.', resolve: (p) => p.entry.page.data.icon ?? null }),
    description: t.string({ nullable: true, description: 'Short description, on document pages.', resolve: (p) => p.entry.page.data.description ?? null }),
    hidden: t.boolean({ description: 'Left out of the navigation, while still reachable.', resolve: (p) => p.entry.page.data.hidden ?? false }),
    noIndex: t.boolean({ description: 'Left out of search.', resolve: (p) => p.entry.page.data.noIndex ?? false }),
    noRobotsIndex: t.boolean({ description: 'Left out of search engines.', resolve: (p) => p.entry.page.data.noRobotsIndex ?? false }),
    href: t.string({
      nullable: true,
      description: 'Where a link page points: a URL, or the REST id of a page of the space.',
      resolve: (p) => {
        const target = p.entry.page.data.target;
        return target ? (target.kind === 'url' ? target.url : target.kind === 'page' ? target.page : target.file) : null;
      },
    }),
    markdown: t.string({
      nullable: true,
      description: 'The body of a document page, as markdown; null for other pages.',
      extensions: costExtensions({ weight: WEIGHTS.markdown }),
      resolve: (p, _, ctx) => (p.entry.page.data.type === 'document' ? answerMarkdown(ctx, p.entry.page) : null),
    }),
    document: t.field({
      type: 'JSON',
      nullable: true,
      description: "The body of a document page as the platform's JSON document, its links resolved in this revision; null for other pages.",
      extensions: costExtensions({ weight: WEIGHTS.document }),
      resolve: (p, _, ctx) => (p.entry.page.data.type === 'document' ? answerDocument(ctx, p.space, p.tree, p.entry) : null),
    }),
    pages: t.field({
      type: [PageRef],
      description: 'The pages inside this one, in order.',
      extensions: costExtensions({ group: 'page-tree' }),
      resolve: (p) => p.entry.page.children.map((c) => pageOf(p, p.tree.byId.get(c.data.id))!),
    }),
    parent: t.field({ type: PageRef, nullable: true, description: 'The page holding this one; null at the top.', resolve: (p) => (p.entry.parentId ? pageOf(p, p.tree.byId.get(p.entry.parentId)) : null) }),
    revision: t.field({ type: RevisionRef, description: 'The revision the page belongs to.', resolve: (p) => p }),
    createdAt: t.field({ type: 'DateTime', description: 'When the page was created.', resolve: (p) => new Date(p.entry.page.data.createdAt) }),
    updatedAt: t.field({ type: 'DateTime', description: 'When the page last changed.', resolve: (p) => new Date(p.entry.page.data.updatedAt) }),
  }),
});

builder.node(FileRef, {
  description: 'A file of a revision: an image or a document the pages refer to.',
  id: { resolve: (f) => contentNodeId(f.tree.revision.id, f.file.data.id) },
  loadOne: async (id, ctx) => {
    const { revisionId, id: fileId } = splitContentNodeId(id);
    const content = await orNull(getRevisionContent(ctx, revisionId));
    const file = content?.tree.filesById.get(fileId);
    return content && file ? { ...content, file } : null;
  },
  fields: (t) => ({
    restId: t.string({ description: 'The id of the file in the REST API.', resolve: (f) => f.file.data.id }),
    name: t.string({ description: 'File name.', resolve: (f) => f.file.data.name }),
    contentType: t.string({ description: 'Media type, read from the bytes.', resolve: (f) => f.file.data.contentType }),
    size: t.int({ description: 'Size in bytes.', resolve: (f) => f.file.data.size }),
    width: t.int({ nullable: true, description: 'Width of an image, in pixels.', resolve: (f) => f.file.data.dimensions?.width ?? null }),
    height: t.int({ nullable: true, description: 'Height of an image, in pixels.', resolve: (f) => f.file.data.dimensions?.height ?? null }),
    downloadUrl: t.string({ description: 'Where the bytes can be downloaded, without a token, for an hour.', resolve: (f, _, ctx) => fileDownloadUrl(ctx, f.file.data) }),
  }),
});

builder.objectFields(SpaceRef, (t) => ({
  content: t.field({
    type: RevisionRef,
    description: 'The current revision of the content: what readers see now.',
    resolve: (space, _, ctx) => getContent(ctx, space.id),
  }),
}));
