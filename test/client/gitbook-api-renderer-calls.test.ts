import type { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoData } from '../../src/app/seed';
import type { TestApp } from '../support/clients';
import { StatementLog } from '../support/db';
import { gid, MISSING } from '../support/doors';
import { buildOrganization, type OrgFixture } from '../support/factories';
import { validateResponse } from '../support/openapi';
import { content, lookupAs, refusal, servedDemo, type ServedDemo } from '../support/served';

/**
 * The renderer's calls that Quire served last (issue 32), through the official client over real
 * HTTP, with the site token a real URL lookup gives: site search, computed documents, documents by
 * id, reusable contents, embeds, a change request's changes, users. Every answer is held to the spec.
 */
let served: ServedDemo;
let t: TestApp;
let demo: DemoData;
let admin: GitBookAPI;
let reader: GitBookAPI;
let token: string;
let org: string;
let siteId: string;
let spaces: Record<string, string>;
let other: OrgFixture;
const statements = new StatementLog();

const SPEC = `openapi: 3.0.3
info: { title: Pets, version: 1.0.0 }
paths:
  /pets:
    get: { operationId: listPets, summary: List the pets, tags: [pets], responses: { '200': { description: A page of pets } } }
components:
  schemas:
    Pet: { type: object, properties: { name: { type: string } } }
`;

beforeAll(async () => {
  served = await servedDemo({ jobs: true, statements });
  ({ t, demo, spaces, admin } = served);
  org = demo.organizationId;
  ({ apiToken: token, site: siteId } = content(await lookupAs(served.anonymous, served.docs)));
  reader = served.client(token);
  other = await buildOrganization(t.db, 'Elsewhere');
}, 60_000);
afterAll(() => served?.close());

const searchPath = (site = siteId, o = org) => `/v1/orgs/${o}/sites/${site}/search`;

async function siteSpaceIds(): Promise<Record<string, string>> {
  const { data } = await admin.orgs.listSiteSpaces(org, siteId);
  return Object.fromEntries(data.items.map((s) => [s.space.title, s.id]));
}

async function search(body: Record<string, unknown>, client = reader) {
  const { data } = await client.orgs.searchSiteContent(org, siteId, body as never);
  validateResponse('POST', searchPath(), 200, data);
  return data;
}

const pagesOf = (data: Awaited<ReturnType<typeof search>>) => data.items.flatMap((s) => s.pages.map((p) => `${s.title}/${p.title}`));

describe('searchSiteContent', () => {
  it("finds the published spaces' pages with the site token, each with a score, its ancestors and its sections", async () => {
    const found = await search({ query: 'install', scope: { mode: 'all' } });
    expect(found.items[0]).toMatchObject({ id: spaces['Getting started'], title: 'Getting started' });
    const page = found.items[0].pages.find((p) => p.title === 'Install') as (typeof found.items)[0]['pages'][0] & { score: number; ancestors: unknown[] };
    expect(page).toBeTruthy();
    expect(page.score).toBeGreaterThan(0);
    expect(page.ancestors).toEqual([]);
    expect(page.sections!.length).toBeGreaterThan(0);
    expect(page.sections![0]).toMatchObject({ title: expect.any(String), body: expect.any(String), path: 'install#install' });
  });

  it("gives a nested page its ancestors, top first, and finds an edit made since the last search", async () => {
    const guide = spaces['Getting started'];
    const listed = await t.graphql('query ($id: ID!) { node(id: $id) { ... on Space { content { pages { id title } } } } }', { id: gid('Space', guide) }, demo.token);
    const install = (listed.body.data.node.content.pages as { id: string; title: string }[]).find((p) => p.title === 'Install')!;
    const created = await t.graphql('mutation ($input: PageCreateInput!) { pageCreate(input: $input) { userErrors { message } } }', { input: { spaceId: gid('Space', guide), parentId: install.id, title: 'Upgrading', markdown: 'Ride the zeppelin.' } }, demo.token);
    expect(created.body.data.pageCreate.userErrors).toEqual([]);
    const found = await search({ query: 'zeppelin', scope: { mode: 'all' } });
    const page = found.items[0].pages[0] as (typeof found.items)[0]['pages'][0] & { ancestors: { id: string; title: string }[] };
    expect(page).toMatchObject({ title: 'Upgrading', path: 'install/upgrading' });
    expect(page.ancestors.map((a) => a.title)).toEqual(['Install']);
  });

  it('follows the last word as it is typed, and finds nothing for words no page holds', async () => {
    expect(pagesOf(await search({ query: 'instal', scope: { mode: 'all' } }))).toContain('Getting started/Install');
    expect((await search({ query: 'xylophone', scope: { mode: 'all' } })).items).toEqual([]);
  });

  it('reads the site spaces of the scope: specific ones, the default of each section, the current one alone or the others', async () => {
    const ids = await siteSpaceIds();
    const guide = ids['Getting started'];
    const api = ids['API reference'];
    expect(pagesOf(await search({ query: 'token', scope: { mode: 'default' } }))).toContain('API reference/Authentication');
    expect(pagesOf(await search({ query: 'token', scope: { mode: 'specific', siteSpaceIds: [guide] } })).some((p) => p.startsWith('API reference/'))).toBe(false);
    expect(pagesOf(await search({ query: 'token', scope: { mode: 'default', currentSiteSpace: guide, restrictTo: 'currentSiteSpace' } })).some((p) => p.startsWith('API reference/'))).toBe(false);
    expect(pagesOf(await search({ query: 'token', scope: { mode: 'default', currentSiteSpace: guide, restrictTo: 'otherSiteSpaces' } }))).toContain('API reference/Authentication');
    // The deprecated flat forms.
    expect(pagesOf(await search({ query: 'token', siteSpaceIds: [api] }))).toContain('API reference/Authentication');
    expect(pagesOf(await search({ query: 'token', mode: 'current', siteSpaceId: guide }))).toContain('API reference/Authentication');
    expect(pagesOf(await search({ query: 'install', mode: 'all' }))).toContain('Getting started/Install');
  });

  it('answers members with their own token, a page of spaces at a time', async () => {
    const first = await search({ query: 'token OR install', scope: { mode: 'all' } }, admin);
    expect(first.items.length).toBe(2);
    const { data: one } = await admin.orgs.searchSiteContent(org, siteId, { query: 'token OR install', scope: { mode: 'all' } } as never, { limit: 1 });
    validateResponse('POST', searchPath(), 200, one);
    expect(one.items).toHaveLength(1);
    const { data: next } = await admin.orgs.searchSiteContent(org, siteId, { query: 'token OR install', scope: { mode: 'all' } } as never, { limit: 1, page: one.next!.page });
    expect(next.items.map((s) => s.id)).toEqual(first.items.slice(1).map((s) => s.id));
  });

  it("refuses the token another site's search (404), as a missing site; and any write (403)", async () => {
    const sites = (await t.rest('GET', `/v1/orgs/${org}/sites`, { token: demo.token })).body.items as { id: string }[];
    const preview = sites.find((s) => s.id !== siteId)!;
    const body = { query: 'token', scope: { mode: 'all' } };
    const foreign = await t.rest('POST', searchPath(preview.id), { token, body });
    const missing = await t.rest('POST', searchPath(MISSING), { token, body });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect((await t.rest('POST', `/v1/spaces/${spaces['Getting started']}/content/import`, { token, body: { source: { markdown: '# x' } } })).status).toBe(403);
  });

  it("answers another organization's site like a missing one, and a share-link site to outsiders without its key", async () => {
    const { body: site } = await t.rest('POST', `/v1/orgs/${other.organizationId}/sites`, { token: other.admin.token, body: { title: 'Theirs', visibility: 'public', spaces: 'sample' } });
    await t.rest('POST', `/v1/orgs/${other.organizationId}/sites/${site.id}/publish`, { token: other.admin.token });
    const body = { query: 'token', scope: { mode: 'all' } };
    expect((await t.rest('POST', searchPath(site.id, other.organizationId), { token: other.admin.token, body })).status).toBe(200);
    const foreign = await t.rest('POST', searchPath(site.id, org), { token: demo.token, body });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual((await t.rest('POST', searchPath(MISSING), { token: demo.token, body })).body);
    const sites = (await t.rest('GET', `/v1/orgs/${org}/sites`, { token: demo.token })).body.items as { id: string; visibility: string }[];
    const shared = sites.find((s) => s.visibility === 'share-link')!;
    expect((await t.rest('POST', searchPath(shared.id), { token: other.admin.token, body })).status).toBe(404);
  });

  it('answers 400 to a bad body, after the site checks', async () => {
    const bad = async (body: unknown) => (await t.rest('POST', searchPath(), { token, body })).body.error;
    expect(await bad({ scope: { mode: 'all' } })).toMatchObject({ code: 400, message: 'query is required' });
    expect((await bad({ query: '', scope: { mode: 'all' } })).message).toMatch(/query/);
    expect((await bad({ query: 'x'.repeat(513), scope: { mode: 'all' } })).message).toMatch(/512/);
    expect((await bad({ query: 'token' })).message).toMatch(/scope is required/);
    expect((await bad({ query: 'token', scope: { mode: 'some' } })).message).toMatch(/scope.mode/);
    expect((await bad({ query: 'token', scope: { mode: 'specific', siteSpaceIds: [MISSING] } })).message).toMatch(`no site space ${MISSING}`);
    expect((await bad({ query: 'token', scope: { mode: 'specific' } })).message).toMatch(/siteSpaceIds/);
    expect((await bad({ query: 'token', mode: 'current' })).message).toMatch(/siteSpaceId/);
    expect((await t.rest('POST', searchPath(MISSING), { token, body: {} })).status).toBe(404);
  });

  it('costs the same eight statements whatever the number of spaces searched, once their index is fresh', async () => {
    const body = { query: 'token OR install', scope: { mode: 'all' } };
    await t.rest('POST', searchPath(), { token, body });
    const count = async (b: unknown) => {
      const before = statements.statements.length;
      expect((await t.rest('POST', searchPath(), { token, body: b })).status).toBe(200);
      return statements.statements.slice(before).map((s) => s.sql.slice(0, 60));
    };
    const both = await count(body);
    const ids = await siteSpaceIds();
    const one = await count({ ...body, scope: { mode: 'specific', siteSpaceIds: [ids['Getting started']] } });
    expect(both.length).toBe(one.length);
    // The token against its site, the site, its sections, groups and site spaces, their spaces (one batch), the index's freshness, the search.
    expect(both, both.join('\n')).toHaveLength(8);
  });

  it('has its GraphQL twin, Query.siteSearch, for members', async () => {
    const query = `query ($site: ID!, $q: String!, $mode: SiteSearchMode, $ids: [ID!]) {
      siteSearch(siteId: $site, query: $q, mode: $mode, siteSpaceIds: $ids, first: 5) { edges { node { space { restId } pages { title } } } }
    }`;
    const all = await t.graphql(query, { site: gid('Site', siteId), q: 'token', mode: 'ALL' }, demo.token);
    expect(all.body.errors).toBeUndefined();
    expect(all.body.data.siteSearch.edges[0].node).toMatchObject({ space: { restId: spaces['API reference'] }, pages: [{ title: 'Authentication' }] });
    const ids = await siteSpaceIds();
    const specific = await t.graphql(query, { site: gid('Site', siteId), q: 'token', mode: 'SPECIFIC', ids: [gid('SiteSpace', ids['Getting started'])] }, demo.token);
    expect(specific.body.data.siteSearch.edges.every((e: { node: { space: { restId: string } } }) => e.node.space.restId === spaces['Getting started'])).toBe(true);
    const missing = await t.graphql(query, { site: gid('Site', MISSING), q: 'token' }, demo.token);
    expect(missing.body.data.siteSearch).toBeNull();
    // What the renderer reads of each page (its score and breadcrumbs) the twin answers too; "zeppelin" is the nested page made above.
    const ranked = await t.graphql(
      `query ($site: ID!) { siteSearch(siteId: $site, query: "token OR zeppelin", mode: ALL, first: 5) { edges { node { pages { title score ancestors { pageId title } sections { score } } } } } }`,
      { site: gid('Site', siteId) },
      demo.token,
    );
    expect(ranked.body.errors).toBeUndefined();
    const { data: rest } = await admin.orgs.searchSiteContent(org, siteId, { query: 'token OR zeppelin', scope: { mode: 'all' } } as never);
    type Hit = { title: string; score: number; ancestors: { id?: string; pageId?: string; title: string }[]; sections: { score: number }[] };
    const shape = (pages: Hit[]) => pages.map((p) => ({ title: p.title, score: p.score, ancestors: p.ancestors.map((a) => [a.id ?? a.pageId, a.title]), sections: p.sections.map((x) => x.score) }));
    const twin = ranked.body.data.siteSearch.edges.flatMap((e: { node: { pages: Hit[] } }) => shape(e.node.pages));
    expect(twin).toEqual(rest.items.flatMap((space) => shape(space.pages as unknown as Hit[])));
    expect(twin.length).toBeGreaterThan(0);
    expect(twin.some((p: { ancestors: unknown[] }) => p.ancestors.length > 0)).toBe(true);
    // A space's own search gives no breadcrumbs (null), only the score.
    const bySpace = await t.graphql(`query ($s: ID!) { node(id: $s) { ... on Space { search(query: "token", first: 1) { edges { node { score ancestors { title } } } } } } }`, { s: gid('Space', spaces['API reference']) }, demo.token);
    expect(bySpace.body.errors).toBeUndefined();
    expect(bySpace.body.data.node.search.edges[0].node).toEqual({ score: expect.any(Number), ancestors: null });
    expect((await t.graphql(query, { site: gid('Site', siteId), q: 'token' }, token)).status).toBe(401);
  });
});

describe('getComputedDocument', () => {
  const source = (props: Record<string, unknown>, spec = 'pets') => ({ type: 'builtin:openapi', props, dependencies: { spec: { ref: { kind: 'openapi', spec } } } });
  beforeAll(async () => {
    const put = await t.rest('PUT', `/v1/orgs/${org}/openapi/pets`, { token: demo.token, body: { source: { text: SPEC } } });
    expect([200, 201]).toContain(put.status);
    const deadline = Date.now() + 15_000;
    while ((await t.rest('GET', `/v1/orgs/${org}/openapi/pets`, { token: demo.token })).body.processingState !== 'complete' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  });

  const text = (document: unknown) => JSON.stringify(document);

  it("computes an OpenAPI spec's documents with the site token: a tag's operations, the overview, the models", async () => {
    const guide = spaces['Getting started'];
    const path = `/v1/spaces/${guide}/content/computed/document`;
    const { data: ops } = await reader.spaces.getComputedDocument(guide, { source: source({ doc: 'operations', page: 'pets' }), seed: 'a' } as never);
    validateResponse('POST', path, 200, ops);
    expect(ops.object).toBe('document');
    expect(text(ops)).toContain('List the pets');
    const { data: info } = await reader.spaces.getComputedDocument(guide, { source: source({ doc: 'info', page: 'overview' }), seed: 'a' } as never);
    validateResponse('POST', path, 200, info);
    expect(text(info)).toContain('Reference of Pets');
    const { data: models } = await reader.spaces.getComputedDocument(guide, { source: source({ doc: 'models' }), seed: 'a' } as never);
    expect(text(models)).toContain('Pet');
    const { data: missing } = await reader.spaces.getComputedDocument(guide, { source: source({ doc: 'models' }, 'nowhere'), seed: 'a' } as never);
    expect(text(missing)).toContain('does not exist in this organization');
  });

  it('answers 400 to a source Quire does not compute and to a bad body; 404 for a private space, before the body', async () => {
    const guide = spaces['Getting started'];
    const post = (body: unknown, space = guide, as = token) => t.rest('POST', `/v1/spaces/${space}/content/computed/document`, { token: as, body });
    expect((await post({ source: { type: 'builtin:translation', props: { space: guide, document: 'd' } }, seed: 'a' })).body.error.message).toMatch(/builtin:openapi sources only/);
    expect((await post({ source: { type: 'integration:a:b', props: {} }, seed: 'a' })).status).toBe(400);
    expect((await post({ source: source({ doc: 'operations', page: 'cats' }), seed: 'a' })).body.error.message).toMatch(/no operations tagged "cats"/);
    expect((await post({ source: source({ doc: 'operations' }), seed: 'a' })).status).toBe(400);
    expect((await post({ source: source({ doc: 'models' }) })).body.error.message).toBe('seed is required');
    expect((await post({ source: source({ doc: 'models' }), seed: 'a' }, spaces.Drafts)).status).toBe(404);
    expect((await post({}, spaces.Drafts)).status).toBe(404);
    expect((await post({ source: source({ doc: 'models' }), seed: 'a' }, spaces.Drafts, demo.token)).status).toBe(200);
    const foreign = await post({ source: source({ doc: 'models' }), seed: 'a' }, spaces.Drafts, other.admin.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual((await post({ source: source({ doc: 'models' }), seed: 'a' }, MISSING, other.admin.token)).body);
  });

  it('has its GraphQL twin, Space.computedDocument', async () => {
    const query = 'query ($id: ID!, $source: JSON!) { node(id: $id) { ... on Space { computedDocument(source: $source, seed: "a") } } }';
    const res = await t.graphql(query, { id: gid('Space', spaces['Getting started']), source: source({ doc: 'operations', page: 'pets' }) }, demo.token);
    expect(text(res.body.data.node.computedDocument)).toContain('List the pets');
    const refused = await t.graphql(query, { id: gid('Space', spaces['Getting started']), source: { type: 'builtin:translation', props: {} } }, demo.token);
    expect(refused.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });
});

describe('documents by id, reusable contents, embeds', () => {
  it('answers 404 to any document id, after the space checks, through both doors', async () => {
    const guide = spaces['Getting started'];
    expect(await refusal(reader.spaces.getDocumentById(guide, 'doc1'))).toMatchObject({ code: 404 });
    expect(await refusal(admin.spaces.getDocumentById(guide, 'doc1'))).toMatchObject({ code: 404 });
    expect((await t.rest('GET', `/v1/spaces/${guide}/documents/doc1?schema=later`, { token })).status).toBe(400);
    expect((await t.rest('GET', `/v1/spaces/${spaces.Drafts}/documents/doc1?schema=later`, { token })).status).toBe(404);
    const res = await t.graphql('query ($id: ID!) { node(id: $id) { ... on Space { document(documentId: "doc1") } } }', { id: gid('Space', guide) }, demo.token);
    expect(res.body.data).toEqual({ node: { document: null } });
  });

  it("answers the platform's 404 to any reusable content of a revision the caller reads, and to a revision it does not", async () => {
    const guide = spaces['Getting started'];
    const { data: revision } = await reader.spaces.getCurrentRevision(guide);
    const one = await refusal(reader.spaces.getReusableContentInRevisionById(guide, revision.id, 'rc1'));
    expect(one).toMatchObject({ code: 404 });
    expect(await refusal(reader.spaces.getReusableContentDocumentInRevisionById(guide, revision.id, 'rc1'))).toMatchObject({ code: 404 });
    const drafts = (await t.rest('GET', `/v1/spaces/${spaces.Drafts}/content`, { token: demo.token })).body.id as string;
    expect((await t.rest('GET', `/v1/spaces/${spaces.Drafts}/revisions/${drafts}/reusable-contents/rc1`, { token })).body.error.message).not.toBe(one!.message);
    expect((await t.rest('GET', `/v1/spaces/${guide}/revisions/${drafts}/reusable-contents/rc1/document`, { token: demo.token })).status).toBe(404);
    const res = await t.graphql('query ($id: ID!) { node(id: $id) { ... on Space { content { reusableContent(reusableContentId: "rc1") { restId } } } } }', { id: gid('Space', guide) }, demo.token);
    expect(res.body.data).toEqual({ node: { content: { reusableContent: null } } });
  });

  it('answers an embed as a link from the URL alone, with the site token, through both doors', async () => {
    const guide = spaces['Getting started'];
    const url = 'https://www.youtube.com/watch?v=abc';
    const { data } = await reader.spaces.getEmbedByUrlInSpace(guide, { url });
    validateResponse('GET', `/v1/spaces/${guide}/embed?url=${encodeURIComponent(url)}`, 200, data);
    expect(data).toEqual({ type: 'link', title: 'youtube.com/watch?v=abc', site: 'youtube.com' });
    for (const bad of ['', 'not a url', 'javascript:alert(1)', 'file:///etc/passwd']) {
      expect((await t.rest('GET', `/v1/spaces/${guide}/embed?url=${encodeURIComponent(bad)}`, { token })).status, bad).toBe(400);
    }
    expect((await t.rest('GET', `/v1/spaces/${spaces.Drafts}/embed?url=${encodeURIComponent(url)}`, { token })).status).toBe(404);
    expect((await t.rest('GET', `/v1/spaces/${guide}/embed?url=${encodeURIComponent(url)}`, { token: other.admin.token })).status).toBe(404);
    const res = await t.graphql('query ($id: ID!, $url: String!) { node(id: $id) { ... on Space { embed(url: $url) { type title site } } } }', { id: gid('Space', guide), url }, demo.token);
    expect(res.body.data.node.embed).toEqual(data);
  });
});

describe('getChangeRequestChanges', () => {
  it("lists what a change request changes from its base, for members; a site token reads it as missing", async () => {
    const guide = spaces['Getting started'];
    const cr = (await t.rest('GET', `/v1/spaces/${guide}/change-requests`, { token: demo.token })).body.items[0] as { id: string };
    const { data } = await admin.spaces.getChangeRequestChanges(guide, cr.id);
    validateResponse('GET', `/v1/spaces/${guide}/change-requests/${cr.id}/changes`, 200, data);
    expect(data.changes.length).toBeGreaterThan(0);
    expect(data.changes[0]).toMatchObject({ type: expect.stringMatching(/^page_/) });
    expect(await refusal(reader.spaces.getChangeRequestChanges(guide, cr.id))).toMatchObject({ code: 404 });
    // Nor does the token list or read a change request: drafts are not the site's published content.
    for (const path of ['', `/${cr.id}`, `/${cr.id}/content`, `/${cr.id}/content/pages`]) {
      expect((await t.rest('GET', `/v1/spaces/${guide}/change-requests${path}`, { token })).status, path).toBe(404);
    }
    expect((await t.rest('GET', `/v1/spaces/${guide}/change-requests/${cr.id}/changes?limit=0`, { token: demo.token })).status).toBe(400);
    expect((await t.rest('GET', `/v1/spaces/${guide}/change-requests/${cr.id}/changes`, { token: other.admin.token })).status).toBe(404);
    const res = await t.graphql('query ($id: ID!) { node(id: $id) { ... on ChangeRequest { semanticChanges(limit: 100) { type page { title } } } } }', { id: gid('ChangeRequest', cr.id) }, demo.token);
    expect(res.body.data.node.semanticChanges.map((c: { type: string }) => c.type)).toEqual(data.changes.map((c) => c.type));
  });
});

describe('users with the site token', () => {
  it("answers every user like a missing one: Quire's published content names no user", async () => {
    expect((await admin.users.getUserById(demo.adminUserId)).data.id).toBe(demo.adminUserId);
    const known = await t.rest('GET', `/v1/users/${demo.adminUserId}`, { token });
    expect(known.status).toBe(404);
    expect(known.body).toEqual((await t.rest('GET', `/v1/users/${MISSING}`, { token })).body);
  });
});
