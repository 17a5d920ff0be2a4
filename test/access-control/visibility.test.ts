/**
 * The SQL twin of the content rules (src/access-control/visibility.ts, used by every list) must
 * agree with the TypeScript resolution (src/domain/permissions.ts, used by every GET): for seeded
 * random trees of collections three deep, with default levels of every kind (roles, null, 'inherit')
 * on collections and spaces, and user and team grants scattered at every level, each actor's lists
 * must hold exactly what they can GET one by one. Both are also held against an oracle written here
 * from the rules themselves, so a mistake shared by the two cannot pass unseen.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import type { DefaultLevel } from '../../src/domain/permissions';
import { ROLES, roleAtLeast, type Role } from '../../src/domain/roles';
import { contentGrants } from '../../src/db/schema/permissions';
import { collections } from '../../src/db/schema/collections';
import { organizationMembers } from '../../src/db/schema/members';
import { createInitialRevision } from '../../src/modules/revisions/queries';
import { spaces } from '../../src/db/schema/spaces';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, buildTeam, type Actor } from '../support/factories';

/** Seeds whose trees, each on its own, produce every case in COVERAGE (checked at the end). */
const SEEDS = [106, 178, 202];

type Who = 'admin' | 'read' | 'edit' | 'guest' | 'teamGuest' | 'disabled';
const WHO: Who[] = ['admin', 'read', 'edit', 'guest', 'teamGuest', 'disabled'];
/** Organization role and teams of each actor; the disabled member keeps a role, teams and grants. */
const PROFILE: Record<Who, { role: Role | null; teams: ('T' | 'U')[]; disabled?: boolean }> = {
  admin: { role: 'admin', teams: [] },
  read: { role: 'read', teams: ['U'] },
  edit: { role: 'edit', teams: ['T'] },
  guest: { role: null, teams: [] },
  teamGuest: { role: null, teams: ['T'] },
  disabled: { role: 'edit', teams: ['T', 'U'], disabled: true },
};
const GRANTEES: Who[] = ['read', 'edit', 'guest', 'disabled'];
const LEVELS: DefaultLevel[] = ['inherit', 'inherit', 'inherit', 'inherit', null, null, 'read', 'comment', 'edit', 'review', 'create', 'admin'];

/** mulberry32: small, seedable, good enough to shuffle fixtures. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)], chance: (p: number) => next() < p };
}

interface Grant {
  to: { user: Who } | { team: 'T' | 'U' };
  role: Role;
}
interface Node {
  kind: 'collection' | 'space';
  id: string;
  title: string;
  parent: Node | null;
  defaultLevel: DefaultLevel;
  grants: Grant[];
  deleted: boolean;
}

/** The rules, written out again from their statement: the strongest of default (capped) and grants. */
function oracle(who: Who, node: Node): Role | null {
  const { role: orgRole, teams, disabled } = PROFILE[who];
  if (disabled) return null;
  if (orgRole === 'admin') return 'admin';
  const chain: Node[] = [];
  for (let n: Node | null = node; n; n = n.parent) chain.push(n);
  const rank = (r: Role | null) => (r ? ROLES.indexOf(r) : -1);
  let best: Role | null = null;
  for (const link of chain) {
    for (const g of link.grants) {
      const mine = 'user' in g.to ? g.to.user === who : teams.includes(g.to.team);
      if (mine && rank(g.role) > rank(best)) best = g.role;
    }
  }
  if (orgRole) {
    const nearest = chain.find((link) => link.defaultLevel !== 'inherit');
    const level = nearest ? (nearest.defaultLevel as Role | null) : orgRole;
    const byDefault = rank(level) <= rank(orgRole) ? level : orgRole;
    if (rank(byDefault) > rank(best)) best = byDefault;
  }
  return best;
}

/** Why a node is visible to a non-admin, to make sure the seeds cover the interesting cases. */
function reasons(who: Who, node: Node): string[] {
  const { role: orgRole, teams } = PROFILE[who];
  const found: string[] = [];
  const chain: Node[] = [];
  for (let n: Node | null = node; n; n = n.parent) chain.push(n);
  chain.forEach((link, depth) => {
    for (const g of link.grants) {
      if ('user' in g.to ? g.to.user === who : teams.includes(g.to.team)) found.push(`${'user' in g.to ? 'user' : 'team'} grant ${depth ? 'above' : 'here'}`);
    }
  });
  if (orgRole) {
    const nearest = chain.findIndex((link) => link.defaultLevel !== 'inherit');
    if (nearest < 0) found.push('organization role');
    else if (chain[nearest].defaultLevel === null) found.push(`closed by null ${nearest ? 'above' : 'here'}`);
    else found.push(`default ${nearest ? 'above' : 'here'}${chain.slice(nearest + 1).some((l) => l.defaultLevel === null) ? ' under a null' : ''}`);
  }
  return found;
}

/** Cases the seeds must produce between them, for some non-admin actor and some live node. */
const COVERAGE = [
  'space: user grant here (visible)',
  'space: team grant here (visible)',
  'space: user grant above (visible)',
  'space: team grant above (visible)',
  'collection: user grant here (visible)',
  'collection: team grant above (visible)',
  'space: closed by null here (hidden)',
  'space: closed by null above (hidden)',
  'collection: closed by null here (hidden)',
  'collection: closed by null above (hidden)',
  'space: default here under a null (visible)',
  'space: default above under a null (visible)',
  'collection: default here under a null (visible)',
  'space: organization role (visible)',
  'collection: organization role (visible)',
  'space: default above (visible)',
];

let t: TestApp;
afterAll(() => t?.close());
beforeAll(async () => {
  t = await startTestApp();
});

/** The tree for one seed: nodes in creation order, parents first. */
function generate(seed: number): Node[] {
  const rnd = random(seed);
  const nodes: Node[] = [];
  function randomGrants(): Grant[] {
    const grants: Grant[] = [];
    const users = new Set<Who>();
    while (rnd.chance(0.3)) {
      const user = rnd.pick(GRANTEES);
      if (!users.has(user)) grants.push({ to: { user }, role: rnd.pick(ROLES) });
      users.add(user);
    }
    const teams = new Set<'T' | 'U'>();
    while (rnd.chance(0.25)) {
      const team = rnd.pick(['T', 'U'] as const);
      if (!teams.has(team)) grants.push({ to: { team }, role: rnd.pick(ROLES) });
      teams.add(team);
    }
    return grants;
  }
  function grow(kind: Node['kind'], parent: Node | null, label: string): Node {
    const node: Node = {
      kind,
      id: newId(),
      title: `${kind === 'space' ? 'S' : 'C'} ${label}`,
      parent,
      defaultLevel: rnd.pick(LEVELS),
      grants: randomGrants(),
      deleted: kind === 'space' && rnd.chance(0.1),
    };
    nodes.push(node);
    return node;
  }
  // Two top-level collections, two children each, two grandchildren each; spaces everywhere.
  for (let i = 1; i <= 2; i++) {
    const top = grow('collection', null, `${i}`);
    for (let j = 1; j <= 2; j++) {
      const child = grow('collection', top, `${i}.${j}`);
      for (let k = 1; k <= 2; k++) grow('collection', child, `${i}.${j}.${k}`);
    }
  }
  for (const collection of nodes.filter((n) => n.kind === 'collection')) {
    const count = 1 + Math.floor(rnd.next() * 2);
    for (let n = 1; n <= count; n++) grow('space', collection, `${collection.title.slice(2)} #${n}`);
  }
  for (let n = 1; n <= 3; n++) grow('space', null, `top #${n}`);
  return nodes;
}

describe.each(SEEDS.map((seed) => [seed]))('seed %i', (seed) => {
  let organizationId: string;
  const actors = {} as Record<Who, Actor>;
  const teamIds = {} as Record<'T' | 'U', string>;
  const nodes = generate(seed);
  const spaceNodes = () => nodes.filter((n) => n.kind === 'space');
  const collectionNodes = () => nodes.filter((n) => n.kind === 'collection');

  beforeAll(async () => {
    const org = await buildOrganization(t.db, `Seeded ${seed}`);
    organizationId = org.organizationId;
    actors.admin = org.admin;
    for (const who of WHO.filter((w) => w !== 'admin')) actors[who] = await buildMember(t.db, organizationId, PROFILE[who].role, `${who} ${seed}`);
    for (const team of ['T', 'U'] as const) {
      const members = WHO.filter((w) => PROFILE[w].teams.includes(team)).map((w) => ({ userId: actors[w].userId, role: 'member' as const }));
      teamIds[team] = (await buildTeam(t.db, organizationId, `Team ${team} ${seed}`, members)).id;
    }
    await t.db.update(organizationMembers).set({ disabled: true }).where(eq(organizationMembers.userId, actors.disabled.userId));

    const now = new Date();
    let position = 0;
    await t.db.transaction(async (tx) => {
      for (const node of nodes) {
        const common = { id: node.id, organizationId, parentId: node.parent?.id ?? null, title: node.title, defaultLevel: node.defaultLevel, position: ++position };
        if (node.kind === 'collection') {
          await tx.insert(collections).values(common);
        } else {
          const revisionId = newId();
          await tx.insert(spaces).values({ ...common, revisionId, visibility: node.parent ? 'in-collection' : 'private', deletedAt: node.deleted ? now : null });
          await createInitialRevision(tx, node.id, revisionId, actors.admin.userId, now);
        }
        for (const grant of node.grants) {
          await tx.insert(contentGrants).values({
            id: newId(),
            organizationId,
            spaceId: node.kind === 'space' ? node.id : null,
            collectionId: node.kind === 'collection' ? node.id : null,
            userId: 'user' in grant.to ? actors[grant.to.user].userId : null,
            teamId: 'team' in grant.to ? teamIds[grant.to.team] : null,
            role: grant.role,
          });
        }
      }
    });
  });

  /** GET without the spec validation t.rest does (the matrix does that): hundreds of these run. */
  async function get(path: string, token: string): Promise<{ status: number; body: any }> {
    const res = await t.app.fetch(new Request(`${TEST_ORIGIN}${path}`, { headers: { authorization: `Bearer ${token}` } }));
    return { status: res.status, body: await res.json() };
  }

  const titles = (ids: Iterable<string>) => [...ids].map((id) => nodes.find((n) => n.id === id)?.title ?? id).sort();

  async function listIds(path: string, token: string): Promise<{ status: number; ids: string[] }> {
    const res = await t.rest('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`, { token });
    if (res.status !== 200) return { status: res.status, ids: [] };
    expect(res.body.count, path).toBe(res.body.items.length);
    expect(res.body.next, path).toBeUndefined();
    return { status: 200, ids: res.body.items.map((i: any) => i.id) };
  }

  it.each(WHO.map((who) => [who]))('%s: the lists hold exactly what GET answers 200 for, and what the rules give', async (who) => {
    const token = actors[who].token;
    const listStatus = who === 'disabled' ? 404 : 200;

    // Spaces: the SQL filter, the TypeScript resolution, the oracle.
    const listed = await listIds(`/v1/orgs/${organizationId}/spaces`, token);
    expect(listed.status).toBe(listStatus);
    const gets = await Promise.all(spaceNodes().map(async (n) => [n, await get(`/v1/spaces/${n.id}`, token)] as const));
    // A space in the trash answers GET with deletedAt, to whoever may see it, and is left out of lists.
    const got = gets.filter(([, res]) => res.status === 200 && !res.body.deletedAt).map(([n]) => n.id);
    for (const [n, res] of gets) if (n.deleted) expect(res.status === 200 ? Boolean(res.body.deletedAt) : true, n.title).toBe(true);
    for (const [n, res] of gets) expect([200, 404], n.title).toContain(res.status);
    const expected = spaceNodes().filter((n) => !n.deleted && oracle(who, n) !== null).map((n) => n.id);
    expect(titles(listed.ids), 'GET /v1/orgs/{org}/spaces vs GET /v1/spaces/{id}').toEqual(titles(got));
    expect(titles(got), 'GET /v1/spaces/{id} vs the rules').toEqual(titles(expected));
    for (const [n, res] of gets) {
      if (res.status !== 200 || n.deleted) continue;
      const role = oracle(who, n);
      expect(res.body.permissions, n.title).toMatchObject({ view: true, comment: roleAtLeast(role, 'comment'), edit: roleAtLeast(role, 'edit'), review: roleAtLeast(role, 'review'), admin: role === 'admin' });
    }

    // Collections, whole tree and top level.
    const listedCollections = await listIds(`/v1/orgs/${organizationId}/collections`, token);
    expect(listedCollections.status).toBe(listStatus);
    const cgets = await Promise.all(collectionNodes().map(async (n) => [n, await get(`/v1/collections/${n.id}`, token)] as const));
    const gotCollections = cgets.filter(([, res]) => res.status === 200).map(([n]) => n.id);
    const expectedCollections = collectionNodes().filter((n) => oracle(who, n) !== null).map((n) => n.id);
    expect(titles(listedCollections.ids), 'GET /v1/orgs/{org}/collections vs GET /v1/collections/{id}').toEqual(titles(gotCollections));
    expect(titles(gotCollections), 'GET /v1/collections/{id} vs the rules').toEqual(titles(expectedCollections));
    for (const [n, res] of cgets) {
      if (res.status !== 200) continue;
      const role = oracle(who, n);
      expect(res.body.permissions, n.title).toMatchObject({ view: true, create: roleAtLeast(role, 'create'), admin: role === 'admin' });
    }
    const topLevel = await listIds(`/v1/orgs/${organizationId}/collections?nested=false`, token);
    expect(titles(topLevel.ids), 'nested=false').toEqual(titles(gotCollections.filter((id) => !nodes.find((n) => n.id === id)!.parent)));

    // The spaces of each visible collection: the SQL filter again, per parent.
    for (const id of gotCollections) {
      const inside = await listIds(`/v1/collections/${id}/spaces`, token);
      expect(titles(inside.ids), `GET /v1/collections/{${titles([id])}}/spaces`).toEqual(titles(got.filter((s) => nodes.find((n) => n.id === s)!.parent?.id === id)));
    }

    // The member's own directly granted spaces, which the SQL filter also guards.
    const own = await t.rest('GET', `/v1/orgs/${organizationId}/members/${actors[who].userId}/spaces?limit=1000`, { token });
    expect(own.status).toBe(listStatus);
    if (own.status === 200) {
      const direct = spaceNodes().filter((n) => !n.deleted && n.grants.some((g) => 'user' in g.to && g.to.user === who));
      expect(titles(own.body.items.map((i: any) => i.space.id))).toEqual(titles(direct.map((n) => n.id)));
    }
  });

  it('pages of a filtered list are full and the count is right, page after page', async () => {
    for (const who of ['read', 'teamGuest'] as const) {
      const all = await listIds(`/v1/orgs/${organizationId}/spaces`, actors[who].token);
      const walked: string[] = [];
      let page: string | undefined;
      do {
        const res = await t.rest('GET', `/v1/orgs/${organizationId}/spaces?limit=3${page ? `&page=${page}` : ''}`, { token: actors[who].token });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(all.ids.length);
        if (res.body.next) expect(res.body.items).toHaveLength(3);
        walked.push(...res.body.items.map((i: any) => i.id));
        page = res.body.next?.page;
      } while (page);
      expect(walked).toEqual(all.ids);
    }
  });
});

describe('the seeds exercise the rules', () => {
  it('cover grants here and above, to users and to teams, null defaults and defaults under a null', () => {
    const seen = new Set<string>();
    for (const seed of SEEDS) {
      for (const n of generate(seed)) {
        if (n.deleted) continue;
        for (const who of WHO.filter((w) => w !== 'admin' && w !== 'disabled')) {
          for (const reason of reasons(who, n)) seen.add(`${n.kind}: ${reason}${oracle(who, n) ? ' (visible)' : ' (hidden)'}`);
        }
      }
    }
    for (const needed of COVERAGE) expect([...seen], needed).toContain(needed);
  });
});
