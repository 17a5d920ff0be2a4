import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildTeam, buildUser, type Actor, type OrgFixture } from '../../support/factories';
import type { TestApp } from '../../support/clients';
import { scenario } from '../../support/scenario';

let t: TestApp, acme: OrgFixture, other: OrgFixture;
let owner: Actor, reader: Actor, editor: Actor, guest: Actor;

beforeAll(async () => {
  ({ t, acme, other, people: { owner, reader, editor, guest } } = await scenario({
    owner: ['read', 'Olga Owner'],
    reader: ['read', 'Rita Reader'],
    editor: ['edit', 'Eddie Editor'],
    guest: [null, 'Gus Guest'],
  }));
});
afterAll(() => t.close());

const teamPath = (teamId: string) => `/v1/orgs/${acme.organizationId}/teams/${teamId}`;
const membersPath = (teamId: string) => `${teamPath(teamId)}/members`;
/** The team's members as `{ userId: teamRole }`. */
async function roster(teamId: string): Promise<Record<string, string>> {
  const res = await t.rest('GET', `${membersPath(teamId)}?limit=1000`, { token: acme.admin.token });
  expect(res.status).toBe(200);
  expect(res.body.count).toBe(res.body.items.length);
  return Object.fromEntries(res.body.items.map((i: { organization: { id: string }; team: { role: string } }) => [i.organization.id, i.team.role]));
}
const teamSize = async (teamId: string) => (await t.rest('GET', teamPath(teamId), { token: acme.admin.token })).body.members;
const memberTeams = async (userId: string) =>
  (await t.rest('GET', `/v1/orgs/${acme.organizationId}/members/${userId}`, { token: acme.admin.token })).body.teams;
const update = (teamId: string, body: unknown, token = acme.admin.token) => t.rest('PUT', membersPath(teamId), { token, body });

describe('GET /v1/orgs/{organizationId}/teams/{teamId}/members', () => {
  it('lists each member as their organization membership, team role and permissions', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Listed', [
      { userId: owner.userId, role: 'owner' },
      { userId: guest.userId, role: 'member' },
    ]);
    const res = await t.rest('GET', membersPath(team.id), { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    const olga = res.body.items.find((i: { organization: { id: string } }) => i.organization.id === owner.userId);
    expect(olga).toEqual({
      organization: expect.objectContaining({ object: 'member', id: owner.userId, role: 'read', teams: 1 }),
      team: { role: 'owner' },
      permissions: { view: true },
    });
    expect(olga.organization.user.displayName).toBe('Olga Owner');
    const gus = res.body.items.find((i: { organization: { id: string } }) => i.organization.id === guest.userId);
    expect(gus.organization.role).toBeNull();
    expect(gus.team.role).toBe('member');
  });

  it('pages through the members with a small limit', async () => {
    const people = await Promise.all([1, 2, 3, 4, 5].map(() => buildMember(t.db, acme.organizationId, 'read')));
    const team = await buildTeam(t.db, acme.organizationId, 'Paged', people.map((p) => ({ userId: p.userId, role: 'member' as const })));
    const first = await t.rest('GET', `${membersPath(team.id)}?limit=3`, { token: acme.admin.token });
    expect(first.body.items).toHaveLength(3);
    expect(first.body.count).toBe(5);
    const second = await t.rest('GET', `${membersPath(team.id)}?limit=3&page=${encodeURIComponent(first.body.next.page)}`, { token: acme.admin.token });
    expect(second.body.items).toHaveLength(2);
    expect(second.body.next).toBeUndefined();
    const ids = [...first.body.items, ...second.body.items].map((i: { organization: { id: string } }) => i.organization.id);
    expect(ids.sort()).toEqual(people.map((p) => p.userId).sort());
  });

  it('answers 404 for a missing team', async () => {
    expect((await t.rest('GET', membersPath('noSuchTeam000000000'), { token: acme.admin.token })).status).toBe(404);
  });
});

describe('PUT /v1/orgs/{organizationId}/teams/{teamId}/members', () => {
  it('adds members by id and by e-mail, and the counts follow', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Growing');
    const res = await update(team.id, { add: [reader.userId, editor.email.toUpperCase()] });
    expect(res.status).toBe(204);
    expect(await roster(team.id)).toEqual({ [reader.userId]: 'member', [editor.userId]: 'member' });
    expect(await teamSize(team.id)).toBe(2);
    const editorTeams = await memberTeams(editor.userId);
    await update(team.id, { remove: [editor.userId] });
    expect(await memberTeams(editor.userId)).toBe(editorTeams - 1);
  });

  it('removes members by id and by e-mail', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Shrinking', [
      { userId: reader.userId, role: 'member' },
      { userId: editor.userId, role: 'owner' },
      { userId: guest.userId, role: 'member' },
    ]);
    expect((await update(team.id, { remove: [reader.userId, editor.email] })).status).toBe(204);
    expect(await roster(team.id)).toEqual({ [guest.userId]: 'member' });
    expect(await teamSize(team.id)).toBe(1);
  });

  it('removes a user named in both add and remove, however they are named', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Undecided', [{ userId: guest.userId, role: 'member' }]);
    const res = await update(team.id, { add: [reader.userId, editor.email, guest.userId], remove: [reader.email, editor.userId, guest.userId] });
    expect(res.status).toBe(204);
    expect(await roster(team.id)).toEqual({});
  });

  it('sets roles with memberships, for people added now and people already there', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Reshuffled', [{ userId: reader.userId, role: 'member' }]);
    const res = await update(team.id, {
      add: [editor.userId, guest.userId],
      memberships: { [reader.userId]: { role: 'owner' }, [editor.email]: { role: 'owner' } },
    });
    expect(res.status).toBe(204);
    expect(await roster(team.id)).toEqual({ [reader.userId]: 'owner', [editor.userId]: 'owner', [guest.userId]: 'member' });
    await update(team.id, { memberships: { [reader.userId]: { role: 'member' } } });
    expect((await roster(team.id))[reader.userId]).toBe('member');
  });

  it('rejects adding someone outside the organization with 400, changing nothing', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Closed', [{ userId: reader.userId, role: 'member' }]);
    const outsider = await buildUser(t.db);
    for (const stranger of [outsider.userId, outsider.email, other.admin.email]) {
      const res = await update(team.id, { add: [editor.userId, stranger], remove: [reader.userId] });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/add/);
    }
    expect(await roster(team.id)).toEqual({ [reader.userId]: 'member' });
  });

  it.each([
    [{ memberships: { placeholder: { role: 'admin' } } }],
    [{ memberships: { 'stranger@nowhere.test': { role: 'owner' } } }],
    [{ add: 'someone' }],
    [{ add: [''] }],
    [{ kick: [] }],
  ])('rejects %j with 400, changing nothing', async (body) => {
    const team = await buildTeam(t.db, acme.organizationId, 'Strict', [{ userId: reader.userId, role: 'member' }]);
    const json = JSON.parse(JSON.stringify(body).replace('placeholder', reader.userId));
    expect((await update(team.id, json)).status).toBe(400);
    expect(await roster(team.id)).toEqual({ [reader.userId]: 'member' });
  });

  it('ignores removing people who are not in the team or not in the organization', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Steady', [{ userId: reader.userId, role: 'member' }]);
    const outsider = await buildUser(t.db);
    const res = await update(team.id, { remove: [editor.userId, outsider.email, 'nobody@nowhere.test', 'noSuchUser000000000'] });
    expect(res.status).toBe(204);
    expect(await roster(team.id)).toEqual({ [reader.userId]: 'member' });
  });

  it("lets a read team owner manage their team's members, but not another team's", async () => {
    const mine = await buildTeam(t.db, acme.organizationId, 'Owned', [{ userId: owner.userId, role: 'owner' }]);
    expect((await update(mine.id, { add: [reader.userId] }, owner.token)).status).toBe(204);
    expect(await roster(mine.id)).toEqual({ [owner.userId]: 'owner', [reader.userId]: 'member' });

    const theirs = await buildTeam(t.db, acme.organizationId, 'Not Owned', [{ userId: owner.userId, role: 'member' }]);
    expect((await update(theirs.id, { add: [reader.userId] }, owner.token)).status).toBe(403);
    expect((await update(theirs.id, { memberships: { [owner.userId]: { role: 'owner' } } }, owner.token)).status).toBe(403);
    expect(await roster(theirs.id)).toEqual({ [owner.userId]: 'member' });
  });
});

describe('PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', () => {
  it('adds a member with a role, then changes it', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'One By One');
    const path = `${membersPath(team.id)}/${editor.userId}`;
    expect((await t.rest('PUT', path, { token: acme.admin.token, body: { role: 'owner' } })).status).toBe(204);
    expect(await roster(team.id)).toEqual({ [editor.userId]: 'owner' });
    expect(await teamSize(team.id)).toBe(1);
    expect((await t.rest('PUT', path, { token: acme.admin.token, body: { role: 'member' } })).status).toBe(204);
    expect(await roster(team.id)).toEqual({ [editor.userId]: 'member' });
    expect(await teamSize(team.id)).toBe(1);
  });

  it('adds as a plain member when no role is given', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Defaults');
    expect((await t.rest('PUT', `${membersPath(team.id)}/${guest.userId}`, { token: acme.admin.token })).status).toBe(204);
    expect((await t.rest('PUT', `${membersPath(team.id)}/${reader.userId}`, { token: acme.admin.token, body: {} })).status).toBe(204);
    expect(await roster(team.id)).toEqual({ [guest.userId]: 'member', [reader.userId]: 'member' });
  });

  it('makes a read member who becomes owner able to rename the team', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Handover');
    const rename = () => t.rest('PATCH', teamPath(team.id), { token: reader.token, body: { title: 'Handed Over' } });
    expect((await rename()).status).toBe(403);
    await t.rest('PUT', `${membersPath(team.id)}/${reader.userId}`, { token: acme.admin.token, body: { role: 'owner' } });
    expect((await rename()).status).toBe(200);
  });

  it('rejects a bad role with 400, changing nothing', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Picky', [{ userId: reader.userId, role: 'member' }]);
    for (const role of ['admin', 'Owner', null]) {
      const res = await t.rest('PUT', `${membersPath(team.id)}/${reader.userId}`, { token: acme.admin.token, body: { role } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/role/);
    }
    expect(await roster(team.id)).toEqual({ [reader.userId]: 'member' });
  });

  it('answers 404 for someone outside the organization, and 403 to a plain team member', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Guarded', [{ userId: reader.userId, role: 'member' }]);
    const outsider = await buildUser(t.db);
    expect((await t.rest('PUT', `${membersPath(team.id)}/${outsider.userId}`, { token: acme.admin.token, body: {} })).status).toBe(404);
    const self = await t.rest('PUT', `${membersPath(team.id)}/${reader.userId}`, { token: reader.token, body: { role: 'owner' } });
    expect(self.status).toBe(403);
    expect(await roster(team.id)).toEqual({ [reader.userId]: 'member' });
  });
});

describe('DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', () => {
  it('removes the member from the team only, and the counts follow', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Parting', [
      { userId: reader.userId, role: 'member' },
      { userId: editor.userId, role: 'member' },
    ]);
    const readerTeams = await memberTeams(reader.userId);
    expect((await t.rest('DELETE', `${membersPath(team.id)}/${reader.userId}`, { token: acme.admin.token })).status).toBe(204);
    expect(await roster(team.id)).toEqual({ [editor.userId]: 'member' });
    expect(await teamSize(team.id)).toBe(1);
    expect(await memberTeams(reader.userId)).toBe(readerTeams - 1);
    expect((await t.rest('GET', `/v1/orgs/${acme.organizationId}/members/${reader.userId}`, { token: acme.admin.token })).status).toBe(200);
  });

  it('answers 204 for someone not in the team', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Unchanged', [{ userId: editor.userId, role: 'member' }]);
    expect((await t.rest('DELETE', `${membersPath(team.id)}/${reader.userId}`, { token: acme.admin.token })).status).toBe(204);
    expect((await t.rest('DELETE', `${membersPath(team.id)}/noSuchUser000000000`, { token: acme.admin.token })).status).toBe(204);
    expect(await roster(team.id)).toEqual({ [editor.userId]: 'member' });
  });

  it('lets a team owner remove members, but not a plain member', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Owner Rules', [
      { userId: owner.userId, role: 'owner' },
      { userId: reader.userId, role: 'member' },
      { userId: editor.userId, role: 'member' },
    ]);
    expect((await t.rest('DELETE', `${membersPath(team.id)}/${editor.userId}`, { token: reader.token })).status).toBe(403);
    expect((await t.rest('DELETE', `${membersPath(team.id)}/${editor.userId}`, { token: owner.token })).status).toBe(204);
    expect(await roster(team.id)).toEqual({ [owner.userId]: 'owner', [reader.userId]: 'member' });
  });
});
