/**
 * Authorization matrix of the SAML and SSO operations, both doors. One row per operation, one
 * expected outcome per actor:
 * - admin, create, read: members of Acme with that role; guest: a member with no role;
 * - outsider: the admin of Other, who cannot see Acme at all; anonymous: no token.
 * Provider settings are admin settings: other members see the organization (403), an outsider does
 * not (404). GraphQL's mutations name a provider by its id alone, so the provider is looked up
 * before its organization is known: there, anyone but its admins finds nothing (NOT_FOUND), as for
 * a missing id. The SSO login list is for every member. Rows that change something build their own
 * provider per cell. A provider of another organization answers exactly like a missing one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/clients';
import { gid, gqlOutcome, mutation, restOutcome, send, MISSING, type GqlCall, type Outcome } from '../support/doors';
import { buildMember, type Actor, type OrgFixture } from '../support/factories';
import { makeIdp, type TestIdp } from '../support/saml-idp';
import { scenario } from '../support/scenario';

const WHO = ['admin', 'create', 'read', 'guest', 'outsider', 'anonymous'] as const;
type Who = (typeof WHO)[number];

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let idp: TestIdp;
let actors: Record<Who, Actor | null>;
let foreignProvider: string;

const body = () => ({ label: 'IdP', entityID: idp.entityId, ssoURL: idp.ssoUrl, certificate: idp.certificate });
const newProvider = async (org: OrgFixture) => (await send(t, org.admin.token, 'POST', `/v1/orgs/${org.organizationId}/saml`, body())).id as string;

beforeAll(async () => {
  ({ t, acme, other } = await scenario({}));
  idp = await makeIdp();
  actors = {
    admin: acme.admin,
    create: await buildMember(t.db, acme.organizationId, 'create'),
    read: await buildMember(t.db, acme.organizationId, 'read'),
    guest: await buildMember(t.db, acme.organizationId, null),
    outsider: other.admin,
    anonymous: null,
  };
  foreignProvider = await newProvider(other);
});
afterAll(async () => t?.close());

interface Row {
  op: string;
  rest: (id: string) => { method: string; path: string; body?: unknown };
  gql?: (id: string) => GqlCall;
  /** admin, create, read, guest, outsider, anonymous */
  expect: [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];
  /** GraphQL's, where it differs. */
  gqlExpect?: [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];
}

const ADMIN_ONLY: Row['expect'] = ['ok', 'forbidden', 'forbidden', 'forbidden', 'not_found', 'unauthenticated'];
const ADMINS_SEE_IT: Row['expect'] = ['ok', 'not_found', 'not_found', 'not_found', 'not_found', 'unauthenticated'];
const org = () => acme.organizationId;

const ROWS: Row[] = [
  {
    op: 'list providers',
    rest: () => ({ method: 'GET', path: `/v1/orgs/${org()}/saml` }),
    gql: () => ({ query: `query ($id: ID!) { node(id: $id) { ... on Organization { samlProviders { edges { node { id } } } } } }`, variables: { id: gid('Organization', org()) }, root: 'node' }),
    expect: ADMIN_ONLY,
  },
  {
    op: 'create a provider',
    rest: () => ({ method: 'POST', path: `/v1/orgs/${org()}/saml`, body: body() }),
    gql: () => mutation('samlProviderCreate', { organizationId: gid('Organization', org()), label: 'IdP', entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificate: idp.certificate }),
    expect: ADMIN_ONLY,
  },
  {
    op: 'get a provider',
    rest: (id) => ({ method: 'GET', path: `/v1/orgs/${org()}/saml/${id}` }),
    expect: ADMIN_ONLY,
  },
  {
    op: 'update a provider',
    rest: (id) => ({ method: 'PATCH', path: `/v1/orgs/${org()}/saml/${id}`, body: { label: 'Renamed' } }),
    gql: (id) => mutation('samlProviderUpdate', { samlProviderId: gid('SamlProvider', id), label: 'Renamed' }),
    expect: ADMIN_ONLY,
    gqlExpect: ADMINS_SEE_IT,
  },
  {
    op: 'delete a provider',
    rest: (id) => ({ method: 'DELETE', path: `/v1/orgs/${org()}/saml/${id}` }),
    gql: (id) => mutation('samlProviderDelete', { samlProviderId: gid('SamlProvider', id) }),
    // A delete of what the caller cannot see succeeds and deletes nothing, as for a missing one (the API's rule 5).
    expect: ['ok', 'forbidden', 'forbidden', 'forbidden', 'ok', 'unauthenticated'],
    gqlExpect: ['ok', 'ok', 'ok', 'ok', 'ok', 'unauthenticated'],
  },
  {
    op: 'list SSO logins',
    rest: () => ({ method: 'GET', path: `/v1/orgs/${org()}/sso` }),
    expect: ['ok', 'ok', 'ok', 'ok', 'not_found', 'unauthenticated'],
  },
];

describe('SAML authorization matrix', () => {
  for (const row of ROWS) {
    WHO.forEach((who, i) => {
      it(`${row.op}: ${who} -> ${row.expect[i]} (REST)`, async () => {
        const id = await newProvider(acme);
        const call = row.rest(id);
        const res = await t.rest(call.method, call.path, { token: actors[who]?.token ?? null, body: call.body });
        expect(restOutcome(res)).toBe(row.expect[i]);
      });
      if (row.gql && who !== 'anonymous') {
        it(`${row.op}: ${who} (GraphQL)`, async () => {
          const id = await newProvider(acme);
          const call = row.gql!(id);
          const res = await t.graphql(call.query, call.variables, actors[who]?.token ?? null);
          // Both doors answer alike where both name the organization: a member who is no admin is refused, the outsider finds nothing.
          expect(gqlOutcome(res, call)).toBe((row.gqlExpect ?? row.expect)[i]);
          if (gqlOutcome(res, call) === 'not_found') {
            const missing = await t.graphql(call.query, JSON.parse(JSON.stringify(call.variables).replace(gid('SamlProvider', id), gid('SamlProvider', MISSING))), actors[who]?.token ?? null);
            expect(JSON.stringify(missing.body)).toBe(JSON.stringify(res.body).replaceAll(gid('SamlProvider', id), gid('SamlProvider', MISSING)));
          }
        });
      }
    });
  }

  it("another organization's provider answers exactly like a missing one, on every provider route", async () => {
    for (const method of ['GET', 'PATCH'] as const) {
      const b = method === 'PATCH' ? { label: 'x' } : undefined;
      const foreign = await t.rest(method, `/v1/orgs/${org()}/saml/${foreignProvider}`, { token: acme.admin.token, body: b });
      const missing = await t.rest(method, `/v1/orgs/${org()}/saml/${MISSING}`, { token: acme.admin.token, body: b });
      expect(foreign.status).toBe(404);
      expect(JSON.stringify(foreign.body).replace(foreignProvider, MISSING)).toBe(JSON.stringify(missing.body));
    }
    const del = await t.rest('DELETE', `/v1/orgs/${org()}/saml/${foreignProvider}`, { token: acme.admin.token });
    expect(del.status).toBe(204);
    expect((await t.rest('GET', `/v1/orgs/${other.organizationId}/saml/${foreignProvider}`, { token: other.admin.token })).status).toBe(200);
    const node = await t.graphql(`query ($id: ID!) { node(id: $id) { id } }`, { id: gid('SamlProvider', foreignProvider) }, acme.admin.token);
    expect(node.body.data.node).toBeNull();
  });
});
