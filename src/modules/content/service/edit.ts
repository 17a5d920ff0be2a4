import { requireViewer, type RequestContext } from '../../../context/request-context';
import type { SpaceRow } from '../../../db/schema/spaces';
import type { NewFile, NewPage } from '../../../domain/content';
import { NotFoundError, ValidationError } from '../../../domain/errors';
import { parseInput } from '../../../domain/validate';
import { newId } from '../../../lib/ids';
import { specSlugExists } from '../../openapi/service';
import { getSpace } from '../../spaces/service';
import { PostgresBlobStore } from '../blob-store';
import { commitEdit, type RevisionPointer } from '../commit';
import { openApiSource } from '../computed';
import { describeFile } from '../files';
import { fileRenameSchema, fileUploadSchema, pageCreateSchema, pageMoveSchema, pageUpdateSchema, type FileRenameInput, type FileUploadInput, type PageCreateInput, type PageMoveInput, type PagePositionInput, type PageUpdateInput } from '../input';
import type { ContentRef } from '../markdown';
import type { ObjectBatch } from '../objects';
import { slugify, uniqueSlug } from '../slugs';
import { DEFAULT_LAYOUT, allPages, insertPage, removePage, replacePage, type FileData, type PageData, type PageEntry, type RevisionTree, type TreeFile, type TreePage } from '../tree';
import type { SpaceContent } from './read';

/*
 * Editing content: pages and files, each edit a new revision of the space or of a change request,
 * written by compare-and-set (see ../commit.ts).
 */

/** The space, refused unless the viewer may edit its content now (a locked space refuses everyone). */
export async function editableSpace(ctx: RequestContext, spaceId: string): Promise<SpaceRow> {
  const space = await getSpace(ctx, spaceId);
  const message = space.editMode === 'locked' ? 'The space is locked: unlock it to edit its content' : 'Your role does not let you edit the content of this space';
  await ctx.authz.assert('space:edit', space, message);
  return space;
}

export function siblingsOf(tree: RevisionTree, parentId: string | null): readonly TreePage[] {
  return parentId === null ? tree.pages : tree.byId.get(parentId)!.page.children;
}

/** The index among `siblings` a position asks for: right before `before`, right after `after`, else last. */
export function indexFor(siblings: readonly TreePage[], position: PagePositionInput | undefined): number {
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
export function checkParent(tree: RevisionTree, parentId: string | null, type: PageData['type']): void {
  if (parentId === null) return;
  const parent = tree.byId.get(parentId);
  if (!parent) throw new ValidationError(`parent: there is no page ${parentId} in this space`, ['parent']);
  if (type === 'group') throw new ValidationError('parent: a group sits at the top level only', ['parent']);
  if (parent.page.data.type !== 'document' && parent.page.data.type !== 'group') {
    throw new ValidationError(`parent: a ${parent.page.data.type} page holds no pages`, ['parent']);
  }
}

/** A link page's target: a page of the space by id, else the URL as given. */
export function linkTarget(tree: RevisionTree, href: string): ContentRef & { kind: 'url' | 'page' } {
  return tree.byId.has(href) ? { kind: 'page', page: href } : { kind: 'url', url: href };
}

export function putBody(batch: ObjectBatch, markdown: string | undefined): string | undefined {
  return markdown ? batch.put('body', { markdown }) : undefined;
}

export const takenSlugs = (siblings: readonly TreePage[], except?: string) =>
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
export function withChanges(data: PageData, changes: ReturnType<typeof pageUpdateSchema.parse>, body: string | undefined | null, at: string): PageData {
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

export function findIn(pages: readonly TreePage[], id: string): TreePage | undefined {
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
