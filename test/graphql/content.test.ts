import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/roles';
import { upsertMember } from '../../src/modules/members/service';
import { startTestApp, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, buildTeam, buildUser, type Actor, type OrgFixture } from '../support/factories';
import { mutations } from '../support/graphql';

let t: TestApp;
let acme: OrgFixture;
let admin: Actor;
let reader: Actor;
let guest: Actor;
let outsider: Actor;
/** Global IDs of Acme, of Beta (which Acme's admin also administers) and of Gamma (where they only read). */
const orgs = { acme: '', beta: '', gamma: '' };
let betaId: string;

const SPACE = `space { id restId title emoji icon language editMode visibility defaultLevel revisionId
  counters { comments changeRequests changeRequestsOpen changeRequestsDraft }
  parent { id restId } organization { restId } }`;
const COLLECTION = 'collection { id restId title description defaultLevel parent { id restId } organization { restId } }';

async function orgGid(organizationId: string, token: string): Promise<string> {
  return (await t.graphql('query ($id: ID!) { organization(id: $id) { id } }', { id: organizationId }, token)).body.data.organization.id;
}

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  admin = acme.admin;
  reader = await buildMember(t.db, acme.organizationId, 'read', 'Rita Reader');
  guest = await buildMember(t.db, acme.organizationId, null, 'Gus Guest');
  outsider = await buildUser(t.db, 'Otto Outsider');
  const beta = await buildOrganization(t.db, 'Beta');
  const gamma = await buildOrganization(t.db, 'Gamma');
  betaId = beta.organizationId;
  await upsertMember(t.db, beta.organizationId, admin.userId, 'admin');
  await upsertMember(t.db, gamma.organizationId, admin.userId, 'read');
  orgs.acme = await orgGid(acme.organizationId, admin.token);
  orgs.beta = await orgGid(beta.organizationId, admin.token);
  orgs.gamma = await orgGid(gamma.organizationId, admin.token);
});
afterAll(() => t.close());

/** Mutations as Acme's admin unless a call names another token; `succeed` and `refused` as the shared ones. */
const gql = mutations(() => t, { token: () => admin.token });
const { succeed, refused } = gql;

/** A mutation whose input is refused: one user error, no top-level error, no entity. */
async function userError(name: string, input: Record<string, unknown>, code: string, field: string[] | null, entity: string) {
  const res = await gql.userError(name, input, code, field, { select: `${entity} { id }` });
  expect(res.payload[entity]).toBeNull();
}

async function node(id: string, token = admin.token, select = '__typename ... on Space { title } ... on Collection { title }') {
  const res = await t.graphql(`query ($id: ID!) { node(id: $id) { ${select} } }`, { id }, token);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data.node;
}

const restGet = async (path: string, token = admin.token) => t.rest('GET', path, { token });

/** Titles of the spaces directly in a collection, in display order. */
async function spaceOrder(collectionGid: string): Promise<string[]> {
  const data = await node(collectionGid, admin.token, '... on Collection { spaces { edges { node { title } } } }');
  return data.spaces.edges.map((e: { node: { title: string } }) => e.node.title);
}

/** Ids shared by the tests below, which build on one another in order. */
const ids = { docs: '', guides: '', handbook: '', faq: '', howto: '', topLevel: '' };
const rest = { docs: '', guides: '', handbook: '', faq: '', howto: '' };

describe('content mutations', () => {
  it('create collections and spaces, nested, as seen through REST', async () => {
    const docs = (await succeed('collectionCreate', { organizationId: orgs.acme, title: 'Docs' }, COLLECTION)).collection;
    expect(docs).toMatchObject({ title: 'Docs', description: null, defaultLevel: 'INHERIT', parent: null, organization: { restId: acme.organizationId } });
    const guides = (await succeed('collectionCreate', { organizationId: orgs.acme, parentId: docs.id, title: 'Guides' }, COLLECTION)).collection;
    expect(guides.parent).toEqual({ id: docs.id, restId: docs.restId });

    const handbook = (await succeed('spaceCreate', { organizationId: orgs.acme, parentId: docs.id, title: 'Handbook', emoji: '📘', language: 'fr' }, SPACE)).space;
    expect(handbook).toMatchObject({
      title: 'Handbook',
      emoji: '📘',
      icon: null,
      language: 'fr',
      editMode: 'LIVE',
      visibility: 'IN_COLLECTION',
      defaultLevel: 'INHERIT',
      counters: { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 },
      parent: { id: docs.id },
      organization: { restId: acme.organizationId },
    });
    const faq = (await succeed('spaceCreate', { organizationId: orgs.acme, parentId: docs.id, title: 'FAQ' }, SPACE)).space;
    const howto = (await succeed('spaceCreate', { organizationId: orgs.acme, parentId: docs.id, title: 'How-to', editMode: 'LOCKED' }, SPACE)).space;
    expect(howto.editMode).toBe('LOCKED');
    const top = (await succeed('spaceCreate', { organizationId: orgs.acme }, SPACE)).space;
    expect(top).toMatchObject({ title: 'Untitled space', parent: null, visibility: 'PRIVATE' });

    const seen = await restGet(`/v1/spaces/${handbook.restId}`);
    expect(seen.body).toMatchObject({ id: handbook.restId, title: 'Handbook', parent: docs.restId, revision: handbook.revisionId, language: 'fr' });
    expect((await restGet(`/v1/collections/${guides.restId}`)).body).toMatchObject({ title: 'Guides', parent: docs.restId });
    Object.assign(ids, { docs: docs.id, guides: guides.id, handbook: handbook.id, faq: faq.id, howto: howto.id, topLevel: top.id });
    Object.assign(rest, { docs: docs.restId, guides: guides.restId, handbook: handbook.restId, faq: faq.restId, howto: howto.restId });
  });

  it('refuse creating content to a read member, and in a collection of another organization', async () => {
    await refused('spaceCreate', { organizationId: orgs.acme, title: 'Nope' }, reader.token, 'FORBIDDEN');
    await refused('collectionCreate', { organizationId: orgs.acme, parentId: ids.docs }, reader.token, 'FORBIDDEN');
    await refused('spaceCreate', { organizationId: orgs.beta, parentId: ids.docs }, admin.token, 'NOT_FOUND');
  });

  it('update settings; NONE and INHERIT stand for a null and an inherited default level', async () => {
    const docs = (await succeed('collectionUpdate', { collectionId: ids.docs, title: 'Docs 2', description: 'All of it', defaultLevel: 'NONE' }, COLLECTION)).collection;
    expect(docs).toMatchObject({ title: 'Docs 2', description: 'All of it', defaultLevel: 'NONE' });
    expect((await restGet(`/v1/collections/${rest.docs}`)).body).toMatchObject({ title: 'Docs 2', defaultLevel: null });
    const again = (await succeed('collectionUpdate', { collectionId: ids.docs, defaultLevel: 'INHERIT' }, COLLECTION)).collection;
    expect(again).toMatchObject({ title: 'Docs 2', description: 'All of it', defaultLevel: 'INHERIT' });
    expect((await restGet(`/v1/collections/${rest.docs}`)).body.defaultLevel).toBe('inherit');

    const icon = 'https://icons.example.com/book.png';
    const select = `${SPACE.slice(0, -2)} viewerCanEdit viewerCanAdminister }`;
    const locked = (await succeed('spaceUpdate', { spaceId: ids.handbook, title: 'Handbook 2', icon, editMode: 'LOCKED', defaultLevel: 'READ' }, select)).space;
    expect(locked).toMatchObject({ title: 'Handbook 2', emoji: null, icon, editMode: 'LOCKED', defaultLevel: 'READ', viewerCanEdit: false, viewerCanAdminister: true });
    expect((await restGet(`/v1/spaces/${rest.handbook}`)).body).toMatchObject({ title: 'Handbook 2', editMode: 'locked', defaultLevel: 'read' });
    const open = (await succeed('spaceUpdate', { spaceId: ids.handbook, title: 'Handbook', editMode: 'LIVE', defaultLevel: 'INHERIT', icon: null }, select)).space;
    expect(open).toMatchObject({ title: 'Handbook', icon: null, editMode: 'LIVE', defaultLevel: 'INHERIT', viewerCanEdit: true });
  });

  it('answer invalid settings with user errors, writing nothing', async () => {
    await userError('spaceUpdate', { spaceId: ids.handbook, language: 'xx' }, 'VALIDATION_FAILED', ['language'], 'space');
    await userError('spaceUpdate', { spaceId: ids.handbook, title: 'x'.repeat(51) }, 'VALIDATION_FAILED', ['title'], 'space');
    await userError('collectionUpdate', { collectionId: ids.docs, title: '' }, 'VALIDATION_FAILED', ['title'], 'collection');
    expect((await restGet(`/v1/spaces/${rest.handbook}`)).body).toMatchObject({ title: 'Handbook', language: 'fr' });
  });

  it('refuse changing settings to a read member, and hide content from outsiders', async () => {
    await refused('spaceUpdate', { spaceId: ids.handbook, title: 'Mine' }, reader.token, 'FORBIDDEN');
    await refused('collectionUpdate', { collectionId: ids.docs, title: 'Mine' }, reader.token, 'FORBIDDEN');
    await refused('spaceUpdate', { spaceId: ids.handbook, title: 'Mine' }, outsider.token, 'NOT_FOUND');
    expect((await restGet(`/v1/spaces/${rest.handbook}`)).body.title).toBe('Handbook');
  });

  it('move among siblings with a position pointing at a space or a collection', async () => {
    expect(await spaceOrder(ids.docs)).toEqual(['Handbook', 'FAQ', 'How-to']);
    await succeed('spaceMove', { spaceId: ids.howto, position: { beforeId: ids.handbook } });
    expect(await spaceOrder(ids.docs)).toEqual(['How-to', 'Handbook', 'FAQ']);
    // Guides, a collection, comes first among the children of Docs: right after it is first among the spaces.
    await succeed('spaceMove', { spaceId: ids.faq, position: { afterId: ids.guides } });
    expect(await spaceOrder(ids.docs)).toEqual(['FAQ', 'How-to', 'Handbook']);
    await succeed('spaceMove', { spaceId: ids.handbook, position: { afterId: ids.faq, beforeId: ids.howto } });
    expect(await spaceOrder(ids.docs)).toEqual(['FAQ', 'Handbook', 'How-to']);
  });

  it('answer impossible and empty moves with user errors', async () => {
    await userError('collectionMove', { collectionId: ids.docs, parentId: ids.guides }, 'VALIDATION_FAILED', ['parentId'], 'collection');
    await userError('collectionMove', { collectionId: ids.docs, parentId: ids.docs }, 'VALIDATION_FAILED', ['parentId'], 'collection');
    await userError('spaceMove', { spaceId: ids.handbook, position: { afterId: ids.faq } }, 'CONFLICT', null, 'space');
    await userError('spaceMove', { spaceId: ids.handbook, position: { beforeId: ids.topLevel } }, 'VALIDATION_FAILED', ['position', 'beforeId'], 'space');
    await userError('spaceMove', { spaceId: ids.handbook, position: { afterId: ids.faq, beforeId: ids.guides } }, 'VALIDATION_FAILED', ['position'], 'space');
    expect(await spaceOrder(ids.docs)).toEqual(['FAQ', 'Handbook', 'How-to']);
    await refused('spaceMove', { spaceId: ids.handbook, parentId: null }, reader.token, 'FORBIDDEN');
  });

  it('move to another parent, or to the top level with null', async () => {
    const moved = (await succeed('spaceMove', { spaceId: ids.howto, parentId: ids.guides }, SPACE)).space;
    expect(moved).toMatchObject({ parent: { id: ids.guides }, visibility: 'IN_COLLECTION' });
    const top = (await succeed('spaceMove', { spaceId: ids.howto, parentId: null, position: { beforeId: ids.topLevel } }, SPACE)).space;
    expect(top).toMatchObject({ parent: null, visibility: 'PRIVATE' });
    const back = (await succeed('spaceMove', { spaceId: ids.howto, parentId: ids.docs }, SPACE)).space;
    expect(back.parent).toEqual({ id: ids.docs, restId: rest.docs });
    expect(await spaceOrder(ids.docs)).toEqual(['FAQ', 'Handbook', 'How-to']);

    const guides = (await succeed('collectionMove', { collectionId: ids.guides, parentId: null }, COLLECTION)).collection;
    expect(guides.parent).toBeNull();
    expect((await restGet(`/v1/collections/${rest.guides}`)).body.parent).toBeUndefined();
    const nested = (await succeed('collectionMove', { collectionId: ids.guides, parentId: ids.docs, position: { beforeId: ids.faq } }, COLLECTION)).collection;
    expect(nested.parent).toEqual({ id: ids.docs, restId: rest.docs });
  });

  it('transfer to an organization the viewer administers, and not to one they only read', async () => {
    await userError('collectionTransfer', { collectionId: ids.guides, organizationId: orgs.gamma }, 'PRECONDITION_FAILED', ['organizationId'], 'collection');
    await userError('spaceTransfer', { spaceId: ids.faq, organizationId: orgs.gamma }, 'PRECONDITION_FAILED', ['organizationId'], 'space');
    await userError('spaceTransfer', { spaceId: ids.faq, organizationId: orgs.acme }, 'CONFLICT', ['organizationId'], 'space');
    await refused('spaceTransfer', { spaceId: ids.faq, organizationId: orgs.beta }, reader.token, 'FORBIDDEN');

    const space = (await succeed('spaceTransfer', { spaceId: ids.faq, organizationId: orgs.beta }, SPACE)).space;
    expect(space).toMatchObject({ parent: null, organization: { restId: betaId }, visibility: 'PRIVATE' });
    const collection = (await succeed('collectionTransfer', { collectionId: ids.guides, organizationId: orgs.beta }, COLLECTION)).collection;
    expect(collection).toMatchObject({ parent: null, organization: { restId: betaId } });
    expect((await restGet(`/v1/collections/${rest.guides}`)).body.organization).toBe(betaId);
    expect(await spaceOrder(ids.docs)).toEqual(['Handbook', 'How-to']);
  });

  it('duplicate, delete and restore a space', async () => {
    const copy = (await succeed('spaceDuplicate', { spaceId: ids.handbook }, SPACE)).space;
    expect(copy).toMatchObject({ title: 'Handbook (copy)', parent: { id: ids.docs }, language: 'fr' });
    expect(copy.id).not.toBe(ids.handbook);
    expect(await spaceOrder(ids.docs)).toEqual(['Handbook', 'Handbook (copy)', 'How-to']);

    await refused('spaceDelete', { spaceId: copy.id }, reader.token, 'FORBIDDEN');
    const deleted = await succeed('spaceDelete', { spaceId: copy.id }, 'deletedSpaceId');
    expect(deleted.deletedSpaceId).toBe(copy.id);
    // In the trash it is still found, with deletedAt, while it can be restored.
    expect(await node(copy.id)).toEqual({ __typename: 'Space', title: 'Handbook (copy)' });
    expect((await restGet(`/v1/spaces/${copy.restId}`)).body.deletedAt).toEqual(expect.any(String));
    expect((await succeed('spaceDelete', { spaceId: copy.id }, 'deletedSpaceId')).deletedSpaceId).toBe(copy.id);

    const restored = (await succeed('spaceRestore', { spaceId: copy.id }, SPACE)).space;
    expect(restored).toMatchObject({ id: copy.id, title: 'Handbook (copy)', parent: { id: ids.docs } });
    expect(await node(copy.id)).toEqual({ __typename: 'Space', title: 'Handbook (copy)' });
    expect((await succeed('spaceRestore', { spaceId: copy.id }, 'space { id }')).space.id).toBe(copy.id);
    await refused('spaceRestore', { spaceId: copy.id }, outsider.token, 'NOT_FOUND');
  });

  it('delete a collection, trashing its spaces, which come back at the top level', async () => {
    const extra = (await succeed('collectionCreate', { organizationId: orgs.acme, title: 'Old' }, COLLECTION)).collection;
    const inside = (await succeed('spaceCreate', { organizationId: orgs.acme, parentId: extra.id, title: 'Archive' }, SPACE)).space;
    await refused('collectionDelete', { collectionId: extra.id }, reader.token, 'FORBIDDEN');
    const deleted = await succeed('collectionDelete', { collectionId: extra.id }, 'deletedCollectionId');
    expect(deleted.deletedCollectionId).toBe(extra.id);
    expect(await node(extra.id)).toBeNull();
    expect((await restGet(`/v1/spaces/${inside.restId}`)).body.deletedAt).toEqual(expect.any(String));
    expect((await succeed('collectionDelete', { collectionId: extra.id }, 'deletedCollectionId')).deletedCollectionId).toBe(extra.id);
    const restored = (await succeed('spaceRestore', { spaceId: inside.id }, SPACE)).space;
    expect(restored).toMatchObject({ title: 'Archive', parent: null, visibility: 'PRIVATE' });
  });
});

describe('content queries', () => {
  const NODES = 'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on Space { title } ... on Collection { title } } }';
  const VIEWER_CAN = `query ($space: ID!, $collection: ID!) {
    space: node(id: $space) { ... on Space { viewerCanView viewerCanComment viewerCanEdit viewerCanReview viewerCanMerge viewerCanAdminister } }
    collection: node(id: $collection) { ... on Collection { viewerCanView viewerCanCreate viewerCanAdminister } } }`;

  beforeAll(async () => {
    // The guest sees nothing by default: give them read on Docs and comment on the handbook inside it.
    for (const [path, role] of [[`/v1/collections/${rest.docs}/permissions`, 'read'], [`/v1/spaces/${rest.handbook}/permissions`, 'comment']]) {
      const res = await t.rest('POST', path, { token: admin.token, body: { role, users: [guest.userId] } });
      expect(res.status).toBe(204);
    }
  });

  it('node and nodes answer null for content of another organization, missing or hidden', async () => {
    expect(await node(ids.handbook, reader.token)).toEqual({ __typename: 'Space', title: 'Handbook' });
    expect(await node(ids.docs, reader.token)).toEqual({ __typename: 'Collection', title: 'Docs 2' });
    const res = await t.graphql(NODES, { ids: [ids.handbook, ids.faq, ids.docs, ids.guides] }, reader.token);
    expect(res.body.data.nodes).toEqual([{ __typename: 'Space', title: 'Handbook' }, null, { __typename: 'Collection', title: 'Docs 2' }, null]);
    expect((await t.graphql(NODES, { ids: [ids.handbook, ids.docs] }, outsider.token)).body.data.nodes).toEqual([null, null]);
    expect(await node(ids.faq, admin.token)).toEqual({ __typename: 'Space', title: 'FAQ' });
  });

  it('viewerCan fields agree with the REST permissions, for an admin, a read member and a guest with grants', async () => {
    const expected = {
      admin: { space: [true, true, true, true, true, true], collection: [true, true, true] },
      reader: { space: [true, false, false, false, false, false], collection: [true, false, false] },
      guest: { space: [true, true, false, false, false, false], collection: [true, false, false] },
    };
    for (const [who, actor] of [['admin', admin], ['reader', reader], ['guest', guest]] as const) {
      const res = await t.graphql(VIEWER_CAN, { space: ids.handbook, collection: ids.docs }, actor.token);
      expect(res.body.errors).toBeUndefined();
      const { space, collection } = res.body.data;
      const got = { space: Object.values(space), collection: Object.values(collection) };
      expect(got, who).toEqual(expected[who]);
      const restSpace = (await restGet(`/v1/spaces/${rest.handbook}`, actor.token)).body.permissions;
      expect([restSpace.view, restSpace.comment, restSpace.edit, restSpace.review, restSpace.merge, restSpace.admin], who).toEqual(got.space);
      const restCollection = (await restGet(`/v1/collections/${rest.docs}`, actor.token)).body.permissions;
      expect([restCollection.view, restCollection.create, restCollection.admin], who).toEqual(got.collection);
    }
  });

  it('lists spaces and collections of an organization and spaces of a collection, with counts', async () => {
    const q = `query ($id: ID!) { organization(id: $id) {
      spaces { totalCount edges { node { title } } }
      top: collections(nested: false) { totalCount edges { node { title } } }
      collections { totalCount edges { node { title spaces { totalCount edges { node { title } } } } } } } }`;
    const byReader = (await t.graphql(q, { id: acme.organizationId }, reader.token)).body.data.organization;
    const titles = (conn: { edges: { node: { title: string } }[] }) => conn.edges.map((e) => e.node.title);
    // Top-level spaces inherit the organization role: members see them.
    expect(titles(byReader.spaces)).toEqual(['Handbook', 'How-to', 'Untitled space', 'Handbook (copy)', 'Archive']);
    expect(byReader.spaces.totalCount).toBe(5);
    expect(byReader.collections.edges.map((e: any) => [e.node.title, titles(e.node.spaces), e.node.spaces.totalCount])).toEqual([
      // The restored copy came back last.
      ['Docs 2', ['Handbook', 'How-to', 'Handbook (copy)'], 3],
    ]);
    const byGuest = (await t.graphql(q, { id: acme.organizationId }, guest.token)).body.data.organization;
    expect(titles(byGuest.spaces)).toEqual(['Handbook', 'How-to', 'Handbook (copy)']);
    expect(titles(byGuest.top)).toEqual(['Docs 2']);
    const byAdmin = (await t.graphql(q, { id: acme.organizationId }, admin.token)).body.data.organization;
    expect(byAdmin.spaces.totalCount).toBe(5);
    expect(byGuest.spaces.totalCount).toBe(3);
  });
});

describe('nested content query', () => {
  /** Statements one request may cost whatever the number of rows; loader waves vary by one or two between runs. */
  const MAX_STATEMENTS = 25;
  // Pages large enough for every row of the test, and no larger: the cost limit counts the pages asked for.
  const SPACES = `{ viewer { organizations(first: 5) { edges { node { title spaces(first: 50) { totalCount edges { node {
    title parent { title organization { title } } organization { title } viewerCanEdit } } } } } } } }`;
  const TREE = `{ viewer { organizations(first: 5) { edges { node { collections(first: 10) { edges { node {
    title viewerCanCreate parent { title viewerCanAdminister }
    spaces(first: 20) { edges { node { title viewerCanView viewerCanComment viewerCanAdminister organization { title } } } } } } } } } } } }`;

  let viewer: Actor;
  /** Per organization: its admin, its collections (a top-level one and one inside it, alternately). */
  const content: { organizationId: string; token: string; collections: string[] }[] = [];

  async function post(path: string, token: string, body: unknown) {
    const res = await t.rest('POST', path, { token, body });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body;
  }

  /** An organization where the viewer has `role`; its top collection is closed by default and granted to a team of the viewer. */
  async function addOrganization(role: Role) {
    const org = await buildOrganization(t.db);
    await upsertMember(t.db, org.organizationId, viewer.userId, role);
    const team = await buildTeam(t.db, org.organizationId, 'Writers', [{ userId: viewer.userId, role: 'member' }]);
    const entry = { organizationId: org.organizationId, token: org.admin.token, collections: [] as string[] };
    content.push(entry);
    await addCollections(entry, 2);
    const closed = entry.collections[0];
    await t.rest('PATCH', `/v1/collections/${closed}`, { token: entry.token, body: { defaultLevel: null } });
    await post(`/v1/collections/${closed}/permissions`, entry.token, { role: 'edit', teams: [team.id] });
  }

  async function addCollections(entry: (typeof content)[number], pairs: number) {
    for (let i = 0; i < pairs; i++) {
      const top = await post(`/v1/orgs/${entry.organizationId}/collections`, entry.token, { title: `Top ${entry.collections.length}` });
      const inner = await post(`/v1/orgs/${entry.organizationId}/collections`, entry.token, { title: `Inner ${entry.collections.length + 1}`, parent: top.id });
      entry.collections.push(top.id, inner.id);
    }
  }

  /** `n` spaces per organization, spread over its collections and its top level. */
  async function addSpaces(n: number) {
    for (const entry of content) {
      for (let i = 0; i < n; i++) {
        const parent = i % 5 === 4 ? undefined : entry.collections[i % entry.collections.length];
        await post(`/v1/orgs/${entry.organizationId}/spaces`, entry.token, { title: `Space ${i}`, ...(parent ? { parent } : {}) });
      }
    }
  }

  async function measure(query: string) {
    const statements: string[] = [];
    const counter = t.database.counter;
    const logQuery = counter.logQuery;
    Object.assign(counter, {
      logQuery(q: string) {
        statements.push(q);
        logQuery.call(counter);
      },
    });
    try {
      counter.count = 0;
      const res = await t.graphql(query, {}, viewer.token);
      const count = counter.count;
      expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
      return { data: res.body.data, count, statements };
    } finally {
      counter.logQuery = logQuery;
    }
  }

  const spaceRows = (data: any) =>
    data.viewer.organizations.edges.reduce((n: number, { node }: any) => n + node.spaces.edges.length, 0);
  const treeRows = (data: any) =>
    data.viewer.organizations.edges.reduce(
      (n: number, { node }: any) => n + node.collections.edges.reduce((m: number, e: any) => m + 1 + e.node.spaces.edges.length, 0),
      0,
    );

  beforeAll(async () => {
    viewer = await buildUser(t.db, 'Nora Nested');
    await addOrganization('edit');
    await addOrganization('read');
    await addOrganization('comment');
    await addSpaces(4);
  }, 120_000);

  it('costs a bounded number of statements however many spaces it lists', async () => {
    const small = await measure(SPACES);
    const smallTree = await measure(TREE);
    for (const entry of content) await addCollections(entry, 1);
    await addSpaces(36);
    const large = await measure(SPACES);
    const largeTree = await measure(TREE);

    console.log(
      `spaces query: ${small.count} statements for ${spaceRows(small.data)} spaces, ${large.count} for ${spaceRows(large.data)}; ` +
        `tree query: ${smallTree.count} statements for ${treeRows(smallTree.data)} rows, ${largeTree.count} for ${treeRows(largeTree.data)}`,
    );
    expect(spaceRows(large.data)).toBeGreaterThanOrEqual(100);
    expect(spaceRows(large.data)).toBeGreaterThan(5 * spaceRows(small.data));
    expect(treeRows(largeTree.data)).toBeGreaterThan(3 * treeRows(smallTree.data));
    for (const run of [small, large, smallTree, largeTree]) {
      expect(run.count, `statements:\n${run.statements.join('\n')}`).toBeLessThanOrEqual(MAX_STATEMENTS);
    }
  }, 120_000);

  it('answers the permissions the viewer has through roles, default levels and team grants', async () => {
    const { data } = await measure(SPACES);
    const [editOrg, readOrg] = data.viewer.organizations.edges.map((e: any) => e.node);
    const canEdit = (org: any, parent: string | null) =>
      org.spaces.edges.filter((e: any) => (e.node.parent?.title ?? null) === parent).map((e: any) => e.node.viewerCanEdit);
    // Top 0 is closed by default but granted edit to the viewer's team; Inner 1 inherits from it.
    expect(new Set(canEdit(editOrg, 'Top 0'))).toEqual(new Set([true]));
    expect(new Set(canEdit(readOrg, 'Top 0'))).toEqual(new Set([true]));
    expect(new Set(canEdit(readOrg, 'Inner 1'))).toEqual(new Set([true]));
    expect(new Set(canEdit(readOrg, 'Top 2'))).toEqual(new Set([false]));
    expect(new Set(canEdit(editOrg, 'Top 2'))).toEqual(new Set([true]));
    expect(editOrg.spaces.edges[0].node.organization.title).toBe(editOrg.title);
  });
});
