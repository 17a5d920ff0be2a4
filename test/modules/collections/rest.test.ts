import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';
import { TEST_ORIGIN, type TestApp } from '../../support/clients';
import { contentHelpers } from '../../support/content';
import { scenario } from '../../support/scenario';

let t: TestApp, acme: OrgFixture, other: OrgFixture;
let reader: Actor, editor: Actor, creator: Actor, guest: Actor;

type Json = Record<string, any>;

const admin = () => acme.admin.token;
const { newSpace, newCollection, listIds, allPages } = contentHelpers(() => t, () => acme, { inCreationOrder: true });

beforeAll(async () => {
  ({ t, acme, other, people: { reader, editor, creator, guest } } = await scenario({
    reader: ['read', 'Rita Reader'],
    editor: ['edit', 'Eddie Editor'],
    creator: ['create', 'Cora Creator'],
    guest: [null, 'Gus Guest'],
  }));
});
afterAll(() => t.close());

const collectionsPath = (org: OrgFixture = acme) => `/v1/orgs/${org.organizationId}/collections`;
const createCollection = (body: unknown = {}, { token = admin(), org = acme }: { token?: string; org?: OrgFixture } = {}) =>
  t.rest('POST', collectionsPath(org), { token, body });
const getCollection = (id: string, token = admin()) => t.rest('GET', `/v1/collections/${id}`, { token });
const patchCollection = (id: string, body: unknown, token = admin()) => t.rest('PATCH', `/v1/collections/${id}`, { token, body });
const moveCollection = (id: string, body: unknown, token = admin()) => t.rest('POST', `/v1/collections/${id}/move`, { token, body });

describe('POST /v1/orgs/{organizationId}/collections', () => {
  it('creates a top-level collection with 201, a Location header and the defaults', async () => {
    const res = await createCollection({});
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(res.body.urls.location).toBe(`${TEST_ORIGIN}/v1/collections/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'collection',
      title: 'Untitled collection',
      organization: acme.organizationId,
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    expect(res.body).not.toHaveProperty('parent');
    const read = await getCollection(res.body.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('creates a sub-collection inside a parent', async () => {
    const parent = await newCollection({ title: 'Parent' });
    const res = await createCollection({ title: '  Child  ', parent: parent.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Child', parent: parent.id, organization: acme.organizationId });
    expect((await getCollection(res.body.id)).body.parent).toBe(parent.id);
  });

  it('accepts a 50-character title', async () => {
    expect((await createCollection({ title: 'c'.repeat(50) })).status).toBe(201);
  });

  it.each([
    ['a 51-character title', { title: 'x'.repeat(51) }],
    ['an empty title', { title: '   ' }],
    ['a non-string title', { title: 7 }],
    ['an unknown field', { title: 'Ok', description: 'not accepted on create' }],
    ['a non-string parent', { parent: 42 }],
    ['a non-object body', [1]],
  ])('rejects %s with 400 and creates nothing', async (_what, body) => {
    const org = await buildOrganization(t.db);
    const res = await createCollection(body, { token: org.admin.token, org });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe(400);
    expect((await t.rest('GET', collectionsPath(org), { token: org.admin.token })).body.count).toBe(0);
  });

  it('answers 404 for a parent that is missing or in another organization, creating nothing', async () => {
    const org = await buildOrganization(t.db);
    const foreign = await newCollection({}, other);
    expect((await createCollection({ parent: foreign.id }, { token: org.admin.token, org })).status).toBe(404);
    expect((await createCollection({ parent: 'no-such-collection' }, { token: org.admin.token, org })).status).toBe(404);
    expect((await t.rest('GET', collectionsPath(org), { token: org.admin.token })).body.count).toBe(0);
  });

  it('lets the create role create, not readers or editors; outsiders get 404', async () => {
    expect((await createCollection({ title: 'By creator' }, { token: creator.token })).status).toBe(201);
    expect((await createCollection({ title: 'By reader' }, { token: reader.token })).status).toBe(403);
    expect((await createCollection({ title: 'By editor' }, { token: editor.token })).status).toBe(403);
    expect((await createCollection({ title: 'By outsider' }, { token: other.admin.token })).status).toBe(404);
    const titles = (await t.rest('GET', `${collectionsPath()}?limit=1000`, { token: admin() })).body.items.map((c: Json) => c.title);
    expect(titles).toContain('By creator');
    expect(titles.filter((x: string) => x.startsWith('By ') && x !== 'By creator')).toEqual([]);
  });
});

describe('GET /v1/collections/{collectionId}', () => {
  it('answers 404 for a missing collection, another organization or a guest without access', async () => {
    const collection = await newCollection();
    expect((await getCollection('no-such-collection')).status).toBe(404);
    expect((await getCollection(collection.id, other.admin.token)).status).toBe(404);
    expect((await getCollection(collection.id, guest.token)).status).toBe(404);
  });

  it('states the permissions of each role', async () => {
    const collection = await newCollection();
    const permissions = async (token: string) => (await getCollection(collection.id, token)).body.permissions;
    expect(await permissions(admin())).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
    expect(await permissions(reader.token)).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    expect(await permissions(editor.token)).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    expect(await permissions(creator.token)).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
  });
});

describe('PATCH /v1/collections/{collectionId}', () => {
  it('updates title, description and default level; the changes read back', async () => {
    const collection = await newCollection({ title: 'Before' });
    const res = await patchCollection(collection.id, { title: 'After', description: 'd'.repeat(100), defaultLevel: 'comment' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: collection.id, title: 'After', description: 'd'.repeat(100), defaultLevel: 'comment' });
    expect((await getCollection(collection.id)).body).toEqual(res.body);
  });

  it.each([['admin'], [null], ['inherit']])('accepts defaultLevel %j', async (level) => {
    const collection = await newCollection();
    const res = await patchCollection(collection.id, { defaultLevel: level });
    expect(res.status).toBe(200);
    expect(res.body.defaultLevel).toBe(level);
  });

  it.each([
    ['a 51-character title', { title: 'x'.repeat(51) }],
    ['an empty title', { title: '' }],
    ['a 101-character description', { description: 'd'.repeat(101) }],
    ['an unknown defaultLevel', { defaultLevel: 'owner' }],
    ['an unknown field', { title: 'Renamed', parent: null }],
    ['a non-object body', 'Renamed'],
  ])('rejects %s with 400 and changes nothing', async (_what, body) => {
    const collection = await newCollection({ title: 'Unchanged' });
    const res = await patchCollection(collection.id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect((await getCollection(collection.id)).body).toEqual(collection);
  });

  it('needs admin rights: 403 for a creator, 404 for an outsider or a missing collection', async () => {
    const collection = await newCollection({ title: 'Guarded' });
    expect((await patchCollection(collection.id, { title: 'Creator' }, creator.token)).status).toBe(403);
    expect((await patchCollection(collection.id, { title: 'Outsider' }, other.admin.token)).status).toBe(404);
    expect((await patchCollection('no-such-collection', { title: 'x' })).status).toBe(404);
    expect((await getCollection(collection.id)).body.title).toBe('Guarded');
  });

  it('a null default level hides the collection and its spaces from readers', async () => {
    const org = await buildOrganization(t.db);
    const orgReader = await buildMember(t.db, org.organizationId, 'read');
    const collection = await newCollection({}, org);
    const space = await newSpace({ parent: collection.id }, org);
    const top = await newSpace({}, org);
    expect(await listIds(`/v1/orgs/${org.organizationId}/spaces`, orgReader.token)).toEqual([space.id, top.id]);
    expect((await patchCollection(collection.id, { defaultLevel: null }, org.admin.token)).status).toBe(200);
    expect((await getCollection(collection.id, orgReader.token)).status).toBe(404);
    expect((await t.rest('GET', `/v1/spaces/${space.id}`, { token: orgReader.token })).status).toBe(404);
    expect(await listIds(`/v1/orgs/${org.organizationId}/spaces`, orgReader.token)).toEqual([top.id]);
    expect(await listIds(collectionsPath(org), orgReader.token)).toEqual([]);
    expect(await listIds(collectionsPath(org), org.admin.token)).toEqual([collection.id]);
  });
});

describe('DELETE /v1/collections/{collectionId}', () => {
  it('answers 204, deletes sub-collections and trashes their spaces, which restore at the top level', async () => {
    const org = await buildOrganization(t.db);
    const token = org.admin.token;
    const root = await newCollection({ title: 'Root' }, org);
    const child = await newCollection({ title: 'Child', parent: root.id }, org);
    const grandchild = await newCollection({ title: 'Grandchild', parent: child.id }, org);
    const sibling = await newCollection({ title: 'Sibling' }, org);
    const inRoot = await newSpace({ title: 'In root', parent: root.id }, org);
    const inGrandchild = await newSpace({ title: 'In grandchild', parent: grandchild.id }, org);
    const inSibling = await newSpace({ title: 'In sibling', parent: sibling.id }, org);

    const res = await t.rest('DELETE', `/v1/collections/${root.id}`, { token });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    for (const id of [root.id, child.id, grandchild.id]) expect((await getCollection(id, token)).status).toBe(404);
    expect((await getCollection(sibling.id, token)).status).toBe(200);
    expect(await listIds(collectionsPath(org), token)).toEqual([sibling.id]);
    // Their spaces are in the trash: gone from the list, still answered by GET with deletedAt.
    for (const id of [inRoot.id, inGrandchild.id]) expect((await t.rest('GET', `/v1/spaces/${id}`, { token })).body.deletedAt).toEqual(expect.any(String));
    expect(await listIds(`/v1/orgs/${org.organizationId}/spaces`, token)).toEqual([inSibling.id]);

    const restored = await t.rest('POST', `/v1/spaces/${inGrandchild.id}/restore`, { token });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).not.toHaveProperty('parent');
    expect(restored.body.visibility).toBe('private');
    expect(restored.body).not.toHaveProperty('deletedAt');
    expect(await listIds(`/v1/orgs/${org.organizationId}/spaces`, token)).toEqual([inGrandchild.id, inSibling.id]);
  });

  it('answers 204 for a missing collection or one the caller cannot see, deleting nothing', async () => {
    expect((await t.rest('DELETE', '/v1/collections/no-such-collection', { token: admin() })).status).toBe(204);
    const collection = await newCollection();
    expect((await t.rest('DELETE', `/v1/collections/${collection.id}`, { token: other.admin.token })).status).toBe(204);
    expect((await getCollection(collection.id)).status).toBe(200);
  });

  it('refuses a non-admin with 403, keeping the collection', async () => {
    const collection = await newCollection();
    expect((await t.rest('DELETE', `/v1/collections/${collection.id}`, { token: creator.token })).status).toBe(403);
    expect((await getCollection(collection.id)).status).toBe(200);
  });
});

describe('GET /v1/orgs/{organizationId}/collections', () => {
  it('lists all collections in creation order by default, only the top level in move order with nested=false', async () => {
    const org = await buildOrganization(t.db);
    const token = org.admin.token;
    const a = await newCollection({ title: 'A' }, org);
    const a1 = await newCollection({ title: 'A1', parent: a.id }, org);
    const b = await newCollection({ title: 'B' }, org);
    const c = await newCollection({ title: 'C' }, org);
    const b1 = await newCollection({ title: 'B1', parent: b.id }, org);

    expect(await listIds(collectionsPath(org), token)).toEqual([a.id, a1.id, b.id, c.id, b1.id]);
    expect(await listIds(`${collectionsPath(org)}?nested=true`, token)).toEqual([a.id, a1.id, b.id, c.id, b1.id]);
    expect(await listIds(`${collectionsPath(org)}?nested=false`, token)).toEqual([a.id, b.id, c.id]);
    expect((await t.rest('GET', `${collectionsPath(org)}?nested=false`, { token })).body.count).toBe(3);

    expect((await moveCollection(c.id, { position: { before: { type: 'collection', collection: a.id } } }, token)).status).toBe(200);
    expect(await listIds(`${collectionsPath(org)}?nested=false`, token)).toEqual([c.id, a.id, b.id]);
    expect(await listIds(collectionsPath(org), token)).toEqual([a.id, a1.id, b.id, c.id, b1.id]);

    // Moving a sub-collection to the top level puts it at the end of the top level.
    expect((await moveCollection(a1.id, { parent: null }, token)).status).toBe(200);
    expect(await listIds(`${collectionsPath(org)}?nested=false`, token)).toEqual([c.id, a.id, b.id, a1.id]);
  });

  it('paginates both forms with limit and next.page, without duplicates or gaps', async () => {
    const org = await buildOrganization(t.db);
    const token = org.admin.token;
    const top: string[] = [];
    const all: string[] = [];
    for (let i = 0; i < 7; i++) {
      const parent = await newCollection({ title: `T${i}` }, org);
      top.push(parent.id);
      all.push(parent.id);
      all.push((await newCollection({ title: `T${i}.1`, parent: parent.id }, org)).id);
    }
    const nested = await allPages(collectionsPath(org), 5, token);
    expect(nested.pages.map((p) => p.items.length)).toEqual([5, 5, 4]);
    expect(nested.pages.every((p) => p.count === 14)).toBe(true);
    expect(nested.ids).toEqual(all);
    const flat = await allPages(`${collectionsPath(org)}?nested=false`, 3, token);
    expect(flat.pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    expect(flat.ids).toEqual(top);
  });

  it('rejects a bad nested value or a limit above 1000 with 400; outsiders get 404', async () => {
    expect((await t.rest('GET', `${collectionsPath()}?nested=maybe`, { token: admin() })).status).toBe(400);
    expect((await t.rest('GET', `${collectionsPath()}?limit=1001`, { token: admin() })).status).toBe(400);
    expect((await t.rest('GET', collectionsPath(), { token: other.admin.token })).status).toBe(404);
  });
});

describe('GET /v1/collections/{collectionId}/spaces', () => {
  it('lists the spaces directly inside, in position order, paginated without duplicates or gaps', async () => {
    const org = await buildOrganization(t.db);
    const token = org.admin.token;
    const collection = await newCollection({}, org);
    const sub = await newCollection({ parent: collection.id }, org);
    await newSpace({ title: 'Nested deeper', parent: sub.id }, org);
    await newSpace({ title: 'Top level' }, org);
    const order: string[] = [];
    for (let i = 0; i < 60; i++) order.push((await newSpace({ title: `S${i}`, parent: collection.id }, org)).id);

    // Shuffle a few: the last to the front, the first after the tenth, one into the middle of a page boundary.
    const move = async (id: string, position: Json) => {
      const res = await t.rest('POST', `/v1/spaces/${id}/move`, { token, body: { position } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      order.splice(order.indexOf(id), 1);
      const anchor = position.before ?? position.after;
      const at = order.indexOf(anchor.space);
      order.splice(position.before ? at : at + 1, 0, id);
    };
    await move(order[59], { before: { type: 'space', space: order[0] } });
    await move(order[1], { after: { type: 'space', space: order[10] } });
    await move(order[30], { after: { type: 'space', space: order[24] }, before: { type: 'space', space: order[25] } });
    await move(order[5], { before: { type: 'space', space: order[50] } });

    const { pages, ids } = await allPages(`/v1/collections/${collection.id}/spaces`, 25, token);
    expect(pages.map((p) => p.items.length)).toEqual([25, 25, 10]);
    expect(pages.every((p) => p.count === 60)).toBe(true);
    expect(pages[2].next).toBeUndefined();
    expect(new Set(ids).size).toBe(60);
    expect(ids).toEqual(order);
    expect(pages[0].items.every((s: Json) => s.parent === collection.id && s.object === 'space')).toBe(true);
  });

  it('answers 404 for a missing or hidden collection and 400 for a limit above 1000', async () => {
    const collection = await newCollection();
    expect((await t.rest('GET', '/v1/collections/no-such-collection/spaces', { token: admin() })).status).toBe(404);
    expect((await t.rest('GET', `/v1/collections/${collection.id}/spaces`, { token: other.admin.token })).status).toBe(404);
    expect((await t.rest('GET', `/v1/collections/${collection.id}/spaces?limit=1001`, { token: admin() })).status).toBe(400);
  });
});

describe('POST /v1/collections/{collectionId}/move (basics)', () => {
  it('nests a collection under another and brings it back to the top level', async () => {
    const a = await newCollection({ title: 'A' });
    const b = await newCollection({ title: 'B' });
    const res = await moveCollection(b.id, { parent: a.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: b.id, parent: a.id });
    expect((await getCollection(b.id)).body.parent).toBe(a.id);
    const back = await moveCollection(b.id, { parent: null });
    expect(back.status).toBe(200);
    expect(back.body).not.toHaveProperty('parent');
  });

  it('needs admin rights on the collection', async () => {
    const a = await newCollection({ title: 'A' });
    const b = await newCollection({ title: 'B' });
    expect((await moveCollection(b.id, { parent: a.id }, creator.token)).status).toBe(403);
    expect((await getCollection(b.id)).body).not.toHaveProperty('parent');
  });
});
