import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyVisitorClaims } from '../../../src/modules/members/service';
import { buildMember, buildOrganization, buildTeam, buildUser, type Actor, type OrgFixture } from '../../support/factories';
import { TEST_ORIGIN, type TestApp } from '../../support/clients';
import { scenario } from '../../support/scenario';

let t: TestApp, acme: OrgFixture, other: OrgFixture;
let editor: Actor, reader: Actor, guest: Actor;

beforeAll(async () => {
  ({ t, acme, other, people: { editor, reader, guest } } = await scenario({
    editor: ['edit', 'Eddie Editor'],
    reader: ['read', 'Rita Reader'],
    guest: [null, 'Gus Guest'],
  }));
});
afterAll(() => t.close());
afterEach(() => {
  t.clock.now = null;
});

const memberPath = (org: OrgFixture, userId: string, rest = '') => `/v1/orgs/${org.organizationId}/members/${userId}${rest}`;
const getMember = (org: OrgFixture, userId: string, token = org.admin.token) => t.rest('GET', memberPath(org, userId), { token });
const memberCount = async (org: OrgFixture) => (await t.rest('GET', `/v1/orgs/${org.organizationId}/members`, { token: org.admin.token })).body.count;

describe('GET /v1/orgs/{organizationId}/members/{userId}', () => {
  it('shows a member with their user and role', async () => {
    const res = await getMember(acme, editor.userId, reader.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'member', id: editor.userId, role: 'edit', sso: false, teams: 0 });
    expect(res.body.user).toMatchObject({ id: editor.userId, displayName: 'Eddie Editor', email: editor.email });
  });

  it('lets a guest see their own membership, and answers anyone else’s like a missing one', async () => {
    const own = await getMember(acme, guest.userId, guest.token);
    expect(own.status).toBe(200);
    expect(own.body.role).toBeNull();
    const others = await getMember(acme, editor.userId, guest.token);
    expect([others.status, others.body]).toEqual([404, (await getMember(acme, 'doesNotExist00000000', guest.token)).body]);
  });

  it('answers 404 for a user who is not a member, and for another organization', async () => {
    const outsider = await buildUser(t.db);
    expect((await getMember(acme, outsider.userId)).status).toBe(404);
    expect((await getMember(other, other.admin.userId, reader.token)).status).toBe(404);
  });
});

describe('PATCH /v1/orgs/{organizationId}/members/{userId}', () => {
  it('changes the role, and the change sticks', async () => {
    const member = await buildMember(t.db, acme.organizationId, 'read');
    const res = await t.rest('PATCH', memberPath(acme, member.userId), { token: acme.admin.token, body: { role: 'review' } });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe('review');
    expect((await getMember(acme, member.userId)).body.role).toBe('review');
  });

  it('makes a guest of a member given a null role', async () => {
    const member = await buildMember(t.db, acme.organizationId, 'edit');
    const res = await t.rest('PATCH', memberPath(acme, member.userId), { token: acme.admin.token, body: { role: null } });
    expect(res.status).toBe(200);
    expect(res.body.role).toBeNull();
    const guests = await t.rest('GET', `/v1/orgs/${acme.organizationId}/members?role=guest`, { token: acme.admin.token });
    expect(guests.body.items.map((m: { id: string }) => m.id)).toContain(member.userId);
    expect((await t.rest('GET', `/v1/orgs/${acme.organizationId}/members`, { token: member.token })).status).toBe(403);
  });

  it.each([[{ role: 'owner' }], [{ role: 'Admin' }], [{}], [{ role: 'read', extra: true }], [['read']]])(
    'rejects %j with 400 and leaves the role alone',
    async (body) => {
      const res = await t.rest('PATCH', memberPath(acme, editor.userId), { token: acme.admin.token, body });
      expect(res.status).toBe(400);
      expect((await getMember(acme, editor.userId)).body.role).toBe('edit');
    },
  );

  it('refuses non-admins with 403', async () => {
    const res = await t.rest('PATCH', memberPath(acme, reader.userId), { token: editor.token, body: { role: 'admin' } });
    expect(res.status).toBe(403);
    expect((await getMember(acme, reader.userId)).body.role).toBe('read');
  });

  it('answers 404 for someone who is not a member', async () => {
    const outsider = await buildUser(t.db);
    const res = await t.rest('PATCH', memberPath(acme, outsider.userId), { token: acme.admin.token, body: { role: 'read' } });
    expect(res.status).toBe(404);
  });

  it('refuses to demote the last admin with 409, and allows it once there is another', async () => {
    const org = await buildOrganization(t.db);
    const demote = () => t.rest('PATCH', memberPath(org, org.admin.userId), { token: org.admin.token, body: { role: 'create' } });
    const refused = await demote();
    expect(refused.status).toBe(409);
    expect((await getMember(org, org.admin.userId)).body.role).toBe('admin');
    const toGuest = await t.rest('PATCH', memberPath(org, org.admin.userId), { token: org.admin.token, body: { role: null } });
    expect(toGuest.status).toBe(409);

    await buildMember(t.db, org.organizationId, 'admin');
    const allowed = await demote();
    expect(allowed.status).toBe(200);
    expect(allowed.body.role).toBe('create');
  });
});

describe('DELETE /v1/orgs/{organizationId}/members/{userId}', () => {
  it('removes the member, who then can no longer see the organization', async () => {
    const member = await buildMember(t.db, acme.organizationId, 'edit');
    const before = await memberCount(acme);
    const res = await t.rest('DELETE', memberPath(acme, member.userId), { token: acme.admin.token });
    expect(res.status).toBe(204);
    expect((await getMember(acme, member.userId)).status).toBe(404);
    expect(await memberCount(acme)).toBe(before - 1);
    expect((await t.rest('GET', `/v1/orgs/${acme.organizationId}`, { token: member.token })).status).toBe(404);
  });

  it('also removes their team memberships', async () => {
    const member = await buildMember(t.db, acme.organizationId, 'edit');
    const team = await buildTeam(t.db, acme.organizationId, 'Leavers', [
      { userId: member.userId, role: 'owner' },
      { userId: reader.userId, role: 'member' },
    ]);
    const teamPath = `/v1/orgs/${acme.organizationId}/teams/${team.id}`;
    expect((await t.rest('GET', teamPath, { token: acme.admin.token })).body.members).toBe(2);

    await t.rest('DELETE', memberPath(acme, member.userId), { token: acme.admin.token });
    expect((await t.rest('GET', teamPath, { token: acme.admin.token })).body.members).toBe(1);
    const list = await t.rest('GET', `${teamPath}/members`, { token: acme.admin.token });
    expect(list.body.items.map((i: { organization: { id: string } }) => i.organization.id)).toEqual([reader.userId]);

    // Coming back does not bring the old team memberships with it.
    const back = await t.rest('POST', `/v1/orgs/${acme.organizationId}/invites`, { token: acme.admin.token, body: { emails: [member.email] } });
    expect(back.body.invited).toBe(1);
    expect((await getMember(acme, member.userId)).body.teams).toBe(0);
  });

  it('answers 204 for someone who is not a member, changing nothing', async () => {
    const outsider = await buildUser(t.db);
    const before = await memberCount(acme);
    expect((await t.rest('DELETE', memberPath(acme, outsider.userId), { token: acme.admin.token })).status).toBe(204);
    expect((await t.rest('DELETE', memberPath(acme, 'nosuchuser000000000'), { token: acme.admin.token })).status).toBe(204);
    expect(await memberCount(acme)).toBe(before);
  });

  it('lets a member leave, guests included', async () => {
    for (const role of ['read', null] as const) {
      const member = await buildMember(t.db, acme.organizationId, role);
      expect((await t.rest('DELETE', memberPath(acme, member.userId), { token: member.token })).status).toBe(204);
      expect((await getMember(acme, member.userId)).status).toBe(404);
    }
  });

  it('refuses a read member removing someone else with 403', async () => {
    const res = await t.rest('DELETE', memberPath(acme, editor.userId), { token: reader.token });
    expect(res.status).toBe(403);
    expect((await getMember(acme, editor.userId)).status).toBe(200);
  });

  it('refuses to remove the last admin with 409, and allows it once there is another', async () => {
    const org = await buildOrganization(t.db);
    const leave = () => t.rest('DELETE', memberPath(org, org.admin.userId), { token: org.admin.token });
    expect((await leave()).status).toBe(409);
    expect((await getMember(org, org.admin.userId)).body.role).toBe('admin');

    const second = await buildMember(t.db, org.organizationId, 'admin');
    expect((await leave()).status).toBe(204);
    expect((await getMember(org, org.admin.userId, second.token)).status).toBe(404);
  });
});

describe('POST /v1/orgs/{organizationId}/members/{userId}/sso', () => {
  it('marks the member as an SSO member', async () => {
    const member = await buildMember(t.db, acme.organizationId, 'read');
    const res = await t.rest('POST', memberPath(acme, member.userId, '/sso'), { token: acme.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: member.userId, sso: true, role: 'read' });
    expect((await getMember(acme, member.userId)).body.sso).toBe(true);
  });

  it('refuses non-admins with 403 and answers 404 for non-members', async () => {
    const res = await t.rest('POST', memberPath(acme, reader.userId, '/sso'), { token: editor.token });
    expect(res.status).toBe(403);
    expect((await getMember(acme, reader.userId)).body.sso).toBe(false);
    const outsider = await buildUser(t.db);
    expect((await t.rest('POST', memberPath(acme, outsider.userId, '/sso'), { token: acme.admin.token })).status).toBe(404);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces', () => {
  it('lists the spaces a member was given directly, with the role, newest first', async () => {
    const none = await t.rest('GET', memberPath(acme, editor.userId, '/spaces?order=asc'), { token: reader.token });
    expect(none.body).toEqual({ items: [], count: 0 });
    const create = (title: string) => t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title } });
    const first = (await create('First shared')).body;
    const second = (await create('Second shared')).body;
    const hidden = (await create('Hidden from readers')).body;
    await t.rest('PATCH', `/v1/spaces/${hidden.id}`, { token: acme.admin.token, body: { defaultLevel: null } });
    const grant = (spaceId: string, role: string) =>
      t.rest('POST', `/v1/spaces/${spaceId}/permissions`, { token: acme.admin.token, body: { role, users: [editor.userId] } });
    expect((await grant(first.id, 'review')).status).toBe(204);
    t.clock.now = new Date(Date.now() + 1000);
    expect((await grant(second.id, 'admin')).status).toBe(204);
    t.clock.now = new Date(Date.now() + 2000);
    expect((await grant(hidden.id, 'edit')).status).toBe(204);

    const byAdmin = await t.rest('GET', memberPath(acme, editor.userId, '/spaces'), { token: acme.admin.token });
    expect(byAdmin.body.items.map((i: any) => [i.space.title, i.permission])).toEqual([
      ['Hidden from readers', 'edit'],
      ['Second shared', 'admin'],
      ['First shared', 'review'],
    ]);
    // The space object is presented for the caller: the admin may administer what the editor was given.
    expect(byAdmin.body.items[0].space.permissions.admin).toBe(true);
    expect((await getMember(acme, editor.userId)).body.spaces).toBe(3);

    // A reader sees the grants on spaces they can see themselves, nothing of the hidden one.
    const byReader = await t.rest('GET', memberPath(acme, editor.userId, '/spaces?order=asc'), { token: reader.token });
    expect(byReader.body.items.map((i: any) => i.space.title)).toEqual(['First shared', 'Second shared']);
    expect(byReader.body.count).toBe(2);

    // A space in the trash is no longer listed.
    await t.rest('DELETE', `/v1/spaces/${second.id}`, { token: acme.admin.token });
    expect((await t.rest('GET', memberPath(acme, editor.userId, '/spaces'), { token: acme.admin.token })).body.count).toBe(2);
    expect((await getMember(acme, editor.userId)).body.spaces).toBe(2);
  });

  it('rejects a bad order with 400, and a guest asking about someone else with 404', async () => {
    const bad = await t.rest('GET', memberPath(acme, editor.userId, '/spaces?order=sideways'), { token: reader.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/order/);
    expect((await t.rest('GET', memberPath(acme, editor.userId, '/spaces'), { token: guest.token })).status).toBe(404);
    expect((await t.rest('GET', memberPath(acme, guest.userId, '/spaces'), { token: guest.token })).status).toBe(200);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/teams', () => {
  it('lists the teams of a member with their role, filtered by title', async () => {
    const member = await buildMember(t.db, acme.organizationId, 'edit');
    const design = await buildTeam(t.db, acme.organizationId, 'Design Crew', [{ userId: member.userId, role: 'owner' }]);
    const docs = await buildTeam(t.db, acme.organizationId, 'Docs', [{ userId: member.userId, role: 'member' }]);
    await buildTeam(t.db, acme.organizationId, 'Design Others', [{ userId: reader.userId, role: 'member' }]);

    const all = await t.rest('GET', memberPath(acme, member.userId, '/teams'), { token: reader.token });
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(2);
    const byTeam = Object.fromEntries(all.body.items.map((i: { team: { id: string }; member: { role: string } }) => [i.team.id, i.member.role]));
    expect(byTeam).toEqual({ [design.id]: 'owner', [docs.id]: 'member' });
    expect((await getMember(acme, member.userId)).body.teams).toBe(2);

    const filtered = await t.rest('GET', memberPath(acme, member.userId, '/teams?title=dESIGN'), { token: reader.token });
    expect(filtered.body.items.map((i: { team: { id: string } }) => i.team.id)).toEqual([design.id]);
    expect(filtered.body.count).toBe(1);
  });

  it('answers 404 for a non-member', async () => {
    const outsider = await buildUser(t.db);
    expect((await t.rest('GET', memberPath(acme, outsider.userId, '/teams'), { token: reader.token })).status).toBe(404);
  });
});

describe('POST /v1/orgs/{organizationId}/ping', () => {
  it('returns signed visitor claims about the caller and records when they were last seen', async () => {
    t.clock.now = new Date('2030-03-04T05:06:07.089Z');
    const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/ping`, { token: editor.token });
    expect(res.status).toBe(200);
    expect(res.body.serviceVisitorClaims).toEqual(expect.any(String));
    expect(res.body.gitbookVisitorClaims).toBe(res.body.serviceVisitorClaims);

    const { payload, protectedHeader } = await verifyVisitorClaims(t.db, res.body.gitbookVisitorClaims);
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.sub).toBe(editor.userId);
    expect(payload).toMatchObject({ organization: acme.organizationId, role: 'edit', email: editor.email, iss: TEST_ORIGIN });
    // Short-lived: issued at the ping, valid for an hour.
    expect(payload.iat).toBe(Date.parse('2030-03-04T05:06:07Z') / 1000);
    expect(payload.exp! - payload.iat!).toBe(3600);

    expect((await getMember(acme, editor.userId)).body.lastSeenAt).toBe('2030-03-04T05:06:07.089Z');
  });

  it('issues claims that do not verify once tampered with', async () => {
    const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/ping`, { token: reader.token });
    const { payload } = await verifyVisitorClaims(t.db, res.body.gitbookVisitorClaims);
    expect(payload.sub).toBe(reader.userId);
    const [header, body, signature] = res.body.gitbookVisitorClaims.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload, sub: acme.admin.userId })).toString('base64url');
    expect(forged).not.toBe(body);
    await expect(verifyVisitorClaims(t.db, `${header}.${forged}.${signature}`)).rejects.toThrow();
  });

  it('records guests too, with no role in their claims', async () => {
    const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/ping`, { token: guest.token });
    expect(res.status).toBe(200);
    const { payload } = await verifyVisitorClaims(t.db, res.body.serviceVisitorClaims);
    expect(payload).toMatchObject({ sub: guest.userId, role: null });
    expect((await getMember(acme, guest.userId)).body.lastSeenAt).toEqual(expect.any(String));
  });

  it('answers 404 to someone outside the organization and 401 without a token', async () => {
    const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/ping`, { token: other.admin.token });
    expect(res.status).toBe(404);
    expect((await t.rest('POST', `/v1/orgs/${acme.organizationId}/ping`)).status).toBe(401);
  });
});

describe('POST /v1/orgs/{organizationId}/invites', () => {
  const invite = (body: unknown, token = acme.admin.token) => t.rest('POST', `/v1/orgs/${acme.organizationId}/invites`, { token, body });
  const fresh = (name: string) => `${name}.${Math.random().toString(36).slice(2)}@invited.test`;

  it('adds new people with the role asked, and reports them in order', async () => {
    const emails = [fresh('ann'), fresh('ben')];
    const res = await invite({ emails, role: 'comment' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ invited: 2, failedSSOEmails: [] });
    expect(res.body.users).toHaveLength(2);
    for (const [i, userId] of res.body.users.entries()) {
      const member = await getMember(acme, userId);
      expect(member.body.role).toBe('comment');
      expect(member.body.user.email).toBe(emails[i]);
    }
  });

  it("gives the organization's default role when none is asked", async () => {
    const org = await buildOrganization(t.db);
    await t.rest('PATCH', `/v1/orgs/${org.organizationId}`, { token: org.admin.token, body: { defaultRole: 'review' } });
    const res = await t.rest('POST', `/v1/orgs/${org.organizationId}/invites`, { token: org.admin.token, body: { emails: [fresh('dee')] } });
    expect(res.status).toBe(200);
    expect((await getMember(org, res.body.users[0])).body.role).toBe('review');
  });

  it('mixes plain addresses, which take the role, with { email, role } entries, which keep their own', async () => {
    const res = await invite({ emails: [fresh('cat'), { email: fresh('dan'), role: 'admin' }, { email: fresh('eve'), role: null }], role: 'edit' });
    expect(res.status).toBe(200);
    expect(res.body.invited).toBe(3);
    const roles = await Promise.all(res.body.users.map(async (id: string) => (await getMember(acme, id)).body.role));
    expect(roles).toEqual(['edit', 'admin', null]);
  });

  it('makes guests with role null', async () => {
    const res = await invite({ emails: [fresh('gil')], role: null });
    expect((await getMember(acme, res.body.users[0])).body.role).toBeNull();
  });

  it('keeps the role of people who are already members and counts only the new ones', async () => {
    const newcomer = fresh('fay');
    const res = await invite({ emails: [editor.email.toUpperCase(), newcomer, { email: reader.email, role: 'admin' }], role: 'create' });
    expect(res.status).toBe(200);
    expect(res.body.invited).toBe(1);
    expect(res.body.users[0]).toBe(editor.userId);
    expect(res.body.users[2]).toBe(reader.userId);
    expect((await getMember(acme, editor.userId)).body.role).toBe('edit');
    expect((await getMember(acme, reader.userId)).body.role).toBe('read');
    expect((await getMember(acme, res.body.users[1])).body.role).toBe('create');
  });

  it('adds an existing user of another organization as themselves, not as a copy', async () => {
    const res = await invite({ emails: [other.admin.email] });
    expect(res.body).toMatchObject({ users: [other.admin.userId], invited: 1 });
    expect((await t.rest('GET', `/v1/orgs/${acme.organizationId}`, { token: other.admin.token })).status).toBe(200);
  });

  it('marks the people it adds as SSO members when asked', async () => {
    const res = await invite({ emails: [fresh('sam')], sso: true });
    expect((await getMember(acme, res.body.users[0])).body.sso).toBe(true);
  });

  it.each([
    [{ emails: ['good@invited.test', 'not an address'] }],
    [{ emails: ['good@invited.test', ...Array.from({ length: 100 }, (_, i) => `bulk${i}@invited.test`)] }],
    [{ emails: ['good@invited.test'], sso: 'yes' }],
    [{ emails: ['good@invited.test', { email: 'fine@invited.test', role: 'owner' }] }],
    [{ emails: ['good@invited.test'], role: 'boss' }],
    [{ emails: [] }],
    [{ emails: 'good@invited.test' }],
    [{}],
  ])('rejects %j with 400 and adds nobody', async (body) => {
    const before = await memberCount(acme);
    const res = await invite(body);
    expect(res.status).toBe(400);
    expect(await memberCount(acme)).toBe(before);
    const search = await t.rest('GET', `/v1/orgs/${acme.organizationId}/members?search=good%40invited.test`, { token: acme.admin.token });
    expect(search.body.count).toBe(0);
  });

  it('refuses non-admins with 403 and adds nobody', async () => {
    const before = await memberCount(acme);
    const res = await invite({ emails: [fresh('mal')] }, editor.token);
    expect(res.status).toBe(403);
    expect(await memberCount(acme)).toBe(before);
  });
});
