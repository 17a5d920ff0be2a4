import { GitBookAPI, type GitBookAPIError, SiteVisibility } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenario } from '../support/scenario';
import { contentHelpers } from '../support/content';
import type { TestApp } from '../support/clients';
import type { Actor, OrgFixture } from '../support/factories';

/** Sites through the official client, unmodified, over real HTTP. */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'creator' | 'reader', Actor>;
let creator: GitBookAPI;
let reader: GitBookAPI;
let outsider: GitBookAPI;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ creator: ['create', 'Cora Create'], reader: ['read', 'Rita Read'] }));
  server = await t.serve();
  creator = new GitBookAPI({ endpoint: server.url, authToken: people.creator.token });
  reader = new GitBookAPI({ endpoint: server.url, authToken: people.reader.token });
  outsider = new GitBookAPI({ endpoint: server.url, authToken: other.admin.token });
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

describe('sites through the official GitBookAPI client', () => {
  it('creates a site, structures it, publishes it and shares it', async () => {
    const { newSpace } = contentHelpers(() => t, () => acme);
    const [guide, api] = [await newSpace({ title: 'Guide' }), await newSpace({ title: 'API' })];
    const org = acme.organizationId;
    const { data: site } = await creator.orgs.createSite(org, { title: 'Developer docs', spaces: [guide.id] });
    expect(site).toMatchObject({ title: 'Developer docs', type: 'basic', siteSpaces: 1 });
    await creator.orgs.updateSiteById(org, site.id, { basename: 'developers', visibility: SiteVisibility.ShareLink });

    // The first section takes in the root spaces; the second stands alone.
    const { data: first } = await creator.orgs.addSectionToSite(org, site.id, { spaceId: api.id, title: 'API reference' });
    expect(first.siteSpaces.map((s) => s.space.title)).toEqual(['Guide', 'API']);
    const { data: second } = await creator.orgs.addSectionToSite(org, site.id, { spaceId: guide.id, title: 'Guides' });
    const { data: group } = await creator.orgs.addSectionGroupToSite(org, site.id, { title: 'Reference', sections: [second.id] });
    expect(group.sections.map((s) => s.title)).toEqual(['Guides']);
    const { data: sections } = await reader.orgs.listSiteSections(org, site.id);
    expect(sections.items.map((s) => s.title)).toEqual(['API reference', 'Guides']);
    await creator.orgs.sortSiteStructure(org, site.id, { item: { type: 'site-section-group', id: group.id }, position: { before: { type: 'site-section', id: first.id } } });
    const { data: structure } = await reader.orgs.getSiteStructure(org, site.id);
    expect(structure.type).toBe('sections');
    expect(structure.structure.map((s) => s.title)).toEqual(['Reference', 'API reference']);
    const { data: siteSpaces } = await reader.orgs.listSiteSpaces(org, site.id);
    expect(siteSpaces.items.map((s) => s.space.title)).toEqual(['Guide', 'Guide', 'API']);

    const published = await creator.orgs.publishSite(org, site.id);
    expect(published.data).toMatchObject({ published: true, basename: 'developers' });
    const { data: link } = await creator.orgs.createSiteShareLink(org, site.id, { name: 'Partners' });
    const shareKey = new URL(link.urls.published!).searchParams.get('shareKey')!;
    const { data: view } = await outsider.orgs.getPublishedContentSite(org, site.id, { shareKey });
    expect(view.site.id).toBe(site.id);
    const refused = await outsider.orgs.getPublishedContentSite(org, site.id).catch((e: unknown) => e);
    expect((refused as GitBookAPIError).code).toBe(404);

    await creator.orgs.updateSiteAdaptiveSchema(org, site.id, {
      jsonSchema: { type: 'object', properties: { plan: { type: 'string', description: 'Plan', enum: ['pro'] } }, additionalProperties: false } as never,
    });
    const { data: conditions } = await reader.orgs.listSiteAdaptiveTemplateConditions(org, site.id);
    expect(conditions.items.map((c) => c.condition)).toEqual(['visitor.claims.plan == "pro"']);

    const { data: listed } = await reader.orgs.listSites(org, { title: 'Developer' });
    expect(listed.items.map((s) => s.id)).toEqual([site.id]);
    await creator.orgs.deleteSiteById(org, site.id);
    const gone = await reader.orgs.getSiteById(org, site.id).catch((e: unknown) => e);
    expect((gone as GitBookAPIError).code).toBe(404);
  });
});
