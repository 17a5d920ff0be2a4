import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import { contentHelpers } from '../../support/content';
import { gid, MISSING } from '../../support/doors';
import type { Actor, OrgFixture } from '../../support/factories';
import { mutations } from '../../support/graphql';
import { scenario } from '../../support/scenario';

/** A site's customization and its visitor sign-in key through GraphQL, against their /v1 twins on the same sites. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader' | 'creator', Actor>;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Read'], creator: ['create', 'Cora Create'] }));
});
afterAll(() => t?.close());

const { newSpace } = contentHelpers(() => t, () => acme);
const { succeed, refused, userError, mutate } = mutations(() => t, { token: () => acme.admin.token });

async function newSite(owner: OrgFixture = acme): Promise<{ id: string; gid: string; path: string }> {
  const space = await newSpace({ title: 'Published space' }, owner);
  const res = await t.rest('POST', `/v1/orgs/${owner.organizationId}/sites`, { token: owner.admin.token, body: { title: 'Site', visibility: 'visitor-auth', spaces: [space.id] } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, gid: gid('Site', res.body.id), path: `/v1/orgs/${owner.organizationId}/sites/${res.body.id}` };
}

const CUSTOMIZATION = `query ($id: ID!) { node(id: $id) { ... on Site { customization {
  settings title locale defaultThemeMode themeToggle aiMode pdfExport feedback pagination trademark showEditLink
  styling { theme corners depth links font monospaceFont icons search primaryColor { light dark } tint { light dark } } } } } }`;

const readCustomization = async (siteGid: string, token = acme.admin.token) => {
  const res = await t.graphql(CUSTOMIZATION, { id: siteGid }, token);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data.node?.customization;
};

describe('Site.customization and siteCustomizationSet', () => {
  it('reads the same customization as REST, defaults first, with typed fields for the common parts', async () => {
    const site = await newSite();
    const rest = await t.rest('GET', `${site.path}/customization`, { token: people.reader.token });
    expect(rest.status).toBe(200);
    const read = await readCustomization(site.gid, people.reader.token);
    expect(read.settings).toEqual(rest.body);
    expect(read).toMatchObject({
      title: null,
      locale: 'en',
      defaultThemeMode: 'light',
      themeToggle: true,
      aiMode: 'search',
      pdfExport: true,
      feedback: false,
      pagination: true,
      trademark: true,
      showEditLink: false,
      styling: { theme: 'clean', corners: 'rounded', depth: 'subtle', font: 'Inter', monospaceFont: 'IBMPlexMono', primaryColor: { light: '#346DDB', dark: '#346DDB' }, tint: null },
    });
  });

  it('replaces the whole document as PUT does: REST then reads what GraphQL saved, and GraphQL what REST saved', async () => {
    const site = await newSite();
    const defaults = (await t.rest('GET', `${site.path}/customization`, { token: acme.admin.token })).body;
    const changed = { ...defaults, title: 'Handbook', styling: { ...defaults.styling, theme: 'bold', tint: { color: { light: '#112233', dark: '#445566' } } }, feedback: { enabled: true } };
    const { customization, site: after } = await succeed('siteCustomizationSet', { siteId: site.gid, settings: changed }, 'customization { title feedback styling { theme tint { light dark } } } site { id }');
    expect(customization).toEqual({ title: 'Handbook', feedback: true, styling: { theme: 'bold', tint: { light: '#112233', dark: '#445566' } } });
    expect(after.id).toBe(site.gid);
    expect((await t.rest('GET', `${site.path}/customization`, { token: acme.admin.token })).body).toEqual(changed);

    const viaRest = { ...changed, title: 'From REST' };
    expect((await t.rest('PUT', `${site.path}/customization`, { token: acme.admin.token, body: viaRest })).status).toBe(200);
    expect((await readCustomization(site.gid)).settings).toEqual(viaRest);
  });

  it('lets members with the create role change it, and refuses a reader as REST does, saving nothing', async () => {
    const site = await newSite();
    const defaults = (await t.rest('GET', `${site.path}/customization`, { token: acme.admin.token })).body;
    await succeed('siteCustomizationSet', { siteId: site.gid, settings: { ...defaults, title: 'By Cora' } }, '', people.creator.token);
    expect((await t.rest('PUT', `${site.path}/customization`, { token: people.reader.token, body: { ...defaults, title: 'By Rita' } })).status).toBe(403);
    await refused('siteCustomizationSet', { siteId: site.gid, settings: { ...defaults, title: 'By Rita' } }, people.reader.token, 'FORBIDDEN');
    expect((await readCustomization(site.gid)).title).toBe('By Cora');
  });

  it('refuses a document that is not the platform settings, or an unsafe link, as a user error on settings; nothing saved', async () => {
    const site = await newSite();
    const defaults = (await t.rest('GET', `${site.path}/customization`, { token: acme.admin.token })).body;
    expect((await t.rest('PUT', `${site.path}/customization`, { token: acme.admin.token, body: { styling: 'loud' } })).status).toBe(400);
    await userError('siteCustomizationSet', { siteId: site.gid, settings: { styling: 'loud' } }, 'VALIDATION_FAILED', null);
    const unsafe = { ...defaults, privacyPolicy: { url: 'javascript:alert(1)' } };
    expect((await t.rest('PUT', `${site.path}/customization`, { token: acme.admin.token, body: unsafe })).status).toBe(400);
    await userError('siteCustomizationSet', { siteId: site.gid, settings: unsafe }, 'VALIDATION_FAILED', ['settings', 'privacyPolicy', 'url']);
    expect((await readCustomization(site.gid)).settings).toEqual(defaults);
  });

  it("answers another organization's site like a missing one, for the read and the change", async () => {
    const site = await newSite();
    const defaults = (await t.rest('GET', `${site.path}/customization`, { token: acme.admin.token })).body;
    expect((await t.rest('GET', `${site.path}/customization`, { token: other.admin.token })).status).toBe(404);
    const read = await t.graphql(CUSTOMIZATION, { id: site.gid }, other.admin.token);
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data).toEqual({ node: null });
    const foreign = await refused('siteCustomizationSet', { siteId: site.gid, settings: defaults }, other.admin.token, 'NOT_FOUND');
    const missing = await refused('siteCustomizationSet', { siteId: gid('Site', MISSING), settings: defaults }, other.admin.token, 'NOT_FOUND');
    expect(foreign.errors[0].message).toBe(missing.errors[0].message);
    expect((await readCustomization(site.gid)).settings).toEqual(defaults);
  });
});

const AUTH = `query ($id: ID!) { node(id: $id) { ... on Site { publishingAuth { backend privateKey fallbackUrl updatedAt } } } }`;

describe('Site.publishingAuth, sitePublishingAuthUpdate and sitePublishingAuthRegenerate', () => {
  it('reads the same key and settings as REST, to those who manage the site', async () => {
    const site = await newSite();
    const rest = await t.rest('GET', `${site.path}/publishing/auth`, { token: acme.admin.token });
    expect(rest.status).toBe(200);
    const read = await t.graphql(AUTH, { id: site.gid }, people.creator.token);
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.node.publishingAuth).toEqual({ backend: 'CUSTOM', privateKey: rest.body.privateKey, fallbackUrl: null, updatedAt: expect.any(String) });
  });

  it('keeps the key from a reader as REST does: a FORBIDDEN error on the field, the site still readable', async () => {
    const site = await newSite();
    expect((await t.rest('GET', `${site.path}/publishing/auth`, { token: people.reader.token })).status).toBe(403);
    const read = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on Site { title publishingAuth { privateKey } } } }`, { id: site.gid }, people.reader.token);
    expect(read.body.data.node).toEqual({ title: 'Site', publishingAuth: null });
    expect(read.body.errors).toHaveLength(1);
    expect(read.body.errors[0]).toMatchObject({ path: ['node', 'publishingAuth'], extensions: { code: 'FORBIDDEN' } });
    await refused('sitePublishingAuthRegenerate', { siteId: site.gid }, people.reader.token, 'FORBIDDEN');
    await refused('sitePublishingAuthUpdate', { siteId: site.gid, fallbackUrl: 'https://login.example.com/' }, people.reader.token, 'FORBIDDEN');
  });

  it('rotates the key: the old one is gone for REST too', async () => {
    const site = await newSite();
    const before = (await t.rest('GET', `${site.path}/publishing/auth`, { token: acme.admin.token })).body.privateKey;
    const { publishingAuth } = await succeed('sitePublishingAuthRegenerate', { siteId: site.gid }, 'publishingAuth { privateKey backend }');
    expect(publishingAuth.privateKey).not.toBe(before);
    expect((await t.rest('GET', `${site.path}/publishing/auth`, { token: acme.admin.token })).body.privateKey).toBe(publishingAuth.privateKey);
    const viaRest = (await t.rest('POST', `${site.path}/publishing/auth/regenerate`, { token: acme.admin.token })).body.privateKey;
    expect((await t.graphql(AUTH, { id: site.gid }, acme.admin.token)).body.data.node.publishingAuth.privateKey).toBe(viaRest);
  });

  it('changes the backend and the fallback URL, keeps what is absent, removes the URL on null; the key stays', async () => {
    const site = await newSite();
    const key = (await t.rest('GET', `${site.path}/publishing/auth`, { token: acme.admin.token })).body.privateKey;
    let res = await succeed('sitePublishingAuthUpdate', { siteId: site.gid, backend: 'INTEGRATION', fallbackUrl: 'https://login.example.com/' }, 'publishingAuth { backend fallbackUrl privateKey }');
    expect(res.publishingAuth).toEqual({ backend: 'INTEGRATION', fallbackUrl: 'https://login.example.com/', privateKey: key });
    expect((await t.rest('GET', `${site.path}/publishing/auth`, { token: acme.admin.token })).body).toEqual({ object: 'publishing-auth', backend: 'integration', privateKey: key, fallbackURL: 'https://login.example.com/' });
    res = await succeed('sitePublishingAuthUpdate', { siteId: site.gid, backend: 'CUSTOM' }, 'publishingAuth { backend fallbackUrl }');
    expect(res.publishingAuth).toEqual({ backend: 'CUSTOM', fallbackUrl: 'https://login.example.com/' });
    res = await succeed('sitePublishingAuthUpdate', { siteId: site.gid, fallbackUrl: null }, 'publishingAuth { backend fallbackUrl }');
    expect(res.publishingAuth).toEqual({ backend: 'CUSTOM', fallbackUrl: null });
  });

  it('refuses an unsafe fallback URL as REST does, naming the field; nothing changes', async () => {
    const site = await newSite();
    expect((await t.rest('PATCH', `${site.path}/publishing/auth`, { token: acme.admin.token, body: { fallbackURL: 'javascript:alert(1)' } })).status).toBe(400);
    await userError('sitePublishingAuthUpdate', { siteId: site.gid, fallbackUrl: 'javascript:alert(1)' }, 'VALIDATION_FAILED', ['fallbackUrl']);
    expect((await t.graphql(AUTH, { id: site.gid }, acme.admin.token)).body.data.node.publishingAuth.fallbackUrl).toBeNull();
  });

  it("answers another organization's site like a missing one", async () => {
    const site = await newSite();
    const key = (await t.rest('GET', `${site.path}/publishing/auth`, { token: acme.admin.token })).body.privateKey;
    expect((await t.rest('GET', `${site.path}/publishing/auth`, { token: other.admin.token })).status).toBe(404);
    const read = await t.graphql(AUTH, { id: site.gid }, other.admin.token);
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data).toEqual({ node: null });
    for (const name of ['sitePublishingAuthRegenerate', 'sitePublishingAuthUpdate']) {
      const foreign = await refused(name, { siteId: site.gid }, other.admin.token, 'NOT_FOUND');
      const missing = await refused(name, { siteId: gid('Site', MISSING) }, other.admin.token, 'NOT_FOUND');
      expect(foreign.errors[0].message).toBe(missing.errors[0].message);
    }
    expect((await t.rest('GET', `${site.path}/publishing/auth`, { token: acme.admin.token })).body.privateKey).toBe(key);
    // An ID of another type is refused before anything runs.
    const wrongType = await mutate('sitePublishingAuthRegenerate', { siteId: gid('Space', site.id) });
    expect(wrongType.errors).toHaveLength(1);
  });
});
