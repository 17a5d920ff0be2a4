import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentHelpers } from '../../support/content';

/** Sites, their spaces and share links through /v1; every answer is checked against the official spec. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'creator' | 'editor' | 'reader' | 'guest', Actor>;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ creator: ['create', 'Cora Create'], editor: ['edit', 'Eddie Edit'], reader: ['read', 'Rita Read'], guest: [null, 'Gus Guest'] }));
});
afterAll(() => t?.close());

const { newSpace } = contentHelpers(() => t, () => acme);
const sitesPath = (org = acme) => `/v1/orgs/${org.organizationId}/sites`;

async function newSite(body: Record<string, unknown> = {}, token = acme.admin.token) {
  const res = await t.rest('POST', sitesPath(), { token, body: { title: 'Docs site', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('sites', () => {
  it('creates a basic public site from spaces, with the first as default, and reads it back', async () => {
    const a = await newSpace({ title: 'User Guide' });
    const b = await newSpace({ title: 'User Guide' });
    const site = await newSite({ spaces: [a.id, b.id] }, people.creator.token);
    expect(site).toMatchObject({ object: 'site', type: 'basic', visibility: 'public', published: false, siteSpaces: 2, features: [], agentsContext: 'included', adaptiveContent: { enabled: false } });
    const spaces = await t.rest('GET', `${sitesPath()}/${site.id}/site-spaces`, { token: people.reader.token });
    expect(spaces.body.items.map((s: any) => [s.space.id, s.path, s.default])).toEqual([
      [a.id, 'user-guide', true],
      [b.id, 'user-guide-2', false],
    ]);
    const got = await t.rest('GET', `${sitesPath()}/${site.id}`, { token: people.reader.token });
    expect(got.body).toEqual(site);
  });

  it('creates a new space for "empty" and one with sample pages for "sample"', async () => {
    const empty = await newSite({ title: 'Empty one', spaces: 'empty' });
    const sample = await newSite({ title: 'Sample one', spaces: 'sample' });
    for (const [site, pages] of [
      [empty, []],
      [sample, ['Welcome', 'Quickstart', 'Reference']],
    ] as const) {
      const [siteSpace] = (await t.rest('GET', `${sitesPath()}/${site.id}/site-spaces`, { token: acme.admin.token })).body.items;
      expect(siteSpace.space.title).toBe(site.title);
      const content = await t.rest('GET', `/v1/spaces/${siteSpace.space.id}/content/pages`, { token: acme.admin.token });
      expect(content.body.pages.map((p: any) => p.title)).toEqual(pages);
    }
  });

  it('lists with the space, title, published and type filters, in pages', async () => {
    const space = await newSpace({ title: 'Filtered' });
    const withSpace = await newSite({ title: 'Zeta with space', spaces: [space.id] });
    await newSite({ title: 'Zeta bare' });
    await t.rest('POST', `${sitesPath()}/${withSpace.id}/publish`, { token: acme.admin.token });
    const titles = async (query: string) => (await t.rest('GET', `${sitesPath()}?${query}`, { token: people.reader.token })).body.items.map((s: any) => s.title);
    expect(await titles(`space=${space.id}`)).toEqual(['Zeta with space']);
    expect(await titles('title=zeta')).toEqual(['Zeta with space', 'Zeta bare']);
    expect(await titles('title=zeta&published=true')).toEqual(['Zeta with space']);
    expect(await titles('title=zeta&published=false')).toEqual(['Zeta bare']);
    expect(await titles('title=zeta&type=premium')).toEqual([]);
    expect(await titles('title=zeta&type=basic&type=premium')).toEqual(['Zeta with space', 'Zeta bare']);
    const first = await t.rest('GET', `${sitesPath()}?title=zeta&limit=1`, { token: people.reader.token });
    const second = await t.rest('GET', `${sitesPath()}?title=zeta&limit=1&page=${first.body.next.page}`, { token: people.reader.token });
    expect([...first.body.items, ...second.body.items].map((s: any) => s.title)).toEqual(['Zeta with space', 'Zeta bare']);
    expect((await t.rest('GET', `${sitesPath()}?type=fancy`, { token: people.reader.token })).status).toBe(400);
    expect((await t.rest('GET', `${sitesPath()}?published=maybe`, { token: people.reader.token })).status).toBe(400);
  });

  it('keeps basenames unique within the organization, and validates the proxy', async () => {
    const one = await newSite({ title: 'One' });
    const two = await newSite({ title: 'Two' });
    expect((await t.rest('PATCH', `${sitesPath()}/${one.id}`, { token: acme.admin.token, body: { basename: 'api' } })).body.basename).toBe('api');
    const clash = await t.rest('PATCH', `${sitesPath()}/${two.id}`, { token: acme.admin.token, body: { basename: 'api' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error.message).toMatch(/basename/);
    // Another organization may use it.
    const theirs = await t.rest('POST', sitesPath(other), { token: other.admin.token, body: { title: 'Theirs' } });
    expect((await t.rest('PATCH', `${sitesPath(other)}/${theirs.body.id}`, { token: other.admin.token, body: { basename: 'api' } })).status).toBe(200);

    const proxied = await t.rest('PATCH', `${sitesPath()}/${two.id}`, { token: acme.admin.token, body: { proxy: 'company.com/docs' } });
    expect(proxied.body.proxy).toMatchObject({ origin: 'company.com/docs' });
    for (const proxy of ['https://company.com/docs', 'company.com', `company.com/${'a'.repeat(510)}`]) {
      const res = await t.rest('PATCH', `${sitesPath()}/${two.id}`, { token: acme.admin.token, body: { proxy } });
      expect(res.status, proxy).toBe(400);
      expect(res.body.error.message).toMatch(/proxy/);
    }
    expect((await t.rest('PATCH', `${sitesPath()}/${two.id}`, { token: acme.admin.token, body: { proxy: null } })).body.proxy).toBeUndefined();
  });

  it('refuses titles, basenames and names past their limits, writing nothing', async () => {
    const site = await newSite({ title: 'Limits' });
    const cases: [string, string, unknown, number][] = [
      ['POST', sitesPath(), { title: 'x' }, 400],
      ['POST', sitesPath(), { title: 'x'.repeat(129) }, 400],
      ['POST', sitesPath(), { title: 'ok title', visibility: 'secret' }, 400],
      ['POST', sitesPath(), { title: 'ok title', spaces: ['doesNotExist00000000'] }, 400],
      ['PATCH', `${sitesPath()}/${site.id}`, { basename: '' }, 400],
      ['PATCH', `${sitesPath()}/${site.id}`, { basename: 'b'.repeat(101) }, 400],
      ['PATCH', `${sitesPath()}/${site.id}`, { basename: 'has space' }, 400],
      ['POST', `${sitesPath()}/${site.id}/share-links`, { name: 'n'.repeat(51) }, 400],
    ];
    const before = (await t.rest('GET', `${sitesPath()}?limit=1000`, { token: acme.admin.token })).body.items.length;
    for (const [method, path, body, status] of cases) expect((await t.rest(method, path, { token: acme.admin.token, body })).status, JSON.stringify(body)).toBe(status);
    expect((await t.rest('GET', `${sitesPath()}?limit=1000`, { token: acme.admin.token })).body.items.length).toBe(before);
    expect((await t.rest('GET', `${sitesPath()}/${site.id}`, { token: acme.admin.token })).body.basename).toBeUndefined();
    // At the limits themselves, they are taken.
    expect((await t.rest('POST', sitesPath(), { token: acme.admin.token, body: { title: 'x'.repeat(128) } })).status).toBe(201);
    expect((await t.rest('PATCH', `${sitesPath()}/${site.id}`, { token: acme.admin.token, body: { basename: 'b'.repeat(100) } })).status).toBe(200);
    expect((await t.rest('POST', `${sitesPath()}/${site.id}/share-links`, { token: acme.admin.token, body: { name: 'n'.repeat(50) } })).status).toBe(201);
  });

  it('publishes only a site with a space, and deleting the last space takes it offline', async () => {
    const bare = await newSite({ title: 'Bare' });
    expect((await t.rest('POST', `${sitesPath()}/${bare.id}/publish`, { token: acme.admin.token })).status).toBe(400);
    const space = await newSpace({ title: 'Only one' });
    const site = await newSite({ title: 'Live', spaces: [space.id] });
    const published = await t.rest('POST', `${sitesPath()}/${site.id}/publish`, { token: acme.admin.token });
    expect(published.body).toMatchObject({ published: true, urls: { published: expect.stringContaining(site.id) } });
    const [siteSpace] = (await t.rest('GET', `${sitesPath()}/${site.id}/site-spaces`, { token: acme.admin.token })).body.items;
    expect((await t.rest('DELETE', `${sitesPath()}/${site.id}/site-spaces/${siteSpace.id}`, { token: acme.admin.token })).status).toBe(204);
    expect((await t.rest('GET', `${sitesPath()}/${site.id}`, { token: acme.admin.token })).body).toMatchObject({ published: false, siteSpaces: 0 });
    expect((await t.rest('POST', `${sitesPath()}/${site.id}/unpublish`, { token: acme.admin.token })).body.published).toBe(false);
  });
});

describe('site spaces', () => {
  it('adds, renames, conditions and removes spaces; deleting the default picks the next one', async () => {
    const [a, b, c] = [await newSpace({ title: 'A' }), await newSpace({ title: 'B' }), await newSpace({ title: 'C' })];
    const site = await newSite({ title: 'Spaces', spaces: [a.id] });
    const path = `${sitesPath()}/${site.id}/site-spaces`;
    const added = await t.rest('POST', path, { token: people.creator.token, body: { spaceId: b.id } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ object: 'site-space', path: 'b', default: false, space: { id: b.id } });
    await t.rest('POST', path, { token: people.creator.token, body: { spaceId: c.id } });

    const renamed = await t.rest('PATCH', `${path}/${added.body.id}`, { token: acme.admin.token, body: { path: 'beta', condition: 'visitor.claims.plan == "pro"' } });
    expect(renamed.body).toMatchObject({ path: 'beta', condition: 'visitor.claims.plan == "pro"' });
    const taken = await t.rest('PATCH', `${path}/${added.body.id}`, { token: acme.admin.token, body: { path: 'a' } });
    expect(taken.status).toBe(409);
    const cleared = await t.rest('PATCH', `${path}/${added.body.id}`, { token: acme.admin.token, body: { condition: null } });
    expect(cleared.body.condition).toBeUndefined();

    const items = async () => (await t.rest('GET', path, { token: acme.admin.token })).body.items.map((s: any) => [s.space.title, s.default]);
    expect(await items()).toEqual([['A', true], ['B', false], ['C', false]]);
    const defaults = await t.rest('GET', `${path}?default=true`, { token: acme.admin.token });
    expect(defaults.body.items.map((s: any) => s.space.title)).toEqual(['A']);
    const first = (await t.rest('GET', path, { token: acme.admin.token })).body.items[0];
    await t.rest('DELETE', `${path}/${first.id}`, { token: acme.admin.token });
    expect(await items()).toEqual([['B', true], ['C', false]]);

    const third = (await t.rest('GET', path, { token: acme.admin.token })).body.items[1];
    expect((await t.rest('PATCH', `${sitesPath()}/${site.id}`, { token: acme.admin.token, body: { defaultSiteSpace: third.id } })).status).toBe(200);
    expect(await items()).toEqual([['B', false], ['C', true]]);
    expect((await t.rest('PATCH', `${sitesPath()}/${site.id}`, { token: acme.admin.token, body: { defaultSiteSpace: 'doesNotExist00000000' } })).status).toBe(400);
  });

  it('checks a condition when it is written and points at the error', async () => {
    const site = await newSite({ title: 'Conditions', spaces: [(await newSpace({ title: 'Cond' })).id] });
    const [siteSpace] = (await t.rest('GET', `${sitesPath()}/${site.id}/site-spaces`, { token: acme.admin.token })).body.items;
    const patch = (condition: unknown) => t.rest('PATCH', `${sitesPath()}/${site.id}/site-spaces/${siteSpace.id}`, { token: acme.admin.token, body: { condition } });
    const broken = await patch('visitor.claims.plan == ');
    expect(broken.status).toBe(400);
    expect(broken.body.error.message).toMatch(/condition: .*at character 23/);
    expect((await patch('process.exit()')).body.error.message).toMatch(/not allowed|unknown name/);
    expect((await patch('x'.repeat(1025))).status).toBe(400);
    expect((await patch('')).status).toBe(400);
    expect((await patch('visitor.claims.plan == "pro" || visitor.claims.beta')).status).toBe(200);
  });

  it('refuses a space of another organization as if it did not exist', async () => {
    const site = await newSite({ title: 'Foreign' });
    const theirs = await t.rest('POST', `/v1/orgs/${other.organizationId}/spaces`, { token: other.admin.token, body: { title: 'Theirs' } });
    const foreign = await t.rest('POST', `${sitesPath()}/${site.id}/site-spaces`, { token: acme.admin.token, body: { spaceId: theirs.body.id } });
    const missing = await t.rest('POST', `${sitesPath()}/${site.id}/site-spaces`, { token: acme.admin.token, body: { spaceId: 'doesNotExist00000000' } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message.replace(theirs.body.id, 'X')).toBe(missing.body.error.message.replace('doesNotExist00000000', 'X'));
  });
});

describe('share links', () => {
  it('creates links with secret keys, turns them off and deletes them', async () => {
    const site = await newSite({ title: 'Shared', visibility: 'share-link' });
    const path = `${sitesPath()}/${site.id}/share-links`;
    const a = await t.rest('POST', path, { token: acme.admin.token, body: { name: 'Partners' } });
    const b = await t.rest('POST', path, { token: acme.admin.token, body: { name: '' } });
    expect(a.body).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
    const key = (link: any) => new URL(link.urls.published).searchParams.get('shareKey');
    // Not an API token's prefix: a key seen in a URL or a log is told apart from a token.
    expect(key(a.body)).toMatch(/^qshare_[A-Za-z0-9_-]{43}$/);
    expect((await t.rest('GET', '/v1/user', { token: key(a.body)! })).status).toBe(401);
    expect(key(a.body)).not.toBe(key(b.body));
    const off = await t.rest('PATCH', `${path}/${a.body.id}`, { token: acme.admin.token, body: { active: false } });
    expect(off.body.active).toBe(false);
    expect((await t.rest('PATCH', `${path}/${a.body.id}`, { token: acme.admin.token, body: {} })).status).toBe(400);
    expect((await t.rest('DELETE', `${path}/${b.body.id}`, { token: acme.admin.token })).status).toBe(204);
    expect((await t.rest('GET', path, { token: acme.admin.token })).body.items.map((l: any) => [l.name, l.active])).toEqual([['Partners', false]]);
  });
});

describe('authorization', () => {
  type Who = 'admin' | 'creator' | 'editor' | 'reader' | 'guest' | 'outsider' | 'anonymous';
  const WHO: Who[] = ['admin', 'creator', 'editor', 'reader', 'guest', 'outsider', 'anonymous'];
  const token = (who: Who) => (who === 'anonymous' ? null : who === 'admin' ? acme.admin.token : who === 'outsider' ? other.admin.token : people[who].token);
  interface Row {
    op: string;
    expect: [number, number, number, number, number, number];
    call: (site: any, siteSpace: any, link: any, more: { section: string; loose: string; group: string }) => { path: string; body?: unknown };
  }
  const READ: Row['expect'] = [200, 200, 200, 200, 403, 404];
  const ROWS: Row[] = [
    { op: 'GET sites', expect: READ, call: () => ({ path: sitesPath() }) },
    { op: 'POST sites', expect: [201, 201, 403, 403, 403, 404], call: () => ({ path: sitesPath(), body: { title: 'Matrix' } }) },
    { op: 'GET site', expect: [200, 200, 200, 200, 404, 404], call: (s) => ({ path: `${sitesPath()}/${s.id}` }) },
    { op: 'PATCH site', expect: [200, 200, 403, 403, 404, 404], call: (s) => ({ path: `${sitesPath()}/${s.id}`, body: { title: 'Renamed' } }) },
    { op: 'DELETE site', expect: [204, 204, 403, 403, 204, 204], call: (s) => ({ path: `${sitesPath()}/${s.id}` }) },
    { op: 'POST publish', expect: [200, 200, 403, 403, 404, 404], call: (s) => ({ path: `${sitesPath()}/${s.id}/publish` }) },
    { op: 'POST unpublish', expect: [200, 200, 403, 403, 404, 404], call: (s) => ({ path: `${sitesPath()}/${s.id}/unpublish` }) },
    { op: 'GET site-spaces', expect: [200, 200, 200, 200, 404, 404], call: (s) => ({ path: `${sitesPath()}/${s.id}/site-spaces` }) },
    { op: 'POST site-spaces', expect: [201, 201, 403, 403, 404, 404], call: (s, ss) => ({ path: `${sitesPath()}/${s.id}/site-spaces`, body: { spaceId: ss.space.id } }) },
    { op: 'PATCH site-space', expect: [200, 200, 403, 403, 404, 404], call: (s, ss) => ({ path: `${sitesPath()}/${s.id}/site-spaces/${ss.id}`, body: { path: 'moved' } }) },
    { op: 'DELETE site-space', expect: [204, 204, 403, 403, 204, 204], call: (s, ss) => ({ path: `${sitesPath()}/${s.id}/site-spaces/${ss.id}` }) },
    { op: 'GET share-links', expect: [200, 200, 403, 403, 404, 404], call: (s) => ({ path: `${sitesPath()}/${s.id}/share-links` }) },
    { op: 'POST share-links', expect: [201, 201, 403, 403, 404, 404], call: (s) => ({ path: `${sitesPath()}/${s.id}/share-links`, body: { name: 'x' } }) },
    { op: 'PATCH share-link', expect: [200, 200, 403, 403, 404, 404], call: (s, _, l) => ({ path: `${sitesPath()}/${s.id}/share-links/${l.id}`, body: { active: false } }) },
    { op: 'DELETE share-link', expect: [204, 204, 403, 403, 204, 204], call: (s, _, l) => ({ path: `${sitesPath()}/${s.id}/share-links/${l.id}` }) },
    { op: 'GET structure', expect: [200, 200, 200, 200, 404, 404], call: (s) => ({ path: `${sitesPath()}/${s.id}/structure` }) },
    { op: 'PATCH structure/sort', expect: [200, 200, 403, 403, 404, 404], call: (s, _, __, m) => ({ path: `${sitesPath()}/${s.id}/structure/sort`, body: { item: { type: 'site-section', id: m.loose } } }) },
    { op: 'POST site-space move', expect: [200, 200, 403, 403, 404, 404], call: (s, ss) => ({ path: `${sitesPath()}/${s.id}/site-spaces/${ss.id}/move`, body: {} }) },
    { op: 'GET sections', expect: [200, 200, 200, 200, 404, 404], call: (s) => ({ path: `${sitesPath()}/${s.id}/sections` }) },
    { op: 'POST sections', expect: [201, 201, 403, 403, 404, 404], call: (s, ss) => ({ path: `${sitesPath()}/${s.id}/sections`, body: { spaceId: ss.space.id } }) },
    { op: 'PATCH section', expect: [200, 200, 403, 403, 404, 404], call: (s, _, __, m) => ({ path: `${sitesPath()}/${s.id}/sections/${m.section}`, body: { title: 'Renamed' } }) },
    { op: 'DELETE section', expect: [204, 204, 403, 403, 204, 204], call: (s, _, __, m) => ({ path: `${sitesPath()}/${s.id}/sections/${m.loose}` }) },
    { op: 'POST section move', expect: [200, 200, 403, 403, 404, 404], call: (s, _, __, m) => ({ path: `${sitesPath()}/${s.id}/sections/${m.loose}/move`, body: {} }) },
    { op: 'GET section-groups', expect: [200, 200, 200, 200, 404, 404], call: (s) => ({ path: `${sitesPath()}/${s.id}/section-groups` }) },
    { op: 'POST section-groups', expect: [201, 201, 403, 403, 404, 404], call: (s) => ({ path: `${sitesPath()}/${s.id}/section-groups`, body: { title: 'G' } }) },
    { op: 'PATCH section-group', expect: [200, 200, 403, 403, 404, 404], call: (s, _, __, m) => ({ path: `${sitesPath()}/${s.id}/section-groups/${m.group}`, body: { title: 'G2' } }) },
    { op: 'DELETE section-group', expect: [204, 204, 403, 403, 204, 204], call: (s, _, __, m) => ({ path: `${sitesPath()}/${s.id}/section-groups/${m.group}` }) },
    { op: 'POST section-group sections', expect: [201, 201, 403, 403, 404, 404], call: (s, _, __, m) => ({ path: `${sitesPath()}/${s.id}/section-groups/${m.group}/sections`, body: { sectionId: m.loose } }) },
    { op: 'DELETE section-group section', expect: [204, 204, 403, 403, 204, 204], call: (s, _, __, m) => ({ path: `${sitesPath()}/${s.id}/section-groups/${m.group}/sections/${m.section}` }) },
    { op: 'POST section-group move', expect: [200, 200, 403, 403, 404, 404], call: (s, _, __, m) => ({ path: `${sitesPath()}/${s.id}/section-groups/${m.group}/move`, body: {} }) },
  ];
  const cells = ROWS.flatMap((row) => WHO.map((who, i) => [row.op, who, who === 'anonymous' ? 401 : row.expect[i], row] as const));

  it.each(cells)('%s as %s -> %i', async (op, who, status, row) => {
    const space = await newSpace({ title: 'Matrix space' });
    const site = await newSite({ title: 'Matrix site', spaces: [space.id] });
    const [siteSpace] = (await t.rest('GET', `${sitesPath()}/${site.id}/site-spaces`, { token: acme.admin.token })).body.items;
    const link = (await t.rest('POST', `${sitesPath()}/${site.id}/share-links`, { token: acme.admin.token, body: { name: 'l' } })).body;
    const more = { section: '', loose: '', group: '' };
    if (/section|structure/.test(op)) {
      const admin = (method: string, path: string, body: unknown) => t.rest(method, `${sitesPath()}/${site.id}${path}`, { token: acme.admin.token, body });
      more.section = (await admin('POST', '/sections', { spaceId: space.id, title: 'Grouped' })).body.id;
      more.loose = (await admin('POST', '/sections', { spaceId: space.id, title: 'Loose' })).body.id;
      more.group = (await admin('POST', '/section-groups', { title: 'Group', sections: [more.section] })).body.id;
    }
    const { path, body } = row.call(site, siteSpace, link, more);
    const method = op.split(' ')[0];
    const res = await t.rest(method, path, { token: token(who), body });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status >= 400) expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
    if (who === 'outsider' || (who === 'guest' && status === 404)) {
      // Invisible answers exactly like a missing site.
      const missing = await t.rest(method, path.replaceAll(site.id, 'doesNotExist00000000'), { token: token(who), body });
      expect(missing.status).toBe(status);
      expect(missing.body).toEqual(res.body);
    }
  });
});
