import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samlProviders } from '../../../src/db/schema/saml';
import type { TestApp } from '../../support/clients';
import { buildTeam, type OrgFixture } from '../../support/factories';
import { makeIdp, type TestIdp } from '../../support/saml-idp';
import { scenario } from '../../support/scenario';

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let idp: TestIdp;
let acmeTeam: string;
let otherTeam: string;

beforeAll(async () => {
  ({ t, acme, other } = await scenario({}));
  idp = await makeIdp();
  acmeTeam = (await buildTeam(t.db, acme.organizationId, 'Engineering')).id;
  otherTeam = (await buildTeam(t.db, other.organizationId, 'Theirs')).id;
});
afterAll(async () => t?.close());

const path = () => `/v1/orgs/${acme.organizationId}/saml`;
const valid = () => ({ label: 'Okta', entityID: idp.entityId, ssoURL: idp.ssoUrl, certificate: idp.certificate });
const create = (body: unknown) => t.rest('POST', path(), { token: acme.admin.token, body });
const providerCount = async () => (await t.db.select({ n: count() }).from(samlProviders))[0].n;

describe('SAML providers over REST', () => {
  it('without credentials: 401 on every operation', async () => {
    for (const [method, p] of [['GET', path()], ['POST', path()], ['GET', `${path()}/x`], ['PATCH', `${path()}/x`], ['DELETE', `${path()}/x`], ['GET', `/v1/orgs/${acme.organizationId}/sso`]]) {
      expect((await t.rest(method, p, { body: method === 'POST' || method === 'PATCH' ? {} : undefined })).status).toBe(401);
    }
  });

  it('creates (201, Location), reads, lists, updates and deletes a provider', async () => {
    const created = await create({ ...valid(), defaultTeam: acmeTeam, defaultRole: 'comment' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(created.body.urls.location);
    expect(created.body).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      entityID: idp.entityId,
      ssoURL: idp.ssoUrl,
      defaultRole: 'comment',
      defaultTeam: { object: 'team', id: acmeTeam, title: 'Engineering' },
      status: 'active',
    });
    const id = created.body.id;
    expect(created.body.service).toEqual({
      entityID: `http://quire.test/sso/saml/${id}`,
      acsURL: `http://quire.test/sso/saml/${id}/acs`,
      startURL: `http://quire.test/sso/saml/${id}/start`,
    });

    expect((await t.rest('GET', `${path()}/${id}`, { token: acme.admin.token })).body.id).toBe(id);
    const list = await t.rest('GET', path(), { token: acme.admin.token });
    expect(list.body.items.map((p: { id: string }) => p.id)).toContain(id);

    const updated = await t.rest('PATCH', `${path()}/${id}`, { token: acme.admin.token, body: { label: 'Okta EU', defaultRole: null, defaultTeam: null } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ label: 'Okta EU', defaultRole: null });
    expect(updated.body.defaultTeam).toBeUndefined();

    const logins = await t.rest('GET', `/v1/orgs/${acme.organizationId}/sso`, { token: acme.admin.token });
    expect(logins.body.items).toContainEqual({ id, label: 'Okta EU', startURL: `http://quire.test/sso/saml/${id}/start` });

    expect((await t.rest('DELETE', `${path()}/${id}`, { token: acme.admin.token })).status).toBe(204);
    expect((await t.rest('GET', `${path()}/${id}`, { token: acme.admin.token })).status).toBe(404);
    expect((await t.rest('DELETE', `${path()}/${id}`, { token: acme.admin.token })).status).toBe(204);
  });

  it('defaults the role of newcomers to read', async () => {
    const created = await create(valid());
    expect(created.body.defaultRole).toBe('read');
  });

  const refusals: [string, Record<string, unknown>, RegExp][] = [
    ['a certificate that is not PEM', { certificate: 'not a certificate' }, /certificate must be one X.509 certificate in PEM/],
    ['PEM armour around garbage', { certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' }, /certificate must be one X.509/],
    ['a private key instead of a certificate', { certificate: 'PRIVATE' }, /certificate must be one X.509/],
    ['a certificate over 10000 characters', { certificate: `-----BEGIN CERTIFICATE-----\n${'A'.repeat(10001)}\n-----END CERTIFICATE-----` }, /at most 10000/],
    ['an empty label', { label: '' }, /label must be 1 to 30/],
    ['a label of 31 characters', { label: 'x'.repeat(31) }, /label must be 1 to 30/],
    ['an entityID over 1024 characters', { entityID: 'e'.repeat(1025) }, /entityID must be at most 1024/],
    ['an ssoURL that is no URL', { ssoURL: 'idp.example.com/sso' }, /ssoURL must be an http\(s\) URL/],
    ['an ssoURL over 2048 characters', { ssoURL: `https://idp.test/${'a'.repeat(2048)}` }, /ssoURL must be at most 2048/],
    ['a defaultTeam of another organization', { defaultTeam: 'OTHER' }, /defaultTeam: ".*" is not a team of this organization/],
    ['a missing defaultTeam', { defaultTeam: 'noSuchTeam' }, /defaultTeam: "noSuchTeam" is not a team/],
    ['an unknown role', { defaultRole: 'owner' }, /role must be one of/],
    ['an unknown field', { colour: 'red' }, /colour|Unrecognized/i],
  ];

  for (const [what, change, message] of refusals) {
    it(`refuses ${what} with a 400 and writes nothing`, async () => {
      const before = await providerCount();
      const input: Record<string, unknown> = { ...valid(), ...change };
      if (change.certificate === 'PRIVATE') input.certificate = idp.privateKey;
      if (change.defaultTeam === 'OTHER') input.defaultTeam = otherTeam;
      const res = await create(input);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(message);
      expect(await providerCount()).toBe(before);
    });
  }

  it('refuses a create without entityID, ssoURL or certificate, naming the field', async () => {
    for (const field of ['entityID', 'ssoURL', 'certificate'] as const) {
      const input: Record<string, unknown> = valid();
      delete input[field];
      const res = await create(input);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(`${field} is required`);
    }
  });

  it('refuses a PATCH with a non-PEM certificate or a foreign team, and keeps the provider as it was', async () => {
    const { body: provider } = await create(valid());
    for (const change of [{ certificate: 'MIIB...' }, { defaultTeam: otherTeam }]) {
      const res = await t.rest('PATCH', `${path()}/${provider.id}`, { token: acme.admin.token, body: change });
      expect(res.status).toBe(400);
    }
    const after = await t.rest('GET', `${path()}/${provider.id}`, { token: acme.admin.token });
    expect(after.body).toEqual(provider);
  });

  it('a deleted default team leaves the provider without one', async () => {
    const team = await buildTeam(t.db, acme.organizationId, 'Temporary');
    const { body: provider } = await create({ ...valid(), defaultTeam: team.id });
    expect((await t.rest('DELETE', `/v1/orgs/${acme.organizationId}/teams/${team.id}`, { token: acme.admin.token })).status).toBe(204);
    const after = await t.rest('GET', `${path()}/${provider.id}`, { token: acme.admin.token });
    expect(after.body.defaultTeam).toBeUndefined();
  });
});
