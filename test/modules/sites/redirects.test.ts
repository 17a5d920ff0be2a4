import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteRedirects } from '../../../src/db/schema/sites';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../support/clients';
import { StatementLog } from '../../support/db';
import { contentBench } from '../../support/change-requests';
import { gid } from '../../support/doors';
import { buildOrganization, type Actor, type OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';

/**
 * Site redirects (issue 32) through REST (every answer held to the official spec by `t.rest`) and
 * GraphQL: who manages and reads them, what input is refused, the site API token's reach, and
 * where readers of the published site are sent.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'creator' | 'reader' | 'guest', Actor>;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ creator: ['create', 'Cora Create'], reader: ['read', 'Rita Read'], guest: [null, 'Gus Guest'] }));
});
afterAll(() => t?.close());

const sitesPath = () => `/v1/orgs/${acme.organizationId}/sites`;
const as = (token: string | null, method: string, path: string, body?: unknown) => t.rest(method, path, { token, body });
const admin = (method: string, path: string, body?: unknown) => as(acme.admin.token, method, path, body);

type Part = { id: string; title: string; path: string; urls: { published?: string }; siteSpaces: { id: string; space: { id: string }; urls: { published?: string } }[] };

/**
 * A published site: a default section "API" with two variants (the guide at its root, the API at
 * its path) and a section "Reference"; what redirects may name, and where each is served.
 */
async function publishedSite(visibility = 'public') {
  const guide = await contentBench(() => t, () => acme, [{ title: 'Welcome', markdown: 'Hello.' }, { title: 'Install', markdown: 'Install it.' }]);
  const api = await contentBench(() => t, () => acme, [{ title: 'Reference', markdown: 'The API.' }]);
  const site = (await admin('POST', sitesPath(), { title: 'Docs', visibility, spaces: [guide.spaceId] })).body;
  const path = `${sitesPath()}/${site.id}`;
  expect((await admin('POST', `${path}/sections`, { spaceId: api.spaceId, title: 'API' })).status).toBe(201);
  expect((await admin('POST', `${path}/sections`, { spaceId: api.spaceId, title: 'Reference' })).status).toBe(201);
  expect((await admin('POST', `${path}/publish`)).status).toBe(200);
  const url = (await admin('GET', path)).body.urls.published as string;
  const sections = (await admin('GET', `${path}/sections`)).body.items as Part[];
  const [main, reference] = sections;
  const guideSpace = main.siteSpaces.find((v) => v.space.id === guide.spaceId)!;
  const apiSpace = main.siteSpaces.find((v) => v.space.id === api.spaceId)!;
  const pages = (await admin('GET', `/v1/spaces/${guide.spaceId}/content`)).body.pages as { id: string; path: string }[];
  return { site, path, url, sections, reference, guideSpace, apiSpace, install: pages.find((p) => p.path === 'install')! };
}

async function html(url: string) {
  const res = await t.app.fetch(new Request(url.startsWith('http') ? url : `${TEST_ORIGIN}${url}`, { redirect: 'manual' }));
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

const siteToken = async (url: string) => (await t.rest('POST', '/v1/urls/published', { token: null, body: { url } })).body.apiToken as string;

describe('site redirects through REST', () => {
  it('creates, lists, updates, resolves and deletes a redirect to a page, a site space and a section', async () => {
    const s = await publishedSite();
    const created = await admin('POST', `${s.path}/redirects`, { source: '/old/install', destination: { kind: 'site-page', siteSpaceId: s.guideSpace.id, pageId: s.install.id } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ object: 'site-redirect', id: expect.any(String), source: '/old/install', destination: { kind: 'site-page', siteSpaceId: s.guideSpace.id, pageId: s.install.id } });

    // The guide is the default section's default variant: its pages sit at the site's root.
    const found = await as(people.reader.token, 'GET', `${s.path}/redirect?source=${encodeURIComponent('/old/install')}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ redirect: created.body, target: `${s.url}/install` });

    const toSection = await admin('POST', `${s.path}/redirects`, { source: '/api-docs', destination: { kind: 'site-section', siteSectionId: s.reference.id } });
    expect(toSection.status).toBe(201);
    expect((await admin('GET', `${s.path}/redirect?source=/api-docs`)).body.target).toBe(`${s.url}/reference`);
    expect(s.reference.urls.published).toBe(`${s.url}/reference`);

    const list = await as(people.reader.token, 'GET', `${s.path}/redirects`);
    expect(list.body.items.map((r: { source: string }) => r.source)).toEqual(['/old/install', '/api-docs']);
    const page1 = await admin('GET', `${s.path}/redirects?limit=1`);
    expect(page1.body.items).toHaveLength(1);
    expect((await admin('GET', `${s.path}/redirects?limit=1&page=${page1.body.next.page}`)).body.items[0].source).toBe('/api-docs');

    const updated = await as(people.creator.token, 'PATCH', `${s.path}/redirects/${toSection.body.id}`, { source: '/reference', destination: { kind: 'site-space', siteSpaceId: s.apiSpace.id } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ source: '/reference', destination: { kind: 'site-space', siteSpaceId: s.apiSpace.id } });
    expect((await admin('GET', `${s.path}/redirect?source=/api-docs`)).status).toBe(404);
    expect((await admin('GET', `${s.path}/redirect?source=/reference`)).body.target).toBe(s.apiSpace.urls.published);
    expect(s.apiSpace.urls.published).toMatch(new RegExp(`^${s.url}/[\\w-]+$`));

    expect((await as(people.creator.token, 'DELETE', `${s.path}/redirects/${toSection.body.id}`)).status).toBe(204);
    expect((await admin('DELETE', `${s.path}/redirects/${toSection.body.id}`)).status).toBe(204);
    expect((await admin('GET', `${s.path}/redirect?source=/reference`)).status).toBe(404);
  });

  it('lets only those who manage the site change redirects; readers list and resolve them', async () => {
    const s = await publishedSite();
    const body = { source: '/moved', destination: { kind: 'site-space', siteSpaceId: s.guideSpace.id } };
    expect((await as(null, 'POST', `${s.path}/redirects`, body)).status).toBe(401);
    expect((await as(people.reader.token, 'POST', `${s.path}/redirects`, body)).status).toBe(403);
    const { id } = (await admin('POST', `${s.path}/redirects`, body)).body;
    expect((await as(people.reader.token, 'PATCH', `${s.path}/redirects/${id}`, { source: '/elsewhere' })).status).toBe(403);
    expect((await as(people.reader.token, 'DELETE', `${s.path}/redirects/${id}`)).status).toBe(403);
    expect((await as(people.reader.token, 'GET', `${s.path}/redirects`)).body.items).toHaveLength(1);
    expect((await as(null, 'GET', `${s.path}/redirect?source=/moved`)).status).toBe(401);
  });

  it("answers another organization's site and redirects exactly like missing ones", async () => {
    const s = await publishedSite('unlisted');
    const { id } = (await admin('POST', `${s.path}/redirects`, { source: '/moved', destination: { kind: 'site-space', siteSpaceId: s.guideSpace.id } })).body;
    const missing = await as(other.admin.token, 'GET', `${sitesPath()}/doesNotExist00000000/redirects`);
    expect(missing.status).toBe(404);
    expect((await as(other.admin.token, 'GET', `${s.path}/redirects`)).body).toEqual(missing.body);
    expect((await as(other.admin.token, 'POST', `${s.path}/redirects`, { source: '/x', destination: { kind: 'site-space', siteSpaceId: s.guideSpace.id } })).body).toEqual(
      (await as(other.admin.token, 'POST', `${sitesPath()}/doesNotExist00000000/redirects`, { source: '/x', destination: { kind: 'site-space', siteSpaceId: s.guideSpace.id } })).body,
    );
    expect((await as(other.admin.token, 'PATCH', `${s.path}/redirects/${id}`, { source: '/x' })).status).toBe(404);
    const foreignPath = `/v1/orgs/${other.organizationId}/sites/${s.site.id}`;
    expect((await as(other.admin.token, 'GET', `${foreignPath}/redirects`)).status).toBe(404);
    expect((await as(other.admin.token, 'DELETE', `${foreignPath}/redirects/${id}`)).status).toBe(204);
    expect((await as(people.guest.token, 'GET', `${s.path}/redirects`)).status).toBe(404);
    expect((await admin('GET', `${s.path}/redirects`)).body.items.map((r: { id: string }) => r.id)).toEqual([id]);
    // Published and unlisted: an outsider reads it as a reader would, the redirect included.
    expect((await as(other.admin.token, 'GET', `${s.path}/redirect?source=/moved`)).status).toBe(200);
    expect((await as(other.admin.token, 'GET', `${foreignPath}/redirect?source=/moved`)).status).toBe(404);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const s = await publishedSite();
    const other2 = await publishedSite();
    const space = s.guideSpace.id;
    const bad: [unknown, RegExp][] = [
      [{ source: 'no-slash', destination: { kind: 'site-space', siteSpaceId: space } }, /source/],
      [{ source: '/trailing/', destination: { kind: 'site-space', siteSpaceId: space } }, /source/],
      [{ source: '/a b', destination: { kind: 'site-space', siteSpaceId: space } }, /source/],
      [{ source: '/..//x', destination: { kind: 'site-space', siteSpaceId: space } }, /source/],
      [{ source: `/${'a'.repeat(512)}`, destination: { kind: 'site-space', siteSpaceId: space } }, /512/],
      [{ source: '/x', destination: { kind: 'url', url: 'javascript:alert(1)' } }, /destination/],
      [{ source: '/x', destination: { kind: 'url', url: 'https://example.com' } }, /destination/],
      [{ source: '/x', destination: { kind: 'site-space', siteSpaceId: space, url: 'javascript:alert(1)' } }, /url|destination/],
      [{ source: '/x', destination: { kind: 'site-space', siteSpaceId: other2.guideSpace.id } }, /no site space/],
      [{ source: '/x', destination: { kind: 'site-section', siteSectionId: other2.sections[0].id } }, /no section/],
      [{ source: '/x', destination: { kind: 'site-page', siteSpaceId: space, pageId: 'doesNotExist00000000' } }, /no page/],
      [{ source: '/x', destination: { kind: 'site-page', siteSpaceId: space } }, /pageId/],
      [{ source: '/x' }, /destination/],
      [{ source: '/x', destination: { kind: 'site-space', siteSpaceId: space }, extra: 1 }, /extra|Unrecognized|unknown/i],
      [[], /object/],
    ];
    for (const [body, message] of bad) {
      const res = await admin('POST', `${s.path}/redirects`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await admin('GET', `${s.path}/redirect?source=not-a-path`)).status).toBe(400);
    expect((await admin('GET', `${s.path}/redirect`)).status).toBe(400);
    const { id } = (await admin('POST', `${s.path}/redirects`, { source: '/x', destination: { kind: 'site-space', siteSpaceId: space } })).body;
    expect((await admin('PATCH', `${s.path}/redirects/${id}`, {})).status).toBe(400);
    expect((await admin('PATCH', `${s.path}/redirects/${id}`, { destination: { kind: 'site-section' } })).status).toBe(400);
    expect((await admin('GET', `${s.path}/redirects`)).body.items).toEqual([{ object: 'site-redirect', id, source: '/x', destination: { kind: 'site-space', siteSpaceId: space } }]);
  });

  it('keeps one redirect per source in a site (409), one spelling per escape, and deletes redirects with their site', async () => {
    const s = await publishedSite();
    const dest = { kind: 'site-space', siteSpaceId: s.guideSpace.id };
    expect((await admin('POST', `${s.path}/redirects`, { source: '/caf%c3%a9', destination: dest })).body.source).toBe('/caf%C3%A9');
    const again = await admin('POST', `${s.path}/redirects`, { source: '/caf%C3%A9', destination: dest });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already redirects/);
    const second = (await admin('POST', `${s.path}/redirects`, { source: '/second', destination: dest })).body;
    expect((await admin('PATCH', `${s.path}/redirects/${second.id}`, { source: '/caf%C3%A9' })).status).toBe(409);
    expect((await admin('GET', `${s.path}/redirect?source=/caf%25c3%25a9`)).status).toBe(200);

    const rows = async () => (await t.db.select({ id: siteRedirects.id }).from(siteRedirects).where(eq(siteRedirects.siteId, s.site.id))).length;
    expect(await rows()).toBe(2);
    expect((await admin('DELETE', s.path)).status).toBe(204);
    expect(await rows()).toBe(0);
  });

  it('removes redirects to a section when the section is removed', async () => {
    const s = await publishedSite();
    const section = s.reference;
    await admin('POST', `${s.path}/redirects`, { source: '/to-api', destination: { kind: 'site-section', siteSectionId: section.id } });
    await admin('POST', `${s.path}/redirects`, { source: '/to-guide', destination: { kind: 'site-space', siteSpaceId: s.guideSpace.id } });
    expect((await admin('DELETE', `${s.path}/sections/${section.id}`)).status).toBe(204);
    expect((await admin('GET', `${s.path}/redirects`)).body.items.map((r: { source: string }) => r.source)).toEqual(['/to-guide']);
  });
});

describe("the site API token the URL lookup gives", () => {
  it('resolves redirects of its own site only, and writes nothing', async () => {
    const s = await publishedSite();
    const elsewhere = await publishedSite();
    const dest = { kind: 'site-space', siteSpaceId: s.guideSpace.id };
    const { id } = (await admin('POST', `${s.path}/redirects`, { source: '/moved', destination: dest })).body;
    await admin('POST', `${elsewhere.path}/redirects`, { source: '/moved', destination: { kind: 'site-space', siteSpaceId: elsewhere.guideSpace.id } });
    const token = await siteToken(s.url);

    const found = await as(token, 'GET', `${s.path}/redirect?source=/moved`);
    expect(found.status).toBe(200);
    expect(found.body.target).toBe(s.url);
    expect((await as(token, 'GET', `${s.path}/redirect?source=/nowhere`)).status).toBe(404);
    expect((await as(token, 'GET', `${elsewhere.path}/redirect?source=/moved`)).status).toBe(404);
    expect((await as(token, 'GET', `${s.path}/redirects`)).status).toBe(404);
    expect((await as(token, 'POST', `${s.path}/redirects`, { source: '/new', destination: dest })).status).toBe(403);
    expect((await as(token, 'PATCH', `${s.path}/redirects/${id}`, { source: '/new' })).status).toBe(403);
    expect((await as(token, 'DELETE', `${s.path}/redirects/${id}`)).status).toBe(403);
    expect((await admin('GET', `${s.path}/redirects`)).body.items.map((r: { source: string }) => r.source)).toEqual(['/moved']);
  });

  it('reads a share-link site with its key, and not without', async () => {
    const s = await publishedSite('share-link');
    await admin('POST', `${s.path}/redirects`, { source: '/moved', destination: { kind: 'site-space', siteSpaceId: s.guideSpace.id } });
    const link = (await admin('POST', `${s.path}/share-links`, { name: 'Partner' })).body;
    const key = new URL(link.urls.published).searchParams.get('shareKey')!;
    expect((await as(other.admin.token, 'GET', `${s.path}/redirect?source=/moved`)).status).toBe(404);
    expect((await as(other.admin.token, 'GET', `${s.path}/redirect?source=/moved&shareKey=${key}`)).status).toBe(200);
    const token = await siteToken(`${s.url}?shareKey=${key}`);
    expect((await as(token, 'GET', `${s.path}/redirect?source=/moved`)).status).toBe(200);
  });
});

describe('readers of the published site', () => {
  it('are sent (302) from a path that is no page to the target, and a page wins over a redirect', async () => {
    const s = await publishedSite();
    await admin('POST', `${s.path}/redirects`, { source: '/old/install', destination: { kind: 'site-page', siteSpaceId: s.guideSpace.id, pageId: s.install.id } });
    await admin('POST', `${s.path}/redirects`, { source: '/welcome', destination: { kind: 'site-space', siteSpaceId: s.apiSpace.id } });
    const moved = await html(`${s.url}/old/install`);
    expect(moved.status).toBe(302);
    expect(moved.location).toBe(`${s.url}/install`);
    expect((await html(moved.location!)).status).toBe(200);
    expect((await html(`${s.url}/welcome`)).status).toBe(200);
    expect((await html(`${s.url}/old/nothing`)).status).toBe(404);

    // The renderer's URL lookup answers the spec's Redirect variant for the same path.
    const lookup = await t.rest('POST', '/v1/urls/published', { token: null, body: { url: `${s.url}/old/install` } });
    expect(lookup.body).toEqual({ target: 'content', redirect: `${s.url}/install` });
    expect((await t.rest('POST', '/v1/urls/published', { token: null, body: { url: `${s.url}/welcome` } })).body.pathname).toBe('welcome');
  });
});

describe('site redirects through GraphQL', () => {
  const FIELDS = 'redirect { id restId source destinationKind pageId target siteSpace { restId } siteSection { restId } site { restId } }';
  const mutate = async (name: string, input: Record<string, unknown>, token = acme.admin.token, fields = FIELDS) => {
    const res = await t.graphql(`mutation($input: ${name[0].toUpperCase()}${name.slice(1)}Input!) { ${name}(input: $input) { ${fields} userErrors { message code field } } }`, { input }, token);
    return res.body;
  };

  it('creates, lists, looks up, updates and deletes, with typed user errors', async () => {
    const s = await publishedSite();
    const siteId = gid('Site', s.site.id);
    const created = await mutate('siteRedirectCreate', { siteId, source: '/old/install', destination: { kind: 'SITE_PAGE', siteSpaceId: gid('SiteSpace', s.guideSpace.id), pageId: s.install.id } });
    expect(created.errors).toBeUndefined();
    expect(created.data.siteRedirectCreate.redirect).toMatchObject({ source: '/old/install', destinationKind: 'SITE_PAGE', pageId: s.install.id, target: `${s.url}/install`, siteSpace: { restId: s.guideSpace.id }, siteSection: null, site: { restId: s.site.id } });
    const redirectId = created.data.siteRedirectCreate.redirect.id;

    const taken = await mutate('siteRedirectCreate', { siteId, source: '/old/install', destination: { kind: 'SITE_SPACE', siteSpaceId: gid('SiteSpace', s.guideSpace.id) } });
    expect(taken.data.siteRedirectCreate).toMatchObject({ redirect: null, userErrors: [{ code: 'CONFLICT', field: ['source'] }] });
    const invalid = await mutate('siteRedirectCreate', { siteId, source: 'javascript:alert(1)', destination: { kind: 'SITE_SPACE', siteSpaceId: gid('SiteSpace', s.guideSpace.id) } });
    expect(invalid.data.siteRedirectCreate).toMatchObject({ redirect: null, userErrors: [{ code: 'VALIDATION_FAILED', field: ['source'] }] });
    const noPage = await mutate('siteRedirectCreate', { siteId, source: '/y', destination: { kind: 'SITE_PAGE', siteSpaceId: gid('SiteSpace', s.guideSpace.id) } });
    expect(noPage.data.siteRedirectCreate.userErrors[0]).toMatchObject({ code: 'VALIDATION_FAILED', field: ['destination', 'pageId'] });
    const byReader = await mutate('siteRedirectCreate', { siteId, source: '/z', destination: { kind: 'SITE_SPACE', siteSpaceId: gid('SiteSpace', s.guideSpace.id) } }, people.reader.token);
    expect(byReader.errors[0].extensions.code).toBe('FORBIDDEN');

    const listed = await t.graphql(
      'query($id: ID!, $source: String!) { node(id: $id) { ... on Site { redirects(first: 10) { totalCount edges { node { source } } } } } siteRedirectBySource(siteId: $id, source: $source) { target redirect { id } } }',
      { id: siteId, source: '/old/install' },
      people.reader.token,
    );
    expect(listed.body.errors).toBeUndefined();
    expect(listed.body.data.node.redirects).toEqual({ totalCount: 1, edges: [{ node: { source: '/old/install' } }] });
    expect(listed.body.data.siteRedirectBySource).toEqual({ target: `${s.url}/install`, redirect: { id: redirectId } });
    const outsider = await t.graphql('query($id: ID!) { siteRedirectBySource(siteId: $id, source: "/nowhere") { target } node(id: $id) { id } }', { id: siteId }, other.admin.token);
    expect(outsider.body.data).toEqual({ siteRedirectBySource: null, node: null });

    const section = s.reference;
    const updated = await mutate('siteRedirectUpdate', { redirectId, destination: { kind: 'SITE_SECTION', siteSectionId: gid('SiteSection', section.id) } });
    expect(updated.data.siteRedirectUpdate.redirect).toMatchObject({ source: '/old/install', destinationKind: 'SITE_SECTION', pageId: null, siteSpace: null, siteSection: { restId: section.id }, target: `${s.url}/${section.path}` });
    expect((await mutate('siteRedirectUpdate', { redirectId, source: '/x' }, other.admin.token)).errors[0].extensions.code).toBe('NOT_FOUND');

    const deleted = await mutate('siteRedirectDelete', { redirectId }, acme.admin.token, 'deletedRedirectId');
    expect(deleted.data.siteRedirectDelete).toEqual({ deletedRedirectId: redirectId, userErrors: [] });
    expect((await admin('GET', `${s.path}/redirects`)).body.items).toEqual([]);
  });
});

describe('what redirects cost readers', () => {
  it('a page reads no redirect; a missing page one statement on the source index; a redirect to a site space nothing more', async () => {
    const statements = new StatementLog();
    const app = await startTestApp({}, { statements });
    try {
      const org = await buildOrganization(app.db, 'Costly');
      const bench = await contentBench(() => app, () => org, [{ title: 'Welcome', markdown: 'Hello.' }]);
      const call = async (method: string, path: string, body?: unknown) => (await app.rest(method, path, { token: org.admin.token, body })).body;
      const site = await call('POST', `/v1/orgs/${org.organizationId}/sites`, { title: 'Docs', spaces: [bench.spaceId] });
      const siteSpace = (await call('GET', `/v1/orgs/${org.organizationId}/sites/${site.id}/site-spaces`)).items[0];
      await call('POST', `/v1/orgs/${org.organizationId}/sites/${site.id}/redirects`, { source: '/moved', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } });
      await call('POST', `/v1/orgs/${org.organizationId}/sites/${site.id}/publish`);
      const url = (await call('GET', `/v1/orgs/${org.organizationId}/sites/${site.id}`)).urls.published as string;
      const lookups = async (path: string) => {
        const before = statements.statements.length;
        const res = await app.app.fetch(new Request(`${url}${path}`, { redirect: 'manual' }));
        await res.arrayBuffer();
        return { status: res.status, redirects: statements.statements.slice(before).filter((st) => /"site_redirects"/.test(st.sql)).length };
      };
      expect(await lookups('/welcome')).toEqual({ status: 200, redirects: 0 });
      expect(await lookups('/nowhere')).toEqual({ status: 404, redirects: 1 });
      expect(await lookups('/moved')).toEqual({ status: 302, redirects: 1 });
      // The renderer's URL lookup: a page asks nothing of the redirects, a path that is no page one statement.
      const resolves = async (path: string) => {
        const before = statements.statements.length;
        const res = await app.rest('POST', '/v1/urls/published', { body: { url: `${url}${path}` } });
        return { redirect: 'redirect' in res.body, redirects: statements.statements.slice(before).filter((st) => /"site_redirects"/.test(st.sql)).length };
      };
      expect(await resolves('/welcome')).toEqual({ redirect: false, redirects: 0 });
      expect(await resolves('/moved')).toEqual({ redirect: true, redirects: 1 });
    } finally {
      await app.close();
    }
  });
});
