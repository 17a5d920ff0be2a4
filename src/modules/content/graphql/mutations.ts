import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder, type BuilderTypes } from '../../../graphql/builder';
import { defineMutation } from '../../../graphql/mutation';
import type { RequestContext } from '../../../context/request-context';
import { SpaceRef } from '../../spaces/graphql/refs';
import type { PageCreateInput, PageUpdateInput } from '../input';
import { createPage, deleteFile, deletePage, getRevisionContent, movePage, renameFile, updatePage, uploadFile, type RevisionPointer } from '../service';
import { ValidationError } from '../../../domain/errors';
import { changeRequestEditTarget, getChangeRequestById } from '../../change-requests/service';
import { ChangeRequestRef } from '../../change-requests/graphql/refs';
import { FileRef, NewPageTypeEnum, PageRef, RevisionRef, splitContentNodeId } from './refs';

type DecodedID = { typename: string; id: string };

/**
 * Where an edit lands: the space's current content, or the change request's when one is named.
 * A change request of another space is refused.
 */
export async function editTarget(ctx: RequestContext, spaceId: string, changeRequestId: DecodedID | null | undefined): Promise<RevisionPointer | undefined> {
  if (!changeRequestId) return undefined;
  const changeRequest = await getChangeRequestById(ctx, changeRequestId.id);
  const pointer = changeRequestEditTarget(ctx, changeRequest);
  if (changeRequest.space.id !== spaceId) throw new ValidationError('changeRequestId: the change request belongs to another space', ['changeRequestId']);
  return pointer;
}

/** The space and the page a Page's global ID names, and where the edit lands. */
async function spaceAndPage(ctx: RequestContext, pageId: DecodedID, changeRequestId: DecodedID | null | undefined): Promise<{ spaceId: string; pageId: string; pointer?: RevisionPointer }> {
  const { revisionId, id } = splitContentNodeId(pageId.id);
  const spaceId = (await getRevisionContent(ctx, revisionId)).space.id;
  return { spaceId, pageId: id, pointer: await editTarget(ctx, spaceId, changeRequestId) };
}

export const changeRequestArg = (t: PothosSchemaTypes.InputFieldBuilder<BuilderTypes, 'InputObject'>) =>
  t.globalID({ for: ChangeRequestRef, description: "Edit this change request's content instead of the space's; it must be a draft or open change request of the space." });

const pageIdOf = (id: DecodedID | null | undefined) => (id ? splitContentNodeId(id.id).id : id);

const PagePositionInput = builder.inputType('PagePositionInput', {
  description: 'Where a page goes among its siblings: right before one, right after one, or both when they are neighbours; last when empty.',
  fields: (t) => ({
    beforeId: t.globalID({ for: PageRef, description: 'Put it right before this page, a sibling.' }),
    afterId: t.globalID({ for: PageRef, description: 'Put it right after this page, a sibling.' }),
  }),
});

const position = (p: { beforeId?: DecodedID | null; afterId?: DecodedID | null } | null | undefined) =>
  p ? { ...(p.beforeId ? { before: pageIdOf(p.beforeId)! } : {}), ...(p.afterId ? { after: pageIdOf(p.afterId)! } : {}) } : undefined;

/** Where the service's input fields sit in these mutations' inputs. */
const PAGE_FIELDS = { parent: 'parentId', 'position.before': 'position.beforeId', 'position.after': 'position.afterId' };

const pagePayload = (description: string) => ({
  page: { type: PageRef, description },
  revision: { type: RevisionRef, description: 'The revision the edit wrote, now the current one.' },
});

export const EDIT_RULES =
  "Needs the edit role on the space, which must not be locked. Writes a new revision and makes it the space's current one (or the change request's, when one is named); concurrent edits are all kept.";

const PageComputedSourceInput = builder.inputType('PageComputedSourceInput', {
  description:
    "Where a computed page comes from: an OpenAPI specification of the space's organization. Readers see it as a page with one subpage per tag of the specification's latest version, recomputed when a new version is processed.",
  fields: (t) => ({
    openapiSpec: t.string({ required: true, description: 'Slug of the OpenAPI specification.' }),
    models: t.boolean({ description: 'Add a page listing the specification\'s models (schemas).' }),
  }),
});

defineMutation('pageCreate', {
  description: `Creates a page in a space's content. ${EDIT_RULES}`,
  input: (t) => ({
    spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space.' }),
    changeRequestId: changeRequestArg(t),
    parentId: t.globalID({ for: PageRef, description: 'The page to create it in; absent for the top level.' }),
    position: t.field({ type: PagePositionInput, description: 'Where among its siblings; last when absent.' }),
    type: t.field({ type: NewPageTypeEnum, description: 'What the page is; a document when absent.' }),
    title: t.string({ required: true, description: 'Title, 1 to 200 characters; the slug comes from it.' }),
    emoji: t.string({ description: 'Emoji shown with the title.' }),
    icon: t.string({ description: 'Icon shown with the title.' }),
    description: t.string({ description: 'Short description of a document page.' }),
    markdown: t.string({ description: 'Body of a document page, in markdown.' }),
    href: t.string({ description: 'Where a link page points: a URL, or the REST id of a page of the space.' }),
    hidden: t.boolean({ description: 'Leave it out of the navigation.' }),
    computed: t.field({ type: PageComputedSourceInput, description: 'The source of a computed page; required with type COMPUTED, refused otherwise.' }),
  }),
  fields: PAGE_FIELDS,
  payload: pagePayload('The new page.'),
  resolve: async ({ spaceId, changeRequestId, parentId, position: at, type, ...rest }, ctx) => {
    const { computed, ...fields } = rest;
    const source = computed ? { openapiSpec: computed.openapiSpec, ...(computed.models != null ? { models: computed.models } : {}) } : undefined;
    const input = { ...fields, type, computed: source, parent: pageIdOf(parentId), position: position(at) } as PageCreateInput;
    for (const key of Object.keys(input) as (keyof PageCreateInput)[]) if (input[key] === null || input[key] === undefined) delete input[key];
    const { entry, ...content } = await createPage(ctx, spaceId.id, input, await editTarget(ctx, spaceId.id, changeRequestId));
    return { page: { ...content, entry }, revision: content };
  },
});

defineMutation('pageUpdate', {
  inputDescription: 'Input of pageUpdate. Absent fields stay as they are; null removes an emoji, icon or description.',
  description: `Changes a page: its title (and so its slug), looks, body or flags. ${EDIT_RULES}`,
  input: (t) => ({
    pageId: t.globalID({ for: PageRef, required: true, description: 'The page.' }),
    changeRequestId: changeRequestArg(t),
    title: t.string({ description: 'New title.' }),
    emoji: t.string({ description: 'Emoji shown with the title.' }),
    icon: t.string({ description: 'Icon shown with the title.' }),
    description: t.string({ description: 'Short description of a document page.' }),
    markdown: t.string({ description: 'New body of a document page, in markdown; an empty string empties it.' }),
    href: t.string({ description: 'Where a link page points.' }),
    hidden: t.boolean({ description: 'Leave it out of the navigation.' }),
    noIndex: t.boolean({ description: 'Leave it out of search.' }),
    noRobotsIndex: t.boolean({ description: 'Leave it out of search engines.' }),
    layout: t.field({ type: 'JSON', description: 'Layout flags of a document page to change: width, cover, coverSize, title, description, tableOfContents, outline, pagination, metadata.' }),
  }),
  payload: pagePayload('The page after the change.'),
  resolve: async ({ pageId, changeRequestId, ...changes }, ctx) => {
    const target = await spaceAndPage(ctx, pageId, changeRequestId);
    const { entry, ...content } = await updatePage(ctx, target.spaceId, target.pageId, changes as PageUpdateInput, target.pointer);
    return { page: { ...content, entry }, revision: content };
  },
});

defineMutation('pageMove', {
  inputDescription: 'Input of pageMove. Give a parent, a position or both.',
  description: `Moves a page, with the pages inside it, to another parent or another place among its siblings. ${EDIT_RULES}`,
  input: (t) => ({
    pageId: t.globalID({ for: PageRef, required: true, description: 'The page.' }),
    changeRequestId: changeRequestArg(t),
    parentId: t.globalID({ for: PageRef, description: 'The page to move it into; null for the top level; absent to keep its parent.' }),
    position: t.field({ type: PagePositionInput, description: 'Where among its new siblings; last when absent.' }),
  }),
  fields: PAGE_FIELDS,
  payload: pagePayload('The page at its new place.'),
  resolve: async ({ pageId, changeRequestId, parentId, position: at }, ctx) => {
    const target = await spaceAndPage(ctx, pageId, changeRequestId);
    const move = { ...(parentId !== undefined ? { parent: pageIdOf(parentId) ?? null } : {}), ...(at ? { position: position(at) } : {}) };
    const { entry, ...content } = await movePage(ctx, target.spaceId, target.pageId, move, target.pointer);
    return { page: { ...content, entry }, revision: content };
  },
});

defineMutation('pageDelete', {
  description: `Deletes a page and the pages inside it. ${EDIT_RULES}`,
  input: (t) => ({ pageId: t.globalID({ for: PageRef, required: true, description: 'The page.' }), changeRequestId: changeRequestArg(t) }),
  payload: {
    deletedPageId: { type: 'ID', description: 'The global ID the page had.' },
    revision: { type: RevisionRef, description: 'The revision without the page, now the current one.' },
  },
  resolve: async ({ pageId, changeRequestId }, ctx) => {
    const target = await spaceAndPage(ctx, pageId, changeRequestId);
    const content = await deletePage(ctx, target.spaceId, target.pageId, target.pointer);
    return { deletedPageId: encodeGlobalID('Page', pageId.id), revision: content };
  },
});

defineMutation('fileUpload', {
  description: `Adds a file to a space's content, sent as a multipart request (at most QUIRE_UPLOAD_LIMIT_BYTES, 10 MB unless configured). Its type and an image's size are read from the bytes. ${EDIT_RULES}`,
  input: (t) => ({
    spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space.' }),
    changeRequestId: changeRequestArg(t),
    file: t.field({ type: 'Upload', required: true, description: 'The file.' }),
    name: t.string({ description: 'File name; the uploaded file’s own when absent.' }),
  }),
  fields: { bytes: 'file' },
  payload: {
    file: { type: FileRef, description: 'The new file.' },
    revision: { type: RevisionRef, description: 'The revision with the file, now the current one.' },
  },
  resolve: async ({ spaceId, changeRequestId, file, name }, ctx) => {
    const bytes = Buffer.from(await file.arrayBuffer());
    const pointer = await editTarget(ctx, spaceId.id, changeRequestId);
    const { file: added, ...content } = await uploadFile(ctx, spaceId.id, { name: name ?? file.name, contentType: file.type || undefined, bytes }, pointer);
    return { file: { ...content, file: added }, revision: content };
  },
});

/** The space and the file a File's global ID names, and where the edit lands. */
async function spaceAndFile(ctx: RequestContext, fileId: DecodedID, changeRequestId: DecodedID | null | undefined) {
  const { revisionId, id } = splitContentNodeId(fileId.id);
  const spaceId = (await getRevisionContent(ctx, revisionId)).space.id;
  return { spaceId, fileId: id, pointer: await editTarget(ctx, spaceId, changeRequestId) };
}

defineMutation('fileRename', {
  description: `Gives a file another name; its bytes stay as they are. ${EDIT_RULES}`,
  input: (t) => ({
    fileId: t.globalID({ for: FileRef, required: true, description: 'The file.' }),
    changeRequestId: changeRequestArg(t),
    name: t.string({ required: true, description: 'New name, 1 to 255 characters, without slashes.' }),
  }),
  payload: {
    file: { type: FileRef, description: 'The file with its new name.' },
    revision: { type: RevisionRef, description: 'The revision with the change, now the current one.' },
  },
  resolve: async ({ fileId, changeRequestId, name }, ctx) => {
    const target = await spaceAndFile(ctx, fileId, changeRequestId);
    const { file, ...content } = await renameFile(ctx, target.spaceId, target.fileId, { name }, target.pointer);
    return { file: { ...content, file }, revision: content };
  },
});

defineMutation('fileDelete', {
  description: `Removes a file from the content. ${EDIT_RULES}`,
  input: (t) => ({ fileId: t.globalID({ for: FileRef, required: true, description: 'The file.' }), changeRequestId: changeRequestArg(t) }),
  payload: {
    deletedFileId: { type: 'ID', description: 'The global ID the file had.' },
    revision: { type: RevisionRef, description: 'The revision without the file, now the current one.' },
  },
  resolve: async ({ fileId, changeRequestId }, ctx) => {
    const target = await spaceAndFile(ctx, fileId, changeRequestId);
    const content = await deleteFile(ctx, target.spaceId, target.fileId, target.pointer);
    return { deletedFileId: encodeGlobalID('File', fileId.id), revision: content };
  },
});
