import { GitBookAPI, GitBookAPIError, IntegrationCategory, IntegrationScope, IntegrationTarget, IntegrationVisibility, type PublishIntegration } from '@gitbook/api';
import LZString from 'lz-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../support/factories';
import { validateResponse } from '../support/openapi';

/**
 * The 13 operations of the document's "Integrations" table through the official client,
 * unmodified, against a real HTTP server on loopback; each answer is checked against the
 * official spec. The installation operations that set up the lists are called through the client too.
 */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let acme: OrgFixture;
let other: OrgFixture;
let reader: Actor;
let api: GitBookAPI;
let otherApi: GitBookAPI;
let readerApi: GitBookAPI;
let spaceId: string;

const SCRIPT = 'export default { fetch() { return new Response("ok"); } };';
const manifest = (overrides: Partial<PublishIntegration> = {}): PublishIntegration => ({
  title: 'Client notes',
  description: 'Takes notes',
  scopes: [IntegrationScope.SpaceContentRead],
  categories: [IntegrationCategory.Content],
  target: IntegrationTarget.Space,
  visibility: IntegrationVisibility.Public,
  script: SCRIPT,
  organization: acme.organizationId,
  ...overrides,
});

/** The client rejects with GitBookAPIError carrying the HTTP status as `code` and our error body as `message`. */
async function failure(call: Promise<unknown>): Promise<GitBookAPIError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(GitBookAPIError);
    return error as GitBookAPIError;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  t = await startTestApp();
  server = await t.serve();
  acme = await buildOrganization(t.db, 'Acme integrations');
  other = await buildOrganization(t.db, 'Other integrations');
  reader = await buildMember(t.db, acme.organizationId, 'read', 'Rita Reader');
  api = new GitBookAPI({ endpoint: server.url, authToken: acme.admin.token });
  otherApi = new GitBookAPI({ endpoint: server.url, authToken: other.admin.token });
  readerApi = new GitBookAPI({ endpoint: server.url, authToken: reader.token });
  spaceId = (await api.orgs.createSpace(acme.organizationId, { title: 'Handbook' })).data.id;
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

describe('integrations through the official GitBookAPI client', () => {
  it('publishes (twice: the version goes up), reads and lists with the v0.137 filters', async () => {
    const { data: first, status } = await api.integrations.publishIntegration('client-notes', manifest({ blocks: [{ id: 'note', title: 'Note', urlUnfurl: ['https://notes.example.com/*'] }] }));
    expect(status).toBe(200);
    validateResponse('POST', '/v1/integrations/client-notes', 200, first);
    expect(first).toMatchObject({ object: 'integration', name: 'client-notes', version: 1, visibility: 'public', target: 'space', owner: { id: acme.organizationId } });
    const { data: second } = await api.integrations.publishIntegration('client-notes', manifest({ title: 'Client notes 2', blocks: [{ id: 'note', title: 'Note', urlUnfurl: ['https://notes.example.com/*'] }] }));
    expect(second).toMatchObject({ version: 2, title: 'Client notes 2' });
    await api.integrations.publishIntegration('client-private', manifest({ title: 'Private one', visibility: IntegrationVisibility.Private, categories: [IntegrationCategory.Analytics], target: IntegrationTarget.All }));

    const { data: got } = await readerApi.integrations.getIntegrationByName('client-notes');
    validateResponse('GET', '/v1/integrations/client-notes', 200, got);
    expect(got.permissions).toEqual({ admin: false });

    const names = async (query: Parameters<GitBookAPI['integrations']['listIntegrations']>[0], client = api) => {
      const { data } = await client.integrations.listIntegrations(query);
      validateResponse('GET', '/v1/integrations', 200, data);
      return data.items.map((i) => i.name).sort();
    };
    expect(await names({ owner: acme.organizationId })).toEqual(['client-notes', 'client-private']);
    expect(await names({ search: 'notes 2' })).toEqual(['client-notes']);
    expect(await names({ category: IntegrationCategory.Analytics })).toEqual(['client-private']);
    expect(await names({ blockDomain: 'notes.example.com' })).toEqual(['client-notes']);
    expect(await names({ blocks: true })).toEqual(['client-notes']);
    expect(await names({ blocks: false, owner: acme.organizationId })).toEqual(['client-private']);
    expect(await names({ contentSources: true })).toEqual([]);
    expect(await names({ scope: IntegrationScope.SpaceContentRead, target: IntegrationTarget.Space })).toEqual(['client-notes']);
    // Another organization sees the public one only.
    expect(await names({ owner: acme.organizationId }, otherApi)).toEqual(['client-notes']);
    const { data: page } = await api.integrations.listIntegrations({ owner: acme.organizationId, limit: 1 });
    expect(page.items).toHaveLength(1);
    const { data: rest } = await api.integrations.listIntegrations({ owner: acme.organizationId, limit: 1, page: page.next!.page });
    expect(rest.items.map((i) => i.name)).not.toEqual(page.items.map((i) => i.name));
  });

  it("answers another organization's private integration exactly like a missing one", async () => {
    const foreign = await failure(otherApi.integrations.getIntegrationByName('client-private'));
    const missing = await failure(otherApi.integrations.getIntegrationByName('client-nothing'));
    expect(foreign.code).toBe(404);
    // The client's message quotes the URL; the rest is our body's message.
    expect(foreign.message.replace('client-private', '<name>')).toBe(missing.message.replace('client-nothing', '<name>'));
    const install = await failure(otherApi.integrations.installIntegration('client-private', { organization: other.organizationId }));
    expect(install.code).toBe(404);
  });

  it('installs, lists installations and space installations by external id, and an empty list of sites', async () => {
    const { data: installation, status } = await api.integrations.installIntegration('client-notes', { organization: acme.organizationId });
    expect(status).toBe(201);
    validateResponse('POST', '/v1/integrations/client-notes/installations', 201, installation);
    await api.integrations.updateIntegrationInstallation('client-notes', installation.id, { externalIds: ['acme-1'] });
    const { data: onSpace } = await api.integrations.installIntegrationOnSpace('client-notes', installation.id, { space: spaceId });
    await api.integrations.updateIntegrationSpaceInstallation('client-notes', installation.id, spaceId, { externalIds: ['handbook'] });
    expect(onSpace.space).toBe(spaceId);
    await otherApi.integrations.installIntegration('client-notes', { organization: other.organizationId });

    const { data: all } = await api.integrations.listIntegrationInstallations('client-notes');
    validateResponse('GET', '/v1/integrations/client-notes/installations', 200, all);
    expect(all.items.map((i) => i.target.organization).sort()).toEqual([acme.organizationId, other.organizationId].sort());
    const { data: one } = await api.integrations.listIntegrationInstallations('client-notes', { externalId: 'acme-1' });
    expect(one.items.map((i) => i.id)).toEqual([installation.id]);

    const { data: spaces } = await api.integrations.listIntegrationSpaceInstallations('client-notes', { externalId: 'handbook' });
    validateResponse('GET', '/v1/integrations/client-notes/spaces', 200, spaces);
    expect(spaces.items.map((s) => s.space)).toEqual([spaceId]);
    expect((await api.integrations.listIntegrationSpaceInstallations('client-notes', { externalId: 'nothing' })).data.items).toEqual([]);
    const { data: sites } = await api.integrations.listIntegrationSiteInstallations('client-notes');
    validateResponse('GET', '/v1/integrations/client-notes/sites', 200, sites);
    expect(sites.items).toEqual([]);
    // Listing across organizations is for the admins of the organization that publishes it.
    expect((await failure(otherApi.integrations.listIntegrationInstallations('client-notes'))).code).toBe(403);
  });

  it('lists the events newest first and reads one with its trace', async () => {
    const { data: events } = await api.integrations.listIntegrationEvents('client-notes', { limit: 2 });
    validateResponse('GET', '/v1/integrations/client-notes/events', 200, events);
    expect(events.items).toHaveLength(2);
    const seen = [...events.items];
    const { data: next } = await api.integrations.listIntegrationEvents('client-notes', { page: events.next!.page });
    seen.push(...next.items);
    const types = seen.map((e) => e.payload.type);
    expect(types.filter((type) => type === 'installation_setup')).toHaveLength(3);
    expect(types).toContain('space_installation_setup');
    expect(seen.map((e) => e.createdAt)).toEqual([...seen.map((e) => e.createdAt)].sort().reverse());

    const { data: event } = await api.integrations.getIntegrationEvent('client-notes', seen[0]!.id);
    validateResponse('GET', `/v1/integrations/client-notes/events/${seen[0]!.id}`, 200, event);
    expect(event.event.id).toBe(seen[0]!.id);
    expect(event.trace?.logs).toEqual([]);
    expect((await failure(api.integrations.getIntegrationEvent('client-notes', 'doesNotExist00000000'))).code).toBe(404);
    expect((await failure(readerApi.integrations.listIntegrationEvents('client-notes'))).code).toBe(403);
  });

  it('turns dev mode on and off; a tunnel on a private address is a 400', async () => {
    const on = await api.integrations.setIntegrationDevelopmentMode('client-notes', { tunnelUrl: 'https://93.184.215.14/tunnel', all: true });
    expect(on.status).toBe(204);
    validateResponse('PUT', '/v1/integrations/client-notes/dev', 204, undefined);
    const refused = await failure(api.integrations.setIntegrationDevelopmentMode('client-notes', { tunnelUrl: 'http://127.0.0.1:9/' }));
    expect(refused.code).toBe(400);
    expect((await failure(readerApi.integrations.setIntegrationDevelopmentMode('client-notes', { tunnelUrl: 'https://93.184.215.14/' }))).code).toBe(403);
    const off = await api.integrations.disableIntegrationDevelopmentMode('client-notes');
    expect(off.status).toBe(204);
    validateResponse('DELETE', '/v1/integrations/client-notes/dev', 204, undefined);
  });

  it('answers render with a 400 for a malformed LZ string, and a 404 for a missing integration', async () => {
    const malformed = await failure(api.integrations.renderIntegrationUiWithGet('client-notes', { request: '%%%not-lz%%%' }));
    expect(malformed.code).toBe(400);
    expect(malformed.message).toMatch(/request/);
    const notRender = await failure(api.integrations.renderIntegrationUiWithGet('client-notes', { request: LZString.compressToEncodedURIComponent(JSON.stringify({ props: {} })) }));
    expect(notRender.code).toBe(400);
    const valid = LZString.compressToEncodedURIComponent(JSON.stringify({ componentId: 'note', props: {}, context: { type: 'document', spaceId, editable: true, theme: 'light' } }));
    expect((await failure(api.integrations.renderIntegrationUiWithGet('client-nothing', { request: valid }))).code).toBe(404);
  });

  it('unpublishes: the integration and its installations are gone', async () => {
    await api.integrations.publishIntegration('client-gone', manifest({ title: 'Gone soon' }));
    expect((await failure(readerApi.integrations.unpublishIntegration('client-gone'))).code).toBe(403);
    const gone = await api.integrations.unpublishIntegration('client-gone');
    expect(gone.status).toBe(204);
    validateResponse('DELETE', '/v1/integrations/client-gone', 204, undefined);
    expect((await failure(api.integrations.getIntegrationByName('client-gone'))).code).toBe(404);
    expect((await api.integrations.unpublishIntegration('client-gone')).status).toBe(204);
  });
});
