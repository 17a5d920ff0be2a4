import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoIfEmpty, type DemoData } from '../../src/app/seed';
import { startTestApp, type TestApp } from '../support/clients';

let t: TestApp;
let demo: DemoData;
beforeAll(async () => {
  t = await startTestApp();
  demo = (await seedDemoIfEmpty(t.db))!;
});
afterAll(() => t.close());

it('creates a demo organization with a collection, spaces and grants, once', async () => {
  const token = demo.token;
  const collections = await t.rest('GET', `/v1/orgs/${demo.organizationId}/collections`, { token });
  expect(collections.body.items.map((c: any) => c.title)).toEqual(['Handbook']);
  const spaces = await t.rest('GET', `/v1/orgs/${demo.organizationId}/spaces`, { token });
  expect(spaces.body.items.map((s: any) => s.title)).toEqual(['Getting started', 'Drafts', 'API reference']);
  const drafts = spaces.body.items[1];
  expect(drafts).toMatchObject({ parent: collections.body.items[0].id, visibility: 'in-collection', defaultLevel: null });
  const teams = await t.rest('GET', `/v1/spaces/${drafts.id}/permissions/teams`, { token });
  expect(teams.body.items.map((i: any) => [i.team.title, i.permission])).toEqual([['Writers', 'edit']]);
  expect(await seedDemoIfEmpty(t.db)).toBeNull();
});

it('gives the demo spaces real pages, an open change request and two published sites', async () => {
  const token = demo.token;
  const spaces = (await t.rest('GET', `/v1/orgs/${demo.organizationId}/spaces`, { token })).body.items;
  const guide = spaces.find((s: any) => s.title === 'Getting started');
  const pages = await t.rest('GET', `/v1/spaces/${guide.id}/content/pages`, { token });
  expect(pages.body.pages.map((p: any) => p.title)).toEqual(['Welcome', 'Install', 'Configuration']);
  expect(pages.body.pages[2].markdown).toContain('| `PORT` |');
  const links = await t.rest('GET', `/v1/spaces/${guide.id}/links`, { token });
  expect(links.body.stats.broken.total).toBe(1);
  const files = await t.rest('GET', `/v1/spaces/${guide.id}/content/files`, { token });
  expect(files.body.items.map((f: any) => [f.name, f.contentType])).toEqual([['quire-logo.svg', 'image/svg+xml']]);
  const backlinks = await t.rest('GET', `/v1/spaces/${guide.id}/content/files/${files.body.items[0].id}/backlinks`, { token });
  expect(backlinks.body.items.map((l: any) => l.page.title)).toEqual(['Welcome']);

  const crs = await t.rest('GET', `/v1/spaces/${guide.id}/change-requests`, { token });
  expect(crs.body.items.map((c: any) => [c.subject, c.status])).toEqual([['Explain upgrades', 'open']]);
  const proposed = await t.rest('GET', `/v1/spaces/${guide.id}/change-requests/1/content/pages`, { token });
  expect(proposed.body.pages.map((p: any) => p.title)).toEqual(['Welcome', 'Install', 'Configuration', 'Upgrading']);

  const sites = await t.rest('GET', `/v1/orgs/${demo.organizationId}/sites`, { token });
  expect(sites.body.items.map((s: any) => [s.title, s.visibility, s.published])).toEqual([
    ['Demo documentation', 'public', true],
    ['Partner preview', 'share-link', true],
  ]);
  const structure = await t.rest('GET', `/v1/orgs/${demo.organizationId}/sites/${sites.body.items[0].id}/structure`, { token });
  expect(structure.body.structure.map((s: any) => [s.title, s.siteSpaces.map((v: any) => v.space.title)])).toEqual([
    ['Guides', ['Getting started']],
    ['API reference', ['API reference']],
  ]);
  const shareLinks = await t.rest('GET', `/v1/orgs/${demo.organizationId}/sites/${sites.body.items[1].id}/share-links`, { token });
  expect(shareLinks.body.items.map((l: any) => l.name)).toEqual(['Partners']);

  // The sites the first start prints open for a reader with no token, the share-link one with its key only.
  expect(demo.sites.map((s) => s.title)).toEqual(['Demo documentation', 'Partner preview (share link)']);
  for (const site of demo.sites) {
    const page = await t.app.fetch(new Request(`http://localhost${site.path}`));
    expect(page.status, site.path).toBe(200);
    expect(await page.text()).toContain('<h1');
  }
  const withoutKey = await t.app.fetch(new Request(`http://localhost${demo.sites[1].path.replace(/\?.*$/, '')}`));
  expect(withoutKey.status).toBe(401);

  // Search finds the demo's words, grouped by space.
  const found = await t.rest('GET', `/v1/orgs/${demo.organizationId}/search?query=revisions`, { token });
  expect(found.body.items.map((s: any) => [s.title, s.pages.map((p: any) => p.title)])).toEqual([['Getting started', ['Welcome']]]);
});

it('starts a discussion on the Welcome page: a reply, a reaction and a resolved thread', async () => {
  const token = demo.token;
  const spaces = (await t.rest('GET', `/v1/orgs/${demo.organizationId}/spaces`, { token })).body.items;
  const guide = spaces.find((s: any) => s.title === 'Getting started');
  expect(guide.comments).toBe(1);
  const list = await t.rest('GET', `/v1/spaces/${guide.id}/comments?order=asc&format=markdown`, { token });
  expect(list.body.items.map((c: any) => [c.target.page.title, c.status, c.replies, c.reactions.map((r: any) => r.emoji)])).toEqual([
    ['Welcome', 'open', 1, ['👍']],
    ['Welcome', 'resolved', 0, []],
  ]);
});
