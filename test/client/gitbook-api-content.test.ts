import { GitBookAPI, GitBookAPIError, SpaceEditMode, TranslationLanguage } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertMember } from '../../src/modules/members/service';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../support/factories';
import { startTestApp, type TestApp } from '../support/clients';
import { validateResponse } from '../support/openapi';
import { inCreationOrder } from '../support/clock';

/**
 * Collections and spaces through the official client, unmodified, against a real HTTP server on
 * loopback. Each response body is also checked against the official spec.
 */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let acme: OrgFixture;
let beta: OrgFixture;
let gamma: OrgFixture;
let reader: Actor;
let api: GitBookAPI;

beforeAll(async () => {
  t = await startTestApp();
  server = await t.serve();
  acme = await buildOrganization(t.db, 'Acme content');
  beta = await buildOrganization(t.db, 'Beta content');
  gamma = await buildOrganization(t.db, 'Gamma content');
  await upsertMember(t.db, beta.organizationId, acme.admin.userId, 'admin');
  await upsertMember(t.db, gamma.organizationId, acme.admin.userId, 'read');
  reader = await buildMember(t.db, acme.organizationId, 'read', 'Rita Reader');
  api = new GitBookAPI({ endpoint: server.url, authToken: acme.admin.token });
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

const org = () => acme.organizationId;

const created = inCreationOrder(() => t);

/** The client rejects with GitBookAPIError carrying the HTTP status as `code`. */
async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(GitBookAPIError);
    return (error as GitBookAPIError).code;
  }
  throw new Error('expected the call to fail');
}

describe('collections through the official GitBookAPI client', () => {
  it('creates, reads, updates and lists collections', async () => {
    const { data: docs, status } = await created(() => api.orgs.createCollection(org(), { title: 'Docs' }));
    expect(status).toBe(201);
    validateResponse('POST', `/v1/orgs/${org()}/collections`, 201, docs);
    expect(docs).toMatchObject({ object: 'collection', title: 'Docs', organization: org() });

    const { data: guides } = await created(() => api.orgs.createCollection(org(), { title: 'Guides', parent: docs.id }));
    expect(guides.parent).toBe(docs.id);
    const { data: untitled } = await created(() => api.orgs.createCollection(org(), {}));
    expect(untitled.title).toBe('Untitled collection');

    const { data: read } = await api.collections.getCollectionById(docs.id);
    validateResponse('GET', `/v1/collections/${docs.id}`, 200, read);
    expect(read).toEqual(docs);

    const { data: updated } = await api.collections.updateCollectionById(docs.id, { title: 'Documentation', description: 'All of it' });
    validateResponse('PATCH', `/v1/collections/${docs.id}`, 200, updated);
    expect(updated).toMatchObject({ id: docs.id, title: 'Documentation', description: 'All of it' });

    const { data: nested } = await api.orgs.listCollectionsInOrganizationById(org());
    validateResponse('GET', `/v1/orgs/${org()}/collections`, 200, nested);
    expect(nested.count).toBe(3);
    expect(nested.items.map((c) => c.id)).toEqual([docs.id, guides.id, untitled.id]);
    const { data: top } = await api.orgs.listCollectionsInOrganizationById(org(), { nested: false });
    expect(top.items.map((c) => c.id)).toEqual([docs.id, untitled.id]);

    const { data: paged } = await api.orgs.listCollectionsInOrganizationById(org(), { limit: 2 });
    expect(paged.items).toHaveLength(2);
    const { data: rest } = await api.orgs.listCollectionsInOrganizationById(org(), { limit: 2, page: paged.next!.page });
    expect(rest.items.map((c) => c.id)).toEqual([untitled.id]);
    expect(rest.next).toBeUndefined();
  });

  it('moves collections and lists their spaces in order', async () => {
    const { data: a } = await api.orgs.createCollection(org(), { title: 'Move A' });
    const { data: b } = await api.orgs.createCollection(org(), { title: 'Move B' });
    const { data: s1 } = await api.orgs.createSpace(org(), { title: 'One', parent: a.id });
    const { data: s2 } = await api.orgs.createSpace(org(), { title: 'Two', parent: a.id });

    const { data: moved } = await api.collections.moveCollection(b.id, { parent: a.id });
    validateResponse('POST', `/v1/collections/${b.id}/move`, 200, moved);
    expect(moved.parent).toBe(a.id);
    expect(await statusOf(api.collections.moveCollection(b.id, { parent: a.id }))).toBe(409);
    expect(await statusOf(api.collections.moveCollection(a.id, { parent: b.id }))).toBe(400);
    const { data: back } = await api.collections.moveCollection(b.id, { parent: null });
    expect(back.parent).toBeUndefined();

    await api.spaces.moveSpace(s2.id, { position: { before: { type: 'space', space: s1.id } } as never });
    const { data: spaces } = await api.collections.listSpacesInCollectionById(a.id);
    validateResponse('GET', `/v1/collections/${a.id}/spaces`, 200, spaces);
    expect(spaces.count).toBe(2);
    expect(spaces.items.map((s) => s.title)).toEqual(['Two', 'One']);
    const { data: first } = await api.collections.listSpacesInCollectionById(a.id, { limit: 1 });
    const { data: second } = await api.collections.listSpacesInCollectionById(a.id, { limit: 1, page: first.next!.page });
    expect([...first.items, ...second.items].map((s) => s.id)).toEqual([s2.id, s1.id]);
  });

  it('transfers a collection with its spaces, and surfaces 404, 409 and 412', async () => {
    const { data: travelling } = await api.orgs.createCollection(org(), { title: 'Travelling' });
    const { data: inside } = await api.orgs.createSpace(org(), { title: 'Inside', parent: travelling.id });

    expect(await statusOf(api.collections.transferCollection(travelling.id, { organization: org() }))).toBe(409);
    expect(await statusOf(api.collections.transferCollection(travelling.id, { organization: 'no-such-org' }))).toBe(404);
    expect(await statusOf(api.collections.transferCollection(travelling.id, { organization: gamma.organizationId }))).toBe(412);

    const { data: moved } = await api.collections.transferCollection(travelling.id, { organization: beta.organizationId });
    validateResponse('POST', `/v1/collections/${travelling.id}/transfer`, 200, moved);
    expect(moved).toMatchObject({ id: travelling.id, organization: beta.organizationId });
    const { data: space } = await api.spaces.getSpaceById(inside.id);
    expect(space).toMatchObject({ organization: beta.organizationId, parent: travelling.id });
    const { data: betaCollections } = await api.orgs.listCollectionsInOrganizationById(beta.organizationId);
    expect(betaCollections.items.map((c) => c.id)).toContain(travelling.id);
    const { data: acmeCollections } = await api.orgs.listCollectionsInOrganizationById(org());
    expect(acmeCollections.items.map((c) => c.id)).not.toContain(travelling.id);
  });

  it('deletes a collection with 204, also when it is already gone', async () => {
    const { data: doomed } = await api.orgs.createCollection(org(), { title: 'Doomed' });
    const { data: inside } = await api.orgs.createSpace(org(), { title: 'Doomed space', parent: doomed.id });
    const res = await api.collections.deleteCollectionById(doomed.id);
    expect(res.status).toBe(204);
    expect((await api.collections.deleteCollectionById(doomed.id)).status).toBe(204);
    expect(await statusOf(api.collections.getCollectionById(doomed.id))).toBe(404);
    // The space went to the trash with its collection: still answered, with deletedAt, while it can be restored.
    expect((await api.spaces.getSpaceById(inside.id)).data.deletedAt).toEqual(expect.any(String));
    const { data: restored } = await api.spaces.restoreSpace(inside.id);
    expect(restored.parent).toBeUndefined();
  });
});

describe('spaces through the official GitBookAPI client', () => {
  it('creates, reads, updates and lists spaces', async () => {
    const { data: space, status } = await api.orgs.createSpace(org(), { title: 'Handbook', emoji: '📘', language: TranslationLanguage.Fr });
    expect(status).toBe(201);
    validateResponse('POST', `/v1/orgs/${org()}/spaces`, 201, space);
    expect(space).toMatchObject({ object: 'space', title: 'Handbook', emoji: '📘', language: 'fr', visibility: 'private', organization: org() });

    const { data: read } = await api.spaces.getSpaceById(space.id);
    validateResponse('GET', `/v1/spaces/${space.id}`, 200, read);
    expect(read).toEqual(space);
    const asReader = new GitBookAPI({ endpoint: server.url, authToken: reader.token });
    const { data: readerView } = await asReader.spaces.getSpaceById(space.id);
    expect(readerView.permissions).toMatchObject({ view: true, access: true, edit: false, admin: false });

    const { data: updated } = await api.spaces.updateSpaceById(space.id, { title: 'Staff handbook', editMode: SpaceEditMode.Locked });
    validateResponse('PATCH', `/v1/spaces/${space.id}`, 200, updated);
    expect(updated).toMatchObject({ title: 'Staff handbook', editMode: 'locked' });
    expect(updated.permissions).toMatchObject({ admin: true, edit: false, merge: false });
    expect(await statusOf(asReader.spaces.updateSpaceById(space.id, { title: 'Nope' }))).toBe(403);
    expect(await statusOf(api.spaces.updateSpaceById(space.id, { title: 'x'.repeat(51) }))).toBe(400);

    const { data: list } = await api.orgs.listSpacesInOrganizationById(org(), { limit: 1000 });
    validateResponse('GET', `/v1/orgs/${org()}/spaces`, 200, list);
    expect(list.items.map((s) => s.id)).toContain(space.id);
    expect(list.count).toBe(list.items.length);
  });

  it('duplicates, moves, deletes and restores a space', async () => {
    const { data: home } = await api.orgs.createCollection(org(), { title: 'Home' });
    const { data: space } = await api.orgs.createSpace(org(), { title: 'Original', parent: home.id });
    const { data: after } = await api.orgs.createSpace(org(), { title: 'After', parent: home.id });

    const { data: copy, status } = await api.spaces.duplicateSpace(space.id);
    expect(status).toBe(201);
    validateResponse('POST', `/v1/spaces/${space.id}/duplicate`, 201, copy);
    expect(copy).toMatchObject({ title: 'Original (copy)', parent: home.id });
    expect(copy.id).not.toBe(space.id);
    expect(copy.revision).not.toBe(space.revision);
    const { data: order } = await api.collections.listSpacesInCollectionById(home.id);
    expect(order.items.map((s) => s.id)).toEqual([space.id, copy.id, after.id]);

    const { data: out } = await api.spaces.moveSpace(copy.id, { parent: null });
    validateResponse('POST', `/v1/spaces/${copy.id}/move`, 200, out);
    expect(out.parent).toBeUndefined();
    expect(out.visibility).toBe('private');
    expect(await statusOf(api.spaces.moveSpace(copy.id, { parent: null }))).toBe(409);
    expect(await statusOf(api.spaces.moveSpace(copy.id, { parent: 'no-such-collection' }))).toBe(404);

    const removed = await api.spaces.deleteSpaceById(space.id);
    expect(removed.status).toBe(204);
    expect((await api.spaces.deleteSpaceById('no-such-space')).status).toBe(204);
    const { data: trashed } = await api.spaces.getSpaceById(space.id);
    validateResponse('GET', `/v1/spaces/${space.id}`, 200, trashed);
    expect(trashed.deletedAt).toEqual(expect.any(String));
    const { data: without } = await api.collections.listSpacesInCollectionById(home.id);
    expect(without.items.map((s) => s.id)).toEqual([after.id]);

    const { data: restored } = await api.spaces.restoreSpace(space.id);
    validateResponse('POST', `/v1/spaces/${space.id}/restore`, 200, restored);
    expect(restored).toMatchObject({ id: space.id, parent: home.id });
    expect(restored.deletedAt).toBeUndefined();
    const { data: again } = await api.spaces.restoreSpace(space.id);
    expect(again).toEqual(restored);
    expect((await api.spaces.getSpaceById(space.id)).status).toBe(200);
  });

  it('transfers a space and surfaces 404, 409 and 412', async () => {
    const { data: space } = await api.orgs.createSpace(org(), { title: 'Going away' });
    expect(await statusOf(api.spaces.transferSpace(space.id, { organization: org() }))).toBe(409);
    expect(await statusOf(api.spaces.transferSpace(space.id, { organization: 'no-such-org' }))).toBe(404);
    expect(await statusOf(api.spaces.transferSpace(space.id, { organization: gamma.organizationId }))).toBe(412);
    expect(await statusOf(api.spaces.transferSpace('no-such-space', { organization: beta.organizationId }))).toBe(404);

    const { data: moved } = await api.spaces.transferSpace(space.id, { organization: beta.organizationId });
    validateResponse('POST', `/v1/spaces/${space.id}/transfer`, 200, moved);
    expect(moved.organization).toBe(beta.organizationId);
    const { data: betaSpaces } = await api.orgs.listSpacesInOrganizationById(beta.organizationId);
    expect(betaSpaces.items.map((s) => s.id)).toContain(space.id);
    const { data: acmeSpaces } = await api.orgs.listSpacesInOrganizationById(org(), { limit: 1000 });
    expect(acmeSpaces.items.map((s) => s.id)).not.toContain(space.id);
  });

  it('lists the links of a space', async () => {
    const { data: space } = await api.orgs.createSpace(org(), { title: 'Linked' });
    const { data: links, status } = await api.spaces.listSpaceLinks(space.id);
    expect(status).toBe(200);
    validateResponse('GET', `/v1/spaces/${space.id}/links`, 200, links);
    expect(links).toEqual({ items: [], count: 0, stats: { total: 0, broken: { total: 0 } } });
    expect(await statusOf(api.spaces.listSpaceLinks(space.id, { status: 'dead' as never }))).toBe(400);
    expect(await statusOf(api.spaces.listSpaceLinks('no-such-space'))).toBe(404);
  });

  it('surfaces 404 for content the caller cannot see, with our error message', async () => {
    const outsider = new GitBookAPI({ endpoint: server.url, authToken: gamma.admin.token });
    const { data: space } = await api.orgs.createSpace(org(), { title: 'Private to Acme' });
    const error = await outsider.spaces.getSpaceById(space.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitBookAPIError);
    expect(error).toMatchObject({ code: 404 });
    expect((error as GitBookAPIError).message).toMatch(/not found/i);
  });
});
