import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../../graphql/builder';
import { defineMutation } from '../../../graphql/mutation';
import type { RequestContext } from '../../../context/request-context';
import { SpaceRef } from '../../spaces/graphql/refs';
import type { PageCreateInput, PageUpdateInput } from '../input';
import { createPage, deletePage, getRevisionContent, movePage, updatePage, uploadFile } from '../service';
import { FileRef, NewPageTypeEnum, PageRef, RevisionRef, splitContentNodeId } from './refs';

type DecodedID = { typename: string; id: string };

/** The space and the page a Page's global ID names (the edit applies to the space's current content). */
async function spaceAndPage(ctx: RequestContext, pageId: DecodedID): Promise<{ spaceId: string; pageId: string }> {
  const { revisionId, id } = splitContentNodeId(pageId.id);
  return { spaceId: (await getRevisionContent(ctx, revisionId)).space.id, pageId: id };
}

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

const EDIT_RULES = 'Needs the edit role on the space, which must not be locked. Writes a new revision and makes it current; concurrent edits are all kept.';

defineMutation('pageCreate', {
  description: `Creates a page in a space's content. ${EDIT_RULES}`,
  input: (t) => ({
    spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space.' }),
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
  }),
  fields: PAGE_FIELDS,
  payload: pagePayload('The new page.'),
  resolve: async ({ spaceId, parentId, position: at, type, ...rest }, ctx) => {
    const input = { ...rest, type, parent: pageIdOf(parentId), position: position(at) } as PageCreateInput;
    for (const key of Object.keys(input) as (keyof PageCreateInput)[]) if (input[key] === null || input[key] === undefined) delete input[key];
    const { entry, ...content } = await createPage(ctx, spaceId.id, input);
    return { page: { ...content, entry }, revision: content };
  },
});

defineMutation('pageUpdate', {
  inputDescription: 'Input of pageUpdate. Absent fields stay as they are; null removes an emoji, icon or description.',
  description: `Changes a page: its title (and so its slug), looks, body or flags. ${EDIT_RULES}`,
  input: (t) => ({
    pageId: t.globalID({ for: PageRef, required: true, description: 'The page.' }),
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
  resolve: async ({ pageId, ...changes }, ctx) => {
    const target = await spaceAndPage(ctx, pageId);
    const { entry, ...content } = await updatePage(ctx, target.spaceId, target.pageId, changes as PageUpdateInput);
    return { page: { ...content, entry }, revision: content };
  },
});

defineMutation('pageMove', {
  inputDescription: 'Input of pageMove. Give a parent, a position or both.',
  description: `Moves a page, with the pages inside it, to another parent or another place among its siblings. ${EDIT_RULES}`,
  input: (t) => ({
    pageId: t.globalID({ for: PageRef, required: true, description: 'The page.' }),
    parentId: t.globalID({ for: PageRef, description: 'The page to move it into; null for the top level; absent to keep its parent.' }),
    position: t.field({ type: PagePositionInput, description: 'Where among its new siblings; last when absent.' }),
  }),
  fields: PAGE_FIELDS,
  payload: pagePayload('The page at its new place.'),
  resolve: async ({ pageId, parentId, position: at }, ctx) => {
    const target = await spaceAndPage(ctx, pageId);
    const { entry, ...content } = await movePage(ctx, target.spaceId, target.pageId, {
      ...(parentId !== undefined ? { parent: pageIdOf(parentId) ?? null } : {}),
      ...(at ? { position: position(at) } : {}),
    });
    return { page: { ...content, entry }, revision: content };
  },
});

defineMutation('pageDelete', {
  description: `Deletes a page and the pages inside it. ${EDIT_RULES}`,
  input: (t) => ({ pageId: t.globalID({ for: PageRef, required: true, description: 'The page.' }) }),
  payload: {
    deletedPageId: { type: 'ID', description: 'The global ID the page had.' },
    revision: { type: RevisionRef, description: 'The revision without the page, now the current one.' },
  },
  resolve: async ({ pageId }, ctx) => {
    const target = await spaceAndPage(ctx, pageId);
    const content = await deletePage(ctx, target.spaceId, target.pageId);
    return { deletedPageId: encodeGlobalID('Page', pageId.id), revision: content };
  },
});

defineMutation('fileUpload', {
  description: `Adds a file to a space's content, sent as a multipart request (at most QUIRE_UPLOAD_LIMIT_BYTES, 10 MB unless configured). Its type and an image's size are read from the bytes. ${EDIT_RULES}`,
  input: (t) => ({
    spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space.' }),
    file: t.field({ type: 'Upload', required: true, description: 'The file.' }),
    name: t.string({ description: 'File name; the uploaded file’s own when absent.' }),
  }),
  fields: { bytes: 'file' },
  payload: {
    file: { type: FileRef, description: 'The new file.' },
    revision: { type: RevisionRef, description: 'The revision with the file, now the current one.' },
  },
  resolve: async ({ spaceId, file, name }, ctx) => {
    const bytes = Buffer.from(await file.arrayBuffer());
    const { file: added, ...content } = await uploadFile(ctx, spaceId.id, { name: name ?? file.name, contentType: file.type || undefined, bytes });
    return { file: { ...content, file: added }, revision: content };
  },
});
