import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers } from '../../../src/db/schema/members';
import { upsertMember } from '../../../src/modules/members/service';
import { samlAssertions } from '../../../src/db/schema/saml';
import { teamMembers } from '../../../src/db/schema/teams';
import { ensureUser } from '../../../src/modules/users/service';
import { apiTokens, users } from '../../../src/db/schema/users';
import type { Role } from '../../../src/domain/roles';
import type { TestApp } from '../../support/clients';
import { send } from '../../support/doors';
import { buildUser, type OrgFixture } from '../../support/factories';
import { encodeResponse, makeIdp, postToAcs, signedResponse, type TestIdp } from '../../support/saml-idp';
import { scenario } from '../../support/scenario';

/*
 * Whom an organization's identity provider may sign in. The attacker is the admin of "Other"
 * (org B): they register a provider with a certificate of their own, so they can sign any
 * assertion they like. The victims belong to Acme (org A), or to no organization.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let idp: TestIdp;
let provider: { id: string; service: { acsURL: string; entityID: string } };

const VERIFIED = 'b-corp.test';

beforeAll(async () => {
  ({ t, acme, other } = await scenario({}));
  idp = await makeIdp();
  const res = await t.rest('POST', `/v1/orgs/${other.organizationId}/saml`, {
    token: other.admin.token,
    body: { label: 'Our IdP', entityID: idp.entityId, ssoURL: idp.ssoUrl, certificate: idp.certificate, defaultRole: 'edit' },
  });
  expect(res.status).toBe(201);
  provider = res.body;
  await send(t, other.admin.token, 'PATCH', `/v1/orgs/${other.organizationId}`, { emailDomains: [VERIFIED] });
});
afterAll(async () => t?.close());

const assertFor = (email: string) => encodeResponse(signedResponse(idp, { acsUrl: provider.service.acsURL, audience: provider.service.entityID, email }));
const signIn = (email: string) => postToAcs(t.app, provider.service.acsURL, assertFor(email));

/** A user with this address, a member of `organizationId` with `role` when given. */
async function person(email: string, organizationId?: string, role: Role | null = 'read') {
  const { user } = await ensureUser(t.db, { email });
  if (organizationId) await upsertMember(t.db, organizationId, user.id, role);
  return user;
}

/** Rows a sign-in writes, the replay record apart: a refused one leaves them all as they were. */
async function footprint() {
  const [u] = await t.db.select({ n: count() }).from(users);
  const [m] = await t.db.select({ n: count() }).from(organizationMembers);
  const [k] = await t.db.select({ n: count() }).from(apiTokens);
  const [tm] = await t.db.select({ n: count() }).from(teamMembers);
  return { users: u.n, members: m.n, tokens: k.n, teamMembers: tm.n };
}

const assertionsKept = async () => (await t.db.select({ n: count() }).from(samlAssertions))[0].n;

async function membershipOf(userId: string, organizationId: string) {
  const [row] = await t.db.select().from(organizationMembers).where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
  return row;
}

/** The organizations a token lists: what it may act in. */
async function organizationsOf(token: string) {
  const res = await t.rest('GET', '/v1/orgs', { token });
  expect(res.status).toBe(200);
  return res.body.items.map((o: { id: string }) => o.id);
}

describe("an organization's identity provider signs in only its own people", () => {
  it("refuses another organization's admin: 403, no membership, no token, nothing written", async () => {
    const before = await footprint();
    const kept = await assertionsKept();
    const res = await signIn(acme.admin.email);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 403 });
    expect(res.body.error.message).toMatch(/cannot sign in/);
    expect(res.token).toBeNull();
    expect(await footprint()).toEqual(before);
    expect(await membershipOf(acme.admin.userId, other.organizationId)).toBeUndefined();
    // The assertion is spent all the same (see the replay test below).
    expect(await assertionsKept()).toBe(kept + 1);
    // The victim's own token still sees Acme as before; nothing about them changed.
    expect((await t.rest('GET', `/v1/orgs/${acme.organizationId}/members/${acme.admin.userId}`, { token: acme.admin.token })).body).toMatchObject({ role: 'admin', sso: false });
  });

  it('refuses the same address spelled otherwise: upper case, or with a trailing dot', async () => {
    const before = await footprint();
    const upper = await signIn(acme.admin.email.toUpperCase());
    expect(upper.status).toBe(403);
    expect(upper.token).toBeNull();
    const dotted = await signIn(`${acme.admin.email}.`);
    expect(dotted.status).toBe(401);
    expect(dotted.body.error.message).toMatch(/e-mail address/);
    expect(await footprint()).toEqual(before);
  });

  it('refuses a user who exists but belongs to no organization at all', async () => {
    const loner = await buildUser(t.db, 'Lone Wolf');
    const before = await footprint();
    const res = await signIn(loner.email);
    expect(res.status).toBe(403);
    expect(res.token).toBeNull();
    expect(await footprint()).toEqual(before);
  });

  it('counts only the exact verified domain: not a look-alike, not a longer name, not a subdomain', async () => {
    for (const email of [`pat@evil-${VERIFIED}`, `pat@x${VERIFIED}`, `pat@sub.${VERIFIED}`, `pat@${VERIFIED}.evil.test`]) {
      await person(email, acme.organizationId);
      const before = await footprint();
      const res = await signIn(email);
      expect([email, res.status]).toEqual([email, 403]);
      expect(await footprint()).toEqual(before);
    }
  });

  it('a refused assertion stays spent: replayed once its subject became a member, it is still refused', async () => {
    const victim = await person('vic.tim@victim.test', acme.organizationId, 'admin');
    const xml = assertFor(victim.email);
    const first = await postToAcs(t.app, provider.service.acsURL, xml);
    expect(first.status).toBe(403);
    // An admin may add anyone to their organization by e-mail: the attacker now makes the victim a member.
    await send(t, other.admin.token, 'POST', `/v1/orgs/${other.organizationId}/invites`, { emails: [victim.email] });
    const before = await footprint();
    const replay = await postToAcs(t.app, provider.service.acsURL, xml);
    expect(replay.status).toBe(401);
    expect(replay.body.error.message).toMatch(/already used/);
    expect(await footprint()).toEqual(before);
  });

  it('signs in a member of its organization, who keeps their role; the token acts in that organization only', async () => {
    const member = await person('mia.member@elsewhere.test', other.organizationId, 'comment');
    await upsertMember(t.db, acme.organizationId, member.id, 'admin');
    const res = await signIn('Mia.Member@Elsewhere.test');
    expect(res.status).toBe(303);
    expect(await membershipOf(member.id, other.organizationId)).toMatchObject({ role: 'comment', sso: true });
    expect(await organizationsOf(res.token!)).toEqual([other.organizationId]);
  });

  it('signs in people of a verified domain: an existing user joins, a new one is created and joins', async () => {
    const existing = await person(`pat@${VERIFIED}`, acme.organizationId, 'admin');
    const joined = await signIn(`Pat@${VERIFIED.toUpperCase()}`);
    expect(joined.status).toBe(303);
    expect(await membershipOf(existing.id, other.organizationId)).toMatchObject({ role: 'edit', sso: true });
    // Acme's admin, signed in by Other's provider, acts in Other only.
    expect(await organizationsOf(joined.token!)).toEqual([other.organizationId]);
    expect((await t.rest('GET', `/v1/orgs/${acme.organizationId}`, { token: joined.token })).status).toBe(404);

    const created = await signIn(`newbie@${VERIFIED}`);
    expect(created.status).toBe(303);
    const me = await t.rest('GET', '/v1/user', { token: created.token });
    expect(me.body).toMatchObject({ email: `newbie@${VERIFIED}` });
    expect(await membershipOf(me.body.id, other.organizationId)).toMatchObject({ role: 'edit', sso: true });
  });

  it('creates a brand-new address of any domain as a member of its organization, and that claim reaches nothing else', async () => {
    const email = 'first.seen@unclaimed.test';
    const res = await signIn(email);
    expect(res.status).toBe(303);
    const me = await t.rest('GET', '/v1/user', { token: res.token });
    expect(me.body).toMatchObject({ email });
    expect(await membershipOf(me.body.id, other.organizationId)).toMatchObject({ role: 'edit', sso: true });
    // The address later joins Acme (its admin invites it): what Other's provider signs is still kept to Other.
    await send(t, acme.admin.token, 'POST', `/v1/orgs/${acme.organizationId}/invites`, { emails: [email], role: 'admin' });
    for (const token of [res.token!, (await signIn(email)).token!]) {
      expect(await organizationsOf(token)).toEqual([other.organizationId]);
      expect((await t.rest('PATCH', `/v1/orgs/${acme.organizationId}`, { token, body: { title: 'Taken over' } })).status).toBe(404);
    }
  });

  it('refuses a disabled member, and spends the assertion', async () => {
    const member = await person('dis.abled@elsewhere.test', other.organizationId, 'edit');
    await t.db.update(organizationMembers).set({ disabled: true }).where(and(eq(organizationMembers.organizationId, other.organizationId), eq(organizationMembers.userId, member.id)));
    const xml = assertFor(member.email);
    const before = await footprint();
    const refused = await postToAcs(t.app, provider.service.acsURL, xml);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/disabled/);
    expect(await footprint()).toEqual(before);
    await t.db.update(organizationMembers).set({ disabled: false }).where(and(eq(organizationMembers.organizationId, other.organizationId), eq(organizationMembers.userId, member.id)));
    expect((await postToAcs(t.app, provider.service.acsURL, xml)).status).toBe(401);
  });
});
