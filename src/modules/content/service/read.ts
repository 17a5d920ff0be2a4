import { requireViewer, type RequestContext } from '../../../context/request-context';
import type { SpaceRow } from '../../../db/schema/spaces';
import { pageReadSchema, revisionReadSchema, type PageReadInput, type RevisionReadInput } from '../../../domain/content';
import { hiddenAsMissing, NotFoundError } from '../../../domain/errors';
import { windowOf, type Page, type PageArgs } from '../../../domain/page';
import { parseInput } from '../../../domain/validate';
import { computedSpecKey, computedSpecPages } from '../../openapi/service';
import { getSpace } from '../../spaces/service';
import { PostgresBlobStore } from '../blob-store';
import { currentTree, readRevision } from '../commit';
import { computedRequests, computedSlugOf, expandComputed, hasComputedPages } from '../computed';
import { signedDownloadUrl, verifyDownloadUrl } from '../files';
import { resolverFor } from '../links';
import { markdownToDocument } from '../markdown';
import { allPages, loadRevisionTree, type FileData, type PageEntry, type RevisionTree, type TreeFile, type TreePage } from '../tree';

/*
 * Reading content: a space's current revision or any revision the viewer may read, its pages,
 * bodies and files, and the signed downloads of files.
 */

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

export const CONTENT_SCOPE_MESSAGE = 'This token may see the space but not read its content: that takes the space:content:read scope';

/** Refuses a viewer who may see the space but not read its content (an installation with metadata scopes only). */
export function assertContentReadable(ctx: RequestContext, space: SpaceRow): Promise<void> {
  return ctx.authz.assert('space:readContent', space, CONTENT_SCOPE_MESSAGE);
}

/** A space whose content the viewer may read. */
export async function contentReadableSpace(ctx: RequestContext, spaceId: string): Promise<SpaceRow> {
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

/** A revision's content, and whether it reads the same forever (`fixed`): not when its computed pages are computed, as they follow their source's latest version. */
export type RevisionContent = SpaceContent & { fixed: boolean };

/**
 * One revision of a space whose content the viewer may read, by the ids of both (REST's
 * `GET /spaces/{id}/revisions/{id}`): a revision of another space is missing here. Computed pages
 * as `getContent` has them.
 */
export async function getSpaceRevision(ctx: RequestContext, spaceId: string, revisionId: string, query: RevisionReadInput = {}): Promise<RevisionContent> {
  const space = await contentReadableSpace(ctx, spaceId);
  const { computed } = parseInput(revisionReadSchema, query);
  const content = await contentAt(ctx, space, revisionId);
  if (computed === 'false' || !hasComputedPages(content.tree)) return { ...content, fixed: true };
  return { ...(await withComputedPages(ctx, content)), fixed: false };
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
