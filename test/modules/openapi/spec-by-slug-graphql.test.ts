import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';

/** `Organization.openApiSpec(slug)` against its /v1 twin, `GET /v1/orgs/{organizationId}/openapi/{slug}`. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'read' | 'guest', Actor>;
const TEXT = 'openapi: 3.0.3\ninfo: { title: M, version: "1" }\npaths: {}\n';
const QUERY = 'query ($id: ID!, $slug: String!) { node(id: $id) { ... on Organization { openApiSpec(slug: $slug) { id restId slug } } } }';

beforeAll(async () => {
  t = await startTestApp({}, { jobs: true });
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  people = { read: await buildMember(t.db, acme.organizationId, 'read'), guest: await buildMember(t.db, acme.organizationId, null) };
  expect((await t.rest('PUT', `/v1/orgs/${acme.organizationId}/openapi/petstore`, { token: acme.admin.token, body: { source: { text: TEXT } } })).status).toBe(201);
});
afterAll(() => t?.close());

const ask = async (slug: string, token: string) => ({
  rest: await t.rest('GET', `/v1/orgs/${acme.organizationId}/openapi/${slug}`, { token }),
  gql: await t.graphql(QUERY, { id: gid('Organization', acme.organizationId), slug }, token),
});

describe('Organization.openApiSpec', () => {
  it('finds the same specification as REST, for members with a role', async () => {
    for (const token of [acme.admin.token, people.read.token]) {
      const { rest, gql } = await ask('petstore', token);
      expect(rest.status).toBe(200);
      expect(gql.body.errors).toBeUndefined();
      expect(gql.body.data.node.openApiSpec).toEqual({ id: expect.any(String), restId: rest.body.id, slug: rest.body.slug });
    }
  });

  it('answers null where REST answers 404: a missing slug, a guest, another organization', async () => {
    const missing = await ask('nothing-here', acme.admin.token);
    expect(missing.rest.status).toBe(404);
    expect(missing.gql.body.data.node.openApiSpec).toBeNull();
    const guest = await ask('petstore', people.guest.token);
    expect(guest.rest.status).toBe(404);
    expect(guest.gql.body.errors).toBeUndefined();
    expect(guest.gql.body.data.node?.openApiSpec ?? null).toBeNull();
    const outsider = await ask('petstore', other.admin.token);
    expect(outsider.rest.status).toBe(404);
    expect(outsider.gql.body.data).toEqual({ node: null });
  });
});
