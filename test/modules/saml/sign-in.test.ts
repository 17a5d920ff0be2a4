import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { organizationMembers } from '../../../src/db/schema/members';
import { samlAssertions } from '../../../src/db/schema/saml';
import { teamMembers } from '../../../src/db/schema/teams';
import { apiTokens, users } from '../../../src/db/schema/users';
import { TEST_ORIGIN, type TestApp } from '../../support/clients';
import { buildTeam, type OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { encodeResponse, makeIdp, readAuthnRequest, signedResponse, type TestIdp } from '../../support/saml-idp';

let t: TestApp;
let acme: OrgFixture;
let idp: TestIdp;
let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };
let teamId: string;

beforeAll(async () => {
  ({ t, acme } = await scenario({}));
  idp = await makeIdp();
  teamId = (await buildTeam(t.db, acme.organizationId, 'Newcomers')).id;
  const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/saml`, {
    token: acme.admin.token,
    body: { label: 'Okta', entityID: idp.entityId, ssoURL: idp.ssoUrl, certificate: idp.certificate, defaultRole: 'edit', defaultTeam: teamId },
  });
  expect(res.status).toBe(201);
  provider = res.body;
});
afterAll(async () => t?.close());
beforeEach(() => {
  t.clock.now = null;
});

async function postAcs(samlResponse: string, relayState?: string) {
  const form = new URLSearchParams({ SAMLResponse: samlResponse, ...(relayState ? { RelayState: relayState } : {}) });
  const res = await t.app.fetch(new Request(provider.service.acsURL, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() }));
  const text = await res.text();
  return { status: res.status, location: res.headers.get('location'), body: text ? JSON.parse(text) : undefined };
}

const responseFor = (email: string, extra: Partial<Parameters<typeof signedResponse>[1]> = {}) =>
  signedResponse(idp, { acsUrl: provider.service.acsURL, audience: provider.service.entityID, email, ...extra });

/** Rows a sign-in writes: a refused response must leave every count as it was. */
async function footprint() {
  const [u] = await t.db.select({ n: count() }).from(users);
  const [m] = await t.db.select({ n: count() }).from(organizationMembers);
  const [k] = await t.db.select({ n: count() }).from(apiTokens);
  const [tm] = await t.db.select({ n: count() }).from(teamMembers);
  return { users: u.n, members: m.n, tokens: k.n, teamMembers: tm.n };
}

describe('SAML sign-in', () => {
  it('start URL redirects to the IdP with a deflated AuthnRequest and the RelayState', async () => {
    const next = `/o/${acme.organizationId}/s/abc`;
    const res = await t.app.fetch(new Request(`${provider.service.startURL}?next=${next}`));
    expect(res.status).toBe(302);
    const request = readAuthnRequest(res.headers.get('location')!);
    expect(`${request.url.origin}${request.url.pathname}`).toBe(idp.ssoUrl);
    expect(request.relayState).toBe(next);
    expect(request.xml).toContain('<samlp:AuthnRequest');
    expect(request.xml).toContain(`AssertionConsumerServiceURL="${provider.service.acsURL}"`);
    expect(request.xml).toContain(`>${provider.service.entityID}</saml:Issuer>`);
  });

  it('an open redirect is not carried: a RelayState to another site lands on the app root', async () => {
    const res = await t.app.fetch(new Request(`${provider.service.startURL}?next=//evil.test/x`));
    expect(readAuthnRequest(res.headers.get('location')!).relayState).toBe('/');
  });

  it('a RelayState that no app page answers lands on the app root', async () => {
    for (const next of ['/spaces/abc', `/o/${acme.organizationId}/nothing/here`, '/v1/orgs']) {
      const res = await t.app.fetch(new Request(`${provider.service.startURL}?next=${encodeURIComponent(next)}`));
      expect(readAuthnRequest(res.headers.get('location')!).relayState, next).toBe('/');
    }
  });

  it('the redirect lands on a page that answers: the app page of the path asked for, or the app root', async () => {
    for (const relayState of [`/o/${acme.organizationId}/`, undefined]) {
      const res = await postAcs(encodeResponse(responseFor(acme.admin.email)), relayState);
      expect(res.status).toBe(303);
      const landing = await t.app.fetch(new Request(res.location!.split('#')[0], { headers: { accept: 'text/html' } }));
      expect(landing.status).toBe(200);
      expect(landing.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await landing.text()).toContain(relayState ? `"org":"${acme.organizationId}"` : '"kind":"home"');
    }
  });

  it('serves our metadata with the ACS URL', async () => {
    const res = await t.app.fetch(new Request(provider.service.entityID));
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain(`entityID="${provider.service.entityID}"`);
    expect(xml).toContain(`Location="${provider.service.acsURL}"`);
  });

  it('a valid response to our AuthnRequest signs in a new user, a member with role, team and the SSO flag', async () => {
    const home = `/o/${acme.organizationId}/`;
    const start = await t.app.fetch(new Request(`${provider.service.startURL}?next=${home}`));
    const { id } = readAuthnRequest(start.headers.get('location')!);
    const res = await postAcs(encodeResponse(responseFor('Nina.New@Example.com', { inResponseTo: id, name: 'Nina New' })), home);
    expect(res.status).toBe(303);
    const location = new URL(res.location!);
    expect(`${location.origin}${location.pathname}`).toBe(`${TEST_ORIGIN}${home}`);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('organization')).toBe(acme.organizationId);
    const token = fragment.get('token')!;

    const me = await t.rest('GET', '/v1/user', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ displayName: 'Nina New', email: 'nina.new@example.com' });
    const member = await t.rest('GET', `/v1/orgs/${acme.organizationId}/members/${me.body.id}`, { token: acme.admin.token });
    expect(member.body).toMatchObject({ role: 'edit', sso: true, teams: 1 });
    const [inTeam] = await t.db.select().from(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, me.body.id)));
    expect(inTeam).toBeDefined();
  });

  it('an existing member signing in keeps their role and becomes an SSO member', async () => {
    const res = await postAcs(encodeResponse(responseFor(acme.admin.email)));
    expect(res.status).toBe(303);
    const member = await t.rest('GET', `/v1/orgs/${acme.organizationId}/members/${acme.admin.userId}`, { token: acme.admin.token });
    expect(member.body).toMatchObject({ role: 'admin', sso: true });
  });

  it('an answer to a request never sent (unknown InResponseTo) is refused', async () => {
    const before = await footprint();
    const res = await postAcs(encodeResponse(responseFor('ghost@example.com', { inResponseTo: '_never-sent' })));
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/InResponseTo/);
    expect(await footprint()).toEqual(before);
  });

  it('a tampered response (the e-mail changed after signing) is refused and writes nothing', async () => {
    const xml = responseFor('honest@example.com').replace('honest@example.com', 'mallory@example.com');
    const before = await footprint();
    const res = await postAcs(encodeResponse(xml));
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/SAML response refused: .*signature/i);
    expect(await footprint()).toEqual(before);
  });

  it('a response signed by another key is refused', async () => {
    const stranger = await makeIdp(idp.entityId);
    const before = await footprint();
    const res = await postAcs(encodeResponse(signedResponse(stranger, { acsUrl: provider.service.acsURL, audience: provider.service.entityID, email: 'x@example.com' })));
    expect(res.status).toBe(401);
    expect(await footprint()).toEqual(before);
  });

  it('an expired response is refused, on the app clock', async () => {
    const xml = responseFor('late@example.com', { lifetimeMs: 5 * 60_000 });
    t.clock.now = new Date(Date.now() + 10 * 60_000);
    const before = await footprint();
    const res = await postAcs(encodeResponse(xml));
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/expired/);
    expect(await footprint()).toEqual(before);
  });

  it('a response not valid yet is refused', async () => {
    const res = await postAcs(encodeResponse(responseFor('early@example.com', { now: new Date(Date.now() + 10 * 60_000) })));
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/not valid yet/);
  });

  it('a response meant for another service (wrong audience) is refused', async () => {
    const before = await footprint();
    const res = await postAcs(encodeResponse(responseFor('elsewhere@example.com', { audience: 'https://other-sp.test/metadata' })));
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/audience/i);
    expect(await footprint()).toEqual(before);
  });

  it('a response from another issuer is refused', async () => {
    const res = await postAcs(encodeResponse(responseFor('issuer@example.com', { issuer: 'https://someone-else.test' })));
    expect(res.status).toBe(401);
  });

  it('a replayed response is refused the second time, and writes nothing', async () => {
    const xml = encodeResponse(responseFor('once@example.com'));
    expect((await postAcs(xml)).status).toBe(303);
    const before = await footprint();
    const again = await postAcs(xml);
    expect(again.status).toBe(401);
    expect(again.body.error.message).toMatch(/already used/);
    expect(await footprint()).toEqual(before);
    const [used] = await t.db.select({ n: count() }).from(samlAssertions);
    expect(used.n).toBeGreaterThan(0);
  });

  it('a post that is no SAML response is a 400; an unknown provider is a 404', async () => {
    expect((await postAcs('')).status).toBe(400);
    expect((await postAcs('not base64 at all!')).status).toBe(400);
    const missing = await t.app.fetch(new Request(`${TEST_ORIGIN}/sso/saml/doesNotExist/start`));
    expect(missing.status).toBe(404);
  });
});
