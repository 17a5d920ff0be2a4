import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildTeam, buildUser, type Actor, type OrgFixture } from '../../support/factories';
import type { TestApp } from '../../support/clients';
import { contentHelpers } from '../../support/content';
import { scenario } from '../../support/scenario';

let t: TestApp, acme: OrgFixture, other: OrgFixture;
let reader: Actor, guest: Actor, teamGuest: Actor;
let teamId: string;
let foreignTeamId: string;

beforeAll(async () => {
  ({ t, acme, other, people: { reader, guest, teamGuest } } = await scenario({
    reader: ['read', 'Rita Reader'],
    guest: [null, 'Gus Guest'],
    teamGuest: [null, 'Tess Teamguest'],
  }));
  teamId = (await buildTeam(t.db, acme.organizationId, 'Writers', [{ userId: teamGuest.userId, role: 'member' }])).id;
  foreignTeamId = (await buildTeam(t.db, other.organizationId, 'Elsewhere')).id;
});
afterAll(() => t.close());

const admin = () => acme.admin.token;
const content = contentHelpers(() => t, () => acme);
const newSpace = async (body: Record<string, unknown> = {}) => (await content.newSpace({ title: 'Shared', ...body })) as { id: string };
const newCollection = async () => (await content.newCollection({ title: 'Handbook' })) as { id: string };
const permissionsOf = async (spaceId: string, token: string) => {
  const res = await t.rest('GET', `/v1/spaces/${spaceId}`, { token });
  return res.status === 200 ? res.body.permissions : res.status;
};

describe('granting access to a space', () => {
  it('lifts a reader above their organization role, and a guest from nothing', async () => {
    const space = await newSpace();
    expect((await permissionsOf(space.id, reader.token)).edit).toBe(false);
    expect(await permissionsOf(space.id, guest.token)).toBe(404);

    const res = await t.rest('POST', `/v1/spaces/${space.id}/permissions`, { token: admin(), body: { role: 'edit', users: [reader.userId, guest.userId] } });
    expect(res.status).toBe(204);
    expect(await permissionsOf(space.id, reader.token)).toMatchObject({ view: true, comment: true, edit: true, merge: true, review: false, admin: false });
    expect(await permissionsOf(space.id, guest.token)).toMatchObject({ view: true, edit: true, admin: false });

    const users = await t.rest('GET', `/v1/spaces/${space.id}/permissions/users`, { token: reader.token });
    expect(users.body.items.map((i: any) => [i.user.id, i.permission]).sort()).toEqual([[guest.userId, 'edit'], [reader.userId, 'edit']].sort());
  });

  it('reaches the members of a team, and counts the space on the team', async () => {
    const space = await newSpace();
    const before = (await t.rest('GET', `/v1/orgs/${acme.organizationId}/teams/${teamId}`, { token: admin() })).body.spaces;
    expect((await t.rest('PATCH', `/v1/spaces/${space.id}/permissions/teams/${teamId}`, { token: admin(), body: { role: 'comment' } })).status).toBe(204);
    expect(await permissionsOf(space.id, teamGuest.token)).toMatchObject({ view: true, comment: true, edit: false });
    const teams = await t.rest('GET', `/v1/spaces/${space.id}/permissions/teams`, { token: admin() });
    expect(teams.body.items).toHaveLength(1);
    expect(teams.body.items[0]).toMatchObject({ permission: 'comment', team: { id: teamId, title: 'Writers' } });
    expect((await t.rest('GET', `/v1/orgs/${acme.organizationId}/teams/${teamId}`, { token: admin() })).body.spaces).toBe(before + 1);

    expect((await t.rest('DELETE', `/v1/spaces/${space.id}/permissions/teams/${teamId}`, { token: admin() })).status).toBe(204);
    expect(await permissionsOf(space.id, teamGuest.token)).toBe(404);
    // Removing access that is not there succeeds too.
    expect((await t.rest('DELETE', `/v1/spaces/${space.id}/permissions/teams/${teamId}`, { token: admin() })).status).toBe(204);
  });

  it('flows down from a collection to the spaces inside it', async () => {
    const collection = await newCollection();
    const space = await newSpace({ parent: collection.id });
    await t.rest('POST', `/v1/collections/${collection.id}/permissions`, { token: admin(), body: { role: 'admin', users: [guest.userId] } });
    expect(await permissionsOf(space.id, guest.token)).toMatchObject({ view: true, admin: true });
    const patched = await t.rest('PATCH', `/v1/spaces/${space.id}`, { token: guest.token, body: { title: 'Renamed by a guest admin' } });
    expect(patched.status).toBe(200);

    expect((await t.rest('PATCH', `/v1/collections/${collection.id}/permissions/users/${guest.userId}`, { token: admin(), body: { role: null } })).status).toBe(204);
    expect(await permissionsOf(space.id, guest.token)).toBe(404);
  });

  it('is managed by space admins only', async () => {
    const space = await newSpace();
    const res = await t.rest('POST', `/v1/spaces/${space.id}/permissions`, { token: reader.token, body: { role: 'admin', users: [reader.userId] } });
    expect(res.status).toBe(403);
    expect((await permissionsOf(space.id, reader.token)).admin).toBe(false);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const space = await newSpace();
    const outsider = await buildUser(t.db, 'Olly Outsider');
    const bad = [
      { role: 'owner', users: [reader.userId] },
      { users: [reader.userId] },
      { role: 'edit' },
      { role: 'edit', users: [] },
      { role: 'edit', users: [outsider.userId] },
      { role: 'edit', teams: [foreignTeamId] },
      { role: 'edit', users: [reader.userId], extra: true },
    ];
    for (const body of bad) {
      const res = await t.rest('POST', `/v1/spaces/${space.id}/permissions`, { token: admin(), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.rest('GET', `/v1/spaces/${space.id}/permissions/users`, { token: admin() })).body.count).toBe(0);
    expect((await t.rest('GET', `/v1/spaces/${space.id}/permissions/teams`, { token: admin() })).body.count).toBe(0);
    expect((await t.rest('PATCH', `/v1/spaces/${space.id}/permissions/users/${outsider.userId}`, { token: admin(), body: { role: 'read' } })).status).toBe(404);
    expect((await t.rest('PATCH', `/v1/spaces/${space.id}/permissions/teams/${foreignTeamId}`, { token: admin(), body: { role: 'read' } })).status).toBe(404);
  });

  it('answers 404 for another organization’s space, as for a missing one', async () => {
    const space = await newSpace();
    const foreign = await t.rest('POST', `/v1/spaces/${space.id}/permissions`, { token: other.admin.token, body: { role: 'admin', users: [other.admin.userId] } });
    const missing = await t.rest('POST', `/v1/spaces/nope/permissions`, { token: other.admin.token, body: { role: 'admin', users: [other.admin.userId] } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
  });
});

describe('leaving the organization', () => {
  it('takes away what a member was given, so joining again starts afresh', async () => {
    const space = await newSpace({ title: 'Private notes' });
    await t.rest('PATCH', `/v1/spaces/${space.id}`, { token: admin(), body: { defaultLevel: null } });
    const leaver = await buildMember(t.db, acme.organizationId, 'read', 'Lee Leaver');
    await t.rest('POST', `/v1/spaces/${space.id}/permissions`, { token: admin(), body: { role: 'edit', users: [leaver.userId] } });
    expect((await permissionsOf(space.id, leaver.token)).edit).toBe(true);

    expect((await t.rest('DELETE', `/v1/orgs/${acme.organizationId}/members/${leaver.userId}`, { token: admin() })).status).toBe(204);
    expect(await permissionsOf(space.id, leaver.token)).toBe(404);
    await t.rest('POST', `/v1/orgs/${acme.organizationId}/invites`, { token: admin(), body: { emails: [leaver.email], role: 'read' } });
    expect(await permissionsOf(space.id, leaver.token)).toBe(404);
    expect((await t.rest('GET', `/v1/spaces/${space.id}/permissions/users`, { token: admin() })).body.count).toBe(0);
  });
});

describe('creating content', () => {
  it('makes a `create` member admin of what they create, and of their duplicates', async () => {
    const creator = await buildMember(t.db, acme.organizationId, 'create', 'Cora Creator');
    const collection = await t.rest('POST', `/v1/orgs/${acme.organizationId}/collections`, { token: creator.token, body: { title: 'Mine' } });
    expect(collection.body.permissions).toMatchObject({ admin: true, create: true });
    const space = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: creator.token, body: { title: 'My space', parent: collection.body.id } });
    expect(space.body.permissions.admin).toBe(true);
    expect((await t.rest('PATCH', `/v1/spaces/${space.body.id}`, { token: creator.token, body: { title: 'Renamed' } })).status).toBe(200);
    const users = await t.rest('GET', `/v1/spaces/${space.body.id}/permissions/users`, { token: admin() });
    expect(users.body.items.map((i: any) => [i.user.id, i.permission])).toEqual([[creator.userId, 'admin']]);

    // Someone else's space, duplicated at the top level: the copy is theirs to administer.
    const theirs = await newSpace({ title: 'Not mine' });
    expect((await permissionsOf(theirs.id, creator.token)).admin).toBe(false);
    const copy = await t.rest('POST', `/v1/spaces/${theirs.id}/duplicate`, { token: creator.token });
    expect(copy.status).toBe(201);
    expect(copy.body.permissions.admin).toBe(true);
    expect((await permissionsOf(theirs.id, creator.token)).admin).toBe(false);
  });

  it('gives organization admins no grant: they administer everything already', async () => {
    const space = await newSpace({ title: 'By the admin' });
    expect((await t.rest('GET', `/v1/spaces/${space.id}/permissions/users`, { token: admin() })).body.count).toBe(0);
  });
});

describe('deleting a closed collection', () => {
  it('keeps its spaces closed when they are restored at the top level', async () => {
    const collection = await newCollection();
    await t.rest('PATCH', `/v1/collections/${collection.id}`, { token: admin(), body: { defaultLevel: null } });
    const space = await newSpace({ parent: collection.id, title: 'Closed inside' });
    expect(await permissionsOf(space.id, reader.token)).toBe(404);
    expect((await t.rest('DELETE', `/v1/collections/${collection.id}`, { token: admin() })).status).toBe(204);
    const restored = await t.rest('POST', `/v1/spaces/${space.id}/restore`, { token: admin() });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ defaultLevel: null, visibility: 'private' });
    expect(restored.body.parent).toBeUndefined();
    expect(await permissionsOf(space.id, reader.token)).toBe(404);
  });
});
