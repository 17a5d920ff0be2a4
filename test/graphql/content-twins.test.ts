/**
 * The content twins through GraphQL over HTTP, each checked against its REST twin on the same
 * data: links, a page's links, a file's backlinks, import, templates and commenters. Another
 * organization's object answers as a missing one does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/clients';
import { contentBench, type ContentBench } from '../support/change-requests';
import { gid, MISSING } from '../support/doors';
import type { Actor, OrgFixture } from '../support/factories';
import { mutations } from '../support/graphql';
import { png } from '../support/png';
import { scenario } from '../support/scenario';

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader' | 'editor', Actor>;
let b: ContentBench;
let ids: Record<string, string>;
let server: Server;
let origin: string;

const { mutate, succeed, userError } = mutations(() => t, { token: () => acme.admin.token });

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Reader'], editor: ['edit', 'Ed Editor'] }));
  b = await contentBench(() => t, () => acme, [
    { title: 'Home', markdown: 'See [the guide](guide) and [the guide again](./guide#setup), [our site](https://example.com/) and ![logo](logo.png).' },
    { title: 'Guide', markdown: 'Back [home](home). A [dead link](nowhere) and [another dead one](missing/page).' },
    { title: 'Plain', markdown: 'The ![logo](logo.png) again.' },
  ]);
  await b.space.upload('logo.png', png(8, 8));
  const pages = await b.pagesByTitle();
  const files = await t.rest('GET', `/v1/spaces/${b.spaceId}/content/files`, { token: acme.admin.token });
  ids = { home: pages.Home.id, guide: pages.Guide.id, plain: pages.Plain.id, logo: files.body.items[0].id };

  server = createServer((req, res) => {
    if (req.url === '/notes.md') {
      res.writeHead(200, { 'content-type': 'text/markdown' });
      res.end('# Release notes\n\n- Faster imports\n');
    } else {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.config.fetchAllowHosts = [new URL(origin).host];
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

const gql = async (query: string, variables: Record<string, unknown>, token: string) => {
  const res = await t.graphql(query, variables, token);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data;
};

/** A REST link usage and a GraphQL ContentLink, each as `[target, relation, status, page titles]`. */
const restLink = (u: any) => [
  u.targetReference?.kind === 'page' ? `page:${u.targetReference.page.title}` : u.targetReference?.kind === 'file' ? `file:${u.targetReference.file.name}` : `url:${u.targetReference?.url}`,
  u.relation,
  u.status,
  u.locationReferences.map((l: any) => l.page.title),
];
const gqlLink = (l: any) => [
  l.targetPage ? `page:${l.targetPage.title}` : l.targetFile ? `file:${l.targetFile.name}` : `url:${l.url}`,
  l.relation === 'DEPENDS_ON' ? 'dependsOn' : 'reference',
  l.status.toLowerCase().replace('_', '-'),
  l.pages.map((p: any) => p.title),
];

const LINK_FIELDS = `usageCount brokenUsageCount totalCount pageInfo { endCursor hasNextPage }
  edges { node { status relation url anchor targetPage { title } targetFile { name } pages { title } } }`;
const SPACE_LINKS = `query ($id: ID!, $status: ContentLinkStatus, $first: Int, $after: String) {
  node(id: $id) { ... on Space { content { links(status: $status, first: $first, after: $after) { ${LINK_FIELDS} } } } } }`;

describe('links and backlinks', () => {
  it("a space's links answer as REST's /links: same usages, counts, filter and cursors", async () => {
    const rest = await t.rest('GET', `/v1/spaces/${b.spaceId}/links`, { token: people.reader.token });
    const data = await gql(SPACE_LINKS, { id: gid('Space', b.spaceId) }, people.reader.token);
    const links = data.node.content.links;
    expect(links.edges.map((e: any) => gqlLink(e.node))).toEqual(rest.body.items.map(restLink));
    expect(links.edges).toHaveLength(7);
    expect([links.usageCount, links.brokenUsageCount]).toEqual([rest.body.stats.total, rest.body.stats.broken.total]);

    const restBroken = await t.rest('GET', `/v1/spaces/${b.spaceId}/links?status=broken&limit=1`, { token: people.reader.token });
    const broken = (await gql(SPACE_LINKS, { id: gid('Space', b.spaceId), status: 'BROKEN', first: 1 }, people.reader.token)).node.content.links;
    expect(broken.edges.map((e: any) => gqlLink(e.node))).toEqual(restBroken.body.items.map(restLink));
    expect(broken.pageInfo.endCursor).toBe(restBroken.body.next.page);
    const after = (await gql(SPACE_LINKS, { id: gid('Space', b.spaceId), status: 'BROKEN', first: 1, after: broken.pageInfo.endCursor }, people.reader.token)).node.content.links;
    expect(after.edges.map((e: any) => gqlLink(e.node)[0])).toEqual(['url:missing/page']);
    expect(after.pageInfo.hasNextPage).toBe(false);
  });

  it("a page's links and a file's backlinks answer as REST's, in the space and in a change request", async () => {
    const query = `query ($id: ID!, $page: String!, $file: ID!) {
      node(id: $id) { ... on Space { content { pageById(id: $page) { links { ${LINK_FIELDS} } } } } }
      file: node(id: $file) { ... on File { backlinks { totalCount edges { node { restId title } } } } } }`;
    const revision = (await t.rest('GET', `/v1/spaces/${b.spaceId}/content`, { token: people.reader.token })).body.id;
    const data = await gql(query, { id: gid('Space', b.spaceId), page: ids.guide, file: gid('File', `${revision}/${ids.logo}`) }, people.reader.token);
    const restLinks = await t.rest('GET', `/v1/spaces/${b.spaceId}/content/page/${ids.guide}/links`, { token: people.reader.token });
    expect(data.node.content.pageById.links.edges.map((e: any) => gqlLink(e.node))).toEqual(restLinks.body.items.map(restLink));
    expect(data.node.content.pageById.links.brokenUsageCount).toBe(restLinks.body.stats.broken.total);
    const restBacklinks = await t.rest('GET', `/v1/spaces/${b.spaceId}/content/files/${ids.logo}/backlinks`, { token: people.reader.token });
    expect(data.file.backlinks.edges.map((e: any) => e.node.restId)).toEqual(restBacklinks.body.items.map((l: any) => l.page.id));
    expect(data.file.backlinks.edges.map((e: any) => e.node.title)).toEqual(['Home', 'Plain']);
    expect(data.file.backlinks.totalCount).toBe(2);

    const cr = await b.openChangeRequest('Fix links');
    await b.editor(cr).update('Guide', { markdown: 'Back [home](home). The ![logo](logo.png) too.' });
    const crQuery = `query ($id: ID!, $page: String!) { node(id: $id) { ... on ChangeRequest { revision {
      pageById(id: $page) { links { ${LINK_FIELDS} } } files { restId backlinks { edges { node { title } } } } } } } }`;
    const crData = await gql(crQuery, { id: gid('ChangeRequest', cr.id), page: ids.guide }, people.reader.token);
    const crRest = await t.rest('GET', `/v1/spaces/${b.spaceId}/change-requests/${cr.id}/content/page/${ids.guide}/links`, { token: people.reader.token });
    expect(crData.node.revision.pageById.links.edges.map((e: any) => gqlLink(e.node))).toEqual(crRest.body.items.map(restLink));
    const crBacklinks = await t.rest('GET', `/v1/spaces/${b.spaceId}/change-requests/${cr.id}/content/files/${ids.logo}/backlinks`, { token: people.reader.token });
    const logo = crData.node.revision.files.find((f: any) => f.restId === ids.logo);
    expect(logo.backlinks.edges.map((e: any) => e.node.title)).toEqual(crBacklinks.body.items.map((l: any) => l.page.title));
    expect(logo.backlinks.edges.map((e: any) => e.node.title)).toEqual(['Home', 'Guide', 'Plain']);
  });

  it("another organization's space answers null, as REST answers 404", async () => {
    expect((await t.rest('GET', `/v1/spaces/${b.spaceId}/links`, { token: other.admin.token })).status).toBe(404);
    expect((await gql(SPACE_LINKS, { id: gid('Space', b.spaceId) }, other.admin.token)).node).toBeNull();
  });
});

const REVISION_SELECT = 'revision { restId pages { title } } importedResources totalResources';

describe('contentImport', () => {
  it('imports as REST does: same pages added, same counts, into the space or a change request', async () => {
    const twin = await contentBench(() => t, () => acme, [{ title: 'Start', markdown: 'Hello.' }]);
    const mine = await contentBench(() => t, () => acme, [{ title: 'Start', markdown: 'Hello.' }]);
    const rest = await t.rest('POST', `/v1/spaces/${twin.spaceId}/content/import`, { token: people.editor.token, body: { url: `${origin}/notes.md`, source: 'markdown' } });
    expect(rest.status).toBe(201);
    const payload = await succeed('contentImport', { spaceId: gid('Space', mine.spaceId), url: `${origin}/notes.md`, source: 'MARKDOWN' }, REVISION_SELECT, people.editor.token);
    expect([payload.importedResources, payload.totalResources]).toEqual([rest.body.importedResources, rest.body.totalResources]);
    expect(payload.revision.pages.map((p: any) => p.title)).toEqual(await twinTitles(twin));
    expect(payload.revision.restId).toBe((await t.rest('GET', `/v1/spaces/${mine.spaceId}/content`, { token: people.reader.token })).body.id);

    const cr = await mine.openChangeRequest('Import here');
    const intoCr = await succeed('contentImport', { spaceId: gid('Space', mine.spaceId), changeRequestId: gid('ChangeRequest', cr.id), url: `${origin}/notes.md`, source: 'MARKDOWN' }, REVISION_SELECT);
    expect(intoCr.revision.pages.map((p: any) => p.title)).toEqual(['Start', 'Release notes', 'Release notes']);
    expect(await twinTitles(mine)).toEqual(['Start', 'Release notes']);
  });

  it('refuses as REST does: a bad URL as a user error, a reader as forbidden, a foreign space as missing; nothing written', async () => {
    const before = (await t.rest('GET', `/v1/spaces/${b.spaceId}/content`, { token: people.reader.token })).body.id;
    expect((await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: acme.admin.token, body: { url: 'not a url', source: 'markdown' } })).status).toBe(400);
    await userError('contentImport', { spaceId: gid('Space', b.spaceId), url: 'not a url', source: 'MARKDOWN' }, 'VALIDATION_FAILED', ['url']);
    expect((await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: people.reader.token, body: { url: `${origin}/notes.md`, source: 'markdown' } })).status).toBe(403);
    const reader = await mutate('contentImport', { spaceId: gid('Space', b.spaceId), url: `${origin}/notes.md`, source: 'MARKDOWN' }, people.reader.token);
    expect(reader.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: other.admin.token, body: { url: `${origin}/notes.md`, source: 'markdown' } })).status).toBe(404);
    const foreign = await mutate('contentImport', { spaceId: gid('Space', b.spaceId), url: `${origin}/notes.md`, source: 'MARKDOWN' }, other.admin.token);
    const missing = await mutate('contentImport', { spaceId: gid('Space', MISSING), url: `${origin}/notes.md`, source: 'MARKDOWN' }, other.admin.token);
    expect(foreign.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(foreign.errors[0].message).toBe(missing.errors[0].message);
    expect((await t.rest('GET', `/v1/spaces/${b.spaceId}/content`, { token: people.reader.token })).body.id).toBe(before);
  });
});

const twinTitles = async (bench: ContentBench) => (await bench.topPages()).map((p: any) => p.title);

describe('contentTemplateApply', () => {
  it("adds the same pages as REST's content/template, and lists the templates as an enum", async () => {
    const twin = await contentBench(() => t, () => acme, []);
    const mine = await contentBench(() => t, () => acme, []);
    expect((await t.rest('POST', `/v1/spaces/${twin.spaceId}/content/template`, { token: people.editor.token, body: { id: 'product-docs' } })).status).toBe(201);
    const payload = await succeed('contentTemplateApply', { spaceId: gid('Space', mine.spaceId), template: 'PRODUCT_DOCS' }, 'revision { pages { title } }', people.editor.token);
    expect(payload.revision.pages.map((p: any) => p.title)).toEqual(await twinTitles(twin));
    expect(await mine.outline()).toBe(await twin.outline());
    const enumValues = await gql('{ __type(name: "ContentTemplate") { enumValues { name description } } }', {}, people.reader.token);
    expect(enumValues.__type.enumValues.map((v: any) => v.name)).toEqual(['API_REFERENCE', 'PRODUCT_DOCS', 'TEAM_HANDBOOK']);
  });

  it('a reader is refused and a foreign space is missing, as in REST; nothing written', async () => {
    const before = await b.outline();
    expect((await t.rest('POST', `/v1/spaces/${b.spaceId}/content/template`, { token: people.reader.token, body: { id: 'product-docs' } })).status).toBe(403);
    expect((await mutate('contentTemplateApply', { spaceId: gid('Space', b.spaceId), template: 'PRODUCT_DOCS' }, people.reader.token)).errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.rest('POST', `/v1/spaces/${b.spaceId}/content/template`, { token: other.admin.token, body: { id: 'product-docs' } })).status).toBe(404);
    expect((await mutate('contentTemplateApply', { spaceId: gid('Space', b.spaceId), template: 'PRODUCT_DOCS' }, other.admin.token)).errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await b.outline()).toBe(before);
  });
});

describe('commenters', () => {
  it('a space and a change request list the same commenters as REST', async () => {
    const path = `/v1/spaces/${b.spaceId}`;
    const cr = await b.openChangeRequest('Discuss');
    const posted = await t.rest('POST', `${path}/comments`, { token: people.editor.token, body: { body: { markdown: 'First' } } });
    await t.rest('POST', `${path}/comments/${posted.body.id}/replies`, { token: acme.admin.token, body: { body: { markdown: 'Reply' } } });
    await t.rest('POST', `${path}/change-requests/${cr.id}/comments`, { token: acme.admin.token, body: { body: { markdown: 'On the CR' } } });

    const query = `query ($space: ID!, $cr: ID!) {
      space: node(id: $space) { ... on Space { commenters { totalCount edges { node { restId role user { restId } } } } } }
      cr: node(id: $cr) { ... on ChangeRequest { commenters(first: 1) { edges { node { restId } } pageInfo { hasNextPage } } } } }`;
    const data = await gql(query, { space: gid('Space', b.spaceId), cr: gid('ChangeRequest', cr.id) }, people.reader.token);
    const restSpace = await t.rest('GET', `${path}/commenters`, { token: people.reader.token });
    const restCr = await t.rest('GET', `${path}/change-requests/${cr.id}/commenters`, { token: people.reader.token });
    expect(data.space.commenters.edges.map((e: any) => e.node.restId)).toEqual(restSpace.body.items.map((m: any) => m.id));
    expect(data.space.commenters.edges.map((e: any) => e.node.restId).sort()).toEqual([acme.admin.userId, people.editor.userId].sort());
    expect(data.space.commenters.totalCount).toBe(2);
    expect(data.cr.commenters.edges.map((e: any) => e.node.restId)).toEqual(restCr.body.items.map((m: any) => m.id));
    expect(data.cr.commenters.edges.map((e: any) => e.node.restId)).toEqual([acme.admin.userId]);

    expect((await t.rest('GET', `${path}/commenters`, { token: other.admin.token })).status).toBe(404);
    const foreign = await gql(query, { space: gid('Space', b.spaceId), cr: gid('ChangeRequest', cr.id) }, other.admin.token);
    expect(foreign).toEqual({ space: null, cr: null });
  });
});
