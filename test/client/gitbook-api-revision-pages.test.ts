import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../src/auth/authenticate';
import { createContext } from '../../src/auth/context';
import { addContent } from '../../src/modules/content/service';
import { contentHelpers } from '../support/content';
import { gid } from '../support/doors';
import { mutations } from '../support/graphql';
import { validateLaterSchema, validateResponse } from '../support/openapi';
import { png } from '../support/png';
import { scenario } from '../support/scenario';
import { META_LINKS, served, type Served } from '../support/served';
import { warmSession, type TestApp } from '../support/clients';
import type { Actor, OrgFixture } from '../support/factories';

/**
 * The revision routes the platform's open-source renderer reads published content through
 * (`/v1/spaces/{id}/revisions/{id}/page/{id}`, `/path/{path}`, `/page/{id}/document`,
 * `/page/{id}/meta-links`), through the official client where it has the call, over real HTTP:
 * a revision id names the same content forever, and the answers say so in their cache headers.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let reader: Actor;
let server: Served;

beforeAll(async () => {
  ({ t, acme, other, people: { reader } } = await scenario({ reader: ['read', 'Rita Reader'] }));
  server = await served(t);
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

const { newSpace } = contentHelpers(() => t, () => acme);
const { succeed } = mutations(() => t, { token: () => acme.admin.token });
const client = (token: string) => server.client(token);
const get = (path: string, token = reader.token, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

/** Content added through the content service, as the caller (files need bytes GraphQL does not carry). */
async function addAs(token: string, spaceId: string, content: Parameters<typeof addContent>[2]) {
  const ctx = createContext({ db: t.db, config: { port: 0, publicUrl: server.url, appUrl: server.url, dataDir: '' } }, await authenticate(t.db, `Bearer ${token}`));
  return addContent(ctx, spaceId, content);
}

/** A space with a guide page, edited once after `first` was taken. */
async function editedSpace() {
  const space = await newSpace({ title: 'Handbook' });
  const created = await succeed('pageCreate', { spaceId: gid('Space', space.id), title: 'Install', markdown: 'Run the **old** installer.' }, 'page { id restId path } revision { restId }');
  await succeed('pageCreate', { spaceId: gid('Space', space.id), title: 'Upgrade', markdown: 'Stop, pull, start.' }, 'revision { restId }');
  await succeed('pageUpdate', { pageId: created.page.id, title: 'Installing', markdown: 'Run the **new** installer.' });
  return { space, first: created.revision.restId as string, pageId: created.page.restId as string, path: created.page.path as string };
}

describe('pages of a revision', () => {
  it('reads a page by id and by path as the revision held it, after a later edit, through the official client', async () => {
    const { space, first, pageId, path } = await editedSpace();
    const api = client(reader.token);

    const { data: byId } = await api.spaces.getPageInRevisionById(space.id, first, pageId, { format: 'markdown' });
    validateResponse('GET', `/v1/spaces/${space.id}/revisions/${first}/page/${pageId}`, 200, byId);
    expect(byId).toMatchObject({ id: pageId, title: 'Install', path, markdown: 'Run the **old** installer.' });

    const { data: byPath } = await api.spaces.getPageInRevisionByPath(space.id, first, path);
    validateResponse('GET', `/v1/spaces/${space.id}/revisions/${first}/path/${path}`, 200, byPath);
    expect(byPath).toMatchObject({ id: pageId, title: 'Install', document: expect.objectContaining({ object: 'document' }) });

    const { data: now } = await api.spaces.getPageById(space.id, pageId, { format: 'markdown' });
    expect(now).toMatchObject({ title: 'Installing', markdown: 'Run the **new** installer.' });
  });

  it("answers the page's JSON document, the one the page routes and GraphQL give, with the renderer's evaluated and dereferenced values", async () => {
    const { space, first, pageId } = await editedSpace();
    const api = client(reader.token);
    // The renderer asks with string values 0.137.0's types do not list yet.
    const query = { evaluated: 'deterministic-only', dereferenced: 'reusable-contents' } as unknown as { evaluated: boolean };
    const { data: document } = await api.spaces.getPageDocumentInRevisionById(space.id, first, pageId, query);
    validateResponse('GET', `/v1/spaces/${space.id}/revisions/${first}/page/${pageId}/document`, 200, document);
    const { data: page } = await api.spaces.getPageInRevisionById(space.id, first, pageId, { format: 'document' });
    expect(document).toEqual((page as { document: unknown }).document);
    expect(JSON.stringify(document)).toContain('old');

    const graph = await t.graphql('query ($id: ID!) { node(id: $id) { ... on Revision { pageById(id: $pageId) { document } } } }'.replace('$pageId', JSON.stringify(pageId)), { id: gid('Revision', first) }, reader.token);
    expect(graph.body.data.node.pageById.document).toEqual(document);

    for (const value of ['true', 'false']) expect((await get(`/v1/spaces/${space.id}/revisions/${first}/page/${pageId}/document?evaluated=${value}&dereferenced=${value}`)).status).toBe(200);
    for (const bad of ['evaluated=maybe', 'dereferenced=everything']) {
      const res = await get(`/v1/spaces/${space.id}/revisions/${first}/page/${pageId}/document?${bad}`);
      expect(res.status).toBe(400);
      expect((await res.json()).error.message).toMatch(/must be true, false or/);
    }
  });

  it('answers the whole revision alike with metadata true or false: Quire keeps no Git metadata, the only thing it changes', async () => {
    const { space, first } = await editedSpace();
    const api = client(reader.token);
    const { data: withMetadata } = await api.spaces.getRevisionById(space.id, first, { metadata: true });
    validateResponse('GET', `/v1/spaces/${space.id}/revisions/${first}?metadata=true`, 200, withMetadata);
    expect(withMetadata.pages.map((p) => p.title)).toEqual(['Install']);
    const { data: without } = await api.spaces.getRevisionById(space.id, first, { metadata: false });
    expect(without).toEqual(withMetadata);
    expect((await get(`/v1/spaces/${space.id}/revisions/${first}?metadata=yes`)).status).toBe(400);
  });

  it('answers the meta links of a page as the later spec shapes them: none, as an empty list; a missing page is 404', async () => {
    const { space, first, pageId } = await editedSpace();
    const res = await get(`/v1/spaces/${space.id}/revisions/${first}/page/${pageId}/meta-links`);
    expect(res.status).toBe(200);
    const links = await res.json();
    validateLaterSchema('RevisionPageMetaLinks', META_LINKS, links);
    expect(links).toEqual({ alternates: [] });
    expect((await get(`/v1/spaces/${space.id}/revisions/${first}/page/no-such-page/meta-links`)).status).toBe(404);
  });

  it("is missing alike for a missing page, a page of a later revision, another space's revision, another organization's space", async () => {
    const { space, first } = await editedSpace();
    const later = (await t.rest('GET', `/v1/spaces/${space.id}/content`, { token: reader.token })).body;
    const upgrade = later.pages.find((p: { title: string }) => p.title === 'Upgrade').id;
    const elsewhere = await newSpace({ title: 'Elsewhere' });
    const elsewhereRevision = (await t.rest('GET', `/v1/spaces/${elsewhere.id}/content`, { token: acme.admin.token })).body.id;
    const theirs = (await t.rest('POST', `/v1/orgs/${other.organizationId}/spaces`, { token: other.admin.token, body: { title: 'Theirs' } })).body;
    const theirPageId = (await addAs(other.admin.token, theirs.id, { pages: [{ title: 'Secret', markdown: 'Text.' }] })).pageIds[0];
    const theirRevision = (await t.rest('GET', `/v1/spaces/${theirs.id}/content`, { token: other.admin.token })).body;
    const paths = [
      `/v1/spaces/${space.id}/revisions/${first}/page/no-such-page`,
      `/v1/spaces/${space.id}/revisions/${first}/page/${upgrade}`,
      `/v1/spaces/${space.id}/revisions/${first}/path/upgrade`,
      `/v1/spaces/${space.id}/revisions/${elsewhereRevision}/page/${upgrade}/document`,
      `/v1/spaces/${theirs.id}/revisions/${theirRevision.id}/page/${theirPageId}`,
      `/v1/spaces/${theirs.id}/revisions/${theirRevision.id}/page/${theirPageId}/document`,
      `/v1/spaces/${theirs.id}/revisions/${theirRevision.id}/page/${theirPageId}/meta-links`,
    ];
    const answers = await Promise.all(paths.map(async (path) => ({ path, status: (await get(path, acme.admin.token)).status })));
    expect(answers.filter((a) => a.status !== 404)).toEqual([]);
    // Another organization's space answers as a space that does not exist.
    const missingSpace = `/v1/spaces/no-such-space/revisions/${theirRevision.id}/page/${theirPageId}`;
    for (const path of paths.slice(4)) expect(await (await get(path, acme.admin.token)).json()).toEqual(await (await get(missingSpace.replace(/\/page\/.*/, path.slice(path.indexOf('/page/'))), acme.admin.token)).json());
  });

  it('reads a page of a revision in three statements (meta links in two) once the session is cached', async () => {
    const { space, first, pageId, path } = await editedSpace();
    const cost = async (route: string) => {
      await warmSession(t, reader.token);
      const before = t.database.counter.count;
      // Over HTTP: the test client would check meta-links against the page route of the vendored spec, which lacks it.
      const res = await get(route);
      expect(res.status, route).toBe(200);
      await res.arrayBuffer();
      return t.database.counter.count - before;
    };
    const base = `/v1/spaces/${space.id}/revisions/${first}`;
    expect({ byId: await cost(`${base}/page/${pageId}`), byPath: await cost(`${base}/path/${path}`), document: await cost(`${base}/page/${pageId}/document`), metaLinks: await cost(`${base}/page/${pageId}/meta-links`) }).toEqual({ byId: 3, byPath: 3, document: 3, metaLinks: 2 });
  });

  it('a group page has no document', async () => {
    const space = await newSpace({ title: 'Grouped' });
    const added = await addAs(acme.admin.token, space.id, { pages: [{ type: 'group', title: 'Guide', children: [{ title: 'Install', markdown: 'Run it.' }] }] });
    const revision = (await t.rest('GET', `/v1/spaces/${space.id}/content`, { token: reader.token })).body.id;
    expect((await get(`/v1/spaces/${space.id}/revisions/${revision}/page/${added.pageIds[0]}`)).status).toBe(200);
    expect((await get(`/v1/spaces/${space.id}/revisions/${revision}/page/${added.pageIds[0]}/document`)).status).toBe(404);
  });
});

describe('caching answers named by a revision id', () => {
  it('a revision that cannot change is kept for good, with an ETag that answers 304', async () => {
    const { space, first, pageId } = await editedSpace();
    for (const path of [`/v1/spaces/${space.id}/revisions/${first}`, `/v1/spaces/${space.id}/revisions/${first}/page/${pageId}`, `/v1/spaces/${space.id}/revisions/${first}/page/${pageId}/document`, `/v1/spaces/${space.id}/revisions/${first}/page/${pageId}/meta-links`]) {
      const res = await get(path);
      const body = await res.text();
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('private, max-age=31536000, immutable');
      expect(res.headers.get('x-gitbook-cache-control'), path).toBeNull();
      const etag = res.headers.get('etag')!;
      expect(etag, path).toMatch(/^"[\w-]{27}"$/);
      const again = await get(path, reader.token, { 'if-none-match': etag });
      expect(again.status, path).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      // Another caller with the same access gets the same bytes, hence the same tag.
      const admin = await get(path, acme.admin.token);
      expect(admin.headers.get('etag')).toBe(etag);
      expect(await admin.text()).toBe(body);
    }
  });

  it('a revision holding files (download links signed for an hour) is kept a minute, for HTTP caches and for the renderer', async () => {
    const space = await newSpace({ title: 'With files' });
    await addAs(acme.admin.token, space.id, { pages: [{ title: 'Logo', markdown: 'See the logo.' }], files: [{ name: 'logo.png', bytes: png(4, 4) }] });
    const revision = (await t.rest('GET', `/v1/spaces/${space.id}/content`, { token: reader.token })).body;
    const res = await get(`/v1/spaces/${space.id}/revisions/${revision.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, max-age=60');
    expect(res.headers.get('x-gitbook-cache-control')).toBe('max-age=60');
    expect(res.headers.get('etag')).toBeTruthy();
    // Its pages hold no links to files: they are kept for good.
    const page = await get(`/v1/spaces/${space.id}/revisions/${revision.id}/page/${revision.pages[0].id}`);
    expect(page.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
  });
});
