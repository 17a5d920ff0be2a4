import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, buildTeam, buildUser, type Actor, type OrgFixture } from '../support/factories';
import { mutations } from '../support/graphql';

let t: TestApp;
let acme: OrgFixture;
let beta: OrgFixture;
let admin: Actor;
let reader: Actor;
let guest: Actor;
let outsider: Actor;

/** Global IDs: a top-level space, a collection closed to guests with a space inside, a space and a team of Beta, Acme's team. */
const ids = { space: '', collection: '', inside: '', betaSpace: '', team: '', betaTeam: '' };
/** REST ids of the same. */
const rest = { space: '', collection: '', inside: '', team: '' };
const userGid = (actor: Actor) => encodeGlobalID('User', actor.userId);

const ACCESS = `viewerRole
  userAccess { totalCount edges { node { role user { id } } } }
  teamAccess { totalCount edges { node { role team { id title } } } }`;

async function post(path: string, token: string, body: unknown) {
  const res = await t.rest('POST', path, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  beta = await buildOrganization(t.db, 'Beta');
  admin = acme.admin;
  reader = await buildMember(t.db, acme.organizationId, 'read', 'Rita Reader');
  guest = await buildMember(t.db, acme.organizationId, null, 'Gus Guest');
  outsider = await buildUser(t.db, 'Otto Outsider');

  const space = await post(`/v1/orgs/${acme.organizationId}/spaces`, admin.token, { title: 'Handbook' });
  const collection = await post(`/v1/orgs/${acme.organizationId}/collections`, admin.token, { title: 'Docs' });
  const inside = await post(`/v1/orgs/${acme.organizationId}/spaces`, admin.token, { title: 'Inside', parent: collection.id });
  const betaSpace = await post(`/v1/orgs/${beta.organizationId}/spaces`, beta.admin.token, { title: 'Beta space' });
  const team = await buildTeam(t.db, acme.organizationId, 'Guests', [{ userId: guest.userId, role: 'member' }]);
  const betaTeam = await buildTeam(t.db, beta.organizationId, 'Beta team');
  Object.assign(rest, { space: space.id, collection: collection.id, inside: inside.id, team: team.id });
  Object.assign(ids, {
    space: encodeGlobalID('Space', space.id),
    collection: encodeGlobalID('Collection', collection.id),
    inside: encodeGlobalID('Space', inside.id),
    betaSpace: encodeGlobalID('Space', betaSpace.id),
    team: encodeGlobalID('Team', team.id),
    betaTeam: encodeGlobalID('Team', betaTeam.id),
  });
});
afterAll(() => t.close());

/** Mutations as Acme's admin, asking for both content fields unless a call selects others. */
const gql = mutations(() => t, { token: () => admin.token, select: 'space { id } collection { id }' });
const succeed = (name: string, input: Record<string, unknown>, select?: string) => gql.succeed(name, input, select);

/** A mutation refused with a top-level error carrying `code`, and no data. */
async function refused(name: string, input: Record<string, unknown>, token: string, code: string) {
  const res = await gql.refused(name, input, token, code);
  expect(res.data).toBeNull();
}

/** A mutation whose input is refused with one user error and no content. */
async function userError(name: string, input: Record<string, unknown>, field: string[] | null) {
  const res = await gql.userError(name, input, 'VALIDATION_FAILED', field);
  expect(res.payload.space).toBeNull();
  expect(res.payload.collection).toBeNull();
  return res.payload.userErrors[0].message as string;
}

async function node(id: string, token: string, select: string) {
  const res = await t.graphql(`query ($id: ID!) { node(id: $id) { ${select} } }`, { id }, token);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data.node;
}

const spaceAs = (actor: Actor, id = ids.space) => node(id, actor.token, `... on Space { viewerCanEdit viewerRole }`);
const restPermissions = async (actor: Actor) => (await t.rest('GET', `/v1/spaces/${rest.space}`, { token: actor.token })).body.permissions;
/** Grants as REST lists them, to check what was written. */
async function restGrants(kind: 'users' | 'teams', path = `/v1/spaces/${rest.space}`) {
  const res = await t.rest('GET', `${path}/permissions/${kind}`, { token: admin.token });
  expect(res.status).toBe(200);
  return res.body.items.map((g: any) => [g.permission, g.user?.id ?? g.team?.id]);
}

describe('contentAccessGrant and contentAccessRevoke', () => {
  it('grant a reader EDIT on a space: viewerCanEdit and the REST permissions follow', async () => {
    expect(await spaceAs(reader)).toEqual({ viewerCanEdit: false, viewerRole: 'READ' });
    expect((await restPermissions(reader)).edit).toBe(false);

    const payload = await succeed('contentAccessGrant', { contentId: ids.space, role: 'EDIT', userIds: [userGid(reader)] }, `space { id ${ACCESS} } collection { id }`);
    expect(payload.collection).toBeNull();
    expect(payload.space).toEqual({
      id: ids.space,
      viewerRole: 'ADMIN',
      userAccess: { totalCount: 1, edges: [{ node: { role: 'EDIT', user: { id: userGid(reader) } } }] },
      teamAccess: { totalCount: 0, edges: [] },
    });

    expect(await spaceAs(reader)).toEqual({ viewerCanEdit: true, viewerRole: 'EDIT' });
    expect(await restPermissions(reader)).toMatchObject({ view: true, edit: true, admin: false });
    expect(await restGrants('users')).toEqual([['edit', reader.userId]]);
  });

  it('grant a team on a collection: a guest in the team sees its spaces', async () => {
    const SEEN = '... on Collection { title viewerRole spaces { edges { node { title viewerRole } } } }';
    expect(await node(ids.collection, guest.token, SEEN)).toBeNull();
    expect(await node(ids.inside, guest.token, '... on Space { title }')).toBeNull();

    const payload = await succeed('contentAccessGrant', { contentId: ids.collection, role: 'READ', teamIds: [ids.team] }, `space { id } collection { id ${ACCESS} }`);
    expect(payload.space).toBeNull();
    expect(payload.collection).toMatchObject({
      id: ids.collection,
      userAccess: { totalCount: 0, edges: [] },
      teamAccess: { totalCount: 1, edges: [{ node: { role: 'READ', team: { id: ids.team, title: 'Guests' } } }] },
    });

    expect(await node(ids.collection, guest.token, SEEN)).toEqual({
      title: 'Docs',
      viewerRole: 'READ',
      spaces: { edges: [{ node: { title: 'Inside', viewerRole: 'READ' } }] },
    });
    expect(await node(ids.inside, guest.token, '... on Space { title }')).toEqual({ title: 'Inside' });
    expect(await restGrants('teams', `/v1/collections/${rest.collection}`)).toEqual([['read', rest.team]]);
  });

  it('grant again to change the role, and list grants page by page', async () => {
    await succeed('contentAccessGrant', { contentId: ids.space, role: 'COMMENT', userIds: [userGid(guest), userGid(reader), userGid(reader)] });
    expect(await restGrants('users')).toEqual(expect.arrayContaining([['comment', reader.userId], ['comment', guest.userId]]));
    expect(await spaceAs(reader)).toEqual({ viewerCanEdit: false, viewerRole: 'COMMENT' });

    const q = 'query ($id: ID!, $after: String) { node(id: $id) { ... on Space { userAccess(first: 1, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { role user { id } } } } } } }';
    const first = (await t.graphql(q, { id: ids.space }, admin.token)).body.data.node.userAccess;
    expect(first).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true } });
    const second = (await t.graphql(q, { id: ids.space, after: first.pageInfo.endCursor }, admin.token)).body.data.node.userAccess;
    expect(second.pageInfo.hasNextPage).toBe(false);
    expect(new Set([first, second].map((c) => c.edges[0].node.user.id))).toEqual(new Set([userGid(reader), userGid(guest)]));

    await succeed('contentAccessGrant', { contentId: ids.space, role: 'EDIT', userIds: [userGid(reader)] });
    await succeed('contentAccessRevoke', { contentId: ids.space, userIds: [userGid(guest)] });
    expect(await restGrants('users')).toEqual([['edit', reader.userId]]);
  });

  it('answer bad grantees with user errors or a VALIDATION_FAILED error, writing nothing', async () => {
    const before = { users: await restGrants('users'), teams: await restGrants('teams') };

    // One valid grantee and one who is not a member: neither is granted.
    // The field points at the refused entry; the message names it by its REST id.
    const notMember = await userError('contentAccessGrant', { contentId: ids.space, role: 'ADMIN', userIds: [userGid(guest), userGid(outsider)] }, ['userIds', '1']);
    expect(notMember).toContain(outsider.userId);
    await userError('contentAccessGrant', { contentId: ids.space, role: 'ADMIN', teamIds: [ids.team, ids.betaTeam] }, ['teamIds', '1']);
    await userError('contentAccessRevoke', { contentId: ids.space, userIds: [userGid(reader), userGid(outsider)] }, ['userIds', '1']);

    // No grantee at all.
    await userError('contentAccessGrant', { contentId: ids.space, role: 'ADMIN', userIds: [], teamIds: [] }, null);
    await userError('contentAccessGrant', { contentId: ids.space, role: 'ADMIN' }, null);
    await userError('contentAccessRevoke', { contentId: ids.collection, teamIds: [] }, null);

    // A Team ID where a User ID goes, and the other way round.
    await refused('contentAccessGrant', { contentId: ids.space, role: 'ADMIN', userIds: [ids.team] }, admin.token, 'VALIDATION_FAILED');
    await refused('contentAccessGrant', { contentId: ids.space, role: 'ADMIN', teamIds: [userGid(guest)] }, admin.token, 'VALIDATION_FAILED');
    // A User ID as the content.
    await refused('contentAccessGrant', { contentId: userGid(guest), role: 'ADMIN', userIds: [userGid(guest)] }, admin.token, 'VALIDATION_FAILED');

    expect({ users: await restGrants('users'), teams: await restGrants('teams') }).toEqual(before);
    expect(await spaceAs(guest)).toBeNull();
  });

  it('refuse non-admins with FORBIDDEN, and foreign or missing content with NOT_FOUND (a revoke there changes nothing and succeeds, as REST deletes do)', async () => {
    const before = await restGrants('users');
    await refused('contentAccessGrant', { contentId: ids.space, role: 'ADMIN', userIds: [userGid(reader)] }, reader.token, 'FORBIDDEN');
    await refused('contentAccessRevoke', { contentId: ids.space, userIds: [userGid(reader)] }, reader.token, 'FORBIDDEN');
    await refused('contentAccessGrant', { contentId: ids.collection, role: 'READ', userIds: [userGid(reader)] }, reader.token, 'FORBIDDEN');
    // The guest cannot see the space at all.
    await refused('contentAccessGrant', { contentId: ids.space, role: 'ADMIN', userIds: [userGid(guest)] }, guest.token, 'NOT_FOUND');
    await refused('contentAccessGrant', { contentId: ids.betaSpace, role: 'READ', userIds: [userGid(reader)] }, admin.token, 'NOT_FOUND');
    expect(await succeed('contentAccessRevoke', { contentId: ids.betaSpace, userIds: [userGid(reader)] })).toMatchObject({ space: null, collection: null });
    await refused('contentAccessGrant', { contentId: encodeGlobalID('Collection', 'doesnotexist0000000'), role: 'READ', userIds: [userGid(reader)] }, admin.token, 'NOT_FOUND');
    await refused('contentAccessGrant', { contentId: ids.space, role: 'READ', userIds: [userGid(reader)] }, outsider.token, 'NOT_FOUND');
    expect(await restGrants('users')).toEqual(before);
    expect((await t.rest('GET', `/v1/spaces/${rest.space}/permissions/users`, { token: beta.admin.token })).status).toBe(404);
  });

  it('revoke: the grants and the access they gave are gone', async () => {
    const payload = await succeed('contentAccessRevoke', { contentId: ids.collection, teamIds: [ids.team] }, `space { id } collection { id ${ACCESS} }`);
    expect(payload.space).toBeNull();
    expect(payload.collection.teamAccess).toEqual({ totalCount: 0, edges: [] });
    expect(await node(ids.collection, guest.token, '... on Collection { title }')).toBeNull();
    expect(await node(ids.inside, guest.token, '... on Space { title }')).toBeNull();
    expect(await restGrants('teams', `/v1/collections/${rest.collection}`)).toEqual([]);

    const space = (await succeed('contentAccessRevoke', { contentId: ids.space, userIds: [userGid(reader)] }, `space { id ${ACCESS} } collection { id }`)).space;
    expect(space.userAccess).toEqual({ totalCount: 0, edges: [] });
    expect(await spaceAs(reader)).toEqual({ viewerCanEdit: false, viewerRole: 'READ' });
    expect((await restPermissions(reader)).edit).toBe(false);
    expect(await restGrants('users')).toEqual([]);

    // Revoking access that was not granted succeeds.
    await succeed('contentAccessRevoke', { contentId: ids.space, userIds: [userGid(reader)], teamIds: [ids.team] });
  });
});

describe('viewerRole', () => {
  const ROLES = `query ($space: ID!, $collection: ID!, $inside: ID!) {
    space: node(id: $space) { ... on Space { viewerRole } }
    collection: node(id: $collection) { ... on Collection { viewerRole } }
    inside: node(id: $inside) { ... on Space { viewerRole } } }`;

  async function roles(actor: Actor) {
    const res = await t.graphql(ROLES, { space: ids.space, collection: ids.collection, inside: ids.inside }, actor.token);
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    const { space, collection, inside } = res.body.data;
    return [space?.viewerRole ?? space, collection?.viewerRole ?? collection, inside?.viewerRole ?? inside];
  }

  it('is ADMIN for an admin, the organization role for a read member, and null for a guest without grants', async () => {
    expect(await roles(admin)).toEqual(['ADMIN', 'ADMIN', 'ADMIN']);
    expect(await roles(reader)).toEqual(['READ', 'READ', 'READ']);
    // The guest sees nothing, so the objects themselves are null.
    expect(await roles(guest)).toEqual([null, null, null]);
    expect(await roles(outsider)).toEqual([null, null, null]);
  });

  it('follows grants: on the content itself, and from a collection to the spaces inside it', async () => {
    await succeed('contentAccessGrant', { contentId: ids.space, role: 'COMMENT', userIds: [userGid(guest)] });
    await succeed('contentAccessGrant', { contentId: ids.collection, role: 'REVIEW', userIds: [userGid(reader)] });
    expect(await roles(guest)).toEqual(['COMMENT', null, null]);
    expect(await roles(reader)).toEqual(['READ', 'REVIEW', 'REVIEW']);
    await succeed('contentAccessGrant', { contentId: ids.collection, role: 'EDIT', teamIds: [ids.team] });
    expect(await roles(guest)).toEqual(['COMMENT', 'EDIT', 'EDIT']);
  });
});
