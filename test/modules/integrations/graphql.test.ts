import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/clients';
import { gid, MISSING } from '../../support/doors';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';
import { mutations } from '../../support/graphql';

/**
 * Integrations through GraphQL: the Integration, IntegrationInstallation and IntegrationEvent
 * nodes, the connections that list them, and the four installation mutations, over the same
 * services as /v1 (integrations are published over /v1, as the official CLI does).
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let reader: Actor;
let otherReader: Actor;
let otherGuest: Actor;
let guide: string;
let notes: string;
let foreignSpace: string;

const SCRIPT = 'export default { fetch() { return new Response("ok"); } };';

async function publish(name: string, owner: OrgFixture, visibility: 'public' | 'private') {
  const res = await t.rest('POST', `/v1/integrations/${name}`, {
    token: owner.admin.token,
    body: { organization: owner.organizationId, title: `Title ${name}`, description: 'Does things', scopes: ['space:content:read'], categories: ['content'], script: SCRIPT, visibility },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const found = await t.graphql('query ($name: String!) { integration(name: $name) { id } }', { name }, owner.admin.token);
  return found.body.data.integration.id as string;
}

async function space(org: OrgFixture, title: string): Promise<string> {
  const res = await t.rest('POST', `/v1/orgs/${org.organizationId}/spaces`, { token: org.admin.token, body: { title } });
  expect(res.status).toBe(201);
  return res.body.id;
}

const query = (text: string, variables: Record<string, unknown>, token: string | null) => t.graphql(text, variables, token);
const nodeOf = async (id: string, fields: string, token: string) => (await query(`query ($id: ID!) { node(id: $id) { id ${fields} } }`, { id }, token)).body.data.node;

const { succeed, userError, refused, mutate } = mutations(() => t, { token: () => acme.admin.token });

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  reader = await buildMember(t.db, acme.organizationId, 'read', 'Rita Reader');
  otherReader = await buildMember(t.db, other.organizationId, 'read', 'Otto Reader');
  otherGuest = await buildMember(t.db, other.organizationId, null, 'Gus Guest');
  guide = await space(acme, 'Guide');
  notes = await space(acme, 'Notes');
  foreignSpace = await space(other, 'Elsewhere');
});
afterAll(async () => {
  await t?.close();
});

describe('Integration and IntegrationInstallation nodes', () => {
  it('reads an integration through integration(name:), node and its organization', async () => {
    const id = await publish('gql-reader', acme, 'private');
    const node = await nodeOf(id, '... on Integration { restId name title version visibility target scopes categories viewerCanPublish owner { title } publicEndpoint }', acme.admin.token);
    expect(node).toMatchObject({ id, name: 'gql-reader', title: 'Title gql-reader', version: 1, visibility: 'PRIVATE', target: 'ALL', scopes: ['space:content:read'], categories: ['CONTENT'], viewerCanPublish: true, owner: { title: 'Acme' } });
    expect(node.publicEndpoint).toMatch(/\/v1\/integrations\/gql-reader\/integration$/);
    expect((await nodeOf(id, '... on Integration { viewerCanPublish }', reader.token)).viewerCanPublish).toBe(false);
    const listed = await query('query ($id: ID!) { node(id: $id) { ... on Organization { integrations(first: 10) { totalCount edges { node { name } } } } } }', { id: gid('Organization', acme.organizationId) }, reader.token);
    expect(listed.body.data.node.integrations.edges.map((e: any) => e.node.name)).toContain('gql-reader');
  });

  it("another organization's private integration answers like a missing one, by node, by name and to a mutation", async () => {
    const id = await publish('gql-secret', acme, 'private');
    const foreign = await query('query ($id: ID!, $name: String!) { node(id: $id) { id } integration(name: $name) { id } }', { id, name: 'gql-secret' }, other.admin.token);
    const missing = await query('query ($id: ID!, $name: String!) { node(id: $id) { id } integration(name: $name) { id } }', { id: gid('Integration', MISSING), name: 'gql-none' }, other.admin.token);
    expect(foreign.body.data).toEqual({ node: null, integration: null });
    expect(foreign.body.errors).toBeUndefined();
    expect(missing.body).toEqual(foreign.body);
    const org = gid('Organization', other.organizationId);
    const a = await refused('integrationInstall', { integrationId: id, organizationId: org }, other.admin.token, 'NOT_FOUND');
    const b = await refused('integrationInstall', { integrationId: gid('Integration', MISSING), organizationId: org }, other.admin.token, 'NOT_FOUND');
    expect(a.errors[0].message).toBe(b.errors[0].message);
    const listed = await query('{ integrations(first: 100) { edges { node { name } } } }', {}, other.admin.token);
    expect(listed.body.data.integrations.edges.map((e: any) => e.node.name)).not.toContain('gql-secret');
  });

  it('loads many nodes in one batch each, missing ones as null', async () => {
    const a = await publish('gql-batch-a', acme, 'public');
    const b = await publish('gql-batch-b', acme, 'public');
    const ia = (await succeed('integrationInstall', { integrationId: a, organizationId: gid('Organization', acme.organizationId) }, 'installation { id }')).installation.id;
    const ib = (await succeed('integrationInstall', { integrationId: b, organizationId: gid('Organization', acme.organizationId) }, 'installation { id }')).installation.id;
    const ids = [a, b, ia, ib, gid('Integration', MISSING), gid('IntegrationInstallation', MISSING)];
    const doc = 'query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on IntegrationInstallation { integration { name } } } }';
    await query(doc, { ids }, acme.admin.token);
    const before = t.database.counter.count;
    const res = await query(doc, { ids }, acme.admin.token);
    const statements = t.database.counter.count - before;
    expect(res.body.data.nodes).toEqual([{ id: a }, { id: b }, { id: ia, integration: { name: 'gql-batch-a' } }, { id: ib, integration: { name: 'gql-batch-b' } }, null, null]);
    // One statement for the integrations, one for the installations: not one per id.
    expect(statements).toBeLessThanOrEqual(3);
  });
});

describe('installation mutations', () => {
  let integration: string;
  let installation: string;
  let restId: string;
  const org = () => gid('Organization', acme.organizationId);

  it('installs, refuses a second install, and lists the installation on the organization', async () => {
    integration = await publish('gql-installed', acme, 'private');
    const { installation: made } = await succeed('integrationInstall', { integrationId: integration, organizationId: org() }, 'installation { id restId status spaceSelection viewerCanManage integration { id } organization { id } }');
    installation = made.id;
    restId = made.restId;
    expect(made).toMatchObject({ status: 'ACTIVE', spaceSelection: 'SELECTED', viewerCanManage: true, integration: { id: integration }, organization: { id: org() } });
    const again = await userError('integrationInstall', { integrationId: integration, organizationId: org() }, 'CONFLICT', null, { select: 'installation { id }' });
    expect(again.payload.installation).toBeNull();
    const listed = await query('query ($id: ID!) { node(id: $id) { ... on Organization { installations(first: 20) { edges { node { id integration { name } } } } } } }', { id: org() }, reader.token);
    expect(listed.body.data.node.installations.edges.map((e: any) => e.node.id)).toContain(installation);
    expect((await nodeOf(installation, '... on IntegrationInstallation { viewerCanManage }', reader.token)).viewerCanManage).toBe(false);
  });

  it('gives exactly the spaces set, each change an event', async () => {
    const sel = 'installation { spaces(first: 10) { totalCount edges { node { id title } } } }';
    const set = (ids: string[]) => succeed('integrationInstallationSpacesSet', { installationId: installation, spaceIds: ids.map((s) => gid('Space', s)) }, sel);
    expect((await set([guide, notes])).installation.spaces.edges.map((e: any) => e.node.title).sort()).toEqual(['Guide', 'Notes']);
    const after = (await set([notes])).installation.spaces;
    expect(after.totalCount).toBe(1);
    expect(after.edges.map((e: any) => e.node.title)).toEqual(['Notes']);
    const rest = await t.rest('GET', '/v1/integrations/gql-installed/spaces', { token: acme.admin.token });
    expect(rest.body.items.map((s: { space: string }) => s.space)).toEqual([notes]);
    const events = await nodeOf(integration, '... on Integration { events(first: 10) { edges { node { type space { title } } } } }', acme.admin.token);
    const seen = events.events.edges.map((e: any) => [e.node.type, e.node.space?.title]);
    // Newest first; the two spaces set up by one mutation share their moment, so either may come first.
    expect(seen[0]).toEqual(['space_installation_deleted', 'Guide']);
    expect(seen.slice(1, 3).sort()).toEqual([
      ['space_installation_setup', 'Guide'],
      ['space_installation_setup', 'Notes'],
    ]);
    expect(seen.slice(3)).toEqual([['installation_setup', undefined]]);
  });

  it('refuses a space of another organization, naming the entry, and changes nothing', async () => {
    const res = await userError('integrationInstallationSpacesSet', { installationId: installation, spaceIds: [gid('Space', notes), gid('Space', foreignSpace)] }, 'VALIDATION_FAILED', ['spaceIds', '1'], { select: 'installation { id }' });
    expect(res.payload.installation).toBeNull();
    const missing = await userError('integrationInstallationSpacesSet', { installationId: installation, spaceIds: [gid('Space', notes), gid('Space', MISSING)] }, 'VALIDATION_FAILED', ['spaceIds', '1']);
    expect(missing.payload.userErrors[0].message.replace(MISSING, '<id>')).toBe(res.payload.userErrors[0].message.replace(foreignSpace, '<id>'));
    const wrongType = await mutate('integrationInstallationSpacesSet', { installationId: installation, spaceIds: [gid('Collection', notes)] });
    expect(wrongType.errors?.[0]?.message).toBeTruthy();
    const spaces = await nodeOf(installation, '... on IntegrationInstallation { spaces { edges { node { title } } } }', acme.admin.token);
    expect(spaces.spaces.edges.map((e: any) => e.node.title)).toEqual(['Notes']);
  });

  it('updates configuration, selections and external ids; bad values are user errors on the field', async () => {
    const sel = 'installation { configuration spaceSelection siteSelection externalIds }';
    const { installation: updated } = await succeed('integrationInstallationUpdate', { installationId: installation, configuration: { channel: '#docs' }, spaceSelection: 'ALL', externalIds: ['ext-1'] }, sel);
    expect(updated).toEqual({ configuration: { channel: '#docs' }, spaceSelection: 'ALL', siteSelection: 'SELECTED', externalIds: ['ext-1'] });
    const rest = await t.rest('GET', `/v1/integrations/gql-installed/installations/${restId}`, { token: acme.admin.token });
    expect(rest.body).toMatchObject({ configuration: { channel: '#docs' }, space_selection: 'all', externalIds: ['ext-1'] });
    await userError('integrationInstallationUpdate', { installationId: installation, externalIds: ['1', '2', '3', '4', '5', '6'] }, 'VALIDATION_FAILED', ['externalIds']);
    await userError('integrationInstallationUpdate', { installationId: installation, configuration: ['not', 'an', 'object'] }, 'VALIDATION_FAILED', ['configuration']);
    const badEnum = await mutate('integrationInstallationUpdate', { installationId: installation, spaceSelection: 'SOME' });
    expect(badEnum.errors[0].message).toMatch(/SOME/);
    expect((await nodeOf(installation, '... on IntegrationInstallation { spaceSelection }', acme.admin.token)).spaceSelection).toBe('ALL');
  });

  it('refuses members who are not admins (FORBIDDEN); for outsiders uninstalling succeeds and changes nothing, as for a missing installation (REST: 204)', async () => {
    await refused('integrationInstallationUpdate', { installationId: installation, externalIds: [] }, reader.token, 'FORBIDDEN');
    await refused('integrationInstallationSpacesSet', { installationId: installation, spaceIds: [] }, reader.token, 'FORBIDDEN');
    await refused('integrationUninstall', { installationId: installation }, reader.token, 'FORBIDDEN');
    const foreign = await succeed('integrationUninstall', { installationId: installation }, 'deletedInstallationId', other.admin.token);
    const missing = await succeed('integrationUninstall', { installationId: gid('IntegrationInstallation', MISSING) }, 'deletedInstallationId', other.admin.token);
    expect([foreign.deletedInstallationId, missing.deletedInstallationId]).toEqual([installation, gid('IntegrationInstallation', MISSING)]);
    expect(await nodeOf(installation, '', other.admin.token)).toBeNull();
    expect(await nodeOf(installation, '', acme.admin.token)).toEqual({ id: installation });
    const anonymous = await t.graphql('mutation ($i: IntegrationUninstallInput!) { integrationUninstall(input: $i) { deletedInstallationId } }', { i: { installationId: installation } }, null);
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('uninstalls: the node is gone and its events stay, without their installation', async () => {
    const { deletedInstallationId } = await succeed('integrationUninstall', { installationId: installation }, 'deletedInstallationId');
    expect(deletedInstallationId).toBe(installation);
    expect(await nodeOf(installation, '', acme.admin.token)).toBeNull();
    const events = await nodeOf(integration, '... on Integration { installations { totalCount } events(first: 1) { edges { node { type installation { id } } } } }', acme.admin.token);
    expect(events.installations.totalCount).toBe(0);
    expect(events.events.edges).toEqual([{ node: { type: 'installation_deleted', installation: null } }]);
  });
});

describe('Integration.events', () => {
  let integration: string;
  let ours: string;
  let theirs: string;

  beforeAll(async () => {
    integration = await publish('gql-public', acme, 'public');
    ours = (await succeed('integrationInstall', { integrationId: integration, organizationId: gid('Organization', acme.organizationId) }, 'installation { id }')).installation.id;
    theirs = (await succeed('integrationInstall', { integrationId: integration, organizationId: gid('Organization', other.organizationId) }, 'installation { id }', other.admin.token)).installation.id;
    // Eleven events in all: two installs, then nine updates alternating between the organizations.
    for (let i = 0; i < 9; i++) {
      const [id, token] = i % 2 ? [theirs, other.admin.token] : [ours, acme.admin.token];
      await succeed('integrationInstallationUpdate', { installationId: id, externalIds: [`n${i}`] }, '', token);
    }
  });

  const EVENTS = `query ($id: ID!, $first: Int, $after: String, $last: Int, $before: String) { node(id: $id) { ... on Integration {
    events(first: $first, after: $after, last: $last, before: $before) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id restId installation { id } } } } } } }`;
  const page = async (token: string, args: Record<string, unknown>) => (await query(EVENTS, { id: integration, ...args }, token)).body.data.node.events;

  it('pages forward and backward through every event, newest first, for the admins of its publisher', async () => {
    const rest = await t.rest('GET', '/v1/integrations/gql-public/events', { token: acme.admin.token });
    const order = rest.body.items.map((e: { id: string }) => e.id);
    expect(order).toHaveLength(11);
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const p = await page(acme.admin.token, { first: 4, after });
      expect(p.totalCount).toBe(11);
      seen.push(...p.edges.map((e: any) => e.node.restId));
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor;
    }
    expect(seen).toEqual(order);
    const last = await page(acme.admin.token, { last: 3 });
    expect(last.edges.map((e: any) => e.node.restId)).toEqual(order.slice(8));
    expect(last.pageInfo.hasPreviousPage).toBe(true);
    const before = await page(acme.admin.token, { last: 2, before: last.pageInfo.startCursor });
    expect(before.edges.map((e: any) => e.node.restId)).toEqual(order.slice(6, 8));
  });

  it('shows the members of another organization the events of their own installation, without the trace', async () => {
    const theirsOnly = await page(otherReader.token, { first: 20 });
    expect(theirsOnly.totalCount).toBe(5);
    expect(new Set(theirsOnly.edges.map((e: any) => e.node.installation.id))).toEqual(new Set([theirs]));
    const one = theirsOnly.edges[0].node.id;
    expect(await nodeOf(one, '... on IntegrationEvent { type status trace { logs { message } } }', otherReader.token)).toMatchObject({ type: 'installation_setup', status: 'PENDING', trace: null });
    expect((await nodeOf(one, '... on IntegrationEvent { trace { logs { message } error } }', acme.admin.token)).trace).toEqual({ logs: [], error: null });
    // Guests of that organization, and members of neither, see no event at all.
    expect((await page(otherGuest.token, { first: 20 })).totalCount).toBe(0);
    expect(await nodeOf(one, '', otherGuest.token)).toBeNull();
    const ourEvent = (await page(acme.admin.token, { first: 20 })).edges.find((e: any) => e.node.installation.id === ours).node.id;
    expect(await nodeOf(ourEvent, '', otherReader.token)).toBeNull();
  });

  it('refuses a forged cursor and an oversized page with an error code', async () => {
    const forged = await query(EVENTS, { id: integration, first: 2, after: 'not-a-cursor' }, acme.admin.token);
    expect(forged.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    const huge = await query(EVENTS, { id: integration, first: 101 }, acme.admin.token);
    expect(huge.body.errors[0].extensions.code).toMatch(/VALIDATION_FAILED|QUERY_TOO_COMPLEX/);
  });

  it('costs a bounded number of statements for the events of many integrations', async () => {
    const doc = `query ($id: ID!) { node(id: $id) { ... on Organization { integrations(first: 20) { edges { node { name
      installations(first: 5) { edges { node { id organization { title } spaces(first: 5) { edges { node { title } } } } } }
      events(first: 5) { edges { node { type installation { id } } } } } } } } } }`;
    const variables = { id: gid('Organization', acme.organizationId) };
    await query(doc, variables, acme.admin.token);
    const before = t.database.counter.count;
    const res = await query(doc, variables, acme.admin.token);
    const statements = t.database.counter.count - before;
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(res.body.data.node.integrations.edges.length).toBeGreaterThan(4);
    expect(statements).toBeLessThanOrEqual(9);
  });
});
