import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN } from '../support/clients';
import { RendererWalk, type Rendered } from '../support/renderer-walk';
import { servedDemo, type ServedDemo } from '../support/served';

/**
 * One page as the platform's open-source renderer reads it, call after call in its order, through
 * the official client over real HTTP, on the demo's sites and a visitor-auth site: every answer is
 * held to the spec as it arrives (RendererWalk), and the calls are read back as a request log.
 */
let s: ServedDemo;
let walk: RendererWalk;
let org: string;

beforeAll(async () => {
  s = await servedDemo();
  walk = new RendererWalk(s.url);
  org = s.demo.organizationId;
});
afterAll(async () => {
  await s?.close();
});

const page = (rendered: Rendered) => {
  if (rendered.kind !== 'page') throw new Error(`expected a page, got ${JSON.stringify(rendered)}`);
  return rendered;
};
const sorted = (lines: string[]) => [...lines].sort();
/** The lookups of a walk: one POST per shortened form, at once. */
const lookupCalls = (count: number) => Array.from({ length: count }, () => 'POST /v1/urls/published');

describe('a page of the public site', () => {
  it('walks a page of the second section: the lookups at once, the site and space, the revision, meta links, the document', async () => {
    const { data: structure } = await s.admin.orgs.getSiteStructure(org, (await s.admin.orgs.listSites(org)).data.items.find((x) => x.title === 'Demo documentation')!.id);
    const section = structure.structure[1] as { path: string; id: string };
    const url = `${s.docs}/${section.path}/authentication`;
    const from = walk.calls.length;
    const rendered = page(await walk.render(url));
    expect(walk.mismatches).toEqual([]);

    // The host, then one to four segments (/sites/<org>/docs/<section>, primary, leaving "authentication").
    expect(walk.lookups.map((l) => [new URL(l.form.url).pathname, l.form.extraPath, l.status])).toEqual([
      ['/', `sites/${org}/docs/${section.path}/authentication`, 404],
      ['/sites', `${org}/docs/${section.path}/authentication`, 404],
      [`/sites/${org}`, `docs/${section.path}/authentication`, 404],
      [`/sites/${org}/docs`, `${section.path}/authentication`, 200],
      [`/sites/${org}/docs/${section.path}`, 'authentication', 200],
    ]);
    // No shortened form says complete: the renderer keeps the primary one, the section's.
    expect(walk.lookups.filter((l) => l.answer && 'complete' in l.answer && l.answer.complete)).toEqual([]);
    expect(rendered.lookup).toMatchObject({ siteSection: section.id, space: s.spaces['API reference'], pathname: 'authentication' });
    expect(rendered.title).toBe('Authentication');
    expect(JSON.stringify(rendered.document)).toContain('Authorization: Bearer');
    expect(rendered.metaLinks).toEqual({ alternates: [] });

    // The token lives an hour, well past the renderer's two-minute margin.
    const { exp } = decodeJwt(rendered.lookup.apiToken);
    expect(exp! - Date.now() / 1000).toBeGreaterThan(3500);
    expect(exp! - Date.now() / 1000).toBeLessThanOrEqual(3600);

    const { site, space, revision } = rendered.lookup;
    const log = walk.log(from);
    expect(sorted(log.slice(0, 5))).toEqual(sorted([...lookupCalls(3).map((c) => `${c} 404`), ...lookupCalls(2).map((c) => `${c} 200`)]));
    expect(sorted(log.slice(5, 7))).toEqual(sorted([`GET /v1/orgs/${org}/sites/${site}/published 200`, `GET /v1/spaces/${space} 200`]));
    expect(log.slice(7)).toEqual([
      `GET /v1/spaces/${space}/revisions/${revision}?metadata=true 200`,
      `GET /v1/spaces/${space}/revisions/${revision}/page/${rendered.pageId}/meta-links 200`,
      `GET /v1/spaces/${space}/revisions/${revision}/page/${rendered.pageId}/document?evaluated=deterministic-only&dereferenced=reusable-contents 200`,
    ]);
  });

  it("misses a URL naming the section's variant too: the renderer's four segments stop at the section on /sites/<org>/<site>", async () => {
    const site = (await s.admin.orgs.listSites(org)).data.items.find((x) => x.title === 'Demo documentation')!.id;
    const { data: structure } = await s.admin.orgs.getSiteStructure(org, site);
    const section = structure.structure[1] as { path: string; siteSpaces: { path: string }[] };
    const variant = section.siteSpaces[0].path;
    const url = `${s.docs}/${section.path}/${variant}/authentication`;
    const from = walk.calls.length;
    const rendered = await walk.render(url);
    expect(walk.mismatches).toEqual([]);
    // The full URL, which the lookup would answer complete, is never asked for.
    expect(walk.lookups.map((l) => l.form.url)).not.toContain(url);
    expect(walk.lookups.filter((l) => l.answer && 'complete' in l.answer && l.answer.complete)).toEqual([]);
    // The variant's segment stays in the page's path, which neither a site redirect nor the path route knows.
    expect(rendered).toMatchObject({ kind: 'missing', status: 404, lookup: { pathname: `${variant}/authentication` } });
    expect(walk.log(from).slice(-2).map((line) => line.replace(/\?.*? /, ' ').split(' ').at(-1))).toEqual(['404', '404']);
    // Links the renderer builds carry no variant (the default variant is at the section's root): only such a pasted URL misses.
    expect(page(await walk.render(`${s.docs}/${section.path}/authentication`)).title).toBe('Authentication');
  });

  it('renders the site root as its first page', async () => {
    const rendered = page(await walk.render(s.docs));
    expect(walk.mismatches).toEqual([]);
    expect(rendered.lookup).toMatchObject({ space: s.spaces['Getting started'], pathname: '' });
    expect(rendered.title).toBe('Welcome');
  });
});

describe("the site's customization", () => {
  it('reaches the renderer for the site and each of its site spaces, the defaults until one is saved', async () => {
    const before = page(await walk.render(`${s.docs}/install`));
    const siteSpaces = Object.keys(before.published.customizations.siteSpaces);
    expect(siteSpaces).toContain(before.lookup.siteSpace);
    expect(siteSpaces).toHaveLength(2);
    expect(before.published.customizations.site.styling.primaryColor).toEqual({ light: '#346DDB', dark: '#346DDB' });

    const { site } = before.lookup;
    const { data: saved } = await s.admin.orgs.getSiteCustomizationById(org, site);
    await s.admin.orgs.updateSiteCustomizationById(org, site, { ...saved, styling: { ...saved.styling, primaryColor: { light: '#0B7A75', dark: '#5EEAD4' } } } as never);
    const after = page(await walk.render(`${s.docs}/install`));
    expect(walk.mismatches).toEqual([]);
    expect(after.published.customizations.site.styling.primaryColor).toEqual({ light: '#0B7A75', dark: '#5EEAD4' });
    for (const id of siteSpaces) expect(after.published.customizations.siteSpaces[id].styling.primaryColor, id).toEqual({ light: '#0B7A75', dark: '#5EEAD4' });
  });
});

describe('a share-link site', () => {
  it('without its key, the lookup answers the redirect to the application and nothing else is read', async () => {
    const shared = new URL(`${TEST_ORIGIN}${s.demo.sites[1].path}`);
    shared.search = '';
    const from = walk.calls.length;
    // The renderer drops the query: a key in ?shareKey= never reaches the lookup.
    const rendered = await walk.render(`${shared}/overview?shareKey=${new URL(`${TEST_ORIGIN}${s.demo.sites[1].path}`).searchParams.get('shareKey')}`);
    expect(walk.mismatches).toEqual([]);
    expect(rendered).toMatchObject({ kind: 'redirect', target: 'application' });
    expect(walk.log(from).every((line) => line.startsWith('POST /v1/urls/published'))).toBe(true);
  });

  it('with its key as the first segment after the site, the walk reads the page', async () => {
    const shared = new URL(`${TEST_ORIGIN}${s.demo.sites[1].path}`);
    const key = shared.searchParams.get('shareKey')!;
    shared.search = '';
    const from = walk.calls.length;
    const rendered = page(await walk.render(`${shared}/${key}/authentication`));
    expect(walk.mismatches).toEqual([]);
    expect(rendered.lookup).toMatchObject({ shareKey: key, space: s.spaces['API reference'], pathname: 'authentication' });
    expect(rendered.title).toBe('Authentication');
    const { site, space } = rendered.lookup;
    expect(walk.log(from)).toEqual(expect.arrayContaining([`GET /v1/orgs/${org}/sites/${site}/published?shareKey=${key} 200`, `GET /v1/spaces/${space}?shareKey=${key} 200`]));
    expect(walk.log(from).filter((line) => !line.startsWith('POST') && !line.endsWith(' 200'))).toEqual([]);
  });
});

describe('a visitor-auth site', () => {
  let url: string;
  let privateKey: string;
  beforeAll(async () => {
    const { data: site } = await s.admin.orgs.createSite(org, { title: 'Members only', spaces: [s.spaces['API reference']] } as never);
    await s.admin.orgs.updateSiteById(org, site.id, { visibility: 'visitor-auth', basename: 'members' } as never);
    await s.admin.orgs.publishSite(org, site.id);
    privateKey = (await s.t.rest('PATCH', `/v1/orgs/${org}/sites/${site.id}/publishing/auth`, { token: s.demo.token, body: { fallbackURL: 'https://login.example.com/start' } })).body.privateKey;
    url = `${TEST_ORIGIN}/sites/${org}/members/authentication`;
  });

  it('without a visitor token, the lookup sends to the sign-in page', async () => {
    const rendered = await walk.render(url);
    expect(walk.mismatches).toEqual([]);
    expect(rendered).toMatchObject({ kind: 'redirect', target: 'external' });
    const target = new URL((rendered as { redirect: string }).redirect);
    expect(`${target.origin}${target.pathname}`).toBe('https://login.example.com/start');
    expect(target.searchParams.get('location')).toBe(url);
  });

  it("with a visitor JWT signed with the site's key, the walk reads the page; a forged one is refused", async () => {
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode('not the key'));
    expect(await walk.render(url, { jwtToken: forged })).toMatchObject({ kind: 'missing', status: 401 });
    const signed = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(privateKey));
    const from = walk.calls.length;
    const rendered = page(await walk.render(url, { jwtToken: signed }));
    expect(walk.mismatches).toEqual([]);
    expect(rendered.title).toBe('Authentication');
    expect(rendered.lookup.contextId).toBeTruthy();
    expect(walk.log(from).filter((line) => !line.startsWith('POST') && !line.endsWith(' 200'))).toEqual([]);
  });
});

describe('a missing URL', () => {
  it('a URL no site publishes: every lookup answers 404 and nothing else is read', async () => {
    const from = walk.calls.length;
    const rendered = await walk.render(`${TEST_ORIGIN}/sites/${org}/nowhere/page`);
    expect(walk.mismatches).toEqual([]);
    expect(rendered).toEqual({ kind: 'missing', status: 404 });
    expect(walk.log(from)).toEqual(lookupCalls(5).map((c) => `${c} 404`));
  });

  it('a missing page of a published site: no redirect, and the path lookup answers 404', async () => {
    const from = walk.calls.length;
    const rendered = await walk.render(`${s.docs}/no-such-page`);
    expect(walk.mismatches).toEqual([]);
    expect(rendered).toMatchObject({ kind: 'missing', status: 404 });
    const { site, space, revision } = (rendered as { lookup: { site: string; space: string; revision: string } }).lookup;
    expect(walk.log(from).slice(-3)).toEqual([
      `GET /v1/spaces/${space}/revisions/${revision}?metadata=true 200`,
      `GET /v1/orgs/${org}/sites/${site}/redirect?source=%2Fno-such-page 404`,
      `GET /v1/spaces/${space}/revisions/${revision}/path/no-such-page 404`,
    ]);
  });
});
