import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentHelpers } from '../../support/content';
import { mutations } from '../../support/graphql';
import { gid } from '../../support/doors';

/** Sites through GraphQL: the same services as /v1, as nodes, a connection and one mutation per action. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader', Actor>;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Read'] }));
});
afterAll(() => t?.close());

const { newSpace } = contentHelpers(() => t, () => acme);
const { succeed, refused } = mutations(() => t, { token: () => acme.admin.token });

const STRUCTURE = `
  query ($id: ID!) { node(id: $id) { ... on Site { title published publishedUrl siteSpaceCount viewerCanManage
    structure { __typename ... on SiteSection { title isDefault siteSpaces { title isDefault } } ... on SiteSectionGroup { title sections { title } } ... on SiteSpace { title path } }
    shareLinks { name active url } } } }`;

describe('sites through GraphQL', () => {
  it('builds a site with sections, a group and a share link, and reads it back as nodes', async () => {
    const [a, b, c] = [await newSpace({ title: 'Alpha' }), await newSpace({ title: 'Beta' }), await newSpace({ title: 'Gamma' })];
    const { site } = await succeed('siteCreate', { organizationId: gid('Organization', acme.organizationId), title: 'GraphQL site', spaceIds: [gid('Space', a.id)] }, 'site { id restId }');
    let res = await t.graphql(STRUCTURE, { id: site.id }, acme.admin.token);
    expect(res.body.data.node.structure).toEqual([{ __typename: 'SiteSpace', title: 'Alpha', path: 'alpha' }]);

    const one = await succeed('siteSectionAdd', { siteId: site.id, spaceId: gid('Space', b.id), title: 'Docs' }, 'section { id restId }');
    const two = await succeed('siteSectionAdd', { siteId: site.id, spaceId: gid('Space', c.id), title: 'API' }, 'section { id restId }');
    await succeed('siteSectionGroupAdd', { siteId: site.id, title: 'Reference', sectionIds: [two.section.id] }, 'group { id }');
    await succeed('siteStructureSort', { siteId: site.id, item: { kind: 'SITE_SECTION', id: one.section.restId } }, 'site { id }');
    await succeed('sitePublish', { siteId: site.id, published: true }, 'site { published }');
    await succeed('shareLinkCreate', { siteId: site.id, name: 'Partners' }, 'shareLink { id }');

    res = await t.graphql(STRUCTURE, { id: site.id }, acme.admin.token);
    expect(res.body.data.node).toMatchObject({
      published: true,
      siteSpaceCount: 3,
      viewerCanManage: true,
      structure: [
        { __typename: 'SiteSectionGroup', title: 'Reference', sections: [{ title: 'API' }] },
        { __typename: 'SiteSection', title: 'Docs', isDefault: true, siteSpaces: [{ title: 'Alpha', isDefault: true }, { title: 'Beta', isDefault: false }] },
      ],
      shareLinks: [{ name: 'Partners', active: true, url: expect.stringContaining('shareKey=') }],
    });

    const list = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on Organization { sites(title: "GraphQL", published: true) { totalCount edges { node { title } } } } } }`, { id: gid('Organization', acme.organizationId) }, people.reader.token);
    expect(list.body.data.node.sites).toEqual({ totalCount: 1, edges: [{ node: { title: 'GraphQL site' } }] });

    // A reader sees the site but not its share links, and cannot change it.
    const asReader = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on Site { title viewerCanManage } } }`, { id: site.id }, people.reader.token);
    expect(asReader.body.data.node).toEqual({ title: 'GraphQL site', viewerCanManage: false });
    await refused('siteUpdate', { siteId: site.id, title: 'Mine now' }, people.reader.token, 'FORBIDDEN');
    // Another organization sees nothing, exactly as for a missing id.
    expect((await t.graphql(`query ($id: ID!) { node(id: $id) { id } }`, { id: site.id }, other.admin.token)).body.data.node).toBeNull();
    // Deleting it answers as for a missing site: success, nothing deleted (the API's rule 5, as REST's 204).
    for (const siteId of [site.id, gid('Site', 'doesNotExist00000000')]) {
      const res = await t.graphql('mutation ($input: SiteDeleteInput!) { siteDelete(input: $input) { deletedSiteId userErrors { code } } }', { input: { siteId } }, other.admin.token);
      expect(res.body.data.siteDelete).toEqual({ deletedSiteId: siteId, userErrors: [] });
    }
    expect((await t.graphql(`query ($id: ID!) { node(id: $id) { id } }`, { id: site.id }, acme.admin.token)).body.data.node).toEqual({ id: site.id });
  });

  it('answers bad input as user errors and writes nothing', async () => {
    const res = await mutations(() => t, { token: () => acme.admin.token }).mutate('siteCreate', { organizationId: gid('Organization', acme.organizationId), title: 'x' });
    expect(res.payload?.userErrors ?? res.errors).toBeTruthy();
    expect(JSON.stringify(res)).toMatch(/title must be 2 to 128 characters/);
    const { site } = await succeed('siteCreate', { organizationId: gid('Organization', acme.organizationId), title: 'Conditions' }, 'site { id }');
    const bad = await mutations(() => t, { token: () => acme.admin.token }).mutate('siteAdaptiveSchemaSet', { siteId: site.id, jsonSchema: { type: 'objekt' } });
    expect(JSON.stringify(bad)).toMatch(/not a valid JSON Schema/);
  });

  it('updates naming no change answer the section and the group as they are', async () => {
    const space = await newSpace({ title: 'Unchanged' });
    const { site } = await succeed('siteCreate', { organizationId: gid('Organization', acme.organizationId), title: 'Quiet site' }, 'site { id }');
    const { section } = await succeed('siteSectionAdd', { siteId: site.id, spaceId: gid('Space', space.id), title: 'Kept' }, 'section { id }');
    const { group } = await succeed('siteSectionGroupAdd', { siteId: site.id, title: 'Shelf', sectionIds: [section.id] }, 'group { id }');
    expect((await succeed('siteSectionUpdate', { sectionId: section.id }, 'section { title }')).section).toEqual({ title: 'Kept' });
    expect((await succeed('siteSectionGroupUpdate', { groupId: group.id }, 'group { title }')).group).toEqual({ title: 'Shelf' });
  });
});
