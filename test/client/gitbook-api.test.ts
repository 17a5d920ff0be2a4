import { GitBookAPI, MemberRole } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildTeam, type Actor, type OrgFixture } from '../support/factories';
import { startTestApp, type TestApp } from '../support/clients';
import { validateResponse } from '../support/openapi';

/**
 * The official client, unmodified, pointed at a real HTTP server on loopback: what a legacy user
 * runs must work against us. Each response is also checked against the official spec.
 */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let acme: OrgFixture;
let editor: Actor;
let api: GitBookAPI;

beforeAll(async () => {
  t = await startTestApp();
  server = await t.serve();
  acme = await buildOrganization(t.db, 'Acme via client');
  editor = await buildMember(t.db, acme.organizationId, 'edit', 'Edna Editor');
  await buildTeam(t.db, acme.organizationId, 'Docs team', [{ userId: editor.userId, role: 'owner' }]);
  api = new GitBookAPI({ endpoint: server.url, authToken: acme.admin.token });
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

describe('the official GitBookAPI client', () => {
  it('lists and reads organizations', async () => {
    const { data, status } = await api.orgs.listOrganizationsForAuthenticatedUser();
    expect(status).toBe(200);
    validateResponse('GET', '/v1/orgs', 200, data);
    expect(data.items.map((o) => o.title)).toEqual(['Acme via client']);
    const { data: org } = await api.orgs.getOrganizationById(acme.organizationId);
    expect(org.permissions.admin).toBe(true);
  });

  it('updates an organization', async () => {
    const { data } = await api.orgs.updateOrganizationById(acme.organizationId, { title: 'Acme renamed', emailDomains: ['acme.test'] });
    validateResponse('PATCH', `/v1/orgs/${acme.organizationId}`, 200, data);
    expect(data.title).toBe('Acme renamed');
  });

  it('lists members with filters and follows next pages', async () => {
    for (let i = 0; i < 5; i++) await buildMember(t.db, acme.organizationId, 'read', `Reader ${i}`);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await api.orgs.listMembersInOrganizationById(acme.organizationId, { limit: 2, page });
      validateResponse('GET', `/v1/orgs/${acme.organizationId}/members`, 200, data);
      expect(data.count).toBe(7);
      seen.push(...data.items.map((m) => m.id));
      page = data.next?.page;
    } while (page);
    expect(new Set(seen).size).toBe(7);
    const { data: readers } = await api.orgs.listMembersInOrganizationById(acme.organizationId, { role: MemberRole.Read, search: 'reader 3' });
    expect(readers.items.map((m) => m.user.displayName)).toEqual(['Reader 3']);
  });

  it('changes a member role and reads it back', async () => {
    const { data } = await api.orgs.updateMemberInOrganizationById(acme.organizationId, editor.userId, { role: MemberRole.Review });
    expect(data.role).toBe('review');
    const { data: again } = await api.orgs.getMemberInOrganizationById(acme.organizationId, editor.userId);
    validateResponse('GET', `/v1/orgs/${acme.organizationId}/members/${editor.userId}`, 200, again);
    expect(again.role).toBe('review');
  });

  it('manages teams and their members', async () => {
    const { data: team, status } = await api.orgs.createOrganizationTeam(acme.organizationId, { title: 'Reviewers', members: [editor.userId] });
    expect(status).toBe(201);
    validateResponse('PUT', `/v1/orgs/${acme.organizationId}/teams`, 201, team);
    expect(team.members).toBe(1);
    const add = await api.orgs.updateMembersInOrganizationTeam(acme.organizationId, team.id, { add: [acme.admin.email] });
    expect(add.status).toBe(204);
    const { data: members } = await api.orgs.listTeamMembersInOrganizationById(acme.organizationId, team.id);
    validateResponse('GET', `/v1/orgs/${acme.organizationId}/teams/${team.id}/members`, 200, members);
    expect(members.items.map((m) => m.organization.id).sort()).toEqual([acme.admin.userId, editor.userId].sort());
    const { data: teams } = await api.orgs.listTeamsInOrganizationById(acme.organizationId, { title: 'review' });
    expect(teams.items.map((x) => x.title)).toEqual(['Reviewers']);
    const { data: memberTeams } = await api.orgs.listTeamsForOrganizationMember(acme.organizationId, editor.userId);
    expect(memberTeams.items.map((x) => x.team.title).sort()).toEqual(['Docs team', 'Reviewers']);
    const removed = await api.orgs.removeTeamFromOrganizationById(acme.organizationId, team.id);
    expect(removed.status).toBe(204);
  });

  it('invites users by e-mail', async () => {
    const { data } = await api.orgs.inviteUsersToOrganization(acme.organizationId, {
      emails: ['new.person@acme.test', { email: 'boss@acme.test', role: MemberRole.Admin }],
      role: MemberRole.Comment,
    });
    expect(data.invited).toBe(2);
    const { data: boss } = await api.orgs.getMemberInOrganizationById(acme.organizationId, data.users[1]);
    expect(boss.role).toBe('admin');
  });

  it('pings and receives visitor claims', async () => {
    const { data } = await api.orgs.updateOrganizationMemberLastSeenAt(acme.organizationId);
    expect(data.gitbookVisitorClaims?.split('.')).toHaveLength(3);
  });

  it('surfaces our error body through GitBookAPIError', async () => {
    const outsider = new GitBookAPI({ endpoint: server.url, authToken: editor.token });
    await expect(outsider.orgs.updateOrganizationById(acme.organizationId, { title: 'No' })).rejects.toMatchObject({ code: 403 });
    const anonymous = new GitBookAPI({ endpoint: server.url });
    await expect(anonymous.orgs.listOrganizationsForAuthenticatedUser()).rejects.toMatchObject({ code: 401 });
  });
});
