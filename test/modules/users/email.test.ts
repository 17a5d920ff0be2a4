import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers } from '../../../src/db/schema/members';
import { startTestApp, type TestApp } from '../../support/clients';
import { buildMember, buildOrganization, buildUser, type Actor, type OrgFixture } from '../../support/factories';
import { gid } from '../../support/doors';

let t: TestApp;
let acme: OrgFixture;
let beta: OrgFixture;
let writer: Actor;
let guest: Actor;
let lapsed: Actor;
let outsider: Actor;

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  beta = await buildOrganization(t.db, 'Beta');
  writer = await buildMember(t.db, acme.organizationId, 'edit');
  guest = await buildMember(t.db, acme.organizationId, null);
  lapsed = await buildMember(t.db, acme.organizationId, 'read');
  await t.db
    .update(organizationMembers)
    .set({ disabled: true })
    .where(and(eq(organizationMembers.organizationId, acme.organizationId), eq(organizationMembers.userId, lapsed.userId)));
  outsider = await buildUser(t.db);
});
afterAll(async () => {
  await t?.close();
});

/** The e-mail each door shows `viewer` of `user`: REST's (undefined when left out) and GraphQL's. */
async function emailSeen(viewer: Actor, user: Actor): Promise<{ rest: string | undefined; graphql: string | null }> {
  const rest = await t.rest('GET', `/v1/users/${user.userId}`, { token: viewer.token });
  expect(rest.status).toBe(200);
  const gql = await t.graphql(`query($id: ID!) { node(id: $id) { ... on User { restId email } } }`, { id: gid('User', user.userId) }, viewer.token);
  expect(gql.body.errors).toBeUndefined();
  expect(gql.body.data.node.restId).toBe(user.userId);
  return { rest: rest.body.email, graphql: gql.body.data.node.email };
}

const shown = (user: Actor) => ({ rest: user.email, graphql: user.email });
const hidden = { rest: undefined, graphql: null };

describe('e-mail addresses', () => {
  it('are shown to members of an organization the user belongs to, guests and disabled users included', async () => {
    expect(await emailSeen(acme.admin, writer)).toEqual(shown(writer));
    expect(await emailSeen(writer, acme.admin)).toEqual(shown(acme.admin));
    expect(await emailSeen(guest, writer)).toEqual(shown(writer));
    expect(await emailSeen(acme.admin, lapsed)).toEqual(shown(lapsed));
  });

  it('are hidden from another organization, from outsiders and from a disabled member', async () => {
    expect(await emailSeen(beta.admin, writer)).toEqual(hidden);
    expect(await emailSeen(outsider, acme.admin)).toEqual(hidden);
    expect(await emailSeen(acme.admin, outsider)).toEqual(hidden);
    expect(await emailSeen(lapsed, acme.admin)).toEqual(hidden);
  });

  it('are always shown to the user themselves', async () => {
    expect(await emailSeen(outsider, outsider)).toEqual(shown(outsider));
    const me = await t.rest('GET', '/v1/user', { token: outsider.token });
    expect(me.body.email).toBe(outsider.email);
    const viewer = await t.graphql('{ viewer { user { email } } }', {}, outsider.token);
    expect(viewer.body.data.viewer.user.email).toBe(outsider.email);
  });

  it('follow a new shared membership', async () => {
    const joiner = await buildUser(t.db);
    expect(await emailSeen(beta.admin, joiner)).toEqual(hidden);
    const added = await t.rest('POST', `/v1/orgs/${beta.organizationId}/invites`, { token: beta.admin.token, body: { emails: [joiner.email], role: 'read' } });
    expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);
    expect(await emailSeen(beta.admin, joiner)).toEqual(shown(joiner));
  });
});
