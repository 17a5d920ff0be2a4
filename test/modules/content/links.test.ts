import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentBench, type ContentBench } from '../../support/change-requests';
import { png } from '../../support/png';

/** Links between pages, to files and to the web, listed for a space, a page, a file and a change request. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader', Actor>;
let b: ContentBench;
let ids: Record<string, string>;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Reader'] }));
  b = await contentBench(() => t, () => acme, [
    { title: 'Home', markdown: 'See [the guide](guide) and [the guide again](./guide#setup), [our site](https://example.com/) and ![logo](logo.png).' },
    { title: 'Guide', markdown: 'Back [home](home). A [dead link](nowhere) and [another dead one](missing/page).' },
    { title: 'Plain', markdown: 'No links here.' },
  ]);
  await b.space.upload('logo.png', png(8, 8));
  await b.space.update('Plain', { markdown: 'The ![logo](logo.png) again.' });
  const pages = await b.pagesByTitle();
  const files = await t.rest('GET', `/v1/spaces/${b.spaceId}/content/files`, { token: acme.admin.token });
  ids = { home: pages.Home.id, guide: pages.Guide.id, plain: pages.Plain.id, logo: files.body.items[0].id };
});
afterAll(() => t?.close());

const where = (usage: any) => usage.locationReferences.map((l: any) => l.page.title);
const target = (usage: any) => (usage.targetReference?.kind === 'page' ? `page:${usage.targetReference.page.title}` : usage.targetReference?.kind === 'file' ? `file:${usage.targetReference.file.name}` : `url:${usage.targetReference?.url}`);

describe('links', () => {
  it('lists every link of the space, grouped by target, with stats and a status filter', async () => {
    const res = await t.rest('GET', `/v1/spaces/${b.spaceId}/links`, { token: people.reader.token });
    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual({ total: 8, broken: { total: 2 } });
    const summary = res.body.items.map((u: any) => [target(u), u.relation, u.status, where(u)]);
    expect(summary).toEqual([
      ['page:Guide', 'reference', 'ok', ['Home']],
      ['page:Guide', 'reference', 'ok', ['Home']],
      ['url:https://example.com/', 'reference', 'ok', ['Home']],
      ['file:logo.png', 'dependsOn', 'ok', ['Home', 'Plain']],
      ['page:Home', 'reference', 'ok', ['Guide']],
      ['url:nowhere', 'reference', 'broken', ['Guide']],
      ['url:missing/page', 'reference', 'broken', ['Guide']],
    ]);
    const broken = await t.rest('GET', `/v1/spaces/${b.spaceId}/links?status=broken&limit=1`, { token: people.reader.token });
    expect(broken.body.items.map(target)).toEqual(['url:nowhere']);
    const rest = await t.rest('GET', `/v1/spaces/${b.spaceId}/links?status=broken&limit=1&page=${broken.body.next.page}`, { token: people.reader.token });
    expect(rest.body.items.map(target)).toEqual(['url:missing/page']);
    expect((await t.rest('GET', `/v1/spaces/${b.spaceId}/links?status=dead`, { token: people.reader.token })).status).toBe(400);
  });

  it('lists the links of one page, and the pages that use a file', async () => {
    const page = await t.rest('GET', `/v1/spaces/${b.spaceId}/content/page/${ids.guide}/links`, { token: people.reader.token });
    expect(page.body.items.map(target)).toEqual(['page:Home', 'url:nowhere', 'url:missing/page']);
    expect(page.body.stats).toEqual({ total: 3, broken: { total: 2 } });
    const backlinks = await t.rest('GET', `/v1/spaces/${b.spaceId}/content/files/${ids.logo}/backlinks`, { token: people.reader.token });
    expect(backlinks.body.items.map((l: any) => [l.kind, l.page.title, l.space.id])).toEqual([
      ['page', 'Home', b.spaceId],
      ['page', 'Plain', b.spaceId],
    ]);
    expect((await t.rest('GET', `/v1/spaces/${b.spaceId}/content/page/doesNotExist00000000/links`, { token: people.reader.token })).status).toBe(404);
    expect((await t.rest('GET', `/v1/spaces/${b.spaceId}/content/files/doesNotExist00000000/backlinks`, { token: people.reader.token })).status).toBe(404);
    expect((await t.rest('GET', `/v1/spaces/${b.spaceId}/links`, { token: other.admin.token })).status).toBe(404);
  });

  it('answers a change request its own links and backlinks', async () => {
    const cr = await b.openChangeRequest('Fix links');
    await b.editor(cr).update('Guide', { markdown: 'Back [home](home). The ![logo](logo.png) too.' });
    const links = await t.rest('GET', `/v1/spaces/${b.spaceId}/change-requests/${cr.id}/content/page/${ids.guide}/links`, { token: people.reader.token });
    expect(links.body.items.map(target)).toEqual(['page:Home', 'file:logo.png']);
    expect(links.body.stats).toEqual({ total: 2, broken: { total: 0 } });
    const backlinks = await t.rest('GET', `/v1/spaces/${b.spaceId}/change-requests/${cr.number}/content/files/${ids.logo}/backlinks`, { token: people.reader.token });
    expect(backlinks.body.items.map((l: any) => l.page.title)).toEqual(['Home', 'Guide', 'Plain']);
    // The space itself is unchanged.
    expect((await t.rest('GET', `/v1/spaces/${b.spaceId}/links`, { token: people.reader.token })).body.stats.broken.total).toBe(2);
  });
});
