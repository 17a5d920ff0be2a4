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

it('fills the demo spaces with pages that search, links and backlinks have something to show', async () => {
  const token = demo.token;
  const spaces = await t.rest('GET', `/v1/orgs/${demo.organizationId}/spaces`, { token });
  const [gettingStarted, , api] = spaces.body.items;
  const pages = await t.rest('GET', `/v1/spaces/${gettingStarted.id}/content/pages`, { token });
  expect(pages.body.pages.map((p: any) => p.title)).toEqual(['Welcome', 'Install', 'Configuration']);
  const install = pages.body.pages[1];
  expect(install.markdown).toContain('| Node.js | 20 | always |');
  expect(install.markdown).toContain('```bash');

  const files = await t.rest('GET', `/v1/spaces/${gettingStarted.id}/content/files`, { token });
  expect(files.body.items).toEqual([expect.objectContaining({ name: 'logo.png', contentType: 'image/png', dimensions: { width: 48, height: 48 } })]);
  const image = await t.app.fetch(new Request(files.body.items[0].downloadURL));
  expect(image.status).toBe(200);
  const backlinks = await t.rest('GET', `/v1/spaces/${gettingStarted.id}/content/files/${files.body.items[0].id}/backlinks`, { token });
  expect(backlinks.body.items.map((l: any) => l.page.title)).toEqual(['Welcome']);

  const links = await t.rest('GET', `/v1/spaces/${gettingStarted.id}/links`, { token });
  expect(links.body.stats.broken).toEqual({ total: 1 });
  const broken = await t.rest('GET', `/v1/spaces/${gettingStarted.id}/links?status=broken`, { token });
  expect(broken.body.items.map((u: any) => u.locationReferences.map((l: any) => l.page.title))).toEqual([['Welcome']]);

  const found = await t.rest('GET', `/v1/orgs/${demo.organizationId}/search?query=search`, { token });
  expect(found.body.items.map((s: any) => [s.title, s.pages.map((p: any) => p.title)])).toEqual(
    expect.arrayContaining([
      ['Getting started', ['Configuration']],
      ['API reference', ['Endpoints']],
    ]),
  );
  expect(api.title).toBe('API reference');
});

it('leaves one open change request with an edit of the install page', async () => {
  const token = demo.token;
  const spaces = await t.rest('GET', `/v1/orgs/${demo.organizationId}/spaces`, { token });
  const gettingStarted = spaces.body.items[0];
  const list = await t.rest('GET', `/v1/spaces/${gettingStarted.id}/change-requests`, { token });
  expect(list.body.items.map((c: any) => [c.subject, c.status])).toEqual([['Mention Docker in the install guide', 'open']]);
  const pages = await t.rest('GET', `/v1/spaces/${gettingStarted.id}/change-requests/${list.body.items[0].id}/content/pages`, { token });
  expect(pages.body.pages[1].markdown).toContain('## With Docker');
  const live = await t.rest('GET', `/v1/spaces/${gettingStarted.id}/content/pages`, { token });
  expect(live.body.pages[1].markdown).not.toContain('Docker');
});
