import { requireViewer, type RequestContext } from '../../context/request-context';
import { NotFoundError, ValidationError, hiddenAsMissing } from '../../domain/errors';
import { windowOf, type Page, type PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { getSpace } from '../spaces/service';
import type { SpaceRow } from '../spaces/table';
import { PostgresBlobStore } from './blob-store';
import { commitEdit, currentTree, readRevision, type CommitOptions, type RevisionPointer } from './commit';
import { describeFile, signedDownloadUrl, verifyDownloadUrl } from './files';
import {
  fileRenameSchema,
  fileUploadSchema,
  linkQuerySchema,
  pageCreateSchema,
  pageMoveSchema,
  pageReadSchema,
  pageUpdateSchema,
  revisionReadSchema,
  searchSchema,
  type FileRenameInput,
  type FileUploadInput,
  type LinkQueryInput,
  type NewFile,
  type NewPage,
  type PageCreateInput,
  type PageMoveInput,
  type PagePositionInput,
  type PageReadInput,
  type PageUpdateInput,
  type RevisionReadInput,
  type SearchInput,
} from './input';
import { resolverFor } from './links';
import { pageBodies } from './bodies';
import { linkUsages, type LinkUsage } from './references';
import { renderPdf } from './pdf';
import { signedPdfUrl, verifyPdfUrl } from './pdf-links';
import { markdownToDocument, type ContentRef } from './markdown';
import { loadObjects, type Hash, type ObjectBatch } from './objects';
import { mergeTrees, type MergeConflict } from './merge';
import { changedBodies, pageChanges, type PageChange } from './changes';
import type { Db, Tx } from '../../db/client';
import { uniqueSlug, slugify } from './slugs';
import { fetchImport, IMPORT_SOURCES } from './import';
import { TEMPLATES } from './templates';
import { FetchRefused } from '../../lib/safe-fetch';
import { allPages, DEFAULT_LAYOUT, insertPage, loadRevisionTree, removePage, replacePage, type FileData, type PageData, type PageEntry, type RevisionTree, type TreeFile, type TreePage } from './tree';

import { searchOrganizationSpaces, searchSpacePages, type PageHit, type SpaceHit } from './search';
import { getOrganization } from '../organizations/service';
import { computedSpecKey, computedSpecPages, specSlugExists } from '../openapi/service';
import { computedRequests, computedSlugOf, expandComputed, hasComputedPages, openApiSource } from './computed';

export { spacePointer } from './commit';
export { answerDocument, answerMarkdown, countedDocument, pageBodies, pageDocument, pageMarkdown } from './bodies';
export type { PageHit, SpaceHit, SectionHit } from './search';
export type { PageEntry, RevisionTree, TreeFile, TreePage } from './tree';
export type { RevisionPointer } from './commit';
export type { MergeConflict, ConflictKind } from './merge';
export type { PageChange, ChangeKind } from './changes';

/** A space the viewer may read, with its current content. */
export interface SpaceContent {
  space: SpaceRow;
  tree: RevisionTree;
}

/**
 * The space's current content. Computed pages are computed unless `computed` is `false`: then
 * they stay as their source says, with no pages under them.
 */
export async function getContent(ctx: RequestContext, spaceId: string, query: RevisionReadInput = {}): Promise<SpaceContent> {
  const space = await contentReadableSpace(ctx, spaceId);
  const { computed } = parseInput(revisionReadSchema, query);
  const content = { space, tree: await currentTree(ctx, space) };
  return computed === 'false' ? content : withComputedPages(ctx, content);
}

const CONTENT_SCOPE_MESSAGE = 'This token may see the space but not read its content: that takes the space:content:read scope';

/** Refuses a viewer who may see the space but not read its content (an installation with metadata scopes only). */
export function assertContentReadable(ctx: RequestContext, space: SpaceRow): Promise<void> {
  return ctx.authz.assert('space:readContent', space, CONTENT_SCOPE_MESSAGE);
}

/** A space whose content the viewer may read. */
async function contentReadableSpace(ctx: RequestContext, spaceId: string): Promise<SpaceRow> {
  const space = await getSpace(ctx, spaceId);
  await assertContentReadable(ctx, space);
  return space;
}

/**
 * The content with its computed pages computed from their sources' current state (an OpenAPI
 * spec's latest version): two statements when it has any, none otherwise.
 */
export async function withComputedPages(ctx: RequestContext, content: SpaceContent): Promise<SpaceContent> {
  if (!hasComputedPages(content.tree)) return content;
  const specs = await computedSpecPages(ctx, content.space.organizationId, computedRequests(content.tree));
  const tree = expandComputed(content.tree, (page) => {
    const source = computedSlugOf(page);
    const found = source ? specs.get(computedSpecKey(source.slug, source.models)) : undefined;
    if (found?.state === 'ready') return { version: found.versionId, overview: found.pages.overview, pages: found.pages.pages };
    const markdown = found?.markdown ?? 'This computed page has a source Quire does not compute.';
    return { version: markdown, overview: markdown, pages: [] };
  });
  return { ...content, tree };
}

/** Any revision of a space the viewer may read, by its id; NOT_FOUND otherwise. */
export async function getRevisionContent(ctx: RequestContext, revisionId: string): Promise<SpaceContent> {
  requireViewer(ctx);
  const revision = await readRevision(ctx.db, revisionId);
  if (!revision) throw new NotFoundError('Revision');
  const space = await hiddenAsMissing(contentReadableSpace(ctx, revision.spaceId), 'Revision');
  return withComputedPages(ctx, { space, tree: await loadRevisionTree(ctx.db, revision) });
}

/** The content of one revision of a space the viewer may read (a change request's, say). */
export async function contentAt(ctx: RequestContext, space: SpaceRow, revisionId: string): Promise<SpaceContent> {
  const revision = await readRevision(ctx.db, revisionId);
  if (!revision || revision.spaceId !== space.id) throw new NotFoundError('Revision');
  return { space, tree: await loadRevisionTree(ctx.db, revision) };
}

export type FoundPage = SpaceContent & { entry: PageEntry; format: 'document' | 'markdown' };

/** A page of some content by id; a missing one is NOT_FOUND. */
export function findPage(content: SpaceContent, pageId: string, query: PageReadInput = {}): FoundPage {
  const { format } = parseInput(pageReadSchema, query);
  const entry = content.tree.byId.get(pageId);
  if (!entry) throw new NotFoundError('Page');
  return { ...content, entry, format };
}

/** A page of some content by path (slugs joined by `/`); a missing one is NOT_FOUND. */
export function findPageByPath(content: SpaceContent, path: string, query: PageReadInput = {}): FoundPage {
  const { format } = parseInput(pageReadSchema, query);
  const entry = content.tree.byPath.get(path.replace(/^\/+|\/+$/g, ''));
  if (!entry) throw new NotFoundError('Page');
  return { ...content, entry, format };
}

/** One page of the space's current content; another space's page, or a missing one, is NOT_FOUND. */
export async function getPage(ctx: RequestContext, spaceId: string, pageId: string, query: PageReadInput = {}): Promise<FoundPage> {
  return findPage(await getContent(ctx, spaceId, { computed: query.computed }), pageId, query);
}

export async function getPageByPath(ctx: RequestContext, spaceId: string, path: string, query: PageReadInput = {}): Promise<FoundPage> {
  return findPageByPath(await getContent(ctx, spaceId, { computed: query.computed }), path, query);
}

/** Every page of a tree, depth first. */
export function allPagesOf(tree: RevisionTree): TreePage[] {
  return [...allPages(tree.pages)];
}

/** Markdown that belongs to no page (a comment's), as the platform's JSON document, links resolved in the content. */
export function markdownDocument(ctx: RequestContext, content: SpaceContent, markdown: string): Record<string, unknown> {
  return markdownToDocument(markdown, resolverFor(content.tree, '', ctx.config.appUrl));
}

/** Files of the space's current revision, a window at a time. */
export async function listFiles(ctx: RequestContext, spaceId: string, args: PageArgs, max: number, query: RevisionReadInput = {}): Promise<SpaceContent & { page: Page<TreeFile> }> {
  return filesOf(await getContent(ctx, spaceId, query), args, max);
}

/** Files of some content, in their order, a window at a time. */
export function filesOf(content: SpaceContent, args: PageArgs, max: number): SpaceContent & { page: Page<TreeFile> } {
  return { ...content, page: windowOf(content.tree.files, args, max) };
}

// ---------------------------------------------------------------- links

export type { LinkUsage, LinkStatus } from './references';
export type { ContentRef } from './markdown';

/**
 * The links and images of some content (all its pages, or one page), grouped by target, with
 * counts of all and of broken ones; optionally only those of one status.
 */
export async function linksOf(ctx: RequestContext, content: SpaceContent, query: LinkQueryInput, args: PageArgs, max: number) {
  const { pageId, status } = parseInput(linkQuerySchema, query);
  const pages = pageId === undefined ? allPagesOf(content.tree) : [findPage(content, pageId).entry.page];
  const bodies = await pageBodies(ctx, pages);
  const all = await linkUsages(content.tree, pages.map((p) => p.data.id), bodies, ctx.config.appUrl, () => ctx.bounds.checkpoint());
  const count = (list: LinkUsage[]) => list.reduce((n, u) => n + u.pages.length, 0);
  const stats = { total: count(all), broken: { total: count(all.filter((u) => u.status === 'broken')) } };
  return { ...content, page: windowOf(status ? all.filter((u) => u.status === status) : all, args, max), stats };
}

/** The links of the space's current content. */
export async function listLinks(ctx: RequestContext, spaceId: string, query: LinkQueryInput, args: PageArgs, max: number) {
  return linksOf(ctx, await getContent(ctx, spaceId), query, args, max);
}

/** The pages of some content that show or link to a file, in tree order. */
export async function fileBacklinksOf(ctx: RequestContext, content: SpaceContent, fileId: string, args: PageArgs, max: number) {
  const { file } = fileOf(content, fileId);
  const pages = allPagesOf(content.tree);
  const usages = await linkUsages(content.tree, pages.map((p) => p.data.id), await pageBodies(ctx, pages), ctx.config.appUrl, () => ctx.bounds.checkpoint());
  const linking = new Set(usages.filter((u) => u.target.kind === 'file' && u.target.file === file.data.id).flatMap((u) => u.pages));
  const entries = pages.filter((p) => linking.has(p.data.id)).map((p) => content.tree.byId.get(p.data.id)!);
  return { ...content, page: windowOf(entries, args, max) };
}

export async function listFileBacklinks(ctx: RequestContext, spaceId: string, fileId: string, args: PageArgs, max: number) {
  return fileBacklinksOf(ctx, await getContent(ctx, spaceId), fileId, args, max);
}

export async function getFile(ctx: RequestContext, spaceId: string, fileId: string, query: RevisionReadInput = {}): Promise<SpaceContent & { file: TreeFile }> {
  return fileOf(await getContent(ctx, spaceId, query), fileId);
}

export function fileOf(content: SpaceContent, fileId: string): SpaceContent & { file: TreeFile } {
  const file = content.tree.filesById.get(fileId);
  if (!file) throw new NotFoundError('File');
  return { ...content, file };
}

/** Where the file's bytes can be downloaded without a token, for an hour. */
export function fileDownloadUrl(ctx: RequestContext, file: FileData): Promise<string> {
  return signedDownloadUrl(ctx.db, ctx.config.publicUrl, file, ctx.now());
}

/** The bytes a signed download URL names, when it holds; null otherwise. System use: the /files route. */
export async function readSignedFile(ctx: RequestContext, url: URL): Promise<{ bytes: Buffer; name: string; contentType: string } | null> {
  const signed = await verifyDownloadUrl(ctx.db, url, ctx.now());
  if (!signed) return null;
  const bytes = await new PostgresBlobStore(ctx.db).get(signed.blob);
  return bytes ? { bytes, name: signed.name, contentType: signed.contentType } : null;
}

/** How the links of one page of some content resolve: to its pages, its files, or outside. */
export function linkResolver(ctx: RequestContext, content: SpaceContent, entry: PageEntry) {
  return resolverFor(content.tree, entry.path, ctx.config.appUrl);
}

/** System use (published sites): the bytes of a file of some content already read. */
export async function fileBytes(ctx: RequestContext, content: SpaceContent, fileId: string): Promise<{ file: FileData; bytes: Buffer } | null> {
  const file = content.tree.filesById.get(fileId)?.data;
  const bytes = file ? await new PostgresBlobStore(ctx.db).get(file.blob) : null;
  return file && bytes ? { file, bytes } : null;
}

// ---------------------------------------------------------------- PDF

/**
 * Where a PDF of the content can be fetched without a token for an hour: all pages, or one page
 * with (or, with `only`, without) the pages inside it. The page must exist in the revision.
 */
export function pdfUrl(ctx: RequestContext, content: SpaceContent, options: { pageId?: string; only?: boolean }): Promise<string> {
  if (options.pageId !== undefined && !content.tree.byId.has(options.pageId)) throw new NotFoundError('Page');
  return signedPdfUrl(ctx.db, ctx.config.publicUrl, { revisionId: content.tree.revision.id, pageId: options.pageId, only: options.only ?? false }, ctx.now());
}

const DRAWABLE = new Set(['image/png', 'image/jpeg']);

/** The PDF a signed link names, rendered from its revision; null when the link does not hold. System use: the /pdf route. */
export async function readSignedPdf(ctx: RequestContext, url: URL): Promise<{ bytes: Buffer; name: string } | null> {
  const signed = await verifyPdfUrl(ctx.db, url, ctx.now());
  const revision = signed && (await readRevision(ctx.db, signed.revisionId));
  if (!signed || !revision) return null;
  const tree = await loadRevisionTree(ctx.db, revision);
  const top = signed.pageId ? tree.byId.get(signed.pageId)?.page : undefined;
  if (signed.pageId && !top) return null;
  const chosen: { page: TreePage; depth: number }[] = [];
  const walk = (list: readonly TreePage[], depth: number) => {
    for (const page of list) {
      if (page.data.type === 'computed') continue;
      chosen.push({ page, depth });
      if (!(signed.only && page === top)) walk(page.children, depth + 1);
    }
  };
  walk(top ? [top] : tree.pages, 0);
  const documents = chosen.filter((c) => c.page.data.type === 'document');
  const bodies = await pageBodies(ctx, documents.map((c) => c.page));
  const store = new PostgresBlobStore(ctx.db);
  const bytes = await renderPdf(
    top ? top.data.title : 'Content',
    documents.map(({ page, depth }) => ({
      title: page.data.title,
      depth,
      markdown: bodies.get(page.data.id) ?? '',
      resolve: resolverFor(tree, tree.byId.get(page.data.id)!.path, ctx.config.appUrl),
    })),
    async (fileId) => {
      const file = tree.filesById.get(fileId)?.data;
      return file && DRAWABLE.has(file.contentType) ? store.get(file.blob) : null;
    },
    // Between pages: the deadline's timer can fire, and the rendering stops once nobody waits for it.
    () => ctx.bounds.checkpoint(),
  );
  return { bytes, name: `${slugify(top ? top.data.title : 'content') || 'content'}.pdf` };
}

// ---------------------------------------------------------------- editing

/** The space, refused unless the viewer may edit its content now (a locked space refuses everyone). */
async function editableSpace(ctx: RequestContext, spaceId: string): Promise<SpaceRow> {
  const space = await getSpace(ctx, spaceId);
  const message = space.editMode === 'locked' ? 'The space is locked: unlock it to edit its content' : 'Your role does not let you edit the content of this space';
  await ctx.authz.assert('space:edit', space, message);
  return space;
}


function siblingsOf(tree: RevisionTree, parentId: string | null): readonly TreePage[] {
  return parentId === null ? tree.pages : tree.byId.get(parentId)!.page.children;
}

/** The index among `siblings` a position asks for: right before `before`, right after `after`, else last. */
function indexFor(siblings: readonly TreePage[], position: PagePositionInput | undefined): number {
  const find = (id: string, field: 'before' | 'after') => {
    const i = siblings.findIndex((p) => p.data.id === id);
    if (i < 0) throw new ValidationError(`position.${field}: the page ${id} is not among the pages there`, ['position', field]);
    return i;
  };
  if (position?.before && position.after) {
    const [before, after] = [find(position.before, 'before'), find(position.after, 'after')];
    if (after + 1 !== before) throw new ValidationError('position: `after` must come right before `before`', ['position']);
    return before;
  }
  if (position?.before) return find(position.before, 'before');
  if (position?.after) return find(position.after, 'after') + 1;
  return siblings.length;
}

/** Where a page may go: the top for groups; under a document or a group for the others. */
function checkParent(tree: RevisionTree, parentId: string | null, type: PageData['type']): void {
  if (parentId === null) return;
  const parent = tree.byId.get(parentId);
  if (!parent) throw new ValidationError(`parent: there is no page ${parentId} in this space`, ['parent']);
  if (type === 'group') throw new ValidationError('parent: a group sits at the top level only', ['parent']);
  if (parent.page.data.type !== 'document' && parent.page.data.type !== 'group') {
    throw new ValidationError(`parent: a ${parent.page.data.type} page holds no pages`, ['parent']);
  }
}

/** A link page's target: a page of the space by id, else the URL as given. */
function linkTarget(tree: RevisionTree, href: string): ContentRef & { kind: 'url' | 'page' } {
  return tree.byId.has(href) ? { kind: 'page', page: href } : { kind: 'url', url: href };
}

function putBody(batch: ObjectBatch, markdown: string | undefined): string | undefined {
  return markdown ? batch.put('body', { markdown }) : undefined;
}

const takenSlugs = (siblings: readonly TreePage[], except?: string) =>
  new Set(siblings.filter((p) => p.data.id !== except && p.data.slug !== undefined).map((p) => p.data.slug!));

export async function createPage(ctx: RequestContext, spaceId: string, input: PageCreateInput, pointer?: RevisionPointer): Promise<SpaceContent & { entry: PageEntry }> {
  const space = await editableSpace(ctx, spaceId);
  const body = parseInput(pageCreateSchema, input);
  if (body.computed && !(await specSlugExists(ctx, space.organizationId, body.computed.openapiSpec))) {
    throw new ValidationError(`computed.openapiSpec: there is no OpenAPI specification ${body.computed.openapiSpec} in this organization`, ['computed', 'openapiSpec']);
  }
  const { tree, result: id } = await commitEdit(ctx, space, (tree, batch, now) => {
    const parentId = body.parent ?? null;
    checkParent(tree, parentId, body.type);
    const siblings = siblingsOf(tree, parentId);
    const at = now.toISOString();
    const bodyHash = body.type === 'document' ? putBody(batch, body.markdown) : undefined;
    const data: PageData = {
      id: newId(),
      type: body.type,
      title: body.title,
      ...(body.type !== 'link' ? { slug: uniqueSlug(slugify(body.title), takenSlugs(siblings)) } : {}),
      ...(body.emoji ? { emoji: body.emoji } : {}),
      ...(body.icon ? { icon: body.icon } : {}),
      ...(body.description ? { description: body.description } : {}),
      ...(body.hidden ? { hidden: true } : {}),
      ...(body.type === 'document' ? { layout: DEFAULT_LAYOUT } : {}),
      ...(bodyHash ? { body: bodyHash } : {}),
      ...(body.type === 'link' ? { target: linkTarget(tree, body.href!) } : {}),
      ...(body.computed ? { computed: openApiSource(body.computed.openapiSpec, body.computed.models ?? false) } : {}),
      createdAt: at,
      updatedAt: at,
    };
    return { pages: insertPage(tree.pages, parentId, indexFor(siblings, body.position), { data, children: [] }), result: data.id };
  }, { pointer });
  return { space, tree, entry: tree.byId.get(id)! };
}

/** Absent fields stay; null removes an optional one. */
function withChanges(data: PageData, changes: ReturnType<typeof pageUpdateSchema.parse>, body: string | undefined | null, at: string): PageData {
  const next: PageData = { ...data, updatedAt: at };
  if (changes.title !== undefined) next.title = changes.title;
  for (const key of ['emoji', 'icon', 'description'] as const) {
    if (changes[key] === null) delete next[key];
    else if (changes[key] !== undefined) next[key] = changes[key]!;
  }
  for (const key of ['hidden', 'noIndex', 'noRobotsIndex'] as const) if (changes[key] !== undefined) next[key] = changes[key];
  if (changes.layout) next.layout = { ...(data.layout ?? DEFAULT_LAYOUT), ...changes.layout };
  if (body === null) delete next.body;
  else if (body !== undefined) next.body = body;
  return next;
}

export async function updatePage(ctx: RequestContext, spaceId: string, pageId: string, input: PageUpdateInput, pointer?: RevisionPointer): Promise<SpaceContent & { entry: PageEntry }> {
  const space = await editableSpace(ctx, spaceId);
  const changes = parseInput(pageUpdateSchema, input);
  const { tree } = await commitEdit(ctx, space, (tree, batch, now) => {
    const entry = tree.byId.get(pageId);
    if (!entry) throw new NotFoundError('Page');
    const type = entry.page.data.type;
    if ((changes.markdown !== undefined || changes.description != null || changes.layout) && type !== 'document') {
      throw new ValidationError(`a ${type} page has no body, description or layout`, [changes.markdown !== undefined ? 'markdown' : changes.layout ? 'layout' : 'description']);
    }
    if (changes.href !== undefined && type !== 'link') throw new ValidationError('only a link page has an href', ['href']);
    const body = changes.markdown === undefined ? undefined : (putBody(batch, changes.markdown) ?? null);
    let data = withChanges(entry.page.data, changes, body, now.toISOString());
    if (changes.href !== undefined) data = { ...data, target: linkTarget(tree, changes.href) };
    if (changes.title !== undefined && data.slug !== undefined && changes.title !== entry.page.data.title) {
      data = { ...data, slug: uniqueSlug(slugify(changes.title), takenSlugs(siblingsOf(tree, entry.parentId), pageId)) };
    }
    return { pages: replacePage(tree.pages, pageId, (page) => ({ data, children: page.children })), result: undefined };
  }, { pointer });
  return { space, tree, entry: tree.byId.get(pageId)! };
}

export async function movePage(ctx: RequestContext, spaceId: string, pageId: string, input: PageMoveInput, pointer?: RevisionPointer): Promise<SpaceContent & { entry: PageEntry }> {
  const space = await editableSpace(ctx, spaceId);
  const move = parseInput(pageMoveSchema, input);
  const { tree } = await commitEdit(ctx, space, (tree, _batch, now) => {
    const entry = tree.byId.get(pageId);
    if (!entry) throw new NotFoundError('Page');
    const parentId = move.parent === undefined ? entry.parentId : move.parent;
    if (parentId !== null && (parentId === pageId || [...allPages(entry.page.children)].some((p) => p.data.id === parentId))) {
      throw new ValidationError('parent: a page cannot go inside itself or one of its own pages', ['parent']);
    }
    checkParent(tree, parentId, entry.page.data.type);
    const without = removePage(tree.pages, pageId);
    const siblings = (parentId === null ? without : findIn(without, parentId)!.children).filter((p) => p.data.id !== pageId);
    const index = indexFor(siblings, move.position);
    const data: PageData = { ...entry.page.data, updatedAt: now.toISOString() };
    if (data.slug !== undefined && parentId !== entry.parentId) data.slug = uniqueSlug(slugify(data.title), takenSlugs(siblings, pageId));
    return { pages: insertPage(without, parentId, index, { data, children: entry.page.children }), result: undefined };
  }, { pointer });
  return { space, tree, entry: tree.byId.get(pageId)! };
}

function findIn(pages: readonly TreePage[], id: string): TreePage | undefined {
  for (const page of allPages(pages)) if (page.data.id === id) return page;
  return undefined;
}

/** Deletes the page and the pages inside it. */
export async function deletePage(ctx: RequestContext, spaceId: string, pageId: string, pointer?: RevisionPointer): Promise<SpaceContent> {
  const space = await editableSpace(ctx, spaceId);
  const { tree } = await commitEdit(ctx, space, (tree) => {
    if (!tree.byId.has(pageId)) throw new NotFoundError('Page');
    return { pages: removePage(tree.pages, pageId), result: undefined };
  }, { pointer });
  return { space, tree };
}

/** Adds a file to the space's content; its bytes go to the blob store, its type is read from them. */
export async function uploadFile(ctx: RequestContext, spaceId: string, input: FileUploadInput, pointer?: RevisionPointer): Promise<SpaceContent & { file: TreeFile }> {
  requireViewer(ctx);
  const space = await editableSpace(ctx, spaceId);
  const { name, contentType, bytes } = parseInput(fileUploadSchema, input);
  const blob = await new PostgresBlobStore(ctx.db).put(bytes);
  const described = await describeFile(bytes, name, contentType);
  const { tree, result: id } = await commitEdit(ctx, space, (tree) => {
    const data: FileData = { id: newId(), name, blob, ...described };
    return { files: [...tree.files, { data }], result: data.id };
  }, { pointer });
  return { space, tree, file: tree.filesById.get(id)! };
}

/** Gives a file another name; its bytes stay as they are. */
export async function renameFile(ctx: RequestContext, spaceId: string, fileId: string, input: FileRenameInput, pointer?: RevisionPointer): Promise<SpaceContent & { file: TreeFile }> {
  const space = await editableSpace(ctx, spaceId);
  const { name } = parseInput(fileRenameSchema, input);
  const { tree } = await commitEdit(ctx, space, (tree) => {
    if (!tree.filesById.has(fileId)) throw new NotFoundError('File');
    return { files: tree.files.map((f) => (f.data.id === fileId ? { data: { ...f.data, name } } : f)), result: undefined };
  }, { pointer });
  return { space, tree, file: tree.filesById.get(fileId)! };
}

/** Removes a file from the content; pages that show it keep their reference, which then resolves to nothing. */
export async function deleteFile(ctx: RequestContext, spaceId: string, fileId: string, pointer?: RevisionPointer): Promise<SpaceContent> {
  const space = await editableSpace(ctx, spaceId);
  const { tree } = await commitEdit(ctx, space, (tree) => {
    if (!tree.filesById.has(fileId)) throw new NotFoundError('File');
    return { files: tree.files.filter((f) => f.data.id !== fileId), result: undefined };
  }, { pointer });
  return { space, tree };
}

/**
 * Adds a whole tree of pages, and files, in one revision: after the existing pages, or instead of
 * them. What imports and templates write. The caller has checked what it adds; titles become slugs
 * as for any page.
 */
export async function addContent(
  ctx: RequestContext,
  spaceId: string,
  added: { pages: NewPage[]; files?: NewFile[] },
  mode: 'append' | 'replace' = 'append',
  pointer?: RevisionPointer,
): Promise<SpaceContent & { pageIds: string[]; fileIds: string[] }> {
  const space = await editableSpace(ctx, spaceId);
  const store = new PostgresBlobStore(ctx.db);
  const files: FileData[] = [];
  for (const file of added.files ?? []) {
    const described = await describeFile(file.bytes, file.name, file.contentType);
    files.push({ id: newId(), name: file.name, blob: await store.put(file.bytes), ...described });
  }
  const { tree, result } = await commitEdit(ctx, space, (tree, batch, now) => {
    const at = now.toISOString();
    const ids: string[] = [];
    const build = (pages: NewPage[], taken: Set<string>, topLevel: boolean): TreePage[] =>
      pages.map((spec) => {
        const type = spec.type === 'group' && !topLevel ? 'document' : (spec.type ?? 'document');
        const id = newId();
        ids.push(id);
        const title = spec.title.trim().slice(0, 200) || 'Untitled';
        const slug = type === 'link' ? undefined : uniqueSlug(slugify(spec.slug ?? title), taken);
        if (slug) taken.add(slug);
        const body = type === 'document' ? putBody(batch, spec.markdown) : undefined;
        const data: PageData = {
          id,
          type,
          title,
          ...(slug ? { slug } : {}),
          ...(spec.emoji ? { emoji: spec.emoji } : {}),
          ...(spec.description && type === 'document' ? { description: spec.description.slice(0, 1000) } : {}),
          ...(spec.hidden ? { hidden: true } : {}),
          ...(type === 'document' ? { layout: DEFAULT_LAYOUT } : {}),
          ...(body ? { body } : {}),
          ...(type === 'link' ? { target: linkTarget(tree, spec.href ?? '') } : {}),
          createdAt: at,
          updatedAt: at,
        };
        return { data, children: type === 'link' ? [] : build(spec.children ?? [], new Set(), false) };
      });
    const keep = mode === 'append' ? tree.pages : [];
    const pages = [...keep, ...build(added.pages, takenSlugs(keep), true)];
    const kept = mode === 'append' ? tree.files : [];
    return { pages, files: [...kept, ...files.map((data) => ({ data }))], result: ids };
  }, { pointer });
  return { space, tree, pageIds: result, fileIds: files.map((f) => f.id) };
}

// ---------------------------------------------------------------- merging and comparing

/** Thrown from inside a merge's edit to write nothing; carries what clashed. */
class MergeConflicts extends Error {
  constructor(readonly conflicts: MergeConflict[]) {
    super('merge conflicts');
  }
}

export interface MergeRequest {
  /** The common ancestor of the two sides. */
  base: string;
  /** The revision whose changes are brought in; the pointer's current revision is the other side. */
  incoming: string;
  /** What the merged revision moves: the space for a merge, a change request for an update. */
  pointer: RevisionPointer;
  type: 'merge' | 'update';
  /** What must change in the same transaction (the change request's status, say). */
  alongside?: CommitOptions['alongside'];
}

export type MergeResult = { result: 'merged'; content: SpaceContent } | { result: 'conflicts'; conflicts: MergeConflict[] };

/** Body hashes whose text a three-way merge of these trees may need. */
function differingBodies(trees: RevisionTree[]): Hash[] {
  const hashes = new Set<Hash>();
  const ids = new Set(trees.flatMap((t) => [...t.byId.keys()]));
  for (const id of ids) {
    const bodies = trees.map((t) => t.byId.get(id)?.page.data.body);
    if (new Set(bodies).size > 1) for (const b of bodies) if (b) hashes.add(b);
  }
  return [...hashes];
}

async function bodiesOf(db: Db | Tx, hashes: Hash[]): Promise<Map<Hash, string>> {
  const objects = hashes.length ? await loadObjects(db, hashes) : new Map();
  return new Map(hashes.map((h) => [h, (objects.get(h)!.data as { markdown: string }).markdown]));
}

async function revisionTree(ctx: RequestContext, space: SpaceRow, id: string): Promise<RevisionTree> {
  return (await contentAt(ctx, space, id)).tree;
}

/**
 * Three-way merges `incoming` into what the pointer names, from their common `base`: a new
 * revision of `type` with both parents when nothing clashes; otherwise the conflicts, and nothing
 * written. The caller has checked the viewer may do it. A writer that moved the pointer meanwhile
 * is merged with too (see commitEdit).
 */
export async function mergeRevisions(ctx: RequestContext, space: SpaceRow, request: MergeRequest): Promise<MergeResult> {
  const [base, incoming] = [await revisionTree(ctx, space, request.base), await revisionTree(ctx, space, request.incoming)];
  try {
    const { tree } = await commitEdit(
      ctx,
      space,
      async (ours, batch, _now, db) => {
        const bodies = await bodiesOf(db, differingBodies([base, ours, incoming]));
        const outcome = mergeTrees({ base, ours, theirs: incoming, bodies }, (markdown) => batch.put('body', { markdown }));
        if (!outcome.ok) throw new MergeConflicts(outcome.conflicts);
        return { pages: outcome.pages, files: outcome.files, parents: [incoming.revision.id], result: undefined };
      },
      { pointer: request.pointer, type: request.type, alongside: request.alongside },
    );
    return { result: 'merged', content: { space, tree } };
  } catch (error) {
    if (error instanceof MergeConflicts) return { result: 'conflicts', conflicts: error.conflicts };
    throw error;
  }
}

/** What merging `incoming` into `current` from `base` would clash on, without writing anything. */
export async function mergeConflicts(ctx: RequestContext, space: SpaceRow, revisions: { base: string; current: string; incoming: string }): Promise<MergeConflict[]> {
  const [base, ours, theirs] = [await revisionTree(ctx, space, revisions.base), await revisionTree(ctx, space, revisions.current), await revisionTree(ctx, space, revisions.incoming)];
  const outcome = mergeTrees({ base, ours, theirs, bodies: await bodiesOf(ctx.db, differingBodies([base, ours, theirs])) }, () => '');
  return outcome.ok ? [] : outcome.conflicts;
}

/** The pages changed from one revision of the space to another, each with a diff of its body. */
export async function changesBetween(ctx: RequestContext, space: SpaceRow, from: string, to: string): Promise<PageChange[]> {
  const [before, after] = [await revisionTree(ctx, space, from), await revisionTree(ctx, space, to)];
  return pageChanges(before, after, await bodiesOf(ctx.db, changedBodies(before, after)));
}

// ---------------------------------------------------------------- search

/** Pages of a space's current content matching a query, best first, with their matching sections. */
export async function searchSpace(ctx: RequestContext, spaceId: string, input: SearchInput, args: PageArgs, max: number): Promise<Page<PageHit>> {
  const space = await contentReadableSpace(ctx, spaceId);
  const { query } = parseInput(searchSchema, input);
  return searchSpacePages(ctx, space.id, query, args, max);
}

/**
 * System use (published sites): pages of a space's current content matching a query, for readers
 * of a site that publishes the space; the caller has decided they may read it.
 */
export async function searchPublishedSpace(ctx: RequestContext, space: SpaceRow, input: SearchInput, max: number): Promise<PageHit[]> {
  const { query } = parseInput(searchSchema, input);
  return (await searchSpacePages(ctx, space.id, query, { first: max }, max)).items;
}

/** Spaces of an organization the viewer may see whose current content matches a query, each with its best pages. */
export async function searchOrganizationContent(ctx: RequestContext, organizationId: string, input: SearchInput, args: PageArgs, max: number): Promise<Page<SpaceHit>> {
  const org = await getOrganization(ctx, organizationId);
  const { query } = parseInput(searchSchema, input);
  return searchOrganizationSpaces(ctx, org.id, await ctx.authz.listFilter('space', [org.id]), query, args, max);
}

/** Imports the content at a URL into a space (or, with a pointer, a change request), in one revision. */
export async function importContent(ctx: RequestContext, spaceId: string, input: unknown, pointer?: RevisionPointer): Promise<{ revision: string; importedResources: number; totalResources: number }> {
  await editableSpace(ctx, spaceId);
  const body = (typeof input === 'object' && input !== null ? input : {}) as { url?: unknown; source?: unknown };
  // An import request is a URL and a source; anything this large is not one.
  if (JSON.stringify(body).length > 16 * 1024) throw new ValidationError('request body: an import request is larger than 16 KB; send only url and source');
  if (typeof body.url !== 'string' || !URL.canParse(body.url)) throw new ValidationError('url: must be an absolute http or https URL', ['url']);
  if (typeof body.source !== 'string') throw new ValidationError(`source: required, one of ${IMPORT_SOURCES.join(', ')}`, ['source']);
  let imported;
  try {
    imported = await fetchImport(body.url, body.source, ctx.config.fetchAllowHosts ?? []);
  } catch (error) {
    if (error instanceof FetchRefused) throw new ValidationError(error.message, ['url']);
    throw error;
  }
  if (imported.pages.length === 0) throw new ValidationError(`url: nothing to import was found at ${body.url}`, ['url']);
  const written = await addContent(ctx, spaceId, imported, 'append', pointer);
  return { revision: written.tree.revision.id, importedResources: written.pageIds.length + written.fileIds.length, totalResources: imported.total };
}

/** Adds the pages of a built-in template to a space. */
export async function applyTemplate(ctx: RequestContext, spaceId: string, input: unknown): Promise<void> {
  const id = (input as { id?: unknown } | null)?.id;
  const template = typeof id === 'string' && Object.hasOwn(TEMPLATES, id) ? TEMPLATES[id] : undefined;
  if (!template) throw new ValidationError(`id: unknown template; the templates are ${Object.keys(TEMPLATES).join(', ')}`, ['id']);
  await addContent(ctx, spaceId, { pages: template.pages }, 'append');
}
