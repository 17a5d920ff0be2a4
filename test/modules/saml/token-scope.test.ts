import { GitBookAPI } from '@gitbook/api';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers } from '../../../src/db/schema/members';
import { upsertMember } from '../../../src/modules/members/service';
import { warmSession, type TestApp } from '../../support/clients';
import { gid, gqlOutcome, mutation, restOutcome, send, type GqlCall } from '../../support/doors';
import { buildOrganization, buildUser, type Actor, type OrgFixture } from '../../support/factories';
import { encodeResponse, makeIdp, postToAcs, signedResponse, type TestIdp } from '../../support/saml-idp';
import { scenario } from '../../support/scenario';

/*
 * A token made by SAML sign-in acts in the organization whose provider signed it, and nowhere
 * else. The person (Other's admin) is also an admin of Acme; they sign in through Acme's provider,
 * and their SSO token must then answer in Other exactly as an outsider's would.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let idp: TestIdp;
let outsider: Actor;
/** The token Acme's provider handed out to Other's admin. */
let sso: string;
let acmeSpace: string;
let otherSpace: string;

beforeAll(async () => {
  ({ t, acme, other } = await scenario({}));
  idp = await makeIdp();
  outsider = await buildUser(t.db, 'Olga Outsider');
  await upsertMember(t.db, acme.organizationId, other.admin.userId, 'admin');
  const provider = await send(t, acme.admin.token, 'POST', `/v1/orgs/${acme.organizationId}/saml`, {
    label: 'Acme IdP',
    entityID: idp.entityId,
    ssoURL: idp.ssoUrl,
    certificate: idp.certificate,
  });
  acmeSpace = (await send(t, acme.admin.token, 'POST', `/v1/orgs/${acme.organizationId}/spaces`, { title: 'Acme docs' })).id;
  otherSpace = (await send(t, other.admin.token, 'POST', `/v1/orgs/${other.organizationId}/spaces`, { title: 'Other docs' })).id;
  const xml = signedResponse(idp, { acsUrl: provider.service.acsURL, audience: provider.service.entityID, email: other.admin.email });
  const signedIn = await postToAcs(t.app, provider.service.acsURL, encodeResponse(xml));
  expect(signedIn.status).toBe(303);
  sso = signedIn.token!;
});
afterAll(async () => t?.close());

const orgPath = () => `/v1/orgs/${other.organizationId}`;

/** REST calls that read or change Other, or its content. */
const otherCalls = () => [
  { method: 'GET', path: orgPath() },
  { method: 'PATCH', path: orgPath(), body: { title: 'Renamed by SSO' } },
  { method: 'GET', path: `${orgPath()}/members` },
  { method: 'GET', path: `${orgPath()}/members/${other.admin.userId}` },
  { method: 'PATCH', path: `${orgPath()}/members/${outsider.userId}`, body: { role: 'admin' } },
  { method: 'POST', path: `${orgPath()}/invites`, body: { emails: [outsider.email], role: 'admin' } },
  { method: 'GET', path: `${orgPath()}/spaces` },
  { method: 'POST', path: `${orgPath()}/spaces`, body: { title: 'Planted' } },
  { method: 'GET', path: `${orgPath()}/teams` },
  { method: 'GET', path: `${orgPath()}/saml` },
  { method: 'POST', path: `${orgPath()}/ping` },
  { method: 'GET', path: `/v1/spaces/${otherSpace}` },
  { method: 'PATCH', path: `/v1/spaces/${otherSpace}`, body: { title: 'Defaced' } },
  { method: 'POST', path: `/v1/spaces/${acmeSpace}/transfer`, body: { organization: other.organizationId } },
];

/** GraphQL questions about Other and its content. */
const otherQuestions = (): GqlCall[] => [
  { query: 'query ($id: ID!) { organization(id: $id) { id title } }', variables: { id: other.organizationId }, root: 'organization' },
  { query: 'query ($id: ID!) { node(id: $id) { id } }', variables: { id: gid('Organization', other.organizationId) }, root: 'node' },
  { query: 'query ($id: ID!) { node(id: $id) { id } }', variables: { id: gid('Space', otherSpace) }, root: 'node' },
  mutation('organizationUpdate', { organizationId: gid('Organization', other.organizationId), title: 'Renamed by SSO' }),
  mutation('spaceCreate', { organizationId: gid('Organization', other.organizationId), title: 'Planted' }),
];

async function titleOfOther() {
  return (await t.rest('GET', orgPath(), { token: other.admin.token })).body.title;
}

describe('a token made by SAML sign-in acts in its organization only', () => {
  it('over REST, another organization of the same person answers as it does to an outsider, and nothing changes', async () => {
    const title = await titleOfOther();
    for (const call of otherCalls()) {
      const asOutsider = restOutcome(await t.rest(call.method, call.path, { token: outsider.token, body: call.body }));
      const asSso = restOutcome(await t.rest(call.method, call.path, { token: sso, body: call.body }));
      expect([call.method, call.path, asSso]).toEqual([call.method, call.path, asOutsider]);
    }
    expect(await titleOfOther()).toBe(title);
    const [membership] = await t.db
      .select()
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, other.organizationId), eq(organizationMembers.userId, outsider.userId)));
    expect(membership).toBeUndefined();
    // Still an admin there with their own token: only the SSO token is kept out.
    expect((await t.rest('GET', orgPath(), { token: other.admin.token })).status).toBe(200);

    // In its own organization the same token reads the user, reads and changes the organization and its content.
    expect((await t.rest('GET', '/v1/user', { token: sso })).body.id).toBe(other.admin.userId);
    const renamed = await t.rest('PATCH', `/v1/orgs/${acme.organizationId}`, { token: sso, body: { title: 'Acme (SSO)' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe('Acme (SSO)');
    expect((await t.rest('GET', `/v1/spaces/${acmeSpace}`, { token: sso })).status).toBe(200);
    expect((await t.rest('GET', `/v1/orgs/${acme.organizationId}/spaces`, { token: sso })).body.items.map((s: { id: string }) => s.id)).toContain(acmeSpace);
    const created = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: sso, body: { title: 'Made by SSO' } });
    expect(created.status).toBe(201);
  });

  it('lists only its organization, and finds no other by e-mail domain', async () => {
    const orgs = await t.rest('GET', '/v1/orgs', { token: sso });
    expect(orgs.body.items.map((o: { id: string }) => o.id)).toEqual([acme.organizationId]);
    await send(t, other.admin.token, 'PATCH', orgPath(), { emailDomains: ['example.com'] });
    const byDomain = await t.rest('GET', '/v1/email-domains/example.com/orgs', { token: sso });
    expect(byDomain.status).toBe(200);
    expect(byDomain.body.organizations.map((o: { id: string }) => o.id)).not.toContain(other.organizationId);
    expect((await t.rest('GET', '/v1/email-domains/example.com/orgs', { token: other.admin.token })).body.organizations.map((o: { id: string }) => o.id)).toContain(other.organizationId);
  });

  it('through the official client too', async () => {
    const server = await t.serve();
    try {
      const api = new GitBookAPI({ endpoint: server.url, authToken: sso });
      const { data: orgs } = await api.orgs.listOrganizationsForAuthenticatedUser();
      expect(orgs.items.map((o) => o.id)).toEqual([acme.organizationId]);
      await expect(api.orgs.getOrganizationById(other.organizationId)).rejects.toMatchObject({ code: 404 });
      await expect(api.orgs.updateOrganizationById(other.organizationId, { title: 'Renamed by SSO' })).rejects.toMatchObject({ code: 404 });
      await expect(api.spaces.getSpaceById(otherSpace)).rejects.toMatchObject({ code: 404 });
      const { data: own } = await api.orgs.getOrganizationById(acme.organizationId);
      expect(own.id).toBe(acme.organizationId);
    } finally {
      await server.stop();
    }
  });

  it('over GraphQL, the same: another organization looks missing, viewer.organizations holds only its own', async () => {
    const title = await titleOfOther();
    for (const call of otherQuestions()) {
      const asOutsider = gqlOutcome(await t.graphql(call.query, call.variables, outsider.token), call);
      const asSso = gqlOutcome(await t.graphql(call.query, call.variables, sso), call);
      expect([call.query, asSso]).toEqual([call.query, asOutsider]);
      expect(asSso).toBe('not_found');
    }
    const viewer = await t.graphql('{ viewer { organizations(first: 10) { totalCount edges { node { restId } } } } }', {}, sso);
    expect(viewer.body.data.viewer.organizations).toEqual({ totalCount: 1, edges: [{ node: { restId: acme.organizationId } }] });
    expect(await titleOfOther()).toBe(title);
    const own = mutation('organizationUpdate', { organizationId: gid('Organization', acme.organizationId), title: 'Acme (GraphQL)' });
    expect(gqlOutcome(await t.graphql(own.query, own.variables, sso), own)).toBe('ok');
  });

  it('answers the same once its session is cached', async () => {
    await warmSession(t, sso);
    expect((await t.rest('GET', orgPath(), { token: sso })).status).toBe(404);
    expect((await t.rest('GET', orgPath(), { token: sso })).status).toBe(404);
    expect((await t.rest('GET', `/v1/orgs/${acme.organizationId}`, { token: sso })).status).toBe(200);
  });

  it('cannot join yet another organization through an invite link; its own user can', async () => {
    const third = await buildOrganization(t.db, 'Third');
    const invite = await send(t, third.admin.token, 'POST', `/v1/orgs/${third.organizationId}/link-invites`, { role: 'admin' });
    const refused = await t.rest('POST', `/v1/orgs/${third.organizationId}/invites/${invite.id}`, { token: sso });
    expect(refused.status).toBe(403);
    const [joined] = await t.db
      .select()
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, third.organizationId), eq(organizationMembers.userId, other.admin.userId)));
    expect(joined).toBeUndefined();
    expect((await t.rest('POST', `/v1/orgs/${third.organizationId}/invites/${invite.id}`, { token: other.admin.token })).status).toBe(200);
  });

});
