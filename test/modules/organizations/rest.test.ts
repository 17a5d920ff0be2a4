import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers } from '../../../src/db/schema/members';
import { buildMember, type Actor, type OrgFixture } from '../../support/factories';
import type { TestApp } from '../../support/clients';
import { scenario } from '../../support/scenario';

let t: TestApp, acme: OrgFixture, other: OrgFixture;
let reader: Actor;

beforeAll(async () => {
  ({ t, acme, other, people: { reader } } = await scenario({ reader: ['read'] }));
});
afterAll(() => t.close());

describe('GET /v1/orgs', () => {
  it('refuses a request without a token with 401 and WWW-Authenticate', async () => {
    const res = await t.rest('GET', '/v1/orgs');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body.error.code).toBe(401);
  });

  it('refuses an unknown token with 401', async () => {
    const res = await t.rest('GET', '/v1/orgs', { token: 'quire_not-a-token' });
    expect(res.status).toBe(401);
  });

  it("lists only the caller's organizations", async () => {
    const res = await t.rest('GET', '/v1/orgs', { token: acme.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    expect(res.body.items.map((o: { id: string }) => o.id)).toEqual([acme.organizationId]);
    expect(res.body.items[0].permissions.admin).toBe(true);
  });

  it('rejects limit above 1000 with 400', async () => {
    const res = await t.rest('GET', '/v1/orgs?limit=1001', { token: acme.admin.token });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/limit/);
  });

  it('rejects a forged page token with 400', async () => {
    const res = await t.rest('GET', '/v1/orgs?page=garbage', { token: acme.admin.token });
    expect(res.status).toBe(400);
  });
});

describe('GET /v1/orgs/{organizationId}', () => {
  it('shows a member what they may do', async () => {
    const res = await t.rest('GET', `/v1/orgs/${acme.organizationId}`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Acme');
    expect(res.body.permissions).toMatchObject({ view: true, admin: false, listMembers: true, createContent: false });
    expect(res.body.urls.location).toBe(`http://quire.test/v1/orgs/${acme.organizationId}`);
  });

  it("answers another organization's id exactly like a missing one", async () => {
    const foreign = await t.rest('GET', `/v1/orgs/${other.organizationId}`, { token: acme.admin.token });
    const missing = await t.rest('GET', '/v1/orgs/doesnotexist0000000', { token: acme.admin.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 404, message: missing.body.error.message } });
    expect(missing.status).toBe(404);
  });
});

describe('PATCH /v1/orgs/{organizationId}', () => {
  it('lets an admin change settings', async () => {
    const res = await t.rest('PATCH', `/v1/orgs/${acme.organizationId}`, {
      token: acme.admin.token,
      body: { title: 'Acme Inc', emailDomains: ['acme.test'], hostname: 'acme', defaultRole: null, inviteLinks: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Acme Inc', emailDomains: ['acme.test'], hostname: 'acme', defaultRole: null, inviteLinks: false });
    const again = await t.rest('GET', `/v1/orgs/${acme.organizationId}`, { token: acme.admin.token });
    expect(again.body.title).toBe('Acme Inc');
  });

  it('refuses a lower role with 403 and changes nothing', async () => {
    const res = await t.rest('PATCH', `/v1/orgs/${acme.organizationId}`, { token: reader.token, body: { title: 'Hijacked' } });
    expect(res.status).toBe(403);
    const after = await t.rest('GET', `/v1/orgs/${acme.organizationId}`, { token: reader.token });
    expect(after.body.title).not.toBe('Hijacked');
  });

  it.each([
    [{ title: 'x'.repeat(256) }, /title/],
    [{ title: 'x' }, /title/],
    [{ defaultRole: 'owner' }, /role/],
    [{ hostname: 'ab' }, /hostname/],
    [{ logo: 'not a url' }, /logo/],
    [{ emailDomains: ['not a domain'] }, /emailDomains/],
    [{ sso: 'yes' }, /sso/],
    [{ unknownField: 1 }, /unknownField/],
  ])('rejects %j with a 400 that names the field, writing nothing', async (body, message) => {
    const before = await t.rest('GET', `/v1/orgs/${acme.organizationId}`, { token: acme.admin.token });
    const res = await t.rest('PATCH', `/v1/orgs/${acme.organizationId}`, { token: acme.admin.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
    const after = await t.rest('GET', `/v1/orgs/${acme.organizationId}`, { token: acme.admin.token });
    expect(after.body).toEqual(before.body);
  });

  it('rejects malformed JSON with 400', async () => {
    const res = await t.rest('PATCH', `/v1/orgs/${acme.organizationId}`, { token: acme.admin.token, rawBody: '{"title": ' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/JSON/);
  });

  it('refuses a hostname another organization holds with 409', async () => {
    await t.rest('PATCH', `/v1/orgs/${other.organizationId}`, { token: other.admin.token, body: { hostname: 'taken-name' } });
    const res = await t.rest('PATCH', `/v1/orgs/${acme.organizationId}`, { token: acme.admin.token, body: { hostname: 'taken-name' } });
    expect(res.status).toBe(409);
  });
});

describe('GET /v1/orgs/{organizationId}/search', () => {
  it('requires a query', async () => {
    const res = await t.rest('GET', `/v1/orgs/${acme.organizationId}/search`, { token: reader.token });
    expect(res.status).toBe(400);
  });

  it('rejects a query over 512 characters', async () => {
    const res = await t.rest('GET', `/v1/orgs/${acme.organizationId}/search?query=${'a'.repeat(513)}`, { token: reader.token });
    expect(res.status).toBe(400);
  });

  it('answers an empty list while there is no content', async () => {
    const res = await t.rest('GET', `/v1/orgs/${acme.organizationId}/search?query=hello`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], count: 0 });
  });
});

describe('GET /v1/email-domains/{emailDomain}/orgs', () => {
  it('finds organizations claiming the domain for a member, and hides them from strangers', async () => {
    await t.rest('PATCH', `/v1/orgs/${other.organizationId}`, { token: other.admin.token, body: { emailDomains: ['shared.test'] } });
    const member = await t.rest('GET', '/v1/email-domains/shared.test/orgs', { token: other.admin.token });
    expect(member.status).toBe(200);
    expect(member.body.organizations.map((o: { id: string }) => o.id)).toEqual([other.organizationId]);
    const stranger = await t.rest('GET', '/v1/email-domains/shared.test/orgs', { token: acme.admin.token });
    expect(stranger.body.organizations).toEqual([]);
  });

  it('hides the organization from a disabled member, as every other lookup does', async () => {
    const member = await buildMember(t.db, other.organizationId, 'read');
    await t.db
      .update(organizationMembers)
      .set({ disabled: true })
      .where(and(eq(organizationMembers.organizationId, other.organizationId), eq(organizationMembers.userId, member.userId)));
    const lookup = await t.rest('GET', '/v1/email-domains/shared.test/orgs', { token: member.token });
    expect(lookup.body.organizations).toEqual([]);
    expect((await t.rest('GET', `/v1/orgs/${other.organizationId}`, { token: member.token })).status).toBe(404);
  });

  it('rejects something that is not a domain', async () => {
    const res = await t.rest('GET', '/v1/email-domains/nodots/orgs', { token: acme.admin.token });
    expect(res.status).toBe(400);
  });
});

describe('malformed paths', () => {
  it('answer 400 for a broken percent-escape instead of failing', async () => {
    const res = await t.rest('GET', '/v1/orgs/%ZZ', { token: acme.admin.token });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/escape/);
  });
});

describe('unknown routes', () => {
  it('answer 404 in the error shape', async () => {
    const res = await t.rest('GET', '/v1/nothing-here', { token: acme.admin.token });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe(404);
  });
});
