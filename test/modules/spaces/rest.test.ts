import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';
import { TEST_ORIGIN, type TestApp } from '../../support/clients';
import { contentHelpers } from '../../support/content';
import { scenario } from '../../support/scenario';

let t: TestApp, acme: OrgFixture, other: OrgFixture;
let reader: Actor, commenter: Actor, editor: Actor, creator: Actor, guest: Actor;

type Json = Record<string, any>;

const admin = () => acme.admin.token;
const { newSpace, newCollection, listIds, allPages } = contentHelpers(() => t, () => acme, { inCreationOrder: true });

beforeAll(async () => {
  ({ t, acme, other, people: { reader, commenter, editor, creator, guest } } = await scenario({
    reader: ['read', 'Rita Reader'],
    commenter: ['comment', 'Carl Commenter'],
    editor: ['edit', 'Eddie Editor'],
    creator: ['create', 'Cora Creator'],
    guest: [null, 'Gus Guest'],
  }));
});
afterAll(() => t.close());

const spacesPath = (org: OrgFixture = acme) => `/v1/orgs/${org.organizationId}/spaces`;
const createSpace = (body: unknown = {}, { token = admin(), org = acme }: { token?: string; org?: OrgFixture } = {}) =>
  t.rest('POST', spacesPath(org), { token, body });
const getSpace = (id: string, token = admin()) => t.rest('GET', `/v1/spaces/${id}`, { token });
const patchSpace = (id: string, body: unknown, token = admin()) => t.rest('PATCH', `/v1/spaces/${id}`, { token, body });
const collectionSpaceIds = (collectionId: string, token = admin()) => listIds(`/v1/collections/${collectionId}/spaces?limit=1000`, token);

const ALL_FALSE = {
  view: false,
  access: false,
  admin: false,
  viewInviteLinks: false,
  edit: false,
  triggerGitSync: false,
  comment: false,
  merge: false,
  review: false,
  installIntegration: false,
};

describe('POST /v1/orgs/{organizationId}/spaces', () => {
  it('creates a private top-level space with 201, a Location header and the defaults', async () => {
    const res = await createSpace({});
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(res.body.urls.location).toBe(`${TEST_ORIGIN}/v1/spaces/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'space',
      title: 'Untitled space',
      visibility: 'private',
      editMode: 'live',
      organization: acme.organizationId,
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
    });
    expect(res.body).not.toHaveProperty('parent');
    expect(res.body).not.toHaveProperty('deletedAt');
    expect(typeof res.body.revision).toBe('string');
    expect(res.body.revision.length).toBeGreaterThan(0);
    expect(Object.values(res.body.permissions).every((v) => v === true)).toBe(true);

    const read = await getSpace(res.body.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('creates a space inside a collection with visibility in-collection', async () => {
    const collection = await newCollection();
    const res = await createSpace({ title: 'Guide', parent: collection.id, emoji: '📘', language: 'fr', editMode: 'locked' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Guide', parent: collection.id, visibility: 'in-collection', emoji: '📘', language: 'fr', editMode: 'locked' });
    expect(await collectionSpaceIds(collection.id)).toEqual([res.body.id]);
  });

  it('accepts a 50-character title and trims it', async () => {
    const res = await createSpace({ title: `  ${'t'.repeat(50)}  ` });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('t'.repeat(50));
  });

  it.each([
    ['a 51-character title', { title: 'x'.repeat(51) }],
    ['a non-string title', { title: 12 }],
    ['a 51-character emoji', { emoji: 'e'.repeat(51) }],
    ['an unknown language', { language: 'xx' }],
    ['an unknown editMode', { editMode: 'draft' }],
    ['an unknown field', { title: 'Ok', visibility: 'public' }],
    ['a template', { title: 'Ok', template: { type: 'template' } }],
    ['a computed source', { title: 'Ok', computedSource: { type: 'openapi' } }],
    ['a non-object body', ['Ok']],
    ['a non-string parent', { parent: 42 }],
  ])('rejects %s with 400 and creates nothing', async (_what, body) => {
    const org = await buildOrganization(t.db);
    const res = await createSpace(body, { token: org.admin.token, org });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe(400);
    expect((await t.rest('GET', spacesPath(org), { token: org.admin.token })).body.count).toBe(0);
  });

  it('answers 404 for a parent collection that is missing or belongs to another organization, creating nothing', async () => {
    const org = await buildOrganization(t.db);
    const foreign = await newCollection({}, other);
    expect((await createSpace({ parent: foreign.id }, { token: org.admin.token, org })).status).toBe(404);
    expect((await createSpace({ parent: 'no-such-collection' }, { token: org.admin.token, org })).status).toBe(404);
    expect((await t.rest('GET', spacesPath(org), { token: org.admin.token })).body.count).toBe(0);
    expect(await collectionSpaceIds(foreign.id, other.admin.token)).toEqual([]);
  });

  it('lets members with the create role create at the top level, not readers or editors', async () => {
    expect((await createSpace({ title: 'By creator' }, { token: creator.token })).status).toBe(201);
    expect((await createSpace({ title: 'By reader' }, { token: reader.token })).status).toBe(403);
    expect((await createSpace({ title: 'By editor' }, { token: editor.token })).status).toBe(403);
    const titles = (await t.rest('GET', `${spacesPath()}?limit=1000`, { token: admin() })).body.items.map((s: Json) => s.title);
    expect(titles).toContain('By creator');
    expect(titles).not.toContain('By reader');
    expect(titles).not.toContain('By editor');
  });

  it('answers 404 to someone outside the organization and 401 without a token', async () => {
    expect((await createSpace({ title: 'Intruder' }, { token: other.admin.token })).status).toBe(404);
    expect((await t.rest('POST', spacesPath(), { body: { title: 'Anonymous' } })).status).toBe(401);
  });
});

describe('GET /v1/spaces/{spaceId}', () => {
  it('answers 404 for a missing space, another organization, or a guest without access', async () => {
    const space = await newSpace();
    expect((await getSpace('no-such-space')).status).toBe(404);
    expect((await getSpace(space.id, other.admin.token)).status).toBe(404);
    expect((await getSpace(space.id, guest.token)).status).toBe(404);
  });

  it('states the permissions of each organization role', async () => {
    const space = await newSpace();
    const permissions = async (token: string) => (await getSpace(space.id, token)).body.permissions;
    expect(await permissions(admin())).toEqual(Object.fromEntries(Object.keys(ALL_FALSE).map((k) => [k, true])));
    expect(await permissions(reader.token)).toEqual({ ...ALL_FALSE, view: true, access: true });
    expect(await permissions(commenter.token)).toEqual({ ...ALL_FALSE, view: true, access: true, comment: true });
    expect(await permissions(editor.token)).toEqual({
      ...ALL_FALSE,
      view: true,
      access: true,
      comment: true,
      edit: true,
      merge: true,
      triggerGitSync: true,
    });
    expect(await permissions(creator.token)).toMatchObject({ view: true, edit: true, merge: true, review: true, admin: false, installIntegration: false });
  });

  it('takes edit and merge away from everyone, admins included, while the space is locked', async () => {
    const space = await newSpace({ editMode: 'locked' });
    const asAdmin = (await getSpace(space.id)).body.permissions;
    expect(asAdmin).toMatchObject({ view: true, admin: true, edit: false, merge: false, comment: true, review: true });
    const asEditor = (await getSpace(space.id, editor.token)).body.permissions;
    expect(asEditor).toMatchObject({ view: true, comment: true, edit: false, merge: false, admin: false });
  });

  it('hides a space whose default level is null from readers, not from admins', async () => {
    const space = await newSpace();
    expect((await patchSpace(space.id, { defaultLevel: null })).status).toBe(200);
    expect((await getSpace(space.id, reader.token)).status).toBe(404);
    expect((await getSpace(space.id)).body.defaultLevel).toBeNull();
  });
});

describe('PATCH /v1/spaces/{spaceId}', () => {
  it('updates every documented field, and the changes read back', async () => {
    const space = await newSpace({ title: 'Before' });
    t.clock.now = new Date(Date.now() + 60_000);
    try {
      const res = await patchSpace(space.id, { title: 'After', emoji: '🚀', editMode: 'locked', language: 'pt-br', defaultLevel: 'comment' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ id: space.id, title: 'After', emoji: '🚀', editMode: 'locked', language: 'pt-br', defaultLevel: 'comment' });
      expect(res.body.updatedAt).toBe(t.clock.now.toISOString());
      expect(res.body.createdAt).toBe(space.createdAt);
      const read = (await getSpace(space.id)).body;
      expect(read).toMatchObject({ title: 'After', emoji: '🚀', editMode: 'locked', language: 'pt-br', defaultLevel: 'comment' });
    } finally {
      t.clock.now = null;
    }
  });

  it.each([['admin'], [null], ['inherit'], ['read']])('accepts defaultLevel %j', async (level) => {
    const space = await newSpace();
    const res = await patchSpace(space.id, { defaultLevel: level });
    expect(res.status).toBe(200);
    expect(res.body.defaultLevel).toBe(level);
  });

  it('accepts a 50-character title and a 50-character emoji', async () => {
    const space = await newSpace();
    const res = await patchSpace(space.id, { title: 'a'.repeat(50), emoji: 'b'.repeat(50) });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('a'.repeat(50));
  });

  it.each([
    ['a 51-character title', { title: 'x'.repeat(51) }],
    ['an empty title', { title: '   ' }],
    ['a 51-character emoji', { emoji: 'e'.repeat(51) }],
    ['an unknown editMode', { editMode: 'draft' }],
    ['an unknown language', { language: 'klingon' }],
    ['an unknown defaultLevel', { defaultLevel: 'owner' }],
    ['an unknown field', { title: 'Renamed', visibility: 'public' }],
    ['another unknown field', { title: 'Renamed', parent: 'x' }],
    ['a non-object body', 'Renamed'],
  ])('rejects %s with 400 and changes nothing', async (_what, body) => {
    const space = await newSpace({ title: 'Unchanged', emoji: '🙂' });
    const res = await patchSpace(space.id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect((await getSpace(space.id)).body).toEqual(space);
  });

  it('needs admin rights on the space: an editor gets 403, an outsider 404, and nothing changes', async () => {
    const space = await newSpace({ title: 'Guarded' });
    expect((await patchSpace(space.id, { title: 'Editor was here' }, editor.token)).status).toBe(403);
    expect((await patchSpace(space.id, { title: 'Outsider was here' }, other.admin.token)).status).toBe(404);
    expect((await getSpace(space.id)).body.title).toBe('Guarded');
  });

  it('answers 404 for a missing or deleted space', async () => {
    const space = await newSpace();
    expect((await patchSpace('no-such-space', { title: 'x' })).status).toBe(404);
    await t.rest('DELETE', `/v1/spaces/${space.id}`, { token: admin() });
    expect((await patchSpace(space.id, { title: 'x' })).status).toBe(404);
  });
});

describe('DELETE /v1/spaces/{spaceId} and POST .../restore', () => {
  it('trashes the space: 204, then shown with deletedAt and out of every list; restore brings it back', async () => {
    const org = await buildOrganization(t.db);
    const collection = await newCollection({}, org);
    const keep = await newSpace({ title: 'Keep', parent: collection.id }, org);
    const space = await newSpace({ title: 'Trash me', parent: collection.id }, org);
    const token = org.admin.token;

    const res = await t.rest('DELETE', `/v1/spaces/${space.id}`, { token });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const trashed = await getSpace(space.id, token);
    expect(trashed.status).toBe(200);
    expect(trashed.body.deletedAt).toEqual(expect.any(String));
    expect(await listIds(spacesPath(org), token)).toEqual([keep.id]);
    expect((await t.rest('GET', spacesPath(org), { token })).body.count).toBe(1);
    expect(await collectionSpaceIds(collection.id, token)).toEqual([keep.id]);

    expect((await t.rest('DELETE', `/v1/spaces/${space.id}`, { token })).status).toBe(204);

    const restored = await t.rest('POST', `/v1/spaces/${space.id}/restore`, { token });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).toMatchObject({ id: space.id, title: 'Trash me', parent: collection.id, visibility: 'in-collection' });
    expect(restored.body).not.toHaveProperty('deletedAt');
    expect((await getSpace(space.id, token)).status).toBe(200);
    expect(await listIds(spacesPath(org), token)).toEqual([keep.id, space.id]);
    expect(await collectionSpaceIds(collection.id, token)).toEqual([keep.id, space.id]);
  });

  it('answers 204 for a space that does not exist or that the caller cannot see', async () => {
    expect((await t.rest('DELETE', '/v1/spaces/no-such-space', { token: admin() })).status).toBe(204);
    const space = await newSpace();
    expect((await t.rest('DELETE', `/v1/spaces/${space.id}`, { token: other.admin.token })).status).toBe(204);
    expect((await getSpace(space.id)).status).toBe(200);
  });

  it('refuses a member who is not admin of the space with 403, keeping the space', async () => {
    const space = await newSpace();
    expect((await t.rest('DELETE', `/v1/spaces/${space.id}`, { token: editor.token })).status).toBe(403);
    expect((await getSpace(space.id)).status).toBe(200);
  });

  it('restoring a live space answers 200 and changes nothing', async () => {
    const space = await newSpace({ title: 'Alive' });
    const res = await t.rest('POST', `/v1/spaces/${space.id}/restore`, { token: admin() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(space);
    expect((await getSpace(space.id)).body).toEqual(space);
  });

  it('answers 404 when restoring a missing space or one deleted more than 7 days ago', async () => {
    expect((await t.rest('POST', '/v1/spaces/no-such-space/restore', { token: admin() })).status).toBe(404);
    const space = await newSpace();
    const start = Date.now();
    try {
      t.clock.now = new Date(start);
      expect((await t.rest('DELETE', `/v1/spaces/${space.id}`, { token: admin() })).status).toBe(204);
      t.clock.now = new Date(start + 7 * 24 * 3600 * 1000 + 1000);
      expect((await t.rest('POST', `/v1/spaces/${space.id}/restore`, { token: admin() })).status).toBe(404);
      t.clock.now = new Date(start + 6 * 24 * 3600 * 1000);
      expect((await t.rest('POST', `/v1/spaces/${space.id}/restore`, { token: admin() })).status).toBe(200);
    } finally {
      t.clock.now = null;
    }
  });
});

describe('POST /v1/spaces/{spaceId}/duplicate', () => {
  it('answers 201 with a copy titled "(copy)", a new id and revision, in the same collection', async () => {
    const collection = await newCollection();
    const original = await newSpace({ title: 'Handbook', parent: collection.id, emoji: '📗', language: 'de' });
    const res = await t.rest('POST', `/v1/spaces/${original.id}/duplicate`, { token: admin() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(res.body).toMatchObject({
      object: 'space',
      title: 'Handbook (copy)',
      parent: collection.id,
      organization: acme.organizationId,
      emoji: '📗',
      language: 'de',
      visibility: 'in-collection',
    });
    expect(res.body.id).not.toBe(original.id);
    expect(res.body.revision).not.toBe(original.revision);
    expect((await getSpace(res.body.id)).body.title).toBe('Handbook (copy)');
    expect((await getSpace(original.id)).body).toEqual(original);
  });

  it('places each copy right after its original', async () => {
    const collection = await newCollection();
    const originals: Json[] = [];
    for (let i = 0; i < 8; i++) originals.push(await newSpace({ title: `S${i}`, parent: collection.id }));
    const expected: string[] = [];
    for (const original of originals) {
      const copy = await t.rest('POST', `/v1/spaces/${original.id}/duplicate`, { token: admin() });
      expect(copy.status).toBe(201);
      expected.push(original.id, copy.body.id);
    }
    expect(await collectionSpaceIds(collection.id)).toEqual(expected);
  });

  it('keeps copies in order once repeated duplicates have worn the gap down and siblings get renumbered', async () => {
    const collection = await newCollection();
    const original = await newSpace({ title: 'Often copied', parent: collection.id });
    const next = await newSpace({ title: 'Next', parent: collection.id });
    const copies: string[] = [];
    for (let i = 0; i < 60; i++) {
      const copy = await t.rest('POST', `/v1/spaces/${original.id}/duplicate`, { token: admin() });
      expect(copy.status).toBe(201);
      copies.push(copy.body.id);
    }
    // Each copy goes right after the original, so the newest comes first.
    expect(await collectionSpaceIds(collection.id)).toEqual([original.id, ...copies.reverse(), next.id]);
  });

  it('keeps a top-level copy at the top level', async () => {
    const original = await newSpace({ title: 'Root' });
    const res = await t.rest('POST', `/v1/spaces/${original.id}/duplicate`, { token: admin() });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('parent');
    expect(res.body.visibility).toBe('private');
  });

  it('answers 404 for a missing space and 403 for a reader', async () => {
    expect((await t.rest('POST', '/v1/spaces/no-such-space/duplicate', { token: admin() })).status).toBe(404);
    const original = await newSpace();
    expect((await t.rest('POST', `/v1/spaces/${original.id}/duplicate`, { token: reader.token })).status).toBe(403);
  });
});

describe('GET /v1/orgs/{organizationId}/spaces', () => {
  it('lists every space in creation order, paginated without duplicates or gaps', async () => {
    const org = await buildOrganization(t.db);
    const collection = await newCollection({}, org);
    const creation: string[] = [];
    for (let i = 0; i < 60; i++) creation.push((await newSpace({ title: `S${i}`, ...(i % 2 ? { parent: collection.id } : {}) }, org)).id);
    // Moving a space changes its place in its collection, not its place in the organization's list.
    const last = creation[59];
    const move = await t.rest('POST', `/v1/spaces/${last}/move`, { token: org.admin.token, body: { position: { before: { type: 'space', space: creation[1] } } } });
    expect(move.status, JSON.stringify(move.body)).toBe(200);

    const { pages, ids } = await allPages(spacesPath(org), 25, org.admin.token);
    expect(pages.map((p) => p.items.length)).toEqual([25, 25, 10]);
    expect(pages.map((p) => p.count)).toEqual([60, 60, 60]);
    expect(pages[2].next).toBeUndefined();
    expect(ids).toEqual(creation);
    expect(await collectionSpaceIds(collection.id, org.admin.token)).toContain(last);
    expect((await collectionSpaceIds(collection.id, org.admin.token))[0]).toBe(last);
  });

  it('shows readers only what they may see, and counts accordingly', async () => {
    const org = await buildOrganization(t.db);
    const orgReader = await buildMember(t.db, org.organizationId, 'read');
    const open = await newSpace({ title: 'Open' }, org);
    const closed = await newSpace({ title: 'Closed' }, org);
    expect((await patchSpace(closed.id, { defaultLevel: null }, org.admin.token)).status).toBe(200);
    const res = await t.rest('GET', spacesPath(org), { token: orgReader.token });
    expect(res.body.items.map((s: Json) => s.id)).toEqual([open.id]);
    expect(res.body.count).toBe(1);
    expect((await t.rest('GET', spacesPath(org), { token: org.admin.token })).body.count).toBe(2);
  });

  it('rejects a limit above 1000 or a forged page token with 400, and answers 404 to outsiders', async () => {
    expect((await t.rest('GET', `${spacesPath()}?limit=1001`, { token: admin() })).status).toBe(400);
    expect((await t.rest('GET', `${spacesPath()}?limit=1000`, { token: admin() })).status).toBe(200);
    expect((await t.rest('GET', `${spacesPath()}?limit=-1`, { token: admin() })).status).toBe(400);
    expect((await t.rest('GET', `${spacesPath()}?page=not-a-cursor`, { token: admin() })).status).toBe(400);
    expect((await t.rest('GET', spacesPath(), { token: other.admin.token })).status).toBe(404);
  });
});

describe('GET /v1/spaces/{spaceId}/links', () => {
  it('answers an empty list with stats', async () => {
    const space = await newSpace();
    const res = await t.rest('GET', `/v1/spaces/${space.id}/links`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], count: 0, stats: { total: 0, broken: { total: 0 } } });
    for (const status of ['ok', 'broken', 'in-app']) {
      expect((await t.rest('GET', `/v1/spaces/${space.id}/links?status=${status}`, { token: admin() })).status).toBe(200);
    }
  });

  it('rejects an unknown status with 400, and answers 404 for a missing or hidden space', async () => {
    const space = await newSpace();
    const bad = await t.rest('GET', `/v1/spaces/${space.id}/links?status=dead`, { token: admin() });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/status/);
    expect((await t.rest('GET', `/v1/spaces/${space.id}/links?limit=1001`, { token: admin() })).status).toBe(400);
    expect((await t.rest('GET', '/v1/spaces/no-such-space/links', { token: admin() })).status).toBe(404);
    expect((await t.rest('GET', `/v1/spaces/${space.id}/links`, { token: other.admin.token })).status).toBe(404);
  });
});

describe('POST /v1/spaces/{spaceId}/move (basics)', () => {
  it('moves a space into a collection, between collections and back out; leaving turns in-collection into private', async () => {
    const a = await newCollection({ title: 'A' });
    const b = await newCollection({ title: 'B' });
    const space = await newSpace({ parent: a.id });
    expect(space.visibility).toBe('in-collection');

    const toB = await t.rest('POST', `/v1/spaces/${space.id}/move`, { token: admin(), body: { parent: b.id } });
    expect(toB.status).toBe(200);
    expect(toB.body).toMatchObject({ parent: b.id, visibility: 'in-collection' });
    expect(await collectionSpaceIds(a.id)).toEqual([]);
    expect(await collectionSpaceIds(b.id)).toEqual([space.id]);

    const out = await t.rest('POST', `/v1/spaces/${space.id}/move`, { token: admin(), body: { parent: null } });
    expect(out.status).toBe(200);
    expect(out.body).not.toHaveProperty('parent');
    expect(out.body.visibility).toBe('private');
    expect((await getSpace(space.id)).body).toMatchObject({ visibility: 'private' });
    expect(await collectionSpaceIds(b.id)).toEqual([]);
  });

  it('keeps the visibility of a top-level space moving into a collection', async () => {
    const collection = await newCollection();
    const space = await newSpace();
    const res = await t.rest('POST', `/v1/spaces/${space.id}/move`, { token: admin(), body: { parent: collection.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ parent: collection.id, visibility: 'private' });
  });
});
