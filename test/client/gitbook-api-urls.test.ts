import { GitBookAPI, type PublishedSiteContentLookup } from '@gitbook/api';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoData } from '../../src/app/seed';
import { TEST_ORIGIN, type TestApp } from '../support/clients';
import { validateResponse } from '../support/openapi';
import { content, lookupAs, refusal, servedDemo, type ServedDemo } from '../support/served';

/**
 * The URL lookup the platform's renderer starts every page with, through the official client over
 * real HTTP, on the demo's sites: what each URL resolves to, and what its token then reads.
 */
let served: ServedDemo;
let t: TestApp;
let demo: DemoData;
let server: { url: string };
let anonymous: GitBookAPI;
let admin: GitBookAPI;
let docs: string;
let spaces: Record<string, string>;

beforeAll(async () => {
  served = await servedDemo();
  ({ t, demo, anonymous, admin, docs, spaces } = served);
  server = served;
});
afterAll(async () => {
  await served?.close();
});

const lookup = (url: string, visitor: Record<string, unknown> = {}, redirectOnError = false): Promise<PublishedSiteContentLookup> => lookupAs(anonymous, url, visitor, redirectOnError);

describe('URL lookup of a public site with sections', () => {
  it('resolves the site root to the default section, and says it is not complete: a section or variant may follow', async () => {
    const found = content(await lookup(docs));
    const sitePath = new URL(docs).pathname;
    expect(found).toMatchObject({
      organization: demo.organizationId,
      space: spaces['Getting started'],
      basePath: `${sitePath}/`,
      siteBasePath: `${sitePath}/`,
      pathname: '',
      canonicalUrl: docs,
      complete: false,
    });
    expect(found.siteSection).toBeTruthy();
    expect(found.revision).toBeTruthy();
    expect(found.apiToken.split('.')).toHaveLength(3);
  });

  it('resolves a page of the second section by its full URL, and its shortened forms never complete wrongly', async () => {
    const { data: structure } = await admin.orgs.getSiteStructure(demo.organizationId, content(await lookup(docs)).site);
    const second = structure.structure[1] as { path: string; id: string; siteSpaces: { id: string; path: string }[] };
    const full = `${docs}/${second.path}/authentication`;
    const found = content(await lookup(full));
    expect(found).toMatchObject({ siteSection: second.id, space: spaces['API reference'], pathname: 'authentication', canonicalUrl: full, complete: false });
    expect(found.basePath).toBe(`${new URL(docs).pathname}/${second.path}/`);

    // What the renderer does: every shortened form at once, keeping the full URL's answer or a complete one.
    const forms = [docs, `${docs}/${second.path}`, full];
    const answers = await Promise.all(forms.map((u) => lookup(u).then(content)));
    for (const [i, answer] of answers.entries()) {
      if (answer.complete) expect(answer.space, forms[i]).toBe(spaces['API reference']);
    }
    expect(answers[0].complete).toBe(false);

    // Naming the section and its variant: nothing more can name site structure, so it is complete.
    const variant = second.siteSpaces[0].path;
    const named = content(await lookup(`${docs}/${second.path}/${variant}/authentication`));
    expect(named).toMatchObject({ complete: true, pathname: 'authentication', space: spaces['API reference'], canonicalUrl: full });
  });

  it('answers 404 for a URL that is no published site, and 400 for one that is no URL', async () => {
    const missing = await refusal(lookup(`${TEST_ORIGIN}/sites/${demo.organizationId}/nowhere/page`));
    expect(missing).toMatchObject({ code: 404 });
    expect(await refusal(lookup('https://elsewhere.example/docs'))).toMatchObject({ code: 404 });
    expect(await refusal(lookup(`${TEST_ORIGIN}/`))).toMatchObject({ code: 404 });
    const bad = await t.rest('POST', '/v1/urls/published', { body: { url: 'not a url' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/url/);
    expect((await t.rest('POST', '/v1/urls/published', { body: { url: docs, visitor: 'x' } })).status).toBe(400);
  });

  it('answers the same through GraphQL, for anyone', async () => {
    const query = `query ($url: String!) { publishedUrlLookup(url: $url) { __typename ... on PublishedUrlContent { spaceId complete pathname apiToken } ... on PublishedUrlRedirect { target } } }`;
    const { body } = await t.graphql(query, { url: `${docs}/install` });
    expect(body.data.publishedUrlLookup).toMatchObject({ __typename: 'PublishedUrlContent', spaceId: spaces['Getting started'], complete: false, pathname: 'install' });
    const shared = new URL(`${TEST_ORIGIN}${demo.sites[1].path}`);
    shared.search = '';
    expect((await t.graphql(query, { url: shared.toString() })).body.data.publishedUrlLookup).toMatchObject({ __typename: 'PublishedUrlRedirect', target: 'application' });
    const missing = await t.graphql(query, { url: `${TEST_ORIGIN}/sites/${demo.organizationId}/nowhere` });
    expect(missing.body.data.publishedUrlLookup).toBeNull();
  });

  it('answers the deprecated GET alike', async () => {
    const { data } = await anonymous.urls.getPublishedContentByUrl({ url: docs });
    validateResponse('GET', `/v1/urls/published?url=${encodeURIComponent(docs)}`, 200, data);
    expect(content(data).space).toBe(spaces['Getting started']);
  });
});

describe('URL lookup of restricted sites', () => {
  it('sends a share-link site without its key to the application, and resolves it with the key in the query or the path', async () => {
    const shared = new URL(`${TEST_ORIGIN}${demo.sites[1].path}`);
    const key = shared.searchParams.get('shareKey')!;
    shared.search = '';
    const bare = await lookup(`${shared}/overview`);
    expect(bare).toMatchObject({ target: 'application' });

    const inQuery = content(await lookup(`${shared}/overview?shareKey=${key}`));
    expect(inQuery).toMatchObject({ shareKey: key, space: spaces['API reference'], pathname: 'overview' });
    const inPath = content(await lookup(`${shared}/${key}/overview`));
    expect(inPath).toMatchObject({ shareKey: key, pathname: 'overview', siteBasePath: `${shared.pathname}/${key}/` });
    expect(await lookup(`${shared}/not-a-key/overview`)).toMatchObject({ target: 'application' });
  });

  it('sends a visitor-auth site without a token to its sign-in page, refuses a forged token, and resolves a signed one', async () => {
    const org = demo.organizationId;
    const { data: site } = await admin.orgs.createSite(org, { title: 'Members only', spaces: [spaces['API reference']] } as never);
    await admin.orgs.updateSiteById(org, site.id, { visibility: 'visitor-auth', basename: 'members' } as never);
    await admin.orgs.publishSite(org, site.id);
    const auth = (await t.rest('PATCH', `/v1/orgs/${org}/sites/${site.id}/publishing/auth`, { token: demo.token, body: { fallbackURL: 'https://login.example.com/start' } })).body;
    const url = `${TEST_ORIGIN}/sites/${org}/members/overview`;

    const redirect = await lookup(url);
    expect(redirect).toMatchObject({ target: 'external' });
    const target = new URL((redirect as { redirect: string }).redirect);
    expect(target.origin + target.pathname).toBe('https://login.example.com/start');
    expect(target.searchParams.get('location')).toBe(url);

    const forged = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode('not the key'));
    expect(await refusal(lookup(url, { jwtToken: forged }))).toMatchObject({ code: 401 });
    expect(await lookup(url, { jwtToken: forged }, true)).toMatchObject({ target: 'external' });

    const signed = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(auth.privateKey));
    const found = content(await lookup(url, { jwtToken: signed }));
    expect(found).toMatchObject({ site: site.id, space: spaces['API reference'], pathname: 'overview' });
    expect(found.contextId).toBeTruthy();
    // The site's token reads it, whatever the site's visibility.
    const reader = new GitBookAPI({ endpoint: server.url, authToken: found.apiToken });
    const { data: published } = await reader.orgs.getPublishedContentSite(org, site.id);
    validateResponse('GET', `/v1/orgs/${org}/sites/${site.id}/published`, 200, published);
    expect(published.site.id).toBe(site.id);
  });
});

describe('the site token a lookup gives', () => {
  let token: string;
  let reader: GitBookAPI;
  let siteId: string;
  beforeAll(async () => {
    const found = content(await lookup(docs));
    token = found.apiToken;
    siteId = found.site;
    reader = new GitBookAPI({ endpoint: server.url, authToken: token });
  });

  it("reads the site's published data and the spaces it publishes: space, revision, pages, files, search", async () => {
    const { data: published } = await reader.orgs.getPublishedContentSite(demo.organizationId, siteId);
    validateResponse('GET', `/v1/orgs/${demo.organizationId}/sites/${siteId}/published`, 200, published);
    expect(published.customizations.site).toMatchObject({ socialAccounts: [], pageActions: { items: ['external-ai', 'markdown'] } });
    const guide = spaces['Getting started'];
    const { data: space } = await reader.spaces.getSpaceById(guide);
    expect(space.title).toBe('Getting started');
    const { data: revision } = await reader.spaces.getCurrentRevision(guide);
    expect(revision.pages.map((p) => p.title)).toEqual(['Welcome', 'Install', 'Configuration']);
    const { data: same } = await reader.spaces.getRevisionById(guide, revision.id);
    expect(same.id).toBe(revision.id);
    const { data: files } = await reader.spaces.listFiles(guide);
    expect(files.items.map((f) => f.name)).toEqual(['quire-logo.svg']);
    const { data: page } = await reader.spaces.getPageById(guide, revision.pages[0].id, { format: 'markdown' } as never);
    expect(page.title).toBe('Welcome');
    const { data: hits } = await reader.spaces.searchSpaceContent(guide, { query: 'install' });
    expect(hits.items.length).toBeGreaterThan(0);
    const { data: api } = await reader.spaces.getSpaceById(spaces['API reference']);
    expect(api.title).toBe('API reference');
  });

  it('cannot read a private space of the same organization, another site, the organization, or list anything', async () => {
    expect(await refusal(reader.spaces.getSpaceById(spaces.Drafts))).toMatchObject({ code: 404 });
    expect(await refusal(reader.spaces.getCurrentRevision(spaces.Drafts))).toMatchObject({ code: 404 });
    const sites = (await t.rest('GET', `/v1/orgs/${demo.organizationId}/sites`, { token: demo.token })).body.items as { id: string }[];
    const other = sites.find((s) => s.id !== siteId)!;
    expect(await refusal(reader.orgs.getPublishedContentSite(demo.organizationId, other.id))).toMatchObject({ code: 404 });
    expect(await refusal(reader.orgs.getSiteById(demo.organizationId, siteId))).toMatchObject({ code: 404 });
    expect(await refusal(reader.orgs.getOrganizationById(demo.organizationId))).toMatchObject({ code: 404 });
    expect(await refusal(reader.orgs.listSpacesInOrganizationById(demo.organizationId))).toMatchObject({ code: 404 });
    expect(await refusal(reader.user.getAuthenticatedUser())).toMatchObject({ code: 404 });
  });

  it('writes nothing: every change answers 403, and GraphQL refuses the token', async () => {
    const guide = spaces['Getting started'];
    expect(await refusal(reader.spaces.updateSpaceById(guide, { title: 'Hijacked' }))).toMatchObject({ code: 403 });
    expect(await refusal(reader.orgs.createSpace(demo.organizationId, { title: 'New' } as never))).toMatchObject({ code: 403 });
    expect(await refusal(reader.spaces.deleteSpaceById(guide))).toMatchObject({ code: 403 });
    expect((await t.rest('GET', `/v1/spaces/${guide}`, { token: demo.token })).body.title).toBe('Getting started');
    const graphql = await t.graphql('{ viewer { id } }', {}, token);
    expect(graphql.status).toBe(401);
  });

  it('answers 401 to a forged or expired token, and to one of a site since unpublished', async () => {
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    expect((await t.rest('GET', `/v1/spaces/${spaces['Getting started']}`, { token: forged })).status).toBe(401);
    t.clock.now = new Date(Date.now() + 2 * 60 * 60 * 1000);
    try {
      expect((await t.rest('GET', `/v1/spaces/${spaces['Getting started']}`, { token })).status).toBe(401);
    } finally {
      t.clock.now = null;
    }
    const org = demo.organizationId;
    const { data: site } = await admin.orgs.createSite(org, { title: 'Short-lived', spaces: [spaces['API reference']] } as never);
    await admin.orgs.publishSite(org, site.id);
    const own = content(await lookup(`${TEST_ORIGIN}/sites/${org}/${site.id}`)).apiToken;
    expect((await t.rest('GET', `/v1/spaces/${spaces['API reference']}`, { token: own })).status).toBe(200);
    await admin.orgs.unpublishSite(org, site.id);
    expect((await t.rest('GET', `/v1/spaces/${spaces['API reference']}`, { token: own })).status).toBe(401);
  });
});

describe("the published URLs of the demo site's spaces", () => {
  it('each serves its own space, where the site structure says', async () => {
    const site = content(await lookup(docs)).site;
    const { data: listed } = await admin.orgs.listSiteSpaces(demo.organizationId, site);
    expect(listed.items).toHaveLength(2);
    for (const siteSpace of listed.items) {
      const url = siteSpace.urls.published!;
      const page = await t.app.fetch(new Request(url));
      expect(page.status, url).toBe(200);
      const html = await page.text();
      const first = siteSpace.space.title === 'Getting started' ? 'Welcome' : 'Overview';
      expect(html, url).toContain(`<title>${first} |`);
      expect(content(await lookup(url)).space).toBe(siteSpace.space.id);
    }
    const { data: structure } = await admin.orgs.getSiteStructure(demo.organizationId, site);
    const sections = structure.structure as { default: boolean; urls: { published?: string } }[];
    expect(sections.map((s) => s.urls.published)).toEqual([docs, `${docs}/${(structure.structure[1] as { path: string }).path}`]);
  });
});
