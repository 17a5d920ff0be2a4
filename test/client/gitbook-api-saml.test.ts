import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/clients';
import { buildTeam, type OrgFixture } from '../support/factories';
import { validateResponse } from '../support/openapi';
import { encodeResponse, makeIdp, readAuthnRequest, signedResponse, type TestIdp } from '../support/saml-idp';
import { scenario } from '../support/scenario';

/** The SAML and SSO operations through the official client, unmodified, over real HTTP. */
let t: TestApp;
let acme: OrgFixture;
let server: { url: string; stop(): Promise<void> };
let api: GitBookAPI;
let idp: TestIdp;

beforeAll(async () => {
  ({ t, acme } = await scenario({}));
  server = await t.serve();
  // The service URLs a provider hands out must reach this server.
  t.config.publicUrl = server.url;
  t.config.appUrl = server.url;
  api = new GitBookAPI({ endpoint: server.url, authToken: acme.admin.token });
  idp = await makeIdp();
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

describe('SAML providers through the official GitBookAPI client', () => {
  it('creates, lists, reads, updates, lists logins and deletes, each answer valid against the spec', async () => {
    const org = acme.organizationId;
    const team = await buildTeam(t.db, org, 'Staff');
    const { data: created } = await api.orgs.createOrganizationSamlProvider(org, {
      label: 'Okta',
      entityID: idp.entityId,
      ssoURL: idp.ssoUrl,
      certificate: idp.certificate,
      defaultTeam: team.id,
    });
    validateResponse('POST', `/v1/orgs/${org}/saml`, 201, created);
    expect(created).toMatchObject({ label: 'Okta', defaultRole: 'read', defaultTeam: { id: team.id } });

    const { data: list } = await api.orgs.listSamlProvidersInOrganizationById(org);
    validateResponse('GET', `/v1/orgs/${org}/saml`, 200, list);
    expect(list.items.map((p) => p.id)).toEqual([created.id]);

    const { data: got } = await api.orgs.getOrganizationSamlProviderById(org, created.id);
    validateResponse('GET', `/v1/orgs/${org}/saml/${created.id}`, 200, got);
    expect(got).toEqual(created);

    const { data: updated } = await api.orgs.updateOrganizationSamlProvider(org, created.id, { label: 'Okta EU', defaultRole: 'edit' as never });
    validateResponse('PATCH', `/v1/orgs/${org}/saml/${created.id}`, 200, updated);
    expect(updated).toMatchObject({ label: 'Okta EU', defaultRole: 'edit' });

    const { data: logins } = await api.orgs.listSsoProviderLoginsInOrganization(org);
    validateResponse('GET', `/v1/orgs/${org}/sso`, 200, logins);
    expect(logins.items).toEqual([{ id: created.id, label: 'Okta EU', startURL: created.service.startURL }]);

    // A browser follows the start URL, the IdP answers, and the token it lands with works with the client.
    const start = await fetch(logins.items[0].startURL, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const { id: requestId } = readAuthnRequest(start.headers.get('location')!);
    const xml = signedResponse(idp, { acsUrl: created.service.acsURL, audience: created.service.entityID, email: 'sam.sso@example.com', inResponseTo: requestId });
    const acs = await fetch(created.service.acsURL, { method: 'POST', body: new URLSearchParams({ SAMLResponse: encodeResponse(xml) }), redirect: 'manual' });
    expect(acs.status).toBe(303);
    const token = new URLSearchParams(new URL(acs.headers.get('location')!).hash.slice(1)).get('token')!;
    const { data: me } = await new GitBookAPI({ endpoint: server.url, authToken: token }).user.getAuthenticatedUser();
    const { data: member } = await api.orgs.getMemberInOrganizationById(org, me.id);
    expect(member).toMatchObject({ role: 'edit', sso: true, teams: 1 });

    const deleted = await api.orgs.deleteOrganizationSamlProvider(org, created.id);
    expect(deleted.status).toBe(204);
    const { data: after } = await api.orgs.listSamlProvidersInOrganizationById(org);
    expect(after.items).toEqual([]);
  });

  it('gets the platform error shape for a certificate that is not PEM', async () => {
    const refused = await api.orgs
      .createOrganizationSamlProvider(acme.organizationId, { label: 'Bad', entityID: idp.entityId, ssoURL: idp.ssoUrl, certificate: 'hello' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GitBookAPIError);
    expect((refused as GitBookAPIError).code).toBe(400);
    expect((refused as GitBookAPIError).message).toMatch(/certificate must be one X.509 certificate in PEM/);
  });
});
