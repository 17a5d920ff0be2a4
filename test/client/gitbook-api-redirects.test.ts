import type { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/clients';
import { contentHelpers } from '../support/content';
import type { Actor, OrgFixture } from '../support/factories';
import { validateResponse } from '../support/openapi';
import { scenario } from '../support/scenario';
import { served, type Served } from '../support/served';

/**
 * Site redirects through the official client, unmodified, over real HTTP: the calls the platform's
 * renderer and a site's managers make, each answer held to the spec.
 */
let t: TestApp;
let server: Served;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'creator' | 'reader', Actor>;
let creator: GitBookAPI;
let reader: GitBookAPI;
let outsider: GitBookAPI;
let anonymous: GitBookAPI;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ creator: ['create', 'Cora Create'], reader: ['read', 'Rita Read'] }));
  server = await served(t);
  creator = server.client(people.creator.token);
  reader = server.client(people.reader.token);
  outsider = server.client(other.admin.token);
  anonymous = server.client();
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (e: GitBookAPIError) => e.code);

describe('site redirects through the official GitBookAPI client', () => {
  it('manages redirects, and the renderer resolves them with the site API token of the URL lookup', async () => {
    const { newSpace } = contentHelpers(() => t, () => acme);
    const [guide, api] = [await newSpace({ title: 'Guide' }), await newSpace({ title: 'API' })];
    const org = acme.organizationId;
    const { data: site } = await creator.orgs.createSite(org, { title: 'Developer docs', spaces: [guide.id, api.id] });
    await creator.orgs.publishSite(org, site.id);
    const { data: variants } = await reader.orgs.listSiteSpaces(org, site.id);
    const [guideSpace, apiSpace] = variants.items;
    const base = `/v1/orgs/${org}/sites/${site.id}`;

    const { data: created, status } = await creator.orgs.createSiteRedirect(org, site.id, { source: '/old-api', destination: { kind: 'site-space', siteSpaceId: apiSpace.id } });
    expect(status).toBe(201);
    validateResponse('POST', `${base}/redirects`, 201, created);
    expect(created).toMatchObject({ object: 'site-redirect', source: '/old-api', destination: { kind: 'site-space', siteSpaceId: apiSpace.id } });
    await creator.orgs.createSiteRedirect(org, site.id, { source: '/start', destination: { kind: 'site-space', siteSpaceId: guideSpace.id } });

    const { data: list } = await reader.orgs.listSiteRedirects(org, site.id);
    validateResponse('GET', `${base}/redirects`, 200, list);
    expect(list.items.map((r) => r.source)).toEqual(['/old-api', '/start']);

    const { data: updated } = await creator.orgs.updateSiteRedirectById(org, site.id, created.id, { source: '/legacy/api' });
    validateResponse('PATCH', `${base}/redirects/${created.id}`, 200, updated);
    expect(updated).toMatchObject({ id: created.id, source: '/legacy/api' });

    // The renderer: the URL lookup first, then its token for the path that is no page.
    const { data: lookup } = await anonymous.urls.resolvePublishedContentByUrl({ url: guideSpace.urls.published!, visitor: { unsignedClaims: {}, type: 'human' } } as never);
    if (!('apiToken' in lookup)) throw new Error('expected content');
    const renderer = server.client(lookup.apiToken);
    const { data: found } = await renderer.orgs.getSiteRedirectBySource(org, site.id, { source: '/legacy/api' });
    validateResponse('GET', `${base}/redirect?source=/legacy/api`, 200, found);
    expect(found).toEqual({ redirect: updated, target: apiSpace.urls.published });
    expect(await refusal(renderer.orgs.getSiteRedirectBySource(org, site.id, { source: '/old-api' }))).toBe(404);
    expect(await refusal(renderer.orgs.createSiteRedirect(org, site.id, { source: '/x', destination: { kind: 'site-space', siteSpaceId: apiSpace.id } }))).toBe(403);
    expect(await refusal(renderer.orgs.deleteSiteRedirectById(org, site.id, created.id))).toBe(403);

    // Members resolve it too; the client sends a bad source as it is given, and gets 400.
    expect((await reader.orgs.getSiteRedirectBySource(org, site.id, { source: '/start' })).data.target).toBe(guideSpace.urls.published);
    expect(await refusal(reader.orgs.getSiteRedirectBySource(org, site.id, { source: 'start/' }))).toBe(400);
    expect(await refusal(creator.orgs.createSiteRedirect(org, site.id, { source: '/start', destination: { kind: 'site-space', siteSpaceId: guideSpace.id } }))).toBe(409);
    expect(await refusal(reader.orgs.createSiteRedirect(org, site.id, { source: '/y', destination: { kind: 'site-space', siteSpaceId: guideSpace.id } }))).toBe(403);
    expect(await refusal(outsider.orgs.listSiteRedirects(org, site.id))).toBe(404);

    const deleted = await creator.orgs.deleteSiteRedirectById(org, site.id, created.id);
    expect(deleted.status).toBe(204);
    expect((await creator.orgs.deleteSiteRedirectById(org, site.id, created.id)).status).toBe(204);
    expect(await refusal(reader.orgs.getSiteRedirectBySource(org, site.id, { source: '/legacy/api' }))).toBe(404);
  });
});
