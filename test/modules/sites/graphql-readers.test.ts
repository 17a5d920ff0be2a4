import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import { contentHelpers } from '../../support/content';
import { gid, MISSING } from '../../support/doors';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';

/**
 * A site's parts as lists (`Site.siteSpaces`, `sections`, `sectionGroups`) and as its readers get
 * it (`Query.publishedSite`), against their /v1 twins on the same sites.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader', Actor>;
let site: { id: string; base: string };
let groupId: string;

const { newSpace } = contentHelpers(() => t, () => acme);

async function call(method: string, path: string, body?: unknown, token = acme.admin.token) {
  const res = await t.rest(method, path, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Read'] }));
  const [a, b, c] = [await newSpace({ title: 'Alpha' }), await newSpace({ title: 'Beta' }), await newSpace({ title: 'Gamma' })];
  const created = await call('POST', `/v1/orgs/${acme.organizationId}/sites`, { title: 'Handbook', spaces: [a.id] });
  site = { id: created.id, base: `/v1/orgs/${acme.organizationId}/sites/${created.id}` };
  await call('POST', `${site.base}/sections`, { spaceId: b.id, title: 'Guides' });
  const api = await call('POST', `${site.base}/sections`, { spaceId: c.id, title: 'API' });
  groupId = (await call('POST', `${site.base}/section-groups`, { title: 'Reference', sections: [api.id] })).id;
});
afterAll(() => t?.close());

const LISTS = `query ($id: ID!, $default: Boolean) { node(id: $id) { ... on Site {
  siteSpaces(default: $default) { totalCount edges { node { restId title isDefault } } }
  sections { totalCount edges { node { restId title } } }
  sectionGroups { totalCount edges { node { restId title sections { restId } } } } } } }`;

describe("a site's parts as lists", () => {
  it('lists the same site spaces, sections and groups as REST, in the same order, to a reader', async () => {
    const res = await t.graphql(LISTS, { id: gid('Site', site.id) }, people.reader.token);
    expect(res.body.errors).toBeUndefined();
    const lists = res.body.data.node;
    const restSpaces = await call('GET', `${site.base}/site-spaces`, undefined, people.reader.token);
    expect(lists.siteSpaces.edges.map((e: any) => e.node.restId)).toEqual(restSpaces.items.map((s: { id: string }) => s.id));
    expect(lists.siteSpaces.totalCount).toBe(3);
    const restSections = await call('GET', `${site.base}/sections`, undefined, people.reader.token);
    expect(lists.sections.edges.map((e: any) => e.node.restId)).toEqual(restSections.items.map((s: { id: string }) => s.id));
    expect(lists.sections.edges.map((e: any) => e.node.title).sort()).toEqual(['API', 'Guides']);
    const restGroups = await call('GET', `${site.base}/section-groups`, undefined, people.reader.token);
    expect(lists.sectionGroups.edges.map((e: any) => ({ restId: e.node.restId, title: e.node.title }))).toEqual(restGroups.items.map((g: { id: string; title: string }) => ({ restId: g.id, title: g.title })));
    expect(lists.sectionGroups.edges[0].node.restId).toBe(groupId);
  });

  it('filters the defaults as REST does', async () => {
    for (const value of [true, false]) {
      const res = await t.graphql(LISTS, { id: gid('Site', site.id), default: value }, acme.admin.token);
      const rest = await call('GET', `${site.base}/site-spaces?default=${value}`);
      expect(res.body.data.node.siteSpaces.edges.map((e: any) => e.node.restId)).toEqual(rest.items.map((s: { id: string }) => s.id));
      expect(res.body.data.node.siteSpaces.edges.every((e: any) => e.node.isDefault === value)).toBe(true);
    }
  });

  it('shows another organization nothing: the site is missing, as REST answers 404', async () => {
    expect((await t.rest('GET', `${site.base}/site-spaces`, { token: other.admin.token })).status).toBe(404);
    expect((await t.rest('GET', `${site.base}/sections`, { token: other.admin.token })).status).toBe(404);
    const res = await t.graphql(LISTS, { id: gid('Site', site.id) }, other.admin.token);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({ node: null });
  });
});

const PUBLISHED = `query ($id: ID!, $key: String) { publishedSite(siteId: $id, shareKey: $key) { siteId restId title published publishedUrl
  structure { __typename ... on SiteSection { title siteSpaces { title } } ... on SiteSectionGroup { title sections { title } } ... on SiteSpace { title } } } }`;

describe('Query.publishedSite', () => {
  it("gives an outsider a published public site's view, as REST does; before publishing it is missing to them and a preview to members", async () => {
    const s = await call('POST', `/v1/orgs/${acme.organizationId}/sites`, { title: 'Public docs', spaces: [(await newSpace({ title: 'Intro' })).id] });
    const base = `/v1/orgs/${acme.organizationId}/sites/${s.id}`;
    expect((await t.rest('GET', `${base}/published`, { token: other.admin.token })).status).toBe(404);
    expect((await t.graphql(PUBLISHED, { id: gid('Site', s.id) }, other.admin.token)).body.data).toEqual({ publishedSite: null });
    const preview = await t.graphql(PUBLISHED, { id: gid('Site', s.id) }, people.reader.token);
    expect(preview.body.data.publishedSite).toMatchObject({ restId: s.id, published: false, publishedUrl: null, structure: [{ __typename: 'SiteSpace', title: 'Intro' }] });

    await call('POST', `${base}/publish`);
    const rest = await t.rest('GET', `${base}/published`, { token: other.admin.token });
    expect(rest.status).toBe(200);
    const gql = await t.graphql(PUBLISHED, { id: gid('Site', s.id) }, other.admin.token);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.publishedSite).toEqual({
      siteId: gid('Site', s.id),
      restId: rest.body.site.id,
      title: rest.body.site.title,
      published: true,
      publishedUrl: rest.body.site.urls.published,
      structure: rest.body.structure.structure.map((v: { space: { title: string } }) => ({ __typename: 'SiteSpace', title: v.space.title })),
    });
  });

  it('opens a share-link site to an outsider only with an active key of its own, as REST does', async () => {
    await call('PATCH', site.base, { visibility: 'share-link' });
    await call('POST', `${site.base}/publish`);
    const link = await call('POST', `${site.base}/share-links`, { name: 'Partner' });
    const key = new URL(link.urls.published).searchParams.get('shareKey');
    for (const shareKey of [undefined, 'not-a-key', key]) {
      const rest = await t.rest('GET', `${site.base}/published${shareKey ? `?shareKey=${shareKey}` : ''}`, { token: other.admin.token });
      const gql = await t.graphql(PUBLISHED, { id: gid('Site', site.id), key: shareKey }, other.admin.token);
      expect(gql.body.errors).toBeUndefined();
      if (rest.status === 404) expect(gql.body.data.publishedSite).toBeNull();
      else expect(gql.body.data.publishedSite.structure.map((i: { title: string }) => i.title)).toEqual(rest.body.structure.structure.map((i: { title: string }) => i.title));
      expect(rest.status).toBe(shareKey === key ? 200 : 404);
    }
    expect((await t.graphql(PUBLISHED, { id: gid('Site', MISSING) }, other.admin.token)).body.data).toEqual({ publishedSite: null });
  });
});
