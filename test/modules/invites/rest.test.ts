import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganization, buildUser, type Actor, type OrgFixture } from '../../support/factories';
import type { TestApp } from '../../support/clients';
import { scenario } from '../../support/scenario';

let t: TestApp, acme: OrgFixture, other: OrgFixture;
let reader: Actor, editor: Actor;

beforeAll(async () => {
  ({ t, acme, other, people: { reader, editor } } = await scenario({ reader: ['read'], editor: ['edit'] }));
});
afterAll(() => t.close());

const linksPath = (org: OrgFixture = acme) => `/v1/orgs/${org.organizationId}/link-invites`;
const linkPath = (id: string, org: OrgFixture = acme) => `${linksPath(org)}/${id}`;
const joinPath = (id: string, org: OrgFixture = acme) => `/v1/orgs/${org.organizationId}/invites/${id}`;
async function createLink(role: string | null, org: OrgFixture = acme): Promise<string> {
  const res = await t.rest('POST', linksPath(org), { token: org.admin.token, body: { role } });
  expect(res.status).toBe(201);
  return res.body.id;
}
const membership = (org: OrgFixture, userId: string) => t.rest('GET', `/v1/orgs/${org.organizationId}/members/${userId}`, { token: org.admin.token });

describe('POST /v1/orgs/{organizationId}/link-invites', () => {
  it('creates an invite link carrying a role, or none for guests', async () => {
    const res = await t.rest('POST', linksPath(), { token: acme.admin.token, body: { role: 'comment' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'invite', id: expect.any(String), role: 'comment', redundant: true });
    const guests = await t.rest('POST', linksPath(), { token: acme.admin.token, body: { role: null } });
    expect(guests.status).toBe(201);
    expect(guests.body.role).toBeNull();
    expect(guests.body.id).not.toBe(res.body.id);
  });

  it.each([[{ role: 'owner' }], [{}], [{ role: 'read', level: 'read' }], [undefined]])('rejects %j with 400', async (body) => {
    const before = (await t.rest('GET', linksPath(), { token: acme.admin.token })).body.count;
    const res = await t.rest('POST', linksPath(), { token: acme.admin.token, body });
    expect(res.status).toBe(400);
    expect((await t.rest('GET', linksPath(), { token: acme.admin.token })).body.count).toBe(before);
  });

  it('refuses members who are not admins with 403', async () => {
    for (const actor of [reader, editor]) {
      expect((await t.rest('POST', linksPath(), { token: actor.token, body: { role: 'admin' } })).status).toBe(403);
    }
  });
});

describe('GET /v1/orgs/{organizationId}/link-invites', () => {
  it("lists the organization's links, newest first, and none of another's", async () => {
    const org = await buildOrganization(t.db);
    const first = await createLink('read', org);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await createLink('edit', org);
    await createLink('read', other);
    const res = await t.rest('GET', linksPath(org), { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.items.map((i: { id: string; role: string }) => [i.id, i.role])).toEqual([
      [second, 'edit'],
      [first, 'read'],
    ]);
  });

  it('pages with limit', async () => {
    const org = await buildOrganization(t.db);
    for (let i = 0; i < 3; i++) await createLink('read', org);
    const page = await t.rest('GET', `${linksPath(org)}?limit=2`, { token: org.admin.token });
    expect(page.body.items).toHaveLength(2);
    expect(page.body.count).toBe(3);
    const rest = await t.rest('GET', `${linksPath(org)}?limit=2&page=${encodeURIComponent(page.body.next.page)}`, { token: org.admin.token });
    expect(rest.body.items).toHaveLength(1);
    expect(rest.body.next).toBeUndefined();
  });

  it('refuses non-admins with 403', async () => {
    expect((await t.rest('GET', linksPath(), { token: reader.token })).status).toBe(403);
  });
});

describe('GET, PATCH and DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}', () => {
  it('reads one link', async () => {
    const id = await createLink('review');
    const res = await t.rest('GET', linkPath(id), { token: acme.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'invite', id, role: 'review', redundant: true });
  });

  it("answers 404 for a missing link and for another organization's link", async () => {
    const foreign = await createLink('read', other);
    expect((await t.rest('GET', linkPath('noSuchInvite0000000'), { token: acme.admin.token })).status).toBe(404);
    expect((await t.rest('GET', linkPath(foreign), { token: acme.admin.token })).status).toBe(404);
    const patch = await t.rest('PATCH', linkPath(foreign), { token: acme.admin.token, body: { role: 'admin' } });
    expect(patch.status).toBe(404);
    expect((await t.rest('GET', linkPath(foreign, other), { token: other.admin.token })).body.role).toBe('read');
  });

  it('changes the role of a link, including to guest', async () => {
    const id = await createLink('read');
    const res = await t.rest('PATCH', linkPath(id), { token: acme.admin.token, body: { role: 'create' } });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe('create');
    expect((await t.rest('GET', linkPath(id), { token: acme.admin.token })).body.role).toBe('create');
    const guest = await t.rest('PATCH', linkPath(id), { token: acme.admin.token, body: { role: null } });
    expect(guest.body.role).toBeNull();
  });

  it('rejects a bad role with 400, keeping the old one', async () => {
    const id = await createLink('read');
    const res = await t.rest('PATCH', linkPath(id), { token: acme.admin.token, body: { role: 'superuser' } });
    expect(res.status).toBe(400);
    expect((await t.rest('GET', linkPath(id), { token: acme.admin.token })).body.role).toBe('read');
  });

  it('revokes a link, which then no longer lets anyone join', async () => {
    const id = await createLink('edit');
    expect((await t.rest('DELETE', linkPath(id), { token: acme.admin.token })).status).toBe(204);
    expect((await t.rest('GET', linkPath(id), { token: acme.admin.token })).status).toBe(404);
    const newcomer = await buildUser(t.db);
    expect((await t.rest('POST', joinPath(id), { token: newcomer.token })).status).toBe(404);
    expect((await membership(acme, newcomer.userId)).status).toBe(404);
  });

  it("answers 204 when deleting a missing link, or another organization's, which survives", async () => {
    expect((await t.rest('DELETE', linkPath('noSuchInvite0000000'), { token: acme.admin.token })).status).toBe(204);
    const foreign = await createLink('read', other);
    expect((await t.rest('DELETE', linkPath(foreign), { token: acme.admin.token })).status).toBe(204);
    expect((await t.rest('GET', linkPath(foreign, other), { token: other.admin.token })).status).toBe(200);
  });

  it('refuses non-admins with 403 on every operation, changing nothing', async () => {
    const id = await createLink('read');
    expect((await t.rest('GET', linkPath(id), { token: reader.token })).status).toBe(403);
    expect((await t.rest('PATCH', linkPath(id), { token: editor.token, body: { role: 'admin' } })).status).toBe(403);
    expect((await t.rest('DELETE', linkPath(id), { token: reader.token })).status).toBe(403);
    expect((await t.rest('DELETE', linkPath('noSuchInvite0000000'), { token: reader.token })).status).toBe(403);
    expect((await t.rest('GET', linkPath(id), { token: acme.admin.token })).body.role).toBe('read');
  });
});

describe('POST /v1/orgs/{organizationId}/invites/{inviteId}', () => {
  it("joins a new user with the link's role", async () => {
    const id = await createLink('edit');
    const newcomer = await buildUser(t.db);
    expect((await t.rest('GET', `/v1/orgs/${acme.organizationId}`, { token: newcomer.token })).status).toBe(404);
    const res = await t.rest('POST', joinPath(id), { token: newcomer.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await membership(acme, newcomer.userId)).body).toMatchObject({ id: newcomer.userId, role: 'edit' });
    const orgs = await t.rest('GET', '/v1/orgs', { token: newcomer.token });
    expect(orgs.body.items.map((o: { id: string }) => o.id)).toEqual([acme.organizationId]);
  });

  it('joins as a guest through a link without a role, and the link can be used again', async () => {
    const id = await createLink(null);
    for (const newcomer of [await buildUser(t.db), await buildUser(t.db)]) {
      expect((await t.rest('POST', joinPath(id), { token: newcomer.token })).status).toBe(200);
      expect((await membership(acme, newcomer.userId)).body.role).toBeNull();
    }
  });

  it('leaves the role of someone who is already a member alone', async () => {
    const id = await createLink('admin');
    expect((await t.rest('POST', joinPath(id), { token: reader.token })).status).toBe(200);
    expect((await membership(acme, reader.userId)).body.role).toBe('read');
  });

  it("answers 404 for an unknown link and for another organization's link", async () => {
    const newcomer = await buildUser(t.db);
    expect((await t.rest('POST', joinPath('noSuchInvite0000000'), { token: newcomer.token })).status).toBe(404);
    const foreign = await createLink('admin', other);
    expect((await t.rest('POST', joinPath(foreign), { token: newcomer.token })).status).toBe(404);
    expect((await membership(acme, newcomer.userId)).status).toBe(404);
    expect((await membership(other, newcomer.userId)).status).toBe(404);
  });

  it('refuses with 403 when the organization has turned invite links off', async () => {
    const org = await buildOrganization(t.db);
    const id = await createLink('read', org);
    await t.rest('PATCH', `/v1/orgs/${org.organizationId}`, { token: org.admin.token, body: { inviteLinks: false } });
    const newcomer = await buildUser(t.db);
    const res = await t.rest('POST', joinPath(id, org), { token: newcomer.token });
    expect(res.status).toBe(403);
    expect((await membership(org, newcomer.userId)).status).toBe(404);

    await t.rest('PATCH', `/v1/orgs/${org.organizationId}`, { token: org.admin.token, body: { inviteLinks: true } });
    expect((await t.rest('POST', joinPath(id, org), { token: newcomer.token })).status).toBe(200);
    expect((await membership(org, newcomer.userId)).body.role).toBe('read');
  });

  it('requires authentication', async () => {
    const id = await createLink('read');
    expect((await t.rest('POST', joinPath(id))).status).toBe(401);
  });
});
