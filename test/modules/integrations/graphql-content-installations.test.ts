import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warmSession, type TestApp } from '../../support/clients';
import { gid, MISSING } from '../../support/doors';
import type { Actor, OrgFixture } from '../../support/factories';
import { mutations } from '../../support/graphql';
import { scenario } from '../../support/scenario';

/**
 * The sites and spaces an installation was given, and its tokens, through GraphQL against their
 * /v1 twins (`.../installations/{id}/sites[/{siteId}]`, `.../spaces/{spaceId}`, `.../tokens`,
 * `/v1/integrations/{name}/sites` and `/spaces`) on the same installation.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader', Actor>;
let name: string;
let installation: string;
let otherInstallation: string;
let spaceId: string;

const SCRIPT = 'export default { fetch() { return new Response("ok"); } };';
const INST = () => `/v1/integrations/${name}/installations/${installation}`;
const instGid = (id = installation) => gid('IntegrationInstallation', id);

async function newSite(owner: OrgFixture, title: string): Promise<string> {
  const res = await t.rest('POST', `/v1/orgs/${owner.organizationId}/sites`, { token: owner.admin.token, body: { title } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Read'] }));
  name = 'content-twin';
  const published = await t.rest('POST', `/v1/integrations/${name}`, { token: acme.admin.token, body: { organization: acme.organizationId, title: 'Twin', description: '', scopes: ['space:content:read'], script: SCRIPT, visibility: 'public' } });
  expect(published.status).toBe(200);
  installation = (await t.rest('POST', `/v1/integrations/${name}/installations`, { token: acme.admin.token, body: { organization: acme.organizationId } })).body.id;
  otherInstallation = (await t.rest('POST', `/v1/integrations/${name}/installations`, { token: other.admin.token, body: { organization: other.organizationId } })).body.id;
  spaceId = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Given' } })).body.id;
  expect((await t.rest('POST', `${INST()}/spaces`, { token: acme.admin.token, body: { space: spaceId } })).status).toBe(201);
});
afterAll(() => t?.close());

const { succeed, refused, userError } = mutations(() => t, { token: () => acme.admin.token });

const SITES = `query ($id: ID!) { node(id: $id) { ... on IntegrationInstallation { siteInstallations { totalCount edges { node { id status configuration externalIds site { restId } installation { restId } } } } } } }`;
const sitesOf = async (token = acme.admin.token) => (await t.graphql(SITES, { id: instGid() }, token)).body.data.node.siteInstallations;

describe('site installations', () => {
  it('gives a site, changes its settings and takes it away; REST reads each step', async () => {
    const site = await newSite(acme, 'Docs');
    const given = await succeed('integrationSiteInstall', { installationId: instGid(), siteId: gid('Site', site) }, 'siteInstallation { id status site { restId } }');
    expect(given.siteInstallation).toEqual({ id: expect.any(String), status: 'ACTIVE', site: { restId: site } });
    const rest = await t.rest('GET', `${INST()}/sites`, { token: acme.admin.token });
    expect(rest.body.items.map((s: { site: string }) => s.site)).toEqual([site]);
    const listed = await sitesOf(people.reader.token);
    expect(listed.totalCount).toBe(1);
    expect(listed.edges[0].node).toMatchObject({ id: given.siteInstallation.id, status: rest.body.items[0].status.toUpperCase(), configuration: rest.body.items[0].configuration, externalIds: rest.body.items[0].externalIds, installation: { restId: installation } });

    const changed = await succeed('integrationSiteInstallationUpdate', { installationId: instGid(), siteId: gid('Site', site), externalIds: ['ext-1'] }, 'siteInstallation { externalIds }');
    expect(changed.siteInstallation).toEqual({ externalIds: ['ext-1'] });
    expect((await t.rest('GET', `${INST()}/sites/${site}`, { token: acme.admin.token })).body.externalIds).toEqual(['ext-1']);
    const byExternalId = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on Integration { siteInstallations(externalId: "ext-1") { edges { node { site { restId } } } } } } }`, { id: (await t.graphql(`{ integration(name: "${name}") { id } }`, {}, acme.admin.token)).body.data.integration.id }, acme.admin.token);
    expect(byExternalId.body.data.node.siteInstallations.edges).toEqual([{ node: { site: { restId: site } } }]);
    const node = await t.graphql('query ($id: ID!) { node(id: $id) { ... on IntegrationSiteInstallation { externalIds } } }', { id: given.siteInstallation.id }, acme.admin.token);
    expect(node.body.data.node).toEqual({ externalIds: ['ext-1'] });

    await userError('integrationSiteInstall', { installationId: instGid(), siteId: gid('Site', site) }, 'CONFLICT', null);
    const gone = await succeed('integrationSiteUninstall', { installationId: instGid(), siteId: gid('Site', site) }, 'deletedSiteInstallationId');
    expect(gone.deletedSiteInstallationId).toBe(given.siteInstallation.id);
    expect((await t.rest('GET', `${INST()}/sites/${site}`, { token: acme.admin.token })).status).toBe(404);
    expect((await sitesOf()).totalCount).toBe(0);
  });

  it('refuses a reader as REST does (403), and a site of another organization as REST does (400); nothing is given', async () => {
    const site = await newSite(acme, 'Guarded');
    expect((await t.rest('POST', `${INST()}/sites`, { token: people.reader.token, body: { siteId: site } })).status).toBe(403);
    await refused('integrationSiteInstall', { installationId: instGid(), siteId: gid('Site', site) }, people.reader.token, 'FORBIDDEN');
    const foreignSite = await newSite(other, 'Theirs');
    expect((await t.rest('POST', `${INST()}/sites`, { token: acme.admin.token, body: { siteId: foreignSite } })).status).toBe(400);
    await userError('integrationSiteInstall', { installationId: instGid(), siteId: gid('Site', foreignSite) }, 'VALIDATION_FAILED', ['siteId']);
    await userError('integrationSiteInstall', { installationId: instGid(), siteId: gid('Site', MISSING) }, 'VALIDATION_FAILED', ['siteId']);
    expect((await sitesOf()).totalCount).toBe(0);
  });

  it("answers another organization's installation like a missing one", async () => {
    const site = await newSite(acme, 'Mine');
    expect((await t.rest('POST', `/v1/integrations/${name}/installations/${otherInstallation}/sites`, { token: people.reader.token, body: { siteId: site } })).status).toBe(404);
    const foreign = await refused('integrationSiteInstall', { installationId: instGid(otherInstallation), siteId: gid('Site', site) }, people.reader.token, 'NOT_FOUND');
    const missing = await refused('integrationSiteInstall', { installationId: instGid(MISSING), siteId: gid('Site', site) }, people.reader.token, 'NOT_FOUND');
    expect(foreign.errors[0].message).toBe(missing.errors[0].message);
    // Taking a site away is a delete: for an installation the caller cannot see it succeeds and changes nothing (REST: 204).
    await succeed('integrationSiteUninstall', { installationId: instGid(otherInstallation), siteId: gid('Site', site) }, 'deletedSiteInstallationId', people.reader.token);
    await succeed('integrationSiteUninstall', { installationId: instGid(MISSING), siteId: gid('Site', site) }, 'deletedSiteInstallationId', people.reader.token);
  });
});

describe('space installations', () => {
  it('lists and changes what the installation keeps for a space, as REST shows it', async () => {
    const SPACES = `query ($id: ID!) { node(id: $id) { ... on IntegrationInstallation { spaceInstallations { edges { node { id externalIds space { restId } } } } } } }`;
    const before = (await t.graphql(SPACES, { id: instGid() }, acme.admin.token)).body.data.node.spaceInstallations.edges;
    expect(before).toEqual([{ node: { id: expect.any(String), externalIds: [], space: { restId: spaceId } } }]);
    const changed = await succeed('integrationSpaceInstallationUpdate', { installationId: instGid(), spaceId: gid('Space', spaceId), externalIds: ['repo-7'] }, 'spaceInstallation { id externalIds }');
    expect(changed.spaceInstallation).toEqual({ id: before[0].node.id, externalIds: ['repo-7'] });
    expect((await t.rest('GET', `${INST()}/spaces/${spaceId}`, { token: acme.admin.token })).body.externalIds).toEqual(['repo-7']);
    const rest = await t.rest('GET', `/v1/integrations/${name}/spaces?externalId=repo-7`, { token: acme.admin.token });
    const integrationId = (await t.graphql(`{ integration(name: "${name}") { id } }`, {}, acme.admin.token)).body.data.integration.id;
    const gql = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on Integration { spaceInstallations(externalId: "repo-7") { edges { node { space { restId } } } } } } }`, { id: integrationId }, acme.admin.token);
    expect(gql.body.data.node.spaceInstallations.edges.map((e: { node: { space: { restId: string } } }) => e.node.space.restId)).toEqual(rest.body.items.map((s: { space: string }) => s.space));

    expect((await t.rest('PATCH', `${INST()}/spaces/${spaceId}`, { token: people.reader.token, body: { externalIds: ['x'] } })).status).toBe(403);
    await refused('integrationSpaceInstallationUpdate', { installationId: instGid(), spaceId: gid('Space', spaceId), externalIds: ['x'] }, people.reader.token, 'FORBIDDEN');
    expect((await t.rest('PATCH', `${INST()}/spaces/${spaceId}`, { token: acme.admin.token, body: { externalIds: Array(6).fill('x') } })).status).toBe(400);
    await userError('integrationSpaceInstallationUpdate', { installationId: instGid(), spaceId: gid('Space', spaceId), externalIds: Array(6).fill('x') }, 'VALIDATION_FAILED', ['externalIds']);
    expect((await t.rest('GET', `${INST()}/spaces/${spaceId}`, { token: acme.admin.token })).body.externalIds).toEqual(['repo-7']);
  });
});

describe('nested lists', () => {
  it("loads the sites and spaces of every installation in a list with as many statements as for one", async () => {
    for (const extra of ['content-twin-b', 'content-twin-c']) {
      await t.rest('POST', `/v1/integrations/${extra}`, { token: acme.admin.token, body: { organization: acme.organizationId, title: 'Twin', description: '', scopes: ['space:content:read'], script: SCRIPT, visibility: 'public' } });
      const id = (await t.rest('POST', `/v1/integrations/${extra}/installations`, { token: acme.admin.token, body: { organization: acme.organizationId } })).body.id;
      await t.rest('POST', `/v1/integrations/${extra}/installations/${id}/sites`, { token: acme.admin.token, body: { siteId: await newSite(acme, `Site of ${extra}`) } });
    }
    const QUERY = `query ($id: ID!, $n: Int!) { node(id: $id) { ... on Organization { installations(first: $n) { edges { node {
      siteInstallations { totalCount edges { node { status site { title } } } } spaceInstallations { edges { node { externalIds } } } } } } } } }`;
    await warmSession(t, acme.admin.token);
    const statements = async (n: number) => {
      const before = t.database.counter.count;
      const res = await t.graphql(QUERY, { id: gid('Organization', acme.organizationId), n }, acme.admin.token);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.node.installations.edges).toHaveLength(n);
      return t.database.counter.count - before;
    };
    await statements(3);
    expect(await statements(3)).toBe(await statements(1));
  });
});

describe('integrationInstallationTokenCreate', () => {
  it("issues a token that reads the installation's space, as REST's token does", async () => {
    const { token } = await succeed('integrationInstallationTokenCreate', { installationId: instGid() }, 'token');
    expect(typeof token).toBe('string');
    expect((await t.rest('GET', `/v1/spaces/${spaceId}`, { token })).status).toBe(200);
    const restToken = (await t.rest('POST', `${INST()}/tokens`, { token: acme.admin.token })).body.token;
    expect((await t.rest('GET', `/v1/spaces/${spaceId}`, { token: restToken })).status).toBe(200);
    await refused('integrationInstallationTokenCreate', { installationId: instGid() }, people.reader.token, 'FORBIDDEN');
  });
});
