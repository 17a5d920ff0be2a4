import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, buildTeam, buildUser, type Actor, type OrgFixture } from '../support/factories';
import { mutations } from '../support/graphql';

let t: TestApp;
let acme: OrgFixture;
let admin: string;
let reader: Actor;
let acmeGid: string;

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  admin = acme.admin.token;
  reader = await buildMember(t.db, acme.organizationId, 'read', 'Rita Reader');
  acmeGid = (await t.graphql('query ($id: ID!) { organization(id: $id) { id } }', { id: acme.organizationId }, admin)).body.data.organization.id;
});
afterAll(() => t.close());

/** Mutations as Acme's admin unless a call names another token; `mutate` and `succeed` as the shared ones. */
const gql = mutations(() => t, { token: () => admin });
const { mutate, succeed } = gql;

/** A mutation refused to a `read` member: a top-level FORBIDDEN error. */
const forbidden = (name: string, input: Record<string, unknown>) => gql.refused(name, input, reader.token, 'FORBIDDEN');

/** A mutation whose input is refused: one user error on `field`, no top-level error; it echoes clientMutationId. */
async function userError(name: string, input: Record<string, unknown>, code: string, field: string[]) {
  const res = await gql.userError(name, input, code, field);
  expect(res.payload.clientMutationId).toBe(res.clientMutationId);
  return res.payload;
}

const rest = async (path: string) => (await t.rest('GET', `/v1/orgs/${acme.organizationId}${path}`, { token: admin })).body;
const restStatus = async (path: string) => (await t.rest('GET', `/v1/orgs/${acme.organizationId}${path}`, { token: admin })).status;

async function memberGid(organizationId: string, email: string, token = admin): Promise<string> {
  const q = 'query ($id: ID!, $s: String) { organization(id: $id) { members(search: $s) { edges { node { id } } } } }';
  return (await t.graphql(q, { id: organizationId, s: email }, token)).body.data.organization.members.edges[0].node.id;
}

async function teamGid(teamId: string): Promise<string> {
  const q = 'query ($id: ID!) { organization(id: $id) { teams(first: 100) { edges { node { id restId } } } } }';
  const edges = (await t.graphql(q, { id: acme.organizationId }, admin)).body.data.organization.teams.edges;
  return edges.find((e: { node: { restId: string } }) => e.node.restId === teamId).node.id;
}

const teamMembers = async (teamId: string) =>
  Object.fromEntries((await rest(`/teams/${teamId}/members`)).items.map((m: any) => [m.organization.id, m.team.role]));

describe('organizationUpdate', () => {
  it('changes the settings as an admin, as seen through REST', async () => {
    const payload = await succeed('organizationUpdate', { organizationId: acmeGid, title: 'Acme GQL', hostname: 'acme-gql', emailDomains: ['acme.test'] }, 'organization { title hostname }');
    expect(payload.organization).toEqual({ title: 'Acme GQL', hostname: 'acme-gql' });
    expect(await rest('')).toMatchObject({ title: 'Acme GQL', hostname: 'acme-gql', emailDomains: ['acme.test'] });
  });

  it('is refused to a read member, writing nothing', async () => {
    const before = await rest('');
    await forbidden('organizationUpdate', { organizationId: acmeGid, title: 'Hijacked' });
    expect(await rest('')).toEqual(before);
  });

  it.each([
    [{ title: 'x'.repeat(256) }, 'VALIDATION_FAILED', ['title']],
    [{ hostname: 'ab' }, 'VALIDATION_FAILED', ['hostname']],
    [{ logo: 'not a url' }, 'VALIDATION_FAILED', ['logo']],
  ])('answers %j with a user error, writing nothing', async (change, code, field) => {
    const before = await rest('');
    await userError('organizationUpdate', { organizationId: acmeGid, ...change }, code, field);
    expect(await rest('')).toEqual(before);
  });

  it('answers a hostname held by another organization with CONFLICT', async () => {
    const other = await buildOrganization(t.db);
    await t.rest('PATCH', `/v1/orgs/${other.organizationId}`, { token: other.admin.token, body: { hostname: 'taken-name' } });
    await userError('organizationUpdate', { organizationId: acmeGid, hostname: 'taken-name' }, 'CONFLICT', ['hostname']);
    expect((await rest('')).hostname).toBe('acme-gql');
  });
});

describe('organizationInviteUsers', () => {
  it('adds people by e-mail as an admin, with their roles', async () => {
    const payload = await succeed(
      'organizationInviteUsers',
      { organizationId: acmeGid, role: 'READ', invitees: [{ email: 'ina@example.com' }, { email: 'ivo@example.com', role: 'EDIT' }] },
      'invitedCount members { role user { email } }',
    );
    expect(payload.invitedCount).toBe(2);
    expect(payload.members).toEqual([
      { role: 'READ', user: { email: 'ina@example.com' } },
      { role: 'EDIT', user: { email: 'ivo@example.com' } },
    ]);
    const listed = (await rest('/members?search=ivo%40example.com')).items;
    expect(listed).toMatchObject([{ role: 'edit', user: { email: 'ivo@example.com' } }]);
  });

  it('is refused to a read member, inviting nobody', async () => {
    await forbidden('organizationInviteUsers', { organizationId: acmeGid, invitees: [{ email: 'sneaky@example.com' }] });
    expect((await rest('/members?search=sneaky')).count).toBe(0);
  });

  it('answers a bad e-mail with a user error, inviting nobody', async () => {
    const res = await mutate('organizationInviteUsers', { organizationId: acmeGid, invitees: [{ email: 'ok@example.com' }, { email: 'not-an-email' }] }, admin);
    expect(res.errors).toBeUndefined();
    expect(res.payload.userErrors).toMatchObject([{ code: 'VALIDATION_FAILED', field: ['invitees', '1', 'email'] }]);
    expect((await rest('/members?search=ok%40example.com')).count).toBe(0);
  });
});

describe('organizationPing', () => {
  it("records the viewer's activity, as seen through REST, for any member", async () => {
    t.clock.now = new Date('2031-05-01T12:00:00Z');
    try {
      const payload = await succeed('organizationPing', { organizationId: acmeGid }, 'visitorClaims member { restId lastSeenAt }', reader.token);
      expect(payload.visitorClaims).toMatch(/^ey/);
      expect(payload.member).toEqual({ restId: reader.userId, lastSeenAt: '2031-05-01T12:00:00.000Z' });
    } finally {
      t.clock.now = null;
    }
    expect((await rest(`/members/${reader.userId}`)).lastSeenAt).toBe('2031-05-01T12:00:00.000Z');
  });

  it('is refused to an outsider as NOT_FOUND, recording nothing', async () => {
    const outsider = await buildOrganization(t.db);
    const res = await mutate('organizationPing', { organizationId: acmeGid }, outsider.admin.token);
    expect(res.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await rest(`/members?sort=lastSeenAt`)).items.map((m: any) => m.id)).not.toContain(outsider.admin.userId);
  });
});

describe('member mutations', () => {
  let target: Actor;
  let targetGid: string;
  beforeAll(async () => {
    target = await buildMember(t.db, acme.organizationId, 'read', 'Tom Target');
    targetGid = await memberGid(acme.organizationId, target.email);
  });

  it('memberUpdateRole changes a role as an admin', async () => {
    const payload = await succeed('memberUpdateRole', { memberId: targetGid, role: 'EDIT' }, 'member { id role }');
    expect(payload.member).toEqual({ id: targetGid, role: 'EDIT' });
    expect((await rest(`/members/${target.userId}`)).role).toBe('edit');
  });

  it('memberUpdateRole is refused to a read member', async () => {
    await forbidden('memberUpdateRole', { memberId: targetGid, role: 'ADMIN' });
    expect((await rest(`/members/${target.userId}`)).role).toBe('edit');
  });

  it('memberUpdateRole answers demoting the last admin with CONFLICT', async () => {
    const solo = await buildOrganization(t.db);
    const gid = await memberGid(solo.organizationId, solo.admin.email, solo.admin.token);
    const res = await mutate('memberUpdateRole', { memberId: gid, role: 'READ' }, solo.admin.token);
    expect(res.payload.userErrors).toMatchObject([{ code: 'CONFLICT', field: ['role'] }]);
    const after = await t.rest('GET', `/v1/orgs/${solo.organizationId}/members/${solo.admin.userId}`, { token: solo.admin.token });
    expect(after.body.role).toBe('admin');
  });

  it('memberSetSso marks a member as an admin', async () => {
    expect((await rest(`/members/${target.userId}`)).sso).toBe(false);
    const payload = await succeed('memberSetSso', { memberId: targetGid }, 'member { sso }');
    expect(payload.member).toEqual({ sso: true });
    expect((await rest(`/members/${target.userId}`)).sso).toBe(true);
  });

  it('memberSetSso is refused to a read member', async () => {
    const other = await buildMember(t.db, acme.organizationId, 'read');
    await forbidden('memberSetSso', { memberId: await memberGid(acme.organizationId, other.email) });
    expect((await rest(`/members/${other.userId}`)).sso).toBe(false);
  });

  it('memberRemove is refused to a read member', async () => {
    await forbidden('memberRemove', { memberId: targetGid });
    expect(await restStatus(`/members/${target.userId}`)).toBe(200);
  });

  it('memberRemove removes a member as an admin', async () => {
    const payload = await succeed('memberRemove', { memberId: targetGid }, 'removedMemberId organization { restId }');
    expect(payload).toMatchObject({ removedMemberId: targetGid, organization: { restId: acme.organizationId } });
    expect(await restStatus(`/members/${target.userId}`)).toBe(404);
  });

  it('memberRemove lets a member leave, after which the organization is hidden', async () => {
    const leaver = await buildMember(t.db, acme.organizationId, 'read');
    const gid = await memberGid(acme.organizationId, leaver.email);
    const payload = await succeed('memberRemove', { memberId: gid }, 'organization { restId }', leaver.token);
    expect(payload.organization).toBeNull();
    expect(await restStatus(`/members/${leaver.userId}`)).toBe(404);
  });

  it('memberRemove answers removing the last admin with CONFLICT', async () => {
    const solo = await buildOrganization(t.db);
    const gid = await memberGid(solo.organizationId, solo.admin.email, solo.admin.token);
    const res = await mutate('memberRemove', { memberId: gid }, solo.admin.token);
    expect(res.payload.userErrors).toMatchObject([{ code: 'CONFLICT', field: null }]);
    expect((await t.rest('GET', `/v1/orgs/${solo.organizationId}/members/${solo.admin.userId}`, { token: solo.admin.token })).status).toBe(200);
  });
});

describe('team mutations', () => {
  let member: Actor;
  beforeAll(async () => {
    member = await buildMember(t.db, acme.organizationId, 'edit', 'Mia Member');
  });
  const teamCount = async () => (await rest('/teams')).count;

  it('teamCreate creates a team with members as an admin', async () => {
    const payload = await succeed('teamCreate', { organizationId: acmeGid, title: 'Writers', members: [member.email] }, 'team { restId title memberCount }');
    expect(payload.team).toMatchObject({ title: 'Writers', memberCount: 1 });
    expect(await rest(`/teams/${payload.team.restId}`)).toMatchObject({ title: 'Writers', members: 1 });
  });

  it('teamCreate is refused to a read member', async () => {
    const before = await teamCount();
    await forbidden('teamCreate', { organizationId: acmeGid, title: 'Rogue' });
    expect(await teamCount()).toBe(before);
  });

  it.each([
    [{ title: 'x'.repeat(65) }, ['title']],
    [{ title: 'Strangers', members: ['stranger@example.com'] }, ['members']],
  ])('teamCreate answers %j with a user error, creating nothing', async (input, field) => {
    const before = await teamCount();
    await userError('teamCreate', { organizationId: acmeGid, ...input }, 'VALIDATION_FAILED', field);
    expect(await teamCount()).toBe(before);
  });

  describe('on an existing team', () => {
    let teamId: string;
    let gid: string;
    beforeAll(async () => {
      teamId = (await buildTeam(t.db, acme.organizationId, 'Editors', [{ userId: member.userId, role: 'member' }])).id;
      gid = await teamGid(teamId);
    });

    it('teamUpdate renames as an admin; refuses a read member; answers a bad title with a user error', async () => {
      expect((await succeed('teamUpdate', { teamId: gid, title: 'Copy Editors' }, 'team { title }')).team.title).toBe('Copy Editors');
      await forbidden('teamUpdate', { teamId: gid, title: 'Hijacked' });
      await userError('teamUpdate', { teamId: gid, title: ' ' }, 'VALIDATION_FAILED', ['title']);
      expect((await rest(`/teams/${teamId}`)).title).toBe('Copy Editors');
    });

    it('teamMembersUpdate adds, removes and sets roles as an admin', async () => {
      await succeed('teamMembersUpdate', { teamId: gid, add: [reader.email, acme.admin.userId], remove: [member.userId], roles: [{ user: reader.email, role: 'OWNER' }] });
      expect(await teamMembers(teamId)).toEqual({ [reader.userId]: 'owner', [acme.admin.userId]: 'member' });
    });

    it('teamMembersUpdate is refused to a read member who does not own the team', async () => {
      const plain = await buildMember(t.db, acme.organizationId, 'read');
      const res = await mutate('teamMembersUpdate', { teamId: gid, add: [plain.userId] }, plain.token);
      expect(res.errors[0].extensions.code).toBe('FORBIDDEN');
      expect(await teamMembers(teamId)).not.toHaveProperty(plain.userId);
    });

    it('teamMembersUpdate answers a non-member with a user error, writing nothing', async () => {
      const before = await teamMembers(teamId);
      await userError('teamMembersUpdate', { teamId: gid, add: ['stranger@example.com'], remove: [acme.admin.userId] }, 'VALIDATION_FAILED', ['add']);
      expect(await teamMembers(teamId)).toEqual(before);
    });

    it('teamMemberSet and teamMemberRemove change one member as an admin', async () => {
      const mGid = await memberGid(acme.organizationId, member.email);
      const set = await succeed('teamMemberSet', { teamId: gid, memberId: mGid, role: 'OWNER' }, 'team { memberCount }');
      expect(set.team.memberCount).toBe(3);
      expect((await teamMembers(teamId))[member.userId]).toBe('owner');
      await succeed('teamMemberRemove', { teamId: gid, memberId: mGid }, 'team { restId }');
      expect(await teamMembers(teamId)).not.toHaveProperty(member.userId);
    });

    it('teamMemberSet and teamMemberRemove are refused to a read member', async () => {
      const plain = await buildMember(t.db, acme.organizationId, 'read');
      const before = await teamMembers(teamId);
      const adminGid = await memberGid(acme.organizationId, acme.admin.email);
      for (const [name, input] of [
        ['teamMemberSet', { teamId: gid, memberId: adminGid, role: 'OWNER' }],
        ['teamMemberRemove', { teamId: gid, memberId: adminGid }],
      ] as const) {
        const res = await mutate(name, input, plain.token);
        expect(res.errors[0].extensions.code).toBe('FORBIDDEN');
      }
      expect(await teamMembers(teamId)).toEqual(before);
    });

    it('teamDelete is refused to a read member who does not own the team, then deletes as an admin', async () => {
      const plain = await buildMember(t.db, acme.organizationId, 'read');
      expect((await mutate('teamDelete', { teamId: gid }, plain.token)).errors[0].extensions.code).toBe('FORBIDDEN');
      expect(await restStatus(`/teams/${teamId}`)).toBe(200);
      expect((await succeed('teamDelete', { teamId: gid }, 'deletedTeamId')).deletedTeamId).toBe(gid);
      expect(await restStatus(`/teams/${teamId}`)).toBe(404);
    });
  });
});

describe('link invite mutations', () => {
  const inviteCount = async () => (await rest('/link-invites')).count;

  it('organizationLinkInviteCreate creates a link as an admin, refuses a read member', async () => {
    const payload = await succeed('organizationLinkInviteCreate', { organizationId: acmeGid, role: 'EDIT' }, 'invite { restId role }');
    expect(payload.invite.role).toBe('EDIT');
    expect(await rest(`/link-invites/${payload.invite.restId}`)).toMatchObject({ id: payload.invite.restId, role: 'edit' });
    const before = await inviteCount();
    await forbidden('organizationLinkInviteCreate', { organizationId: acmeGid, role: 'ADMIN' });
    expect(await inviteCount()).toBe(before);
  });

  it('organizationLinkInviteDelete is refused to a read member, then revokes as an admin', async () => {
    const created = await t.rest('POST', `/v1/orgs/${acme.organizationId}/link-invites`, { token: admin, body: { role: null } });
    const inviteId = created.body.id;
    await forbidden('organizationLinkInviteDelete', { organizationId: acmeGid, inviteId });
    expect(await restStatus(`/link-invites/${inviteId}`)).toBe(200);
    const payload = await succeed('organizationLinkInviteDelete', { organizationId: acmeGid, inviteId }, 'deletedInviteId');
    expect(payload.deletedInviteId).toBe(inviteId);
    expect(await restStatus(`/link-invites/${inviteId}`)).toBe(404);
  });
});

it("answers an outsider's mutation on an organization as NOT_FOUND, like REST", async () => {
  const stranger = await buildUser(t.db);
  const res = await mutate('organizationUpdate', { organizationId: acmeGid, title: 'Stranger' }, stranger.token);
  expect(res.errors[0].extensions.code).toBe('NOT_FOUND');
});

describe('a global ID of the wrong type', () => {
  it('is refused as the caller’s mistake, with VALIDATION_FAILED, and changes nothing', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Kept');
    const res = await mutate('teamUpdate', { teamId: acmeGid, title: 'Renamed' }, admin, 'team { title }');
    expect(res.errors).toHaveLength(1);
    expect(res.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(res.errors[0].message).toMatch(/Team/);
    const after = await t.rest('GET', `/v1/orgs/${acme.organizationId}/teams/${team.id}`, { token: admin });
    expect(after.body.title).toBe('Kept');
  });
});
