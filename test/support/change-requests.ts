import { expect } from 'vitest';
import { TEST_ORIGIN, type TestApp } from './clients';
import { gid } from './doors';
import type { OrgFixture } from './factories';
import { mutations } from './graphql';

type Json = Record<string, any>;

/** A page to build: its title, its body, the pages inside it. */
export interface Outline {
  title: string;
  markdown?: string;
  children?: Outline[];
}

/** Page edits by title, made on the space itself or, given a change request, on that change request. */
export interface Editor {
  create(title: string, fields?: { parent?: string; markdown?: string; position?: { before?: string; after?: string } }): Promise<void>;
  update(title: string, fields: Json): Promise<void>;
  move(title: string, parent: string | null, position?: { before?: string; after?: string }): Promise<void>;
  remove(title: string): Promise<void>;
  upload(name: string, content: string | Buffer): Promise<void>;
  renameFile(name: string, to: string): Promise<void>;
  deleteFile(name: string): Promise<void>;
}

export interface ChangeRequestRef {
  id: string;
  number: number;
  gid: string;
}

const FILE_UPLOAD = `mutation ($input: FileUploadInput!) { fileUpload(input: $input) { userErrors { code field message } file { id name } } }`;

/**
 * A space built from an outline through GraphQL by `org`'s admin, with editors for the space and
 * its change requests, and readers of what /v1 answers. Pages and files are named by title, which
 * tests keep unique; their global ids are remembered when created, on either side.
 */
export async function contentBench(app: () => TestApp, org: () => OrgFixture, base: Outline[], files: string[] = []) {
  const token = () => org().admin.token;
  const { succeed } = mutations(app, { token });
  const res = await app().rest('POST', `/v1/orgs/${org().organizationId}/spaces`, { token: token(), body: { title: 'Merge bench' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const spaceId: string = res.body.id;
  const spaceGid = gid('Space', spaceId);
  const pages = new Map<string, string>();
  const fileIds = new Map<string, string>();

  const page = (title: string) => {
    const id = pages.get(title);
    if (!id) throw new Error(`no page titled ${title} in this bench`);
    return id;
  };
  const position = (p?: { before?: string; after?: string }) => (p ? { ...(p.before ? { beforeId: page(p.before) } : {}), ...(p.after ? { afterId: page(p.after) } : {}) } : undefined);

  async function upload(name: string, content: string | Buffer, changeRequestId?: string) {
    const form = new FormData();
    form.set('operations', JSON.stringify({ query: FILE_UPLOAD, variables: { input: { spaceId: spaceGid, file: null, changeRequestId } } }));
    form.set('map', JSON.stringify({ 0: ['variables.input.file'] }));
    form.set('0', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
    const response = await app().app.fetch(new Request(`${TEST_ORIGIN}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token()}` }, body: form }));
    const body = (await response.json()) as Json;
    expect(body.errors, JSON.stringify(body)).toBeUndefined();
    expect(body.data.fileUpload.userErrors).toEqual([]);
    fileIds.set(name, body.data.fileUpload.file.id);
  }

  function editor(changeRequest?: ChangeRequestRef): Editor {
    const on = changeRequest ? { changeRequestId: changeRequest.gid } : {};
    return {
      async create(title, fields = {}) {
        const input = { spaceId: spaceGid, title, ...on, ...(fields.markdown !== undefined ? { markdown: fields.markdown } : {}), ...(fields.parent ? { parentId: page(fields.parent) } : {}), ...(fields.position ? { position: position(fields.position) } : {}) };
        const created = await succeed('pageCreate', input, 'page { id }');
        pages.set(title, created.page.id);
      },
      async update(title, fields) {
        await succeed('pageUpdate', { pageId: page(title), ...on, ...fields });
        if (typeof fields.title === 'string') pages.set(fields.title, page(title));
      },
      async move(title, parent, at) {
        await succeed('pageMove', { pageId: page(title), ...on, parentId: parent === null ? null : page(parent), ...(at ? { position: position(at) } : {}) });
      },
      async remove(title) {
        await succeed('pageDelete', { pageId: page(title), ...on });
      },
      upload: (name, content) => upload(name, content, changeRequest?.gid),
      async renameFile(name, to) {
        await succeed('fileRename', { fileId: fileIds.get(name), name: to, ...on });
        fileIds.set(to, fileIds.get(name)!);
      },
      async deleteFile(name) {
        await succeed('fileDelete', { fileId: fileIds.get(name), ...on });
      },
    };
  }

  const space = editor();
  const build = async (list: Outline[], parent?: string) => {
    for (const p of list) {
      await space.create(p.title, { parent, markdown: p.markdown });
      await build(p.children ?? [], p.title);
    }
  };
  await build(base);
  for (const name of files) await upload(name, `${name} v1\n`);

  /** `/v1` path prefix of the space's or a change request's content. */
  const contentPath = (cr?: ChangeRequestRef) => (cr ? `/v1/spaces/${spaceId}/change-requests/${cr.id}/content` : `/v1/spaces/${spaceId}/content`);

  return {
    spaceId,
    spaceGid,
    space,
    editor,
    page,
    async openChangeRequest(subject = 'Proposed edits'): Promise<ChangeRequestRef> {
      const created = await app().rest('POST', `/v1/spaces/${spaceId}/change-requests`, { token: token(), body: { subject } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return { id: created.body.id, number: created.body.number, gid: gid('ChangeRequest', created.body.id) };
    },
    async revision(cr?: ChangeRequestRef): Promise<Json> {
      const got = await app().rest('GET', contentPath(cr), { token: token() });
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      return got.body;
    },
    /** The page tree as `A, B(B1, B2)`, by title, in order. */
    async outline(cr?: ChangeRequestRef): Promise<string> {
      const got = await app().rest('GET', `${contentPath(cr)}/pages`, { token: token() });
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      const render = (list: Json[]): string => list.map((p) => (p.pages?.length ? `${p.title}(${render(p.pages)})` : p.title)).join(', ');
      return render(got.body.pages);
    },
    /** The top-level pages as /v1 lists them. */
    async topPages(cr?: ChangeRequestRef): Promise<Json[]> {
      return (await app().rest('GET', `${contentPath(cr)}/pages`, { token: token() })).body.pages;
    },
    /** Every page as title -> { markdown, slug, and the rest of what /v1 answers }. */
    async pagesByTitle(cr?: ChangeRequestRef): Promise<Record<string, Json>> {
      const got = await app().rest('GET', `${contentPath(cr)}/pages`, { token: token() });
      const out: Record<string, Json> = {};
      const walk = (list: Json[]) => list.forEach((p) => ((out[p.title] = p), walk(p.pages ?? [])));
      walk(got.body.pages);
      return out;
    },
    async fileNames(cr?: ChangeRequestRef): Promise<string[]> {
      const got = await app().rest('GET', `${contentPath(cr)}/files`, { token: token() });
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      return got.body.items.map((f: Json) => f.name).sort();
    },
  };
}

export type ContentBench = Awaited<ReturnType<typeof contentBench>>;
