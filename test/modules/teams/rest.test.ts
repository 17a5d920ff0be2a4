import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildTeam, buildUser, type Actor, type OrgFixture } from '../../support/factories';
import type { TestApp } from '../../support/clients';
import { scenario } from '../../support/scenario';

let t: TestApp, acme: OrgFixture, other: OrgFixture;
let editor: Actor, reader: Actor, owner: Actor, guest: Actor;
let writersId: string;
let othersTeamId: string;

beforeAll(async () => {
  ({ t, acme, other, people: { editor, reader, owner, guest } } = await scenario({
    editor: ['edit', 'Eddie Editor'],
    reader: ['read', 'Rita Reader'],
    owner: ['read', 'Olga Owner'],
    guest: [null, 'Gus Guest'],
  }));
  writersId = (
    await buildTeam(t.db, acme.organizationId, 'Writers', [
      { userId: owner.userId, role: 'owner' },
      { userId: reader.userId, role: 'member' },
    ])
  ).id;
  othersTeamId = (await buildTeam(t.db, other.organizationId, 'Elsewhere', [{ userId: other.admin.userId, role: 'owner' }])).id;
});
afterAll(() => t.close());

const teamsPath = (org: OrgFixture = acme) => `/v1/orgs/${org.organizationId}/teams`;
const teamPath = (teamId: string, org: OrgFixture = acme) => `${teamsPath(org)}/${teamId}`;
const createTeam = (body: unknown, token = acme.admin.token) => t.rest('PUT', teamsPath(), { token, body });
const listTitles = async (query = '', token = acme.admin.token) =>
  (await t.rest('GET', `${teamsPath()}${query ? `?${query}` : ''}`, { token })).body.items.map((team: { title: string }) => team.title);
const memberTeams = async (userId: string) =>
  (await t.rest('GET', `/v1/orgs/${acme.organizationId}/members/${userId}`, { token: acme.admin.token })).body.teams;

describe('PUT /v1/orgs/{organizationId}/teams', () => {
  it('creates an empty team with 201 that can then be read and listed', async () => {
    const res = await createTeam({ title: '  Support  ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'team', title: 'Support', members: 0, spaces: 0, permissions: { admin: true, view: true } });
    const read = await t.rest('GET', teamPath(res.body.id), { token: reader.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: res.body.id, title: 'Support', members: 0, permissions: { admin: false, view: true } });
    expect(await listTitles()).toContain('Support');
  });

  it('creates a team with members given by id or e-mail, each counted once', async () => {
    const a = await buildMember(t.db, acme.organizationId, 'edit');
    const b = await buildMember(t.db, acme.organizationId, null);
    const res = await createTeam({ title: 'Founders', members: [a.userId, b.email.toUpperCase(), a.email] });
    expect(res.status).toBe(201);
    expect(res.body.members).toBe(2);
    const list = await t.rest('GET', `${teamPath(res.body.id)}/members`, { token: acme.admin.token });
    expect(list.body.items.map((i: { organization: { id: string } }) => i.organization.id).sort()).toEqual([a.userId, b.userId].sort());
    expect(list.body.items.map((i: { team: { role: string } }) => i.team.role)).toEqual(['member', 'member']);
    expect(await memberTeams(a.userId)).toBe(1);
    expect(await memberTeams(b.userId)).toBe(1);
  });

  it('accepts a 64-character title and rejects 65 characters with 400, creating nothing', async () => {
    expect((await createTeam({ title: 'x'.repeat(64) })).status).toBe(201);
    const before = (await t.rest('GET', teamsPath(), { token: acme.admin.token })).body.count;
    const res = await createTeam({ title: 'y'.repeat(65) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/title/);
    expect((await t.rest('GET', teamsPath(), { token: acme.admin.token })).body.count).toBe(before);
  });

  it.each([[{}], [{ title: '   ' }], [{ title: 42 }], [{ title: 'Ok', members: 'nope' }], [{ title: 'Ok', colour: 'red' }]])(
    'rejects %j with 400',
    async (body) => {
      expect((await createTeam(body)).status).toBe(400);
    },
  );

  it('rejects a members entry that is not in the organization with 400 and creates no team', async () => {
    const outsider = await buildUser(t.db);
    for (const stranger of [outsider.userId, outsider.email, other.admin.userId]) {
      const res = await createTeam({ title: 'Ghost Team', members: [editor.userId, stranger] });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/members/);
    }
    expect(await listTitles('title=ghost')).toEqual([]);
    expect(await memberTeams(editor.userId)).toBe(0);
  });

  it('refuses non-admins with 403', async () => {
    const res = await createTeam({ title: 'Rogue' }, editor.token);
    expect(res.status).toBe(403);
    expect(await listTitles('title=rogue')).toEqual([]);
  });
});

describe('GET /v1/orgs/{organizationId}/teams', () => {
  it('lists the teams of the organization only, oldest first, with their member counts', async () => {
    const res = await t.rest('GET', teamsPath(), { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({ id: writersId, title: 'Writers', members: 2 });
    expect(res.body.items.map((team: { id: string }) => team.id)).not.toContain(othersTeamId);
    expect(res.body.count).toBe(res.body.items.length);
  });

  it('filters by title, case-insensitively and by substring', async () => {
    await buildTeam(t.db, acme.organizationId, 'Night Writers');
    expect(await listTitles('title=WRITERS')).toEqual(['Writers', 'Night Writers']);
    expect(await listTitles('title=night')).toEqual(['Night Writers']);
    expect(await listTitles('title=nothing-like-this')).toEqual([]);
  });

  it('with owner, lists the teams that member owns; for an admin, every team', async () => {
    const ownedByOwner = await listTitles(`owner=${owner.userId}`, reader.token);
    expect(ownedByOwner).toEqual(['Writers']);
    // A plain team member manages nothing.
    expect(await listTitles(`owner=${reader.userId}`)).toEqual([]);
    const all = await listTitles();
    expect(await listTitles(`owner=${acme.admin.userId}`)).toEqual(all);
    expect(all.length).toBeGreaterThan(1);
  });

  it('rejects an owner who is not a member with 400', async () => {
    const res = await t.rest('GET', `${teamsPath()}?owner=${other.admin.userId}`, { token: acme.admin.token });
    expect(res.status).toBe(400);
  });

  it('tells each caller which teams they may manage', async () => {
    const res = await t.rest('GET', teamsPath(), { token: owner.token });
    const admin = Object.fromEntries(res.body.items.map((team: { id: string; permissions: { admin: boolean } }) => [team.id, team.permissions.admin]));
    expect(admin[writersId]).toBe(true);
    expect(Object.values(admin).filter(Boolean)).toHaveLength(1);
  });

  it('refuses guests with 403 and outsiders with 404', async () => {
    expect((await t.rest('GET', teamsPath(), { token: guest.token })).status).toBe(403);
    expect((await t.rest('GET', teamsPath(), { token: other.admin.token })).status).toBe(404);
  });

  it('pages through the teams without repeating any', async () => {
    const all = await t.rest('GET', `${teamsPath()}?limit=1000`, { token: acme.admin.token });
    const seen: string[] = [];
    let path = `${teamsPath()}?limit=2`;
    for (let i = 0; i < 50; i++) {
      const res = await t.rest('GET', path, { token: acme.admin.token });
      seen.push(...res.body.items.map((team: { id: string }) => team.id));
      expect(res.body.count).toBe(all.body.count);
      if (!res.body.next) break;
      path = `${teamsPath()}?limit=2&page=${encodeURIComponent(res.body.next.page)}`;
    }
    expect(seen).toEqual(all.body.items.map((team: { id: string }) => team.id));
  });
});

describe('GET /v1/orgs/{organizationId}/teams/{teamId}', () => {
  it("answers 404 for a missing team and for another organization's team", async () => {
    expect((await t.rest('GET', teamPath('noSuchTeam000000000'), { token: acme.admin.token })).status).toBe(404);
    expect((await t.rest('GET', teamPath(othersTeamId), { token: acme.admin.token })).status).toBe(404);
  });

  it('lets a guest see a team they belong to, and answers any other like a missing one', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Guest Room', [{ userId: guest.userId, role: 'member' }]);
    const own = await t.rest('GET', teamPath(team.id), { token: guest.token });
    expect(own.status).toBe(200);
    expect(own.body.permissions).toEqual({ admin: false, view: true });
    const other = await t.rest('GET', teamPath(writersId), { token: guest.token });
    expect([other.status, other.body]).toEqual([404, (await t.rest('GET', teamPath('doesNotExist00000000'), { token: guest.token })).body]);
  });
});

describe('PATCH /v1/orgs/{organizationId}/teams/{teamId}', () => {
  it('renames a team', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Old Name');
    const res = await t.rest('PATCH', teamPath(team.id), { token: acme.admin.token, body: { title: 'New Name' } });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('New Name');
    expect((await t.rest('GET', teamPath(team.id), { token: acme.admin.token })).body.title).toBe('New Name');
  });

  it('rejects a title over 64 characters with 400, keeping the old one', async () => {
    const res = await t.rest('PATCH', teamPath(writersId), { token: acme.admin.token, body: { title: 'z'.repeat(65) } });
    expect(res.status).toBe(400);
    expect((await t.rest('GET', teamPath(writersId), { token: acme.admin.token })).body.title).toBe('Writers');
  });

  it("lets a team owner with only read access rename their team, but not someone else's", async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Olga Team', [{ userId: owner.userId, role: 'owner' }]);
    const own = await t.rest('PATCH', teamPath(team.id), { token: owner.token, body: { title: 'Olga Renamed' } });
    expect(own.status).toBe(200);
    expect(own.body.title).toBe('Olga Renamed');

    const elsewhere = await buildTeam(t.db, acme.organizationId, 'Not Olga', [{ userId: owner.userId, role: 'member' }]);
    const refused = await t.rest('PATCH', teamPath(elsewhere.id), { token: owner.token, body: { title: 'Hijacked' } });
    expect(refused.status).toBe(403);
    expect((await t.rest('GET', teamPath(elsewhere.id), { token: acme.admin.token })).body.title).toBe('Not Olga');
  });

  it('answers 404 for a missing team', async () => {
    const res = await t.rest('PATCH', teamPath('noSuchTeam000000000'), { token: acme.admin.token, body: { title: 'X' } });
    expect(res.status).toBe(404);
  });
});

describe('DELETE /v1/orgs/{organizationId}/teams/{teamId}', () => {
  it('deletes the team, and its members count one team fewer', async () => {
    const member = await buildMember(t.db, acme.organizationId, 'edit');
    const team = await buildTeam(t.db, acme.organizationId, 'Doomed', [{ userId: member.userId, role: 'member' }]);
    expect(await memberTeams(member.userId)).toBe(1);
    expect((await t.rest('DELETE', teamPath(team.id), { token: acme.admin.token })).status).toBe(204);
    expect((await t.rest('GET', teamPath(team.id), { token: acme.admin.token })).status).toBe(404);
    expect(await memberTeams(member.userId)).toBe(0);
  });

  it("answers 204 alike for a missing team and for another organization's team, which survives", async () => {
    expect((await t.rest('DELETE', teamPath('noSuchTeam000000000'), { token: acme.admin.token })).status).toBe(204);
    expect((await t.rest('DELETE', teamPath(othersTeamId), { token: acme.admin.token })).status).toBe(204);
    const survivor = await t.rest('GET', teamPath(othersTeamId, other), { token: other.admin.token });
    expect(survivor.status).toBe(200);
    expect(survivor.body.members).toBe(1);
  });

  it("lets a read team owner delete their team, but not someone else's", async () => {
    const mine = await buildTeam(t.db, acme.organizationId, 'Short Lived', [{ userId: owner.userId, role: 'owner' }]);
    expect((await t.rest('DELETE', teamPath(mine.id), { token: owner.token })).status).toBe(204);
    expect((await t.rest('GET', teamPath(mine.id), { token: acme.admin.token })).status).toBe(404);

    const theirs = await buildTeam(t.db, acme.organizationId, 'Sturdy', [{ userId: owner.userId, role: 'member' }]);
    expect((await t.rest('DELETE', teamPath(theirs.id), { token: owner.token })).status).toBe(403);
    expect((await t.rest('DELETE', teamPath(theirs.id), { token: editor.token })).status).toBe(403);
    expect((await t.rest('GET', teamPath(theirs.id), { token: acme.admin.token })).status).toBe(200);
  });
});
