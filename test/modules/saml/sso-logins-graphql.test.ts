import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import type { Actor, OrgFixture } from '../../support/factories';
import { makeIdp } from '../../support/saml-idp';
import { scenario } from '../../support/scenario';

/** `Organization.ssoLogins` against its /v1 twin, `GET /v1/orgs/{organizationId}/sso`. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'guest', Actor>;

const QUERY = 'query ($id: ID!) { node(id: $id) { ... on Organization { ssoLogins { restId label startUrl } } } }';

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ guest: [null, 'Gus Guest'] }));
  const idp = await makeIdp();
  for (const label of ['Okta', 'Azure']) {
    const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/saml`, { token: acme.admin.token, body: { label, entityID: `${idp.entityId}/${label}`, ssoURL: idp.ssoUrl, certificate: idp.certificate } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
});
afterAll(() => t?.close());

describe('Organization.ssoLogins', () => {
  it('lists the same sign-in choices as REST, to every member, guests included', async () => {
    for (const token of [acme.admin.token, people.guest.token]) {
      const rest = await t.rest('GET', `/v1/orgs/${acme.organizationId}/sso`, { token });
      expect(rest.status).toBe(200);
      const gql = await t.graphql(QUERY, { id: gid('Organization', acme.organizationId) }, token);
      expect(gql.body.errors).toBeUndefined();
      expect(gql.body.data.node.ssoLogins).toEqual(rest.body.items.map((l: { id: string; label: string; startURL: string }) => ({ restId: l.id, label: l.label, startUrl: l.startURL })));
      expect(gql.body.data.node.ssoLogins.map((l: { label: string }) => l.label).sort()).toEqual(['Azure', 'Okta']);
    }
  });

  it('shows nothing of another organization: it is missing, as REST answers 404', async () => {
    expect((await t.rest('GET', `/v1/orgs/${acme.organizationId}/sso`, { token: other.admin.token })).status).toBe(404);
    const gql = await t.graphql(QUERY, { id: gid('Organization', acme.organizationId) }, other.admin.token);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data).toEqual({ node: null });
  });
});
