import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/clients';
import { buildTeam, type Actor, type OrgFixture } from '../support/factories';
import { scenario } from '../support/scenario';

let t: TestApp, acme: OrgFixture, other: OrgFixture;
let reader: Actor, owner: Actor, guest: Actor;
let editors: Actor[];
let acmeTeamId: string;
let otherTeamId: string;

/** Runs a query that must succeed and returns its data. */
async function query(source: string, variables: Record<string, unknown>, token: string | null) {
  const res = await t.graphql(source, variables, token);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data;
}

beforeAll(async () => {
  let eddie: Actor, edna: Actor, cora: Actor;
  ({ t, acme, other, people: { reader, owner, guest, eddie, edna, cora } } = await scenario({
    reader: ['read', 'Rita Reader'],
    owner: ['read', 'Olga Owner'],
    guest: [null, 'Gus Guest'],
    eddie: ['edit', 'Eddie Editor'],
    edna: ['edit', 'Edna Editor'],
    cora: ['comment', 'Cora Comment'],
  }));
  editors = [eddie, edna, cora];
  acmeTeamId = (await buildTeam(t.db, acme.organizationId, 'Docs', [{ userId: owner.userId, role: 'owner' }])).id;
  otherTeamId = (await buildTeam(t.db, other.organizationId, 'Secret')).id;
});
afterAll(() => t.close());

const ORG_IDS = `query ($id: ID!) { organization(id: $id) { id restId title } }`;

describe('viewer', () => {
  it('is null without a token, and the answer says how to send one', async () => {
    const anonymous = await t.graphql('{ viewer { user { restId } } }', {}, null);
    expect(anonymous.body.data).toEqual({ viewer: null });
    expect(anonymous.body.extensions.signIn).toMatch(/^No API token was sent, so viewer is null\. Send the header Authorization: Bearer <token> \(in GraphiQL: the Headers pane\)/);
    const signedIn = await t.graphql('{ viewer { user { restId } } }', {}, reader.token);
    expect(signedIn.body.data.viewer.user.restId).toBe(reader.userId);
    expect(signedIn.body.extensions).not.toHaveProperty('signIn');
    // Only an answer whose viewer is null carries it.
    expect((await t.graphql('{ __typename }', {}, null)).body.extensions ?? {}).not.toHaveProperty('signIn');
  });

  it("shows the caller's user and organizations with a total count", async () => {
    const data = await query(
      '{ viewer { user { restId email } organizations { totalCount edges { node { restId title } } } } }',
      {},
      reader.token,
    );
    expect(data.viewer).toEqual({
      user: { restId: reader.userId, email: reader.email },
      organizations: { totalCount: 1, edges: [{ node: { restId: acme.organizationId, title: 'Acme' } }] },
    });
  });

  it('refuses a bad token at HTTP level with 401', async () => {
    const res = await t.graphql('{ viewer { user { restId } } }', {}, 'quire_not-a-token');
    expect(res.status).toBe(401);
  });
});

describe('organization(id:)', () => {
  it('accepts the REST id and the global ID alike', async () => {
    const byRest = await query(ORG_IDS, { id: acme.organizationId }, reader.token);
    expect(byRest.organization).toMatchObject({ restId: acme.organizationId, title: 'Acme' });
    const byGlobal = await query(ORG_IDS, { id: byRest.organization.id }, reader.token);
    expect(byGlobal.organization).toEqual(byRest.organization);
  });

  it("answers another organization and a missing one with null, without errors", async () => {
    const foreignGlobal = (await query(ORG_IDS, { id: other.organizationId }, other.admin.token)).organization.id;
    for (const id of [other.organizationId, foreignGlobal, 'doesnotexist0000000']) {
      expect(await query(ORG_IDS, { id }, reader.token)).toEqual({ organization: null });
    }
  });
});

describe('node and nodes', () => {
  const NODE = `query ($id: ID!) { node(id: $id) { __typename id ... on Organization { restId } ... on OrganizationMember { restId }
    ... on Team { restId } ... on User { restId } } }`;
  const NODES = `query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`;
  const IDS = `query ($org: ID!) { organization(id: $org) { id
    members(first: 1, role: ADMIN) { edges { node { id user { id } } } }
    teams(first: 10) { edges { node { id restId } } } } }`;

  async function globalIds(fixture: OrgFixture, teamId: string) {
    const org = (await query(IDS, { org: fixture.organizationId }, fixture.admin.token)).organization;
    return {
      organization: org.id as string,
      member: org.members.edges[0].node.id as string,
      user: org.members.edges[0].node.user.id as string,
      team: org.teams.edges.find((e: { node: { restId: string } }) => e.node.restId === teamId).node.id as string,
    };
  }

  it('fetches an organization, a member, a team and a user by global ID', async () => {
    const ids = await globalIds(acme, acmeTeamId);
    const expected = {
      organization: { __typename: 'Organization', restId: acme.organizationId },
      member: { __typename: 'OrganizationMember', restId: acme.admin.userId },
      user: { __typename: 'User', restId: acme.admin.userId },
      team: { __typename: 'Team', restId: acmeTeamId },
    };
    for (const [key, id] of Object.entries(ids)) {
      const data = await query(NODE, { id }, reader.token);
      expect(data.node).toEqual({ ...expected[key as keyof typeof expected], id });
    }
    const all = await query(NODES, { ids: Object.values(ids) }, reader.token);
    expect(all.nodes.map((n: { __typename: string }) => n.__typename)).toEqual(['Organization', 'OrganizationMember', 'User', 'Team']);
  });

  it("answers another organization's objects and missing ones with null", async () => {
    const foreign = await globalIds(other, otherTeamId);
    const missing = [
      encodeGlobalID('Organization', 'doesnotexist0000000'),
      encodeGlobalID('OrganizationMember', `${acme.organizationId}/nobody`),
      encodeGlobalID('Team', 'doesnotexist0000000'),
      encodeGlobalID('User', 'doesnotexist0000000'),
    ];
    const hidden = [foreign.organization, foreign.member, foreign.team, ...missing];
    for (const id of hidden) expect(await query(NODE, { id }, reader.token)).toEqual({ node: null });
    expect((await query(NODES, { ids: hidden }, reader.token)).nodes).toEqual(hidden.map(() => null));
  });

  it('shows users of other organizations, as REST does: a name is a public profile', async () => {
    const { user } = await globalIds(other, otherTeamId);
    expect((await query(NODE, { id: user }, reader.token)).node).toMatchObject({ __typename: 'User', restId: other.admin.userId });
    expect((await t.rest('GET', `/v1/users/${other.admin.userId}`, { token: reader.token })).status).toBe(200);
  });
});

describe('Organization.members', () => {
  const MEMBERS = `query ($id: ID!, $role: MemberRoleFilter, $search: String, $sort: MemberSort, $order: SortOrder,
      $first: Int, $after: String, $last: Int, $before: String) {
    organization(id: $id) { members(role: $role, search: $search, sort: $sort, order: $order,
        first: $first, after: $after, last: $last, before: $before) {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { restId role user { displayName } } } } } }`;

  async function members(variables: Record<string, unknown>, token = reader.token) {
    return (await query(MEMBERS, { id: acme.organizationId, ...variables }, token)).organization.members;
  }
  const ids = (conn: { edges: { node: { restId: string } }[] }) => conn.edges.map((e) => e.node.restId);

  it('filters by role, guests included', async () => {
    expect(ids(await members({ role: 'EDIT' })).sort()).toEqual([editors[0].userId, editors[1].userId].sort());
    expect(ids(await members({ role: 'GUEST' }))).toEqual([guest.userId]);
    const admins = await members({ role: 'ADMIN' });
    expect(admins).toMatchObject({ totalCount: 1, edges: [{ node: { restId: acme.admin.userId, role: 'ADMIN' } }] });
  });

  it('searches names and e-mails', async () => {
    const found = await members({ search: 'editor' });
    expect(found.totalCount).toBe(2);
    expect(found.edges.map((e: { node: { user: { displayName: string } } }) => e.node.user.displayName).sort()).toEqual([
      'Eddie Editor',
      'Edna Editor',
    ]);
    expect((await members({ search: 'nobody-has-this' })).edges).toEqual([]);
  });

  it('sorts like the REST list, in both directions', async () => {
    const desc = ids(await members({ order: 'DESC' }));
    const asc = ids(await members({ order: 'ASC' }));
    expect(desc).toHaveLength(7);
    expect(asc).toEqual([...desc].reverse());
    const rest = await t.rest('GET', `/v1/orgs/${acme.organizationId}/members?order=asc`, { token: reader.token });
    expect(rest.body.items.map((m: { id: string }) => m.id)).toEqual(asc);
  });

  it('sorts by last activity, listing only members who have been active', async () => {
    try {
      t.clock.now = new Date('2030-01-01T10:00:00Z');
      await t.rest('POST', `/v1/orgs/${acme.organizationId}/ping`, { token: owner.token });
      t.clock.now = new Date('2030-01-01T11:00:00Z');
      await t.rest('POST', `/v1/orgs/${acme.organizationId}/ping`, { token: reader.token });
    } finally {
      t.clock.now = null;
    }
    expect(ids(await members({ sort: 'LAST_SEEN_AT' }))).toEqual([reader.userId, owner.userId]);
    expect(ids(await members({ sort: 'LAST_SEEN_AT', order: 'ASC' }))).toEqual([owner.userId, reader.userId]);
  });

  it('pages forward with first/after through every member', async () => {
    const all = ids(await members({ first: 100 }));
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page = await members({ first: 3, after });
      pages += 1;
      seen.push(...ids(page));
      expect(page.totalCount).toBe(7);
      expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
  });

  it('pages backward with last/before through every member', async () => {
    const all = ids(await members({ first: 100 }));
    const seen: string[] = [];
    let before: string | null = null;
    for (;;) {
      const page = await members({ last: 3, before });
      seen.unshift(...ids(page));
      expect(page.pageInfo.hasNextPage).toBe(before !== null);
      if (!page.pageInfo.hasPreviousPage) break;
      before = page.pageInfo.startCursor;
    }
    expect(seen).toEqual(all);
  });

  it('refuses more than 100 items per page', async () => {
    const res = await t.graphql(MEMBERS, { id: acme.organizationId, first: 101 }, reader.token);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].message).toMatch(/first must be at most 100/);
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  it('refuses a guest with FORBIDDEN', async () => {
    const res = await t.graphql(MEMBERS, { id: acme.organizationId }, guest.token);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(res.body.errors[0].path).toEqual(['organization', 'members']);
  });
});

describe('viewerPermissions and viewerCanAdminister', () => {
  const PERMISSIONS = `query ($id: ID!) { organization(id: $id) { viewerCanAdminister viewerPermissions {
    view admin ownTeam createContent createOpenAPISpec ingestConversations viewBilling
    listMembers listTeams listIntegrations listInstallations installIntegration } } }`;

  it.each([
    ['an admin', () => acme.admin],
    ['a read member', () => reader],
    ['a read member owning a team', () => owner],
    ['a guest', () => guest],
  ])('match the REST permissions for %s', async (_, actor) => {
    const { token } = actor();
    const { organization } = await query(PERMISSIONS, { id: acme.organizationId }, token);
    const rest = await t.rest('GET', `/v1/orgs/${acme.organizationId}`, { token });
    expect(rest.status).toBe(200);
    expect(organization.viewerPermissions).toEqual(rest.body.permissions);
    expect(organization.viewerCanAdminister).toBe(rest.body.permissions.admin);
  });

  it('differ between roles', async () => {
    const perms = async (token: string) => (await query(PERMISSIONS, { id: acme.organizationId }, token)).organization.viewerPermissions;
    expect(await perms(acme.admin.token)).toMatchObject({ admin: true, ownTeam: true, listMembers: true });
    expect(await perms(owner.token)).toMatchObject({ admin: false, ownTeam: true, listMembers: true });
    expect(await perms(reader.token)).toMatchObject({ admin: false, ownTeam: false, listMembers: true });
    expect(await perms(guest.token)).toMatchObject({ view: true, admin: false, listMembers: false });
  });
});
