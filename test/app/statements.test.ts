import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { small } from '../bench/shapes/small';
import { twoLevel } from '../bench/shapes/two-level';
import { startTestApp, warmSession, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, buildTeam, type Actor, type OrgFixture } from '../support/factories';
import { send } from '../support/doors';

/**
 * The SQL statements each shape of `npm run bench` costs, exactly: authentication is free for a
 * repeat caller, and a nested read is one statement whatever the number of rows. The queries are
 * the bench's own (test/bench/shapes).
 */
let t: TestApp;
let acme: OrgFixture;
let reader: Actor;
let counts: { spaces: number; visibleToReader: number };

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  reader = await buildMember(t.db, acme.organizationId, 'read', 'Rita Reader');
  const crew = await buildTeam(t.db, acme.organizationId, 'Crew', [{ userId: reader.userId, role: 'member' }]);
  const as = (path: string, body?: unknown, method = 'POST') => send(t, acme.admin.token, method, path, body);
  const org = `/v1/orgs/${acme.organizationId}`;
  const open = (await as(`${org}/collections`, { title: 'Open' })).id;
  const closed = (await as(`${org}/collections`, { title: 'Closed' })).id;
  await as(`/v1/collections/${closed}`, { defaultLevel: null }, 'PATCH');
  const shut = (await as(`${org}/collections`, { title: 'Shut' })).id;
  await as(`/v1/collections/${shut}`, { defaultLevel: null }, 'PATCH');
  await as(`/v1/collections/${closed}/permissions`, { role: 'comment', teams: [crew.id] });
  const parents = [undefined, open, closed, shut];
  for (let i = 0; i < 60; i++) await as(`${org}/spaces`, { title: `Space ${i}`, ...(parents[i % 4] ? { parent: parents[i % 4] } : {}) });
  counts = { spaces: 60, visibleToReader: 45 };
});
afterAll(() => t.close());

/** Statements a request costs once the caller's session is cached. */
async function statementsOf(token: string, request: () => Promise<{ status: number; body: any }>) {
  await warmSession(t, token);
  const before = t.database.counter.count;
  const res = await request();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return { statements: t.database.counter.count - before, body: res.body };
}

const graphql = (shape: typeof twoLevel, token: string) => () => t.graphql(shape.graphql!.query, shape.graphql!.variables(acme.organizationId), token);
const rest = (shape: typeof twoLevel, token: string) => () => t.rest('GET', shape.rest!(acme.organizationId), { token });

describe('statements per request of the bench shapes', () => {
  it('2-level through GraphQL: one statement, as an admin and as a read member', async () => {
    const admin = await statementsOf(acme.admin.token, graphql(twoLevel, acme.admin.token));
    expect(admin.statements).toBe(1);
    const edges = admin.body.data.organization.spaces.edges;
    expect(edges).toHaveLength(50);
    expect(edges.filter((e: any) => e.node.parent).map((e: any) => e.node.parent.title)).toContain('Shut');

    const asReader = await statementsOf(reader.token, graphql(twoLevel, reader.token));
    expect(asReader.statements).toBe(1);
    const seen = asReader.body.data.organization.spaces.edges.map((e: any) => e.node);
    expect(seen).toHaveLength(counts.visibleToReader);
    expect(seen.some((node: any) => node.parent?.title === 'Shut')).toBe(false);
    expect(seen.filter((node: any) => node.parent?.title === 'Closed')).toHaveLength(15);
  });

  it('2-level through REST: one statement, with the count in it', async () => {
    const { statements, body } = await statementsOf(acme.admin.token, rest(twoLevel, acme.admin.token));
    expect(statements).toBe(1);
    expect(body.items).toHaveLength(50);
    expect(body.count).toBe(counts.spaces);
  });

  it("2-level through REST as a read member: the list and one statement for the permissions of all its spaces", async () => {
    const { statements, body } = await statementsOf(reader.token, rest(twoLevel, reader.token));
    // An admin's role needs no statement; a reader's comes from the collections above each space
    // and the grants on them, for the whole page at once (it was four statements).
    expect(statements).toBe(2);
    expect(body.items).toHaveLength(counts.visibleToReader);
    // The team's comment grant on Closed reaches its spaces; the open collection's spaces are read-only.
    const commentable = body.items.filter((s: any) => s.permissions.comment);
    expect(commentable).toHaveLength(15);
    expect(body.items.every((s: any) => s.permissions.view && !s.permissions.edit && !s.permissions.admin)).toBe(true);
  });

  it('small: no statement through either door (the member count is kept on write)', async () => {
    const viaGraphql = await statementsOf(acme.admin.token, graphql(small, acme.admin.token));
    expect(viaGraphql.statements).toBe(0);
    expect(viaGraphql.body.data.organization).toEqual({ title: 'Acme', members: { totalCount: 2 } });
    const viaRest = await statementsOf(acme.admin.token, rest(small, acme.admin.token));
    expect(viaRest.statements).toBe(0);
    expect(viaRest.body.title).toBe('Acme');
  });

  it('costs one statement more, for the session, when the caller is not cached', async () => {
    await warmSession(t, acme.admin.token);
    t.sessions.clear();
    const before = t.database.counter.count;
    expect((await graphql(twoLevel, acme.admin.token)()).status).toBe(200);
    expect(t.database.counter.count - before).toBe(2);
  });
});
