import { and, eq, inArray, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/lib/ids';
import type { Role } from '../../../src/domain/roles';
import { contentGrants } from '../../../src/db/schema/permissions';
import { upsertMember } from '../../../src/modules/members/service';
import { buildMember, buildOrganization, buildTeam, type Actor, type OrgFixture } from '../../support/factories';
import { startTestApp, type TestApp } from '../../support/clients';
import { contentHelpers } from '../../support/content';

/**
 * Moving spaces and collections inside an organization, and transferring them to another one.
 * The caller is `acme`'s admin throughout unless a test says otherwise; they also administer
 * `beta`, only edit in `gamma` and are not in `delta`.
 */
let t: TestApp;
let acme: OrgFixture;
let beta: OrgFixture;
let gamma: OrgFixture;
let delta: OrgFixture;
let editor: Actor;
/** A guest of both acme and beta. */
let both: Actor;
/** A guest of acme only. */
let acmeOnly: Actor;
let teamId: string;

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  beta = await buildOrganization(t.db, 'Beta');
  gamma = await buildOrganization(t.db, 'Gamma');
  delta = await buildOrganization(t.db, 'Delta');
  await upsertMember(t.db, beta.organizationId, acme.admin.userId, 'admin');
  await upsertMember(t.db, gamma.organizationId, acme.admin.userId, 'edit');
  editor = await buildMember(t.db, acme.organizationId, 'edit', 'Eddie Editor');
  both = await buildMember(t.db, acme.organizationId, null, 'Bea Both');
  await upsertMember(t.db, beta.organizationId, both.userId, null);
  acmeOnly = await buildMember(t.db, acme.organizationId, null, 'Otto Only');
  teamId = (await buildTeam(t.db, acme.organizationId, 'Writers', [{ userId: editor.userId, role: 'member' }])).id;
});
afterAll(() => t.close());

type Json = Record<string, any>;
const admin = () => acme.admin.token;

const { newSpace, newCollection } = contentHelpers(() => t, () => acme);
const moveSpace = (id: string, body: unknown, token = admin()) => t.rest('POST', `/v1/spaces/${id}/move`, { token, body });
const moveCollection = (id: string, body: unknown, token = admin()) => t.rest('POST', `/v1/collections/${id}/move`, { token, body });
const transferSpace = (id: string, body: unknown, token = admin()) => t.rest('POST', `/v1/spaces/${id}/transfer`, { token, body });
const transferCollection = (id: string, body: unknown, token = admin()) => t.rest('POST', `/v1/collections/${id}/transfer`, { token, body });
const getSpace = async (id: string, token = admin()) => (await t.rest('GET', `/v1/spaces/${id}`, { token })).body;
const getCollection = async (id: string, token = admin()) => (await t.rest('GET', `/v1/collections/${id}`, { token })).body;
const ids = async (path: string, token = admin()) => {
  const res = await t.rest('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items.map((x: Json) => x.id) as string[];
};
const spacesIn = (collectionId: string) => ids(`/v1/collections/${collectionId}/spaces`);
const orgSpaces = (org: OrgFixture) => ids(`/v1/orgs/${org.organizationId}/spaces`, acme.admin.token);
const orgCollections = (org: OrgFixture, nested = true) => ids(`/v1/orgs/${org.organizationId}/collections?nested=${nested}`, acme.admin.token);
const spacePointer = (id: string) => ({ type: 'space', space: id });
const collectionPointer = (id: string) => ({ type: 'collection', collection: id });

async function grant(on: { spaceId?: string; collectionId?: string }, to: { userId?: string; teamId?: string }, role: Role, organizationId = acme.organizationId) {
  await t.db.insert(contentGrants).values({
    id: newId(),
    organizationId,
    spaceId: on.spaceId ?? null,
    collectionId: on.collectionId ?? null,
    userId: to.userId ?? null,
    teamId: to.teamId ?? null,
    role,
  });
}
const grantsOn = (spaceIds: string[], collectionIds: string[] = []) =>
  t.db
    .select()
    .from(contentGrants)
    .where(or(spaceIds.length ? inArray(contentGrants.spaceId, spaceIds) : undefined, collectionIds.length ? inArray(contentGrants.collectionId, collectionIds) : undefined));

describe('moving a collection', () => {
  it('refuses to move a collection into itself or any of its descendants with 400, changing nothing', async () => {
    const root = await newCollection({ title: 'Root' });
    const child = await newCollection({ title: 'Child', parent: root.id });
    const grandchild = await newCollection({ title: 'Grandchild', parent: child.id });
    for (const target of [root.id, child.id, grandchild.id]) {
      const res = await moveCollection(root.id, { parent: target });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.message).toMatch(/itself|sub-collection/);
    }
    expect((await moveCollection(child.id, { parent: grandchild.id })).status).toBe(400);
    expect(await getCollection(root.id)).not.toHaveProperty('parent');
    expect((await getCollection(child.id)).parent).toBe(root.id);
    expect((await getCollection(grandchild.id)).parent).toBe(child.id);
    // Its descendants can still move up, out of it.
    expect((await moveCollection(grandchild.id, { parent: root.id })).status).toBe(200);
  });

  it('answers 409 when the move changes nothing', async () => {
    const parent = await newCollection({ title: 'Parent' });
    const a = await newCollection({ title: 'A', parent: parent.id });
    const b = await newCollection({ title: 'B', parent: parent.id });
    const c = await newCollection({ title: 'C', parent: parent.id });
    expect((await moveCollection(c.id, { parent: parent.id })).status).toBe(409);
    expect((await moveCollection(b.id, { position: { after: collectionPointer(a.id) } })).status).toBe(409);
    expect((await moveCollection(b.id, { position: { before: collectionPointer(c.id) } })).status).toBe(409);
    expect((await moveCollection(b.id, { parent: parent.id, position: { after: collectionPointer(a.id), before: collectionPointer(c.id) } })).status).toBe(409);
    const top = await newCollection({ title: 'Last at the top' });
    expect((await moveCollection(top.id, { parent: null })).status).toBe(409);
    // Moving to the end when it is not there is a change.
    expect((await moveCollection(a.id, { parent: parent.id })).status).toBe(200);
  });

  it('answers 404 for a target parent that is missing or in another organization', async () => {
    const collection = await newCollection();
    const foreign = await newCollection({}, beta);
    expect((await moveCollection(collection.id, { parent: foreign.id })).status).toBe(404);
    expect((await moveCollection(collection.id, { parent: 'no-such-collection' })).status).toBe(404);
    expect((await moveCollection('no-such-collection', { parent: null })).status).toBe(404);
    expect(await getCollection(collection.id)).not.toHaveProperty('parent');
  });

  it('refuses a position that does not point at a sibling in the target parent, or non-adjacent after/before, with 400', async () => {
    const p = await newCollection({ title: 'P' });
    const q = await newCollection({ title: 'Q' });
    const p1 = await newCollection({ title: 'P1', parent: p.id });
    const p2 = await newCollection({ title: 'P2', parent: p.id });
    const p3 = await newCollection({ title: 'P3', parent: p.id });
    const q1 = await newCollection({ title: 'Q1', parent: q.id });
    const moving = await newCollection({ title: 'Moving' });

    expect((await moveCollection(moving.id, { parent: q.id, position: { before: collectionPointer(p1.id) } })).status).toBe(400);
    expect((await moveCollection(moving.id, { position: { before: collectionPointer(q1.id) } })).status).toBe(400);
    expect((await moveCollection(moving.id, { parent: p.id, position: { after: collectionPointer('no-such-collection') } })).status).toBe(400);
    expect((await moveCollection(moving.id, { parent: p.id, position: { after: spacePointer(p1.id) } })).status).toBe(400);
    expect((await moveCollection(moving.id, { parent: p.id, position: { after: collectionPointer(p1.id), before: collectionPointer(p3.id) } })).status).toBe(400);
    expect((await moveCollection(moving.id, { parent: p.id, position: { after: collectionPointer(p2.id), before: collectionPointer(p1.id) } })).status).toBe(400);
    expect(await getCollection(moving.id)).not.toHaveProperty('parent');

    const between = await moveCollection(moving.id, { parent: p.id, position: { after: collectionPointer(p1.id), before: collectionPointer(p2.id) } });
    expect(between.status).toBe(200);
    expect(between.body.parent).toBe(p.id);
    // Now between P1 and P2: asking for the same place again changes nothing.
    expect((await moveCollection(moving.id, { position: { before: collectionPointer(p2.id) } })).status).toBe(409);
    expect((await moveCollection(moving.id, { position: { after: collectionPointer(p1.id) } })).status).toBe(409);
  });

  it.each([
    ['an empty body', {}],
    ['no body', undefined],
    ['a numeric parent', { parent: 5 }],
    ['an unknown pointer type', { position: { before: { type: 'page', page: 'x' } } }],
    ['an unknown field', { parent: null, title: 'x' }],
  ])('rejects %s with 400', async (_what, body) => {
    const parent = await newCollection();
    const collection = await newCollection({ parent: parent.id });
    expect((await moveCollection(collection.id, body)).status).toBe(400);
    expect((await getCollection(collection.id)).parent).toBe(parent.id);
  });

  it('lists nested=false in the new order after moves among top-level collections', async () => {
    const org = await buildOrganization(t.db);
    const token = org.admin.token;
    const [a, b, c] = [await newCollection({ title: 'A' }, org), await newCollection({ title: 'B' }, org), await newCollection({ title: 'C' }, org)];
    const list = () => ids(`/v1/orgs/${org.organizationId}/collections?nested=false`, token);
    expect((await moveCollection(a.id, { position: { after: collectionPointer(b.id) } }, token)).status).toBe(200);
    expect(await list()).toEqual([b.id, a.id, c.id]);
    expect((await moveCollection(c.id, { position: { before: collectionPointer(b.id) } }, token)).status).toBe(200);
    expect(await list()).toEqual([c.id, b.id, a.id]);
    expect((await moveCollection(c.id, { parent: null }, token)).status).toBe(200);
    expect(await list()).toEqual([b.id, a.id, c.id]);
  });
});

describe('moving a space', () => {
  it('answers 409 when the move changes nothing, spaces and collections sharing one order', async () => {
    const parent = await newCollection();
    const s1 = await newSpace({ title: 'S1', parent: parent.id });
    const c = await newCollection({ title: 'C', parent: parent.id });
    const s2 = await newSpace({ title: 'S2', parent: parent.id });
    expect((await moveSpace(s2.id, { parent: parent.id })).status).toBe(409);
    expect((await moveSpace(s2.id, { position: { after: collectionPointer(c.id) } })).status).toBe(409);
    expect((await moveSpace(s1.id, { position: { before: collectionPointer(c.id) } })).status).toBe(409);
    expect((await moveSpace(s1.id, { parent: parent.id, position: { before: collectionPointer(c.id) } })).status).toBe(409);

    expect((await moveSpace(s2.id, { position: { before: collectionPointer(c.id) } })).status).toBe(200);
    expect(await spacesIn(parent.id)).toEqual([s1.id, s2.id]);
    expect((await moveSpace(s2.id, { position: { after: spacePointer(s1.id) } })).status).toBe(409);
    expect((await moveCollection(c.id, { parent: parent.id })).status).toBe(409);

    const top = await newSpace({ title: 'Last at the top' });
    expect((await moveSpace(top.id, { parent: null })).status).toBe(409);
  });

  it('answers 404 for a target parent that is missing or in another organization, and for a missing space', async () => {
    const home = await newCollection();
    const space = await newSpace({ parent: home.id });
    const foreign = await newCollection({}, beta);
    expect((await moveSpace(space.id, { parent: foreign.id })).status).toBe(404);
    expect((await moveSpace(space.id, { parent: 'no-such-collection' })).status).toBe(404);
    expect((await moveSpace('no-such-space', { parent: null })).status).toBe(404);
    expect((await getSpace(space.id)).parent).toBe(home.id);
    expect(await spacesIn(foreign.id)).toEqual([]);
  });

  it('refuses a position that does not point at a sibling in the target parent, or non-adjacent after/before, with 400', async () => {
    const a = await newCollection({ title: 'A' });
    const b = await newCollection({ title: 'B' });
    const [a1, a2, a3] = [await newSpace({ parent: a.id }), await newSpace({ parent: a.id }), await newSpace({ parent: a.id })];
    const b1 = await newSpace({ parent: b.id });
    const moving = await newSpace({ title: 'Moving', parent: b.id });

    expect((await moveSpace(moving.id, { position: { before: spacePointer(a1.id) } })).status).toBe(400);
    expect((await moveSpace(moving.id, { parent: a.id, position: { before: spacePointer(b1.id) } })).status).toBe(400);
    expect((await moveSpace(moving.id, { parent: a.id, position: { before: spacePointer('no-such-space') } })).status).toBe(400);
    expect((await moveSpace(moving.id, { parent: a.id, position: { after: spacePointer(a1.id), before: spacePointer(a3.id) } })).status).toBe(400);
    expect((await moveSpace(moving.id, { parent: a.id, position: { after: spacePointer(a2.id), before: spacePointer(a1.id) } })).status).toBe(400);
    expect((await getSpace(moving.id)).parent).toBe(b.id);
    expect(await spacesIn(a.id)).toEqual([a1.id, a2.id, a3.id]);

    const res = await moveSpace(moving.id, { parent: a.id, position: { after: spacePointer(a2.id), before: spacePointer(a3.id) } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ parent: a.id, visibility: 'in-collection' });
    expect(await spacesIn(a.id)).toEqual([a1.id, a2.id, moving.id, a3.id]);
    expect(await spacesIn(b.id)).toEqual([b1.id]);
    expect((await moveSpace(a3.id, { position: { before: spacePointer(a1.id) } })).status).toBe(200);
    expect(await spacesIn(a.id)).toEqual([a3.id, a1.id, a2.id, moving.id]);
  });

  it('keeps a stable order through many moves between the same neighbours', async () => {
    const parent = await newCollection();
    const [x, y, z] = [await newSpace({ title: 'X', parent: parent.id }), await newSpace({ title: 'Y', parent: parent.id }), await newSpace({ title: 'Z', parent: parent.id })];
    // Ping-pong Y and Z into the gap after X until the positions have to be renumbered.
    let order = [x.id, y.id, z.id];
    for (let i = 0; i < 60; i++) {
      const mover = order[2];
      expect((await moveSpace(mover, { position: { after: spacePointer(x.id) } })).status).toBe(200);
      order = [x.id, mover, order[1]];
    }
    expect(await spacesIn(parent.id)).toEqual(order);
  });

  it.each([
    ['an empty body', {}],
    ['no body', undefined],
    ['a numeric parent', { parent: 5 }],
    ['a position that is not an object', { position: 'first' }],
    ['an unknown field', { parent: null, organization: 'x' }],
  ])('rejects %s with 400', async (_what, body) => {
    const parent = await newCollection();
    const space = await newSpace({ parent: parent.id });
    expect((await moveSpace(space.id, body)).status).toBe(400);
    expect((await getSpace(space.id)).parent).toBe(parent.id);
  });

  it('needs admin rights on the space', async () => {
    const parent = await newCollection();
    const space = await newSpace({ parent: parent.id });
    expect((await moveSpace(space.id, { parent: null }, editor.token)).status).toBe(403);
    expect((await getSpace(space.id)).parent).toBe(parent.id);
  });
});

describe.each([
  ['space', (body: Json = {}) => newSpace(body), transferSpace, getSpace],
  ['collection', (body: Json = {}) => newCollection(body), transferCollection, getCollection],
] as const)('transferring a %s: refusals', (_kind, create, transfer, read) => {
  it.each([
    ['no body', undefined],
    ['an empty body', {}],
    ['a numeric organization', { organization: 5 }],
    ['an unknown field', { organization: 'x', parent: null }],
  ])('rejects %s with 400', async (_what, body) => {
    const item = await create();
    expect((await transfer(item.id, body)).status).toBe(400);
    expect((await read(item.id)).organization).toBe(acme.organizationId);
  });

  it('answers 404 for a missing target or one the caller is not a member of', async () => {
    const item = await create();
    expect((await transfer(item.id, { organization: 'no-such-org' })).status).toBe(404);
    expect((await transfer(item.id, { organization: delta.organizationId })).status).toBe(404);
    expect((await read(item.id)).organization).toBe(acme.organizationId);
  });

  it('answers 409 for its own organization', async () => {
    const item = await create();
    const res = await transfer(item.id, { organization: acme.organizationId });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe(409);
  });

  it('answers 412 when the caller is a member of the target but not its admin', async () => {
    const item = await create();
    const res = await transfer(item.id, { organization: gamma.organizationId });
    expect(res.status).toBe(412);
    expect(res.body.error.code).toBe(412);
    expect((await read(item.id)).organization).toBe(acme.organizationId);
    expect(await orgSpaces(gamma)).toEqual([]);
  });

  it('answers 404 for a missing item and 403 to a non-admin of it', async () => {
    expect((await transfer('no-such-item', { organization: beta.organizationId })).status).toBe(404);
    const item = await create();
    // Admin of the target, but only an editor where the item is.
    const twoHats = await buildMember(t.db, acme.organizationId, 'edit');
    await upsertMember(t.db, beta.organizationId, twoHats.userId, 'admin');
    expect((await transfer(item.id, { organization: beta.organizationId }, twoHats.token)).status).toBe(403);
    expect((await read(item.id)).organization).toBe(acme.organizationId);
  });
});

describe('transferring a space', () => {
  it('moves it to the top level of the target; the source no longer lists it, the target does', async () => {
    const home = await newCollection();
    const sibling = await newSpace({ parent: home.id });
    const space = await newSpace({ title: 'Leaving', parent: home.id, emoji: '🧳' });
    const res = await transferSpace(space.id, { organization: beta.organizationId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: space.id, title: 'Leaving', emoji: '🧳', organization: beta.organizationId, visibility: 'private', revision: space.revision });
    expect(res.body).not.toHaveProperty('parent');
    expect(res.body.permissions.admin).toBe(true);
    expect(await getSpace(space.id)).toMatchObject({ organization: beta.organizationId });
    expect(await spacesIn(home.id)).toEqual([sibling.id]);
    expect(await orgSpaces(acme)).not.toContain(space.id);
    expect(await orgSpaces(beta)).toContain(space.id);
    // Back home: a second transfer the other way works too.
    expect((await transferSpace(space.id, { organization: acme.organizationId })).status).toBe(200);
    expect(await orgSpaces(acme)).toContain(space.id);
  });

  it('drops team grants and grants of users who are not members of the target; keeps the rest', async () => {
    const space = await newSpace({ title: 'Shared' });
    await grant({ spaceId: space.id }, { userId: both.userId }, 'edit');
    await grant({ spaceId: space.id }, { userId: acmeOnly.userId }, 'read');
    await grant({ spaceId: space.id }, { teamId }, 'comment');
    expect((await getSpace(space.id, both.token)).permissions.edit).toBe(true);
    expect((await getSpace(space.id, acmeOnly.token)).permissions.view).toBe(true);

    expect((await transferSpace(space.id, { organization: beta.organizationId })).status).toBe(200);
    const left = await grantsOn([space.id]);
    expect(left.map((g) => [g.userId, g.teamId, g.role, g.organizationId])).toEqual([[both.userId, null, 'edit', beta.organizationId]]);
    expect((await getSpace(space.id, both.token)).permissions).toMatchObject({ view: true, edit: true, admin: false });
    expect((await t.rest('GET', `/v1/spaces/${space.id}`, { token: acmeOnly.token })).status).toBe(404);
    expect((await t.rest('GET', `/v1/spaces/${space.id}`, { token: editor.token })).status).toBe(404);
  });
});

describe('transferring a collection', () => {
  it('carries its sub-collections and spaces to the top level of the target', async () => {
    const home = await newCollection({ title: 'Home' });
    const root = await newCollection({ title: 'Root', parent: home.id });
    const child = await newCollection({ title: 'Child', parent: root.id });
    const grandchild = await newCollection({ title: 'Grandchild', parent: child.id });
    const stay = await newCollection({ title: 'Stays', parent: home.id });
    const inRoot = await newSpace({ title: 'In root', parent: root.id });
    const inGrandchild = await newSpace({ title: 'In grandchild', parent: grandchild.id });
    const inHome = await newSpace({ title: 'In home', parent: home.id });
    const moved = [root.id, child.id, grandchild.id];

    const res = await transferCollection(root.id, { organization: beta.organizationId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: root.id, title: 'Root', organization: beta.organizationId });
    expect(res.body).not.toHaveProperty('parent');

    expect(await getCollection(child.id)).toMatchObject({ organization: beta.organizationId, parent: root.id });
    expect(await getCollection(grandchild.id)).toMatchObject({ organization: beta.organizationId, parent: child.id });
    expect(await getSpace(inRoot.id)).toMatchObject({ organization: beta.organizationId, parent: root.id, visibility: 'in-collection' });
    expect(await getSpace(inGrandchild.id)).toMatchObject({ organization: beta.organizationId, parent: grandchild.id });
    expect(await spacesIn(root.id)).toEqual([inRoot.id]);
    expect(await spacesIn(grandchild.id)).toEqual([inGrandchild.id]);

    const acmeCollections = await orgCollections(acme);
    for (const id of moved) expect(acmeCollections).not.toContain(id);
    expect(acmeCollections).toEqual(expect.arrayContaining([home.id, stay.id]));
    expect(await orgSpaces(acme)).not.toEqual(expect.arrayContaining([inRoot.id]));
    expect(await orgSpaces(acme)).not.toContain(inGrandchild.id);
    expect(await orgSpaces(acme)).toContain(inHome.id);
    expect(await orgCollections(beta)).toEqual(expect.arrayContaining(moved));
    expect(await orgCollections(beta, false)).toContain(root.id);
    expect(await orgCollections(beta, false)).not.toContain(child.id);
    expect(await orgSpaces(beta)).toEqual(expect.arrayContaining([inRoot.id, inGrandchild.id]));
    expect(await spacesIn(home.id)).toEqual([inHome.id]);

    // In the target, its spaces can be moved around like native ones.
    expect((await moveSpace(inGrandchild.id, { parent: root.id })).status).toBe(200);
    expect(await spacesIn(root.id)).toEqual([inRoot.id, inGrandchild.id]);
  });

  it('lands after the existing top-level content of the target', async () => {
    const target = await buildOrganization(t.db);
    await upsertMember(t.db, target.organizationId, acme.admin.userId, 'admin');
    const existing = await newCollection({ title: 'Existing' }, target);
    const travelling = await newCollection({ title: 'Travelling' });
    expect((await transferCollection(travelling.id, { organization: target.organizationId })).status).toBe(200);
    expect(await ids(`/v1/orgs/${target.organizationId}/collections?nested=false`)).toEqual([existing.id, travelling.id]);
  });

  it('drops team grants and grants of non-members throughout the tree; keeps grants of members of both', async () => {
    const root = await newCollection({ title: 'Granted root' });
    const child = await newCollection({ title: 'Granted child', parent: root.id });
    const space = await newSpace({ title: 'Granted space', parent: child.id });
    const outside = await newSpace({ title: 'Not transferred' });
    await grant({ collectionId: root.id }, { teamId }, 'edit');
    await grant({ collectionId: root.id }, { userId: acmeOnly.userId }, 'read');
    await grant({ collectionId: child.id }, { userId: both.userId }, 'review');
    await grant({ spaceId: space.id }, { userId: acmeOnly.userId }, 'edit');
    await grant({ spaceId: space.id }, { userId: both.userId }, 'comment');
    await grant({ spaceId: space.id }, { teamId }, 'comment');
    await grant({ spaceId: outside.id }, { teamId }, 'comment');
    await grant({ spaceId: outside.id }, { userId: acmeOnly.userId }, 'read');

    expect((await transferCollection(root.id, { organization: beta.organizationId })).status).toBe(200);

    const left = await grantsOn([space.id], [root.id, child.id]);
    const shape = left.map((g) => [g.collectionId ?? g.spaceId, g.userId, g.teamId, g.role, g.organizationId]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(shape).toEqual(
      [
        [child.id, both.userId, null, 'review', beta.organizationId],
        [space.id, both.userId, null, 'comment', beta.organizationId],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    // Content that stayed behind keeps its grants.
    expect((await grantsOn([outside.id])).length).toBe(2);
    expect((await t.db.select().from(contentGrants).where(and(eq(contentGrants.spaceId, outside.id), eq(contentGrants.organizationId, acme.organizationId)))).length).toBe(2);

    // The member of both organizations reaches the content in its new home through the kept grants.
    expect((await getSpace(space.id, both.token)).permissions).toMatchObject({ view: true, review: true, admin: false });
    expect((await t.rest('GET', `/v1/collections/${child.id}`, { token: both.token })).status).toBe(200);
    expect((await t.rest('GET', `/v1/collections/${root.id}`, { token: both.token })).status).toBe(404);
    expect((await t.rest('GET', `/v1/spaces/${space.id}`, { token: acmeOnly.token })).status).toBe(404);
  });

  it('transfers a nested collection out of its parent, which stays behind', async () => {
    const parent = await newCollection({ title: 'Parent' });
    const nested = await newCollection({ title: 'Nested', parent: parent.id });
    const res = await transferCollection(nested.id, { organization: beta.organizationId });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('parent');
    expect(await getCollection(parent.id)).toMatchObject({ organization: acme.organizationId });
    expect(await orgCollections(beta, false)).toContain(nested.id);
    expect(await orgCollections(acme)).not.toContain(nested.id);
  });
});
