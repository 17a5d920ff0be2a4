/**
 * The member and invite twins through GraphQL over HTTP, each checked against its REST twin on
 * the same data: a member's teams and spaces, invite links (list, one, update) and joining
 * through a link, single sign-on choices. Another organization's objects answer as missing ones do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/clients';
import { gid, memberGid, MISSING } from '../support/doors';
import { buildUser, type Actor, type OrgFixture } from '../support/factories';
import { mutations } from '../support/graphql';
import { makeIdp } from '../support/saml-idp';
import { scenario } from '../support/scenario';

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'writer' | 'reader', Actor>;
const org = () => `/v1/orgs/${acme.organizationId}`;

const { mutate, succeed } = mutations(() => t, { token: () => acme.admin.token });

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ writer: ['edit', 'Wanda Writer'], reader: ['read', 'Rita Reader'] }));
});
afterAll(() => t?.close());

const gql = async (query: string, variables: Record<string, unknown>, token: string = acme.admin.token) => {
  const res = await t.graphql(query, variables, token);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data;
};

const MEMBER = `query ($id: ID!) { node(id: $id) { ... on OrganizationMember {
  teams { totalCount edges { node { role team { restId title } } } }
  spaces(order: ASC) { totalCount edges { node { role space { restId title } } } } } } }`;

describe("a member's teams and spaces", () => {
  it('list the same teams, spaces and roles as REST', async () => {
    for (const title of ['Docs', 'Ops']) {
      const team = await t.rest('PUT', `${org()}/teams`, { token: acme.admin.token, body: { title, members: [people.writer.userId] } });
      expect(team.status).toBe(201);
    }
    for (const [title, role] of [['Guide', 'edit'], ['Notes', 'comment']] as const) {
      const space = await t.rest('POST', `${org()}/spaces`, { token: acme.admin.token, body: { title } });
      expect((await t.rest('POST', `/v1/spaces/${space.body.id}/permissions`, { token: acme.admin.token, body: { role, users: [people.writer.userId] } })).status).toBeLessThan(300);
    }
    const data = await gql(MEMBER, { id: memberGid(acme.organizationId, people.writer.userId) });
    const restTeams = await t.rest('GET', `${org()}/members/${people.writer.userId}/teams`, { token: acme.admin.token });
    const restSpaces = await t.rest('GET', `${org()}/members/${people.writer.userId}/spaces?order=asc`, { token: acme.admin.token });
    const teams = data.node.teams.edges.map((e: any) => [e.node.team.restId, e.node.role.toLowerCase()]);
    expect(teams).toEqual(restTeams.body.items.map((i: any) => [i.team.id, i.member.role]));
    expect(data.node.teams.edges.map((e: any) => e.node.team.title)).toEqual(['Docs', 'Ops']);
    const spaces = data.node.spaces.edges.map((e: any) => [e.node.space.restId, e.node.role.toLowerCase()]);
    expect(spaces).toEqual(restSpaces.body.items.map((i: any) => [i.space.id, i.permission]));
    expect(data.node.spaces.edges.map((e: any) => [e.node.space.title, e.node.role])).toEqual([['Guide', 'EDIT'], ['Notes', 'COMMENT']]);
    expect(data.node.spaces.totalCount).toBe(2);
  });

  it("another organization's member answers null, as REST answers 404", async () => {
    expect((await t.rest('GET', `${org()}/members/${people.writer.userId}/teams`, { token: other.admin.token })).status).toBe(404);
    expect((await t.rest('GET', `${org()}/members/${people.writer.userId}/spaces`, { token: other.admin.token })).status).toBe(404);
    expect((await gql(MEMBER, { id: memberGid(acme.organizationId, people.writer.userId) }, other.admin.token)).node).toBeNull();
  });
});

const INVITES = `query ($org: ID!, $invite: String!) { organization(id: $org) {
  linkInvites { totalCount edges { node { restId role } } }
  linkInvite(id: $invite) { restId role } } }`;

describe('invite links', () => {
  it('list, read and update as REST does', async () => {
    const created = await t.rest('POST', `${org()}/link-invites`, { token: acme.admin.token, body: { role: 'read' } });
    expect(created.status).toBe(201);
    const data = await gql(INVITES, { org: gid('Organization', acme.organizationId), invite: created.body.id });
    const rest = await t.rest('GET', `${org()}/link-invites`, { token: acme.admin.token });
    expect(data.organization.linkInvites.edges.map((e: any) => [e.node.restId, e.node.role.toLowerCase()])).toEqual(rest.body.items.map((i: any) => [i.id, i.role]));
    expect(data.organization.linkInvite).toEqual({ restId: created.body.id, role: 'READ' });
    expect((await gql(INVITES, { org: gid('Organization', acme.organizationId), invite: MISSING })).organization.linkInvite).toBeNull();
    expect((await t.rest('GET', `${org()}/link-invites/${MISSING}`, { token: acme.admin.token })).status).toBe(404);

    const updated = await succeed('organizationLinkInviteUpdate', { organizationId: gid('Organization', acme.organizationId), inviteId: created.body.id, role: 'COMMENT' }, 'invite { restId role }');
    expect(updated.invite).toEqual({ restId: created.body.id, role: 'COMMENT' });
    expect((await t.rest('GET', `${org()}/link-invites/${created.body.id}`, { token: acme.admin.token })).body.role).toBe('comment');
  });

  it('a non-admin is refused and another organization answers as missing, as in REST; nothing changed', async () => {
    const created = await t.rest('POST', `${org()}/link-invites`, { token: acme.admin.token, body: { role: 'read' } });
    const input = { organizationId: gid('Organization', acme.organizationId), inviteId: created.body.id, role: 'ADMIN' };
    expect((await t.rest('PATCH', `${org()}/link-invites/${created.body.id}`, { token: people.reader.token, body: { role: 'admin' } })).status).toBe(403);
    expect((await mutate('organizationLinkInviteUpdate', input, people.reader.token)).errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.rest('PATCH', `${org()}/link-invites/${created.body.id}`, { token: other.admin.token, body: { role: 'admin' } })).status).toBe(404);
    expect((await mutate('organizationLinkInviteUpdate', input, other.admin.token)).errors[0].extensions.code).toBe('NOT_FOUND');
    const read = await t.graphql(INVITES, { org: gid('Organization', acme.organizationId), invite: created.body.id }, other.admin.token);
    expect(read.body.data.organization).toBeNull();
    expect((await t.rest('GET', `${org()}/link-invites/${created.body.id}`, { token: acme.admin.token })).body.role).toBe('read');
  });

  it('organizationJoin joins with the link\'s role, as REST\'s invites/{id} does; a wrong link is missing', async () => {
    const invite = await t.rest('POST', `${org()}/link-invites`, { token: acme.admin.token, body: { role: 'comment' } });
    const viaRest = await buildUser(t.db, 'Rest Joiner');
    const viaGraphql = await buildUser(t.db, 'Graphql Joiner');
    expect((await t.rest('POST', `${org()}/invites/${invite.body.id}`, { token: viaRest.token })).status).toBe(200);
    const joined = await succeed('organizationJoin', { organizationId: gid('Organization', acme.organizationId), inviteId: invite.body.id }, 'organization { restId }', viaGraphql.token);
    expect(joined.organization.restId).toBe(acme.organizationId);
    const roles = await Promise.all([viaRest, viaGraphql].map(async (u) => (await t.rest('GET', `${org()}/members/${u.userId}`, { token: acme.admin.token })).body.role));
    expect(roles).toEqual(['comment', 'comment']);

    const stranger = await buildUser(t.db, 'Stranger');
    expect((await t.rest('POST', `${org()}/invites/${MISSING}`, { token: stranger.token })).status).toBe(404);
    const wrong = await mutate('organizationJoin', { organizationId: gid('Organization', acme.organizationId), inviteId: MISSING }, stranger.token);
    expect(wrong.errors[0].extensions.code).toBe('NOT_FOUND');
    const otherOrg = await mutate('organizationJoin', { organizationId: gid('Organization', other.organizationId), inviteId: invite.body.id }, stranger.token);
    expect(otherOrg.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await t.rest('GET', `${org()}/members/${stranger.userId}`, { token: acme.admin.token })).status).toBe(404);
  });
});

describe('single sign-on choices', () => {
  it("Organization.ssoLogins lists what REST's /sso lists, to any member; another organization answers as missing", async () => {
    const idp = await makeIdp();
    const body = { label: 'Okta', entityID: idp.entityId, ssoURL: idp.ssoUrl, certificate: idp.certificate };
    expect((await t.rest('POST', `${org()}/saml`, { token: acme.admin.token, body })).status).toBe(201);
    const query = 'query ($id: ID!) { organization(id: $id) { ssoLogins { restId label startUrl } } }';
    const data = await gql(query, { id: gid('Organization', acme.organizationId) }, people.reader.token);
    const rest = await t.rest('GET', `${org()}/sso`, { token: people.reader.token });
    expect(data.organization.ssoLogins).toEqual(rest.body.items.map((i: any) => ({ restId: i.id, label: i.label, startUrl: i.startURL })));
    expect(data.organization.ssoLogins.map((l: any) => l.label)).toEqual(['Okta']);
    expect((await t.rest('GET', `${org()}/sso`, { token: other.admin.token })).status).toBe(404);
    expect((await gql(query, { id: gid('Organization', acme.organizationId) }, other.admin.token)).organization).toBeNull();
  });
});
