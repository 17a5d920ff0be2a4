/**
 * Both doors, one answer: for every operation that REST (/v1) and GraphQL both offer, every actor
 * asks the same question through each door, and the two answers must reduce to the same outcome
 * (ok, unauthenticated, forbidden, not_found, invalid, conflict, precondition); for lists, the same
 * set of ids too.
 *
 * Reads change nothing, so both doors read one fixture. Writes do: REST writes to world R and
 * GraphQL to world G, two fixtures built alike (same shape, different ids). The objects a write
 * changes come from a per-variant "scene" in each world; a refused call changes nothing, so a scene
 * serves actor after actor until one door succeeds, after which both are rebuilt. A few writes
 * change the shared world itself (the organization, its last admin); both worlds are rebuilt then.
 *
 * Only external behaviour is used: the test factories, HTTP through the test app, and one SQL
 * statement to disable a membership (nothing in either API disables one).
 *
 * A failing cell names the operation, the variant (target and input), the actor and both outcomes;
 * all mismatches are also printed together at the end. BOTH_DOORS_TABLE=1 prints every cell.
 *
 * The actors of organization A:
 * - admin, create, edit, comment, read: members with that role. comment owns the Crew team; create,
 *   edit, read and disabled are in it. Crew has `comment` on the closed Vault collection.
 * - guest: no role; `admin` on one space (Guide, and the same on every "own" space the scenes make);
 *   member of the Guests team only.
 * - noaccess: a `read` member outside Crew: the Vault collection and the closed top-level space are
 *   closed to them.
 * - disabled: an `edit` member in Crew, with a user grant on Guide, whose membership is disabled.
 * - outsider: the admin of organization B. anonymous: no token.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/roles';
import { startTestApp, type TestApp } from '../support/clients';
import {
  gid,
  gqlOutcome,
  memberGid,
  MISSING,
  mutation,
  restOutcome,
  send,
  type GqlCall,
  type Outcome,
  type RestCall,
} from '../support/doors';
import { buildMember, buildOrganization, buildTeam, type Actor } from '../support/factories';

const MEMBERS = ['admin', 'create', 'edit', 'comment', 'read', 'guest', 'noaccess', 'disabled', 'outsider'] as const;
const WHO = [...MEMBERS, 'anonymous'] as const;
type Member = (typeof MEMBERS)[number];
type Who = (typeof WHO)[number];
const ROLE_OF: Record<Exclude<Member, 'outsider'>, Role | null> = {
  admin: 'admin', create: 'create', edit: 'edit', comment: 'comment', read: 'read', guest: null, noaccess: 'read', disabled: 'edit',
};

interface World {
  /** A: the organization under test; B: the outsider's; annex: A's admin administers it; partner: A's admin only reads there. */
  a: string;
  b: string;
  annex: string;
  partner: string;
  actors: Record<Member, Actor>;
  /** A `comment` member of B. */
  bMember: Actor;
  handbook: string; // collection, inherit
  vault: string; // collection, defaultLevel null, Crew has comment
  guide: string; // space in Handbook: guest admin, Editors edit, disabled read
  secret: string; // space in Vault
  lobby: string; // top-level space, inherit
  closedLobby: string; // top-level space, defaultLevel null
  trashed: string; // space of Handbook in the trash, guest admin
  crew: string;
  editors: string; // the guest is not in it and may not see it
  guests: string; // holds the guest
  invite: string;
  bCollection: string;
  bSpace: string; // in bCollection
  bTeam: string;
}
type Scene = Record<string, string>;

let t: TestApp;
let worlds: { r: World; g: World; generation: number };
let seq = 0;
const next = () => ++seq;

async function disable(organizationId: string, userId: string) {
  await t.db.execute(sql`update organization_members set disabled = true where organization_id = ${organizationId} and user_id = ${userId}`);
}

async function buildWorld(label: string): Promise<World> {
  const org = await buildOrganization(t.db, `Agree ${label} Alpha`);
  const a = org.organizationId;
  const admin = org.admin;
  const as = (path: string, body?: unknown, method = 'POST') => send(t, admin.token, method, path, body);
  const actors = { admin } as Record<Member, Actor>;
  for (const who of ['create', 'edit', 'comment', 'read', 'guest', 'noaccess', 'disabled'] as const) {
    actors[who] = await buildMember(t.db, a, ROLE_OF[who], `${label} ${who}`);
  }
  const beta = await buildOrganization(t.db, `Agree ${label} Beta`);
  actors.outsider = beta.admin;
  const bMember = await buildMember(t.db, beta.organizationId, 'comment', `${label} beta member`);
  const annex = await buildOrganization(t.db, `Agree ${label} Annex`);
  await send(t, annex.admin.token, 'POST', `/v1/orgs/${annex.organizationId}/invites`, { emails: [admin.email], role: 'admin' });
  const partner = await buildOrganization(t.db, `Agree ${label} Partner`);
  await send(t, partner.admin.token, 'POST', `/v1/orgs/${partner.organizationId}/invites`, { emails: [admin.email], role: 'read' });

  const crew = await buildTeam(t.db, a, 'Crew', [
    { userId: actors.comment.userId, role: 'owner' },
    ...(['create', 'edit', 'read', 'disabled'] as const).map((who) => ({ userId: actors[who].userId, role: 'member' as const })),
  ]);
  const editors = await buildTeam(t.db, a, 'Editors', [{ userId: actors.edit.userId, role: 'member' }]);
  const guests = await buildTeam(t.db, a, 'Guests', [{ userId: actors.guest.userId, role: 'member' }]);
  const bTeam = await buildTeam(t.db, beta.organizationId, 'Beta team', [{ userId: bMember.userId, role: 'member' }]);

  const handbook = (await as(`/v1/orgs/${a}/collections`, { title: 'Handbook' })).id;
  await as(`/v1/collections/${handbook}/permissions`, { role: 'read', users: [actors.noaccess.userId] });
  await as(`/v1/collections/${handbook}/permissions`, { role: 'edit', teams: [editors.id] });
  const vault = (await as(`/v1/orgs/${a}/collections`, { title: 'Vault' })).id;
  await as(`/v1/collections/${vault}`, { defaultLevel: null }, 'PATCH');
  await as(`/v1/collections/${vault}/permissions`, { role: 'comment', teams: [crew.id] });
  const guide = (await as(`/v1/orgs/${a}/spaces`, { title: 'Guide', parent: handbook })).id;
  await as(`/v1/spaces/${guide}/permissions`, { role: 'admin', users: [actors.guest.userId] });
  await as(`/v1/spaces/${guide}/permissions`, { role: 'edit', teams: [editors.id] });
  await as(`/v1/spaces/${guide}/permissions`, { role: 'read', users: [actors.disabled.userId] });
  const secret = (await as(`/v1/orgs/${a}/spaces`, { title: 'Secret', parent: vault })).id;
  const lobby = (await as(`/v1/orgs/${a}/spaces`, { title: 'Lobby' })).id;
  const closedLobby = (await as(`/v1/orgs/${a}/spaces`, { title: 'Closed lobby' })).id;
  await as(`/v1/spaces/${closedLobby}`, { defaultLevel: null }, 'PATCH');
  const trashed = (await as(`/v1/orgs/${a}/spaces`, { title: 'Trashed', parent: handbook })).id;
  await as(`/v1/spaces/${trashed}/permissions`, { role: 'admin', users: [actors.guest.userId] });
  await as(`/v1/spaces/${trashed}`, undefined, 'DELETE');
  const invite = (await as(`/v1/orgs/${a}/link-invites`, { role: 'read' })).id;

  const b = beta.organizationId;
  const bCollection = (await send(t, beta.admin.token, 'POST', `/v1/orgs/${b}/collections`, { title: 'Beta docs' })).id;
  const bSpace = (await send(t, beta.admin.token, 'POST', `/v1/orgs/${b}/spaces`, { title: 'Beta guide', parent: bCollection })).id;

  await disable(a, actors.disabled.userId);
  return {
    a, b, annex: annex.organizationId, partner: partner.organizationId, actors, bMember,
    handbook, vault, guide, secret, lobby, closedLobby, trashed,
    crew: crew.id, editors: editors.id, guests: guests.id, invite, bCollection, bSpace, bTeam: bTeam.id,
  };
}

async function buildWorlds() {
  const generation = (worlds?.generation ?? 0) + 1;
  const [r, g] = await Promise.all([buildWorld(`R${generation}`), buildWorld(`G${generation}`)]);
  worlds = { r, g, generation };
}

// ------------------------------------------------------------------ scenes: what a write changes

type Where = 'handbook' | 'vault' | 'top' | 'beta';

/** A space like Guide (in Handbook: guest admin, Editors edit, noaccess read), or in Vault, at the top, in B. */
const spaceScene = (where: Where, opts: { trash?: boolean } = {}) => async (w: World): Promise<Scene> => {
  const beta = where === 'beta';
  const token = beta ? w.actors.outsider.token : w.actors.admin.token;
  const as = (method: string, path: string, body?: unknown) => send(t, token, method, path, body);
  const parent = { handbook: w.handbook, vault: w.vault, top: undefined, beta: w.bCollection }[where];
  const id = (await as('POST', `/v1/orgs/${beta ? w.b : w.a}/spaces`, { title: `Scene space ${next()}`, ...(parent ? { parent } : {}) })).id;
  if (where === 'handbook') {
    await as('POST', `/v1/spaces/${id}/permissions`, { role: 'admin', users: [w.actors.guest.userId] });
    await as('POST', `/v1/spaces/${id}/permissions`, { role: 'read', users: [w.actors.noaccess.userId], teams: [w.editors] });
  }
  if (beta) await as('POST', `/v1/spaces/${id}/permissions`, { role: 'read', users: [w.bMember.userId], teams: [w.bTeam] });
  if (opts.trash) await as('DELETE', `/v1/spaces/${id}`);
  return { id };
};

/** A collection in Handbook (Editors edit, noaccess read), in Vault, at the top, or in B's collection. */
const collectionScene = (where: Where) => async (w: World): Promise<Scene> => {
  const beta = where === 'beta';
  const token = beta ? w.actors.outsider.token : w.actors.admin.token;
  const parent = { handbook: w.handbook, vault: w.vault, top: undefined, beta: w.bCollection }[where];
  const id = (await send(t, token, 'POST', `/v1/orgs/${beta ? w.b : w.a}/collections`, { title: `Scene col ${next()}`, ...(parent ? { parent } : {}) })).id;
  if (where === 'handbook') await send(t, token, 'POST', `/v1/collections/${id}/permissions`, { role: 'read', users: [w.actors.noaccess.userId], teams: [w.editors] });
  if (beta) await send(t, token, 'POST', `/v1/collections/${id}/permissions`, { role: 'read', users: [w.bMember.userId], teams: [w.bTeam] });
  return { id };
};

/** A team of A owned by comment with the guest in it, or a team of B with B's member in it. */
const teamScene = (where: 'alpha' | 'beta') => async (w: World): Promise<Scene> => {
  const team =
    where === 'alpha'
      ? await buildTeam(t.db, w.a, `Squad ${next()}`, [
          { userId: w.actors.comment.userId, role: 'owner' },
          { userId: w.actors.guest.userId, role: 'member' },
        ])
      : await buildTeam(t.db, w.b, `Beta squad ${next()}`, [{ userId: w.bMember.userId, role: 'member' }]);
  return { id: team.id };
};

const inviteScene = (where: 'alpha' | 'beta') => async (w: World): Promise<Scene> => {
  const [org, token] = where === 'alpha' ? [w.a, w.actors.admin.token] : [w.b, w.actors.outsider.token];
  return { id: (await send(t, token, 'POST', `/v1/orgs/${org}/link-invites`, { role: 'read' })).id };
};

/** A `comment` member of A or of B that a write may change or remove. */
const victimScene = (where: 'alpha' | 'beta') => async (w: World): Promise<Scene> => ({
  id: (await buildMember(t.db, where === 'alpha' ? w.a : w.b, 'comment', `Victim ${next()}`)).userId,
});

/** A fresh member of A with the actor's role, who leaves A with their own token. */
const leaverScene = async (w: World, who: Who): Promise<Scene> => {
  if (who === 'anonymous') return { id: w.actors.comment.userId };
  if (who === 'outsider') return { id: w.actors.outsider.userId };
  const leaver = await buildMember(t.db, w.a, ROLE_OF[who], `Leaver ${next()}`);
  if (who === 'disabled') await disable(w.a, leaver.userId);
  return { id: leaver.userId, token: leaver.token };
};

// ------------------------------------------------------------------ operations

interface Pair {
  rest: RestCall;
  gql: GqlCall;
  /** Replaces the actor's token in both doors. */
  token?: string;
}
/** For lists: the ids each door returned. */
interface Ids {
  rest: (body: any) => (string | null)[];
  gql: (data: any) => (string | null)[];
}
interface Variant {
  label: string;
  scene?: (w: World, who: Who) => Promise<Scene>;
  /** The scene depends on the actor: built for every cell. */
  perCell?: boolean;
  /** A success changes the shared world: both worlds are rebuilt. */
  worldEffect?: boolean;
  /** Actors for whom the two calls would not be the same question. */
  skip?: Who[];
  /**
   * GraphQL refuses this input before anything runs, whoever asks, because the schema's types
   * rule it out (an enum value it does not have): its answer must be this for every actor, while
   * REST, whose bodies are untyped, checks the value in the service after access.
   */
  typedOut?: Outcome;
  /**
   * A pair of answers, REST's then GraphQL's, that say the same thing for this question: REST
   * names one grantee in the path (one outside the organization is a missing resource, 404) where
   * GraphQL names grantees in a list (a bad entry, 400 on that entry). Both answer a foreign grantee
   * exactly as a missing one, which the variants check.
   */
  sameAs?: [rest: Outcome, graphql: Outcome];
  pair: (w: World, s: Scene, who: Who) => Pair;
}
interface Op {
  name: string;
  write: boolean;
  ids?: Ids;
  variants: Variant[];
}

const GET = (path: string): RestCall => ({ method: 'GET', path });
const node = (id: string, select = 'id'): GqlCall => ({ query: `query ($id: ID!) { node(id: $id) { ${select} } }`, variables: { id }, root: 'node' });
const orgField = (orgId: string, select: string): GqlCall => ({
  query: `query ($id: ID!) { organization(id: $id) { ${select} } }`,
  variables: { id: gid('Organization', orgId) },
  root: 'organization',
});
const edges = (connection: any, pick: (node: any) => string | null) => connection.edges.map((e: any) => pick(e.node));
const selfId = (w: World, who: Who) => (who === 'anonymous' ? w.actors.comment.userId : w.actors[who].userId);

const OPS: Op[] = [];
const read = (name: string, variants: Variant[], ids?: Ids) => OPS.push({ name, write: false, variants, ids });
const write = (name: string, variants: Variant[]) => OPS.push({ name, write: true, variants });

// ---------------------------------------------------------------- reads: objects

read('organization get (node)', [
  { label: 'own', pair: (w) => ({ rest: GET(`/v1/orgs/${w.a}`), gql: node(gid('Organization', w.a)) }) },
  { label: 'other organization', pair: (w) => ({ rest: GET(`/v1/orgs/${w.b}`), gql: node(gid('Organization', w.b)) }) },
  { label: 'missing', pair: () => ({ rest: GET(`/v1/orgs/${MISSING}`), gql: node(gid('Organization', MISSING)) }) },
]);

read('organization get (organization field, REST id)', [
  { label: 'own', pair: (w) => ({ rest: GET(`/v1/orgs/${w.a}`), gql: { ...orgField(w.a, 'id'), variables: { id: w.a } } }) },
  { label: 'other organization', pair: (w) => ({ rest: GET(`/v1/orgs/${w.b}`), gql: { ...orgField(w.b, 'id'), variables: { id: w.b } } }) },
  { label: 'missing', pair: () => ({ rest: GET(`/v1/orgs/${MISSING}`), gql: { ...orgField(MISSING, 'id'), variables: { id: MISSING } } }) },
]);

read('viewer (GET /v1/user)', [
  // GraphQL documents `viewer: null` without a token as its way of saying "not signed in".
  { label: 'self', pair: () => ({ rest: GET('/v1/user'), gql: { query: '{ viewer { user { restId } } }', root: 'viewer', nullMeans: 'unauthenticated' } }) },
]);

read('user get (node)', [
  { label: 'member of A', pair: (w) => ({ rest: GET(`/v1/users/${w.actors.comment.userId}`), gql: node(gid('User', w.actors.comment.userId)) }) },
  { label: 'member of B only', pair: (w) => ({ rest: GET(`/v1/users/${w.bMember.userId}`), gql: node(gid('User', w.bMember.userId)) }) },
  { label: 'missing', pair: () => ({ rest: GET(`/v1/users/${MISSING}`), gql: node(gid('User', MISSING)) }) },
]);

const memberGet = (org: (w: World) => string, user: (w: World, who: Who) => string) => (w: World, _s: Scene, who: Who): Pair => ({
  rest: GET(`/v1/orgs/${org(w)}/members/${user(w, who)}`),
  gql: node(memberGid(org(w), user(w, who))),
});
read('member get (node)', [
  { label: 'other member', pair: memberGet((w) => w.a, (w) => w.actors.comment.userId) },
  { label: 'self', pair: memberGet((w) => w.a, selfId) },
  { label: 'member of the other organization', pair: memberGet((w) => w.b, (w) => w.bMember.userId) },
  { label: "own organization, a user who is only in the other one", pair: memberGet((w) => w.a, (w) => w.bMember.userId) },
  { label: 'missing user', pair: memberGet((w) => w.a, () => MISSING) },
]);

const teamGet = (org: (w: World) => string, team: (w: World) => string) => (w: World): Pair => ({
  rest: GET(`/v1/orgs/${org(w)}/teams/${team(w)}`),
  gql: node(gid('Team', team(w))),
});
read('team get (node)', [
  { label: 'Crew', pair: teamGet((w) => w.a, (w) => w.crew) },
  { label: "Guests (the guest's team)", pair: teamGet((w) => w.a, (w) => w.guests) },
  { label: 'team of the other organization', pair: teamGet((w) => w.b, (w) => w.bTeam) },
  { label: 'missing', pair: teamGet((w) => w.a, () => MISSING) },
]);

const collectionGet = (id: (w: World) => string) => (w: World): Pair => ({ rest: GET(`/v1/collections/${id(w)}`), gql: node(gid('Collection', id(w))) });
read('collection get (node)', [
  { label: 'Handbook (open)', pair: collectionGet((w) => w.handbook) },
  { label: 'Vault (closed)', pair: collectionGet((w) => w.vault) },
  { label: 'of the other organization', pair: collectionGet((w) => w.bCollection) },
  { label: 'missing', pair: collectionGet(() => MISSING) },
]);

const spaceGet = (id: (w: World) => string) => (w: World): Pair => ({ rest: GET(`/v1/spaces/${id(w)}`), gql: node(gid('Space', id(w))) });
read('space get (node)', [
  { label: 'Guide (in Handbook, guest granted)', pair: spaceGet((w) => w.guide) },
  { label: 'Secret (in Vault)', pair: spaceGet((w) => w.secret) },
  { label: 'Lobby (top level)', pair: spaceGet((w) => w.lobby) },
  { label: 'Closed lobby (top level, closed)', pair: spaceGet((w) => w.closedLobby) },
  { label: 'in the trash', pair: spaceGet((w) => w.trashed) },
  { label: 'of the other organization', pair: spaceGet((w) => w.bSpace) },
  { label: 'missing', pair: spaceGet(() => MISSING) },
]);

// ---------------------------------------------------------------- reads: lists

const restItems = (body: any) => body.items.map((i: any) => i.id);
const orgTargets = (pair: (org: string) => Pair): Variant[] => [
  { label: 'own', pair: (w) => pair(w.a) },
  { label: 'other organization', pair: (w) => pair(w.b) },
  { label: 'missing', pair: () => pair(MISSING) },
];

read(
  'organizations of the viewer (GET /v1/orgs)',
  [{ label: 'self', pair: () => ({ rest: GET('/v1/orgs?limit=1000'), gql: { query: '{ viewer { organizations(first: 100) { edges { node { restId } } } } }', root: 'viewer', nullMeans: 'unauthenticated' } }) }],
  { rest: restItems, gql: (d) => edges(d.viewer.organizations, (n) => n.restId) },
);
read(
  'organization members list',
  orgTargets((org) => ({ rest: GET(`/v1/orgs/${org}/members?limit=1000`), gql: orgField(org, 'members(first: 100) { edges { node { restId } } }') })),
  { rest: restItems, gql: (d) => edges(d.organization.members, (n) => n.restId) },
);
read(
  'organization teams list',
  orgTargets((org) => ({ rest: GET(`/v1/orgs/${org}/teams?limit=1000`), gql: orgField(org, 'teams(first: 100) { edges { node { restId } } }') })),
  { rest: restItems, gql: (d) => edges(d.organization.teams, (n) => n.restId) },
);
read(
  'organization spaces list',
  orgTargets((org) => ({ rest: GET(`/v1/orgs/${org}/spaces?limit=1000`), gql: orgField(org, 'spaces(first: 100) { edges { node { restId } } }') })),
  { rest: restItems, gql: (d) => edges(d.organization.spaces, (n) => n.restId) },
);
read(
  'organization collections list (nested)',
  orgTargets((org) => ({ rest: GET(`/v1/orgs/${org}/collections?limit=1000`), gql: orgField(org, 'collections(first: 100, nested: true) { edges { node { restId } } }') })),
  { rest: restItems, gql: (d) => edges(d.organization.collections, (n) => n.restId) },
);
read(
  'organization collections list (top level)',
  orgTargets((org) => ({
    rest: GET(`/v1/orgs/${org}/collections?nested=false&limit=1000`),
    gql: orgField(org, 'collections(first: 100, nested: false) { edges { node { restId } } }'),
  })),
  { rest: restItems, gql: (d) => edges(d.organization.collections, (n) => n.restId) },
);

const collectionSpaces = (id: (w: World) => string) => (w: World): Pair => ({
  rest: GET(`/v1/collections/${id(w)}/spaces?limit=1000`),
  gql: node(gid('Collection', id(w)), '... on Collection { spaces(first: 100) { edges { node { restId } } } }'),
});
read(
  'collection spaces list',
  [
    { label: 'Handbook (open)', pair: collectionSpaces((w) => w.handbook) },
    { label: 'Vault (closed)', pair: collectionSpaces((w) => w.vault) },
    { label: 'of the other organization', pair: collectionSpaces((w) => w.bCollection) },
    { label: 'missing', pair: collectionSpaces(() => MISSING) },
  ],
  { rest: restItems, gql: (d) => edges(d.node.spaces, (n) => n.restId) },
);

const teamMembers = (org: (w: World) => string, team: (w: World) => string) => (w: World): Pair => ({
  rest: GET(`/v1/orgs/${org(w)}/teams/${team(w)}/members?limit=1000`),
  gql: node(gid('Team', team(w)), '... on Team { members(first: 100) { edges { node { user { restId } } } } }'),
});
read(
  'team members list',
  [
    { label: 'Crew', pair: teamMembers((w) => w.a, (w) => w.crew) },
    { label: "Guests (the guest's team)", pair: teamMembers((w) => w.a, (w) => w.guests) },
    { label: 'team of the other organization', pair: teamMembers((w) => w.b, (w) => w.bTeam) },
    { label: 'missing', pair: teamMembers((w) => w.a, () => MISSING) },
  ],
  { rest: (body) => body.items.map((i: any) => i.organization.id), gql: (d) => edges(d.node.members, (n) => n.user.restId) },
);

for (const [kind, type, targets] of [
  ['spaces', 'Space', [['Guide (guest admin)', (w: World) => w.guide], ['Secret (in Vault)', (w: World) => w.secret], ['of the other organization', (w: World) => w.bSpace], ['missing', () => MISSING]]],
  ['collections', 'Collection', [['Handbook', (w: World) => w.handbook], ['Vault (closed)', (w: World) => w.vault], ['of the other organization', (w: World) => w.bCollection], ['missing', () => MISSING]]],
] as const) {
  const list = (grantee: 'users' | 'teams', id: (w: World) => string) => (w: World): Pair => ({
    rest: GET(`/v1/${kind}/${id(w)}/permissions/${grantee}?limit=1000`),
    gql: node(
      gid(type, id(w)),
      `... on ${type} { ${grantee === 'users' ? 'userAccess(first: 100) { edges { node { user { restId } } } }' : 'teamAccess(first: 100) { edges { node { team { restId } } } }'} }`,
    ),
  });
  read(
    `${type.toLowerCase()} user grants list`,
    targets.map(([label, id]) => ({ label, pair: list('users', id) })),
    { rest: (body) => body.items.map((i: any) => i.user.id), gql: (d) => edges(d.node.userAccess, (n) => n.user.restId) },
  );
  read(
    `${type.toLowerCase()} team grants list`,
    targets.map(([label, id]) => ({ label, pair: list('teams', id) })),
    // A team GraphQL hides is listed as null.
    { rest: (body) => body.items.map((i: any) => i.team.id), gql: (d) => edges(d.node.teamAccess, (n) => n.team?.restId ?? null) },
  );
}

// ---------------------------------------------------------------- writes: organizations, members, invites

const orgVariants = (pair: (org: string, w: World) => Pair, opts: { worldEffect?: boolean } = {}): Variant[] => [
  { label: 'own', worldEffect: opts.worldEffect, pair: (w) => pair(w.a, w) },
  { label: 'other organization', worldEffect: opts.worldEffect, pair: (w) => pair(w.b, w) },
  { label: 'missing', pair: (w) => pair(MISSING, w) },
];
const orgUpdate = (title: string) => (org: string): Pair => ({
  rest: { method: 'PATCH', path: `/v1/orgs/${org}`, body: { title } },
  gql: mutation('organizationUpdate', { organizationId: gid('Organization', org), title }),
});
write('organization update', [
  ...orgVariants((org) => orgUpdate(`Renamed ${next()}`)(org), { worldEffect: true }),
  { label: 'own, title too long', pair: (w) => orgUpdate('x'.repeat(256))(w.a) },
]);

write('organization invite users', [
  ...orgVariants((org) => {
    const email = `invitee.${next()}@example.com`;
    return {
      rest: { method: 'POST', path: `/v1/orgs/${org}/invites`, body: { emails: [email], role: 'read' } },
      gql: mutation('organizationInviteUsers', { organizationId: gid('Organization', org), invitees: [{ email }], role: 'READ' }),
    };
  }),
  {
    label: 'own, bad e-mail',
    pair: (w) => ({
      rest: { method: 'POST', path: `/v1/orgs/${w.a}/invites`, body: { emails: ['not-an-email'], role: 'read' } },
      gql: mutation('organizationInviteUsers', { organizationId: gid('Organization', w.a), invitees: [{ email: 'not-an-email' }], role: 'READ' }),
    }),
  },
]);

write(
  'organization ping',
  orgVariants((org) => ({ rest: { method: 'POST', path: `/v1/orgs/${org}/ping` }, gql: mutation('organizationPing', { organizationId: gid('Organization', org) }) })),
);

const memberWrite = (rest: (path: string) => RestCall, gql: (memberId: string) => GqlCall) => (org: string, user: string): Pair => ({
  rest: rest(`/v1/orgs/${org}/members/${user}`),
  gql: gql(memberGid(org, user)),
});
const roleUpdate = (role: Role) => memberWrite((path) => ({ method: 'PATCH', path, body: { role } }), (memberId) => mutation('memberUpdateRole', { memberId, role: role.toUpperCase() }));
write('member role update', [
  { label: 'other member -> edit', scene: victimScene('alpha'), pair: (w, s) => roleUpdate('edit')(w.a, s.id) },
  { label: 'the last admin -> read', worldEffect: true, pair: (w) => roleUpdate('read')(w.a, w.actors.admin.userId) },
  { label: 'member of the other organization -> edit', scene: victimScene('beta'), pair: (w, s) => roleUpdate('edit')(w.b, s.id) },
  { label: 'own organization, a user who is only in the other one', scene: victimScene('beta'), pair: (w, s) => roleUpdate('edit')(w.a, s.id) },
  { label: 'missing user', pair: (w) => roleUpdate('edit')(w.a, MISSING) },
]);

const memberRemove = memberWrite((path) => ({ method: 'DELETE', path }), (memberId) => mutation('memberRemove', { memberId }));
write('member remove', [
  { label: 'other member', scene: victimScene('alpha'), pair: (w, s) => memberRemove(w.a, s.id) },
  { label: 'self (a fresh member of that role leaves)', scene: leaverScene, perCell: true, pair: (w, s) => ({ ...memberRemove(w.a, s.id), token: s.token }) },
  { label: 'the last admin', worldEffect: true, pair: (w) => memberRemove(w.a, w.actors.admin.userId) },
  { label: 'member of the other organization', scene: victimScene('beta'), pair: (w, s) => memberRemove(w.b, s.id) },
  { label: 'own organization, a user who is only in the other one', scene: victimScene('beta'), pair: (w, s) => memberRemove(w.a, s.id) },
  { label: 'missing user', pair: (w) => memberRemove(w.a, MISSING) },
]);

const memberSso = memberWrite((path) => ({ method: 'POST', path: `${path}/sso` }), (memberId) => mutation('memberSetSso', { memberId }));
write('member set sso', [
  { label: 'other member', scene: victimScene('alpha'), pair: (w, s) => memberSso(w.a, s.id) },
  { label: 'member of the other organization', scene: victimScene('beta'), pair: (w, s) => memberSso(w.b, s.id) },
  { label: 'missing user', pair: (w) => memberSso(w.a, MISSING) },
]);

const inviteCreate = (role: string) => (org: string): Pair => ({
  rest: { method: 'POST', path: `/v1/orgs/${org}/link-invites`, body: { role } },
  gql: mutation('organizationLinkInviteCreate', { organizationId: gid('Organization', org), role: role.toUpperCase() }),
});
write('invite link create', [
  ...orgVariants(inviteCreate('read')),
  { label: 'own, unknown role', typedOut: 'invalid', pair: (w) => inviteCreate('bogus')(w.a) },
]);

const inviteDelete = (org: string, invite: string): Pair => ({
  rest: { method: 'DELETE', path: `/v1/orgs/${org}/link-invites/${invite}` },
  gql: mutation('organizationLinkInviteDelete', { organizationId: gid('Organization', org), inviteId: invite }),
});
write('invite link delete', [
  { label: 'own', scene: inviteScene('alpha'), pair: (w, s) => inviteDelete(w.a, s.id) },
  { label: 'own, missing invite', pair: (w) => inviteDelete(w.a, MISSING) },
  { label: 'of the other organization', scene: inviteScene('beta'), pair: (w, s) => inviteDelete(w.b, s.id) },
  { label: "own organization, the other organization's invite", scene: inviteScene('beta'), pair: (w, s) => inviteDelete(w.a, s.id) },
]);

// ---------------------------------------------------------------- writes: teams

const teamCreate = (body: { title: string; members?: string[] }) => (org: string): Pair => ({
  rest: { method: 'PUT', path: `/v1/orgs/${org}/teams`, body },
  gql: mutation('teamCreate', { organizationId: gid('Organization', org), ...body }),
});
write('team create', [
  ...orgVariants((org) => teamCreate({ title: `Made ${next()}` })(org)),
  { label: 'own, title too long', pair: (w) => teamCreate({ title: 'x'.repeat(65) })(w.a) },
  { label: 'own, a non-member in it', pair: (w) => teamCreate({ title: `Made ${next()}`, members: [w.bMember.userId] })(w.a) },
]);

/** A team write: in A (a fresh Squad), in B (a fresh Beta squad), or a missing team of A. */
const teamVariants = (pair: (org: string, team: string, w: World) => Pair, extra: Variant[] = []): Variant[] => [
  { label: 'own team', scene: teamScene('alpha'), pair: (w, s) => pair(w.a, s.id, w) },
  ...extra,
  { label: 'team of the other organization', scene: teamScene('beta'), pair: (w, s) => pair(w.b, s.id, w) },
  // GraphQL names a team by its id alone; REST under the caller's organization with another's team id.
  // For B's admin the REST path names an organization they are not in: not the question GraphQL asks.
  { label: "team of the other organization, under own organization's path", scene: teamScene('beta'), skip: ['outsider'], pair: (w, s) => pair(w.a, s.id, w) },
  { label: 'missing team', pair: (w) => pair(w.a, MISSING, w) },
];
const teamUpdate = (title: () => string) => (org: string, team: string): Pair => {
  const value = title();
  return { rest: { method: 'PATCH', path: `/v1/orgs/${org}/teams/${team}`, body: { title: value } }, gql: mutation('teamUpdate', { teamId: gid('Team', team), title: value }) };
};
write('team update', teamVariants(teamUpdate(() => `Renamed ${next()}`), [
  { label: 'own team, title too long', scene: teamScene('alpha'), pair: (w, s) => teamUpdate(() => 'x'.repeat(65))(w.a, s.id) },
]));

write('team delete', teamVariants((org, team) => ({ rest: { method: 'DELETE', path: `/v1/orgs/${org}/teams/${team}` }, gql: mutation('teamDelete', { teamId: gid('Team', team) }) })));

const teamMembersUpdate = (add: (w: World, org: string) => string) => (org: string, team: string, w: World): Pair => ({
  rest: { method: 'PUT', path: `/v1/orgs/${org}/teams/${team}/members`, body: { add: [add(w, org)] } },
  gql: mutation('teamMembersUpdate', { teamId: gid('Team', team), add: [add(w, org)] }),
});
const someoneOf = (w: World, org: string) => (org === w.b ? w.actors.outsider.userId : w.actors.read.userId);
write('team members bulk update', teamVariants(teamMembersUpdate(someoneOf), [
  { label: 'own team, add a non-member', scene: teamScene('alpha'), pair: (w, s) => teamMembersUpdate((x) => x.bMember.userId)(w.a, s.id, w) },
]));

const teamMemberSet = (user: (w: World, org: string) => string) => (org: string, team: string, w: World): Pair => ({
  rest: { method: 'PUT', path: `/v1/orgs/${org}/teams/${team}/members/${user(w, org)}`, body: { role: 'owner' } },
  gql: mutation('teamMemberSet', { teamId: gid('Team', team), memberId: memberGid(org, user(w, org)), role: 'OWNER' }),
});
write('team member set', teamVariants(teamMemberSet(someoneOf), [
  { label: 'own team, a non-member', scene: teamScene('alpha'), pair: (w, s) => teamMemberSet((x) => x.bMember.userId)(w.a, s.id, w) },
]));

const teamMemberRemove = (user: (w: World, org: string) => string) => (org: string, team: string, w: World): Pair => ({
  rest: { method: 'DELETE', path: `/v1/orgs/${org}/teams/${team}/members/${user(w, org)}` },
  gql: mutation('teamMemberRemove', { teamId: gid('Team', team), memberId: memberGid(org, user(w, org)) }),
});
const teamMemberOf = (w: World, org: string) => (org === w.b ? w.bMember.userId : w.actors.guest.userId);
write('team member remove', teamVariants(teamMemberRemove(teamMemberOf), [
  { label: 'own team, missing user', scene: teamScene('alpha'), pair: (w, s) => teamMemberRemove(() => MISSING)(w.a, s.id, w) },
]));

// ---------------------------------------------------------------- writes: collections and spaces

const createIn = (kind: 'spaces' | 'collections', mutationName: string, maxTitle: number): Variant[] => {
  const pair = (org: string, parent: string | undefined, title: string): Pair => ({
    rest: { method: 'POST', path: `/v1/orgs/${org}/${kind}`, body: { title, ...(parent ? { parent } : {}) } },
    gql: mutation(mutationName, { organizationId: gid('Organization', org), title, ...(parent ? { parentId: gid('Collection', parent) } : {}) }),
  });
  return [
    { label: 'own, top level', pair: (w) => pair(w.a, undefined, `Made ${next()}`) },
    { label: 'own, top level, title too long', pair: (w) => pair(w.a, undefined, 'x'.repeat(maxTitle + 1)) },
    { label: 'own, in Handbook', pair: (w) => pair(w.a, w.handbook, `Made ${next()}`) },
    { label: 'own, in Vault (closed)', pair: (w) => pair(w.a, w.vault, `Made ${next()}`) },
    { label: "own, in the other organization's collection", pair: (w) => pair(w.a, w.bCollection, `Made ${next()}`) },
    { label: 'own, in a missing collection', pair: (w) => pair(w.a, MISSING, `Made ${next()}`) },
    { label: 'other organization, top level', pair: (w) => pair(w.b, undefined, `Made ${next()}`) },
    { label: 'missing organization', pair: () => pair(MISSING, undefined, `Made ${next()}`) },
  ];
};
write('collection create', createIn('collections', 'collectionCreate', 50));
write('space create', createIn('spaces', 'spaceCreate', 50));

type Kind = { rest: 'spaces' | 'collections'; type: 'Space' | 'Collection'; idField: 'spaceId' | 'collectionId'; scene: (where: Where) => (w: World) => Promise<Scene> };
const SPACE: Kind = { rest: 'spaces', type: 'Space', idField: 'spaceId', scene: (where) => spaceScene(where) };
const COLLECTION: Kind = { rest: 'collections', type: 'Collection', idField: 'collectionId', scene: collectionScene };

/** A write on one space or collection: own (in Handbook), closed (in Vault), of B, or missing. */
const contentVariants = (k: Kind, pair: (id: string, w: World) => Pair, opts: { closed?: boolean; extra?: Variant[] } = {}): Variant[] => [
  { label: 'own (in Handbook)', scene: k.scene('handbook'), pair: (w, s) => pair(s.id, w) },
  ...(opts.extra ?? []),
  ...(opts.closed === false ? [] : [{ label: 'closed (in Vault)', scene: k.scene('vault'), pair: (w: World, s: Scene) => pair(s.id, w) }]),
  { label: 'of the other organization', scene: k.scene('beta'), pair: (w, s) => pair(s.id, w) },
  { label: 'missing', pair: (w) => pair(MISSING, w) },
];

for (const k of [COLLECTION, SPACE]) {
  const noun = k.type.toLowerCase();
  const update = (title: () => string) => (id: string): Pair => {
    const value = title();
    return { rest: { method: 'PATCH', path: `/v1/${k.rest}/${id}`, body: { title: value } }, gql: mutation(`${noun}Update`, { [k.idField]: gid(k.type, id), title: value }) };
  };
  write(`${noun} update`, contentVariants(k, update(() => `Renamed ${next()}`), {
    extra: [{ label: 'own (in Handbook), title too long', scene: k.scene('handbook'), pair: (_w, s) => update(() => 'x'.repeat(51))(s.id) }],
  }));

  write(`${noun} delete`, contentVariants(k, (id) => ({ rest: { method: 'DELETE', path: `/v1/${k.rest}/${id}` }, gql: mutation(`${noun}Delete`, { [k.idField]: gid(k.type, id) }) })));

  const move = (parent: (w: World, id: string) => string | null | undefined, position?: string) => (id: string, w: World): Pair => {
    const p = parent(w, id);
    return {
      rest: {
        method: 'POST',
        path: `/v1/${k.rest}/${id}/move`,
        body: { ...(p !== undefined ? { parent: p } : {}), ...(position ? { position: { before: { type: 'space', space: position } } } : {}) },
      },
      gql: mutation(`${noun}Move`, {
        [k.idField]: gid(k.type, id),
        ...(p !== undefined ? { parentId: p === null ? null : gid('Collection', p) } : {}),
        ...(position ? { position: { beforeId: gid('Space', position) } } : {}),
      }),
    };
  };
  write(`${noun} move`, [
    ...contentVariants(k, move(() => null), { closed: false }).map((v) => ({ ...v, label: `${v.label} -> top level` })),
    { label: 'own -> Vault (closed)', scene: k.scene('handbook'), pair: (w, s) => move((x) => x.vault)(s.id, w) },
    { label: "own -> the other organization's collection", scene: k.scene('handbook'), pair: (w, s) => move((x) => x.bCollection)(s.id, w) },
    { label: 'own -> missing collection', scene: k.scene('handbook'), pair: (w, s) => move(() => MISSING)(s.id, w) },
    { label: 'own -> before a missing space', scene: k.scene('handbook'), pair: (w, s) => move(() => undefined, MISSING)(s.id, w) },
    { label: 'own -> before a space of the other organization', scene: k.scene('handbook'), pair: (w, s) => move(() => undefined, w.bSpace)(s.id, w) },
    ...(k === COLLECTION ? [{ label: 'own -> into itself', scene: k.scene('handbook'), pair: (w: World, s: Scene) => move((_x, id) => id)(s.id, w) }] : []),
  ]);

  const transfer = (to: (w: World) => string) => (id: string, w: World): Pair => ({
    rest: { method: 'POST', path: `/v1/${k.rest}/${id}/transfer`, body: { organization: to(w) } },
    gql: mutation(`${noun}Transfer`, { [k.idField]: gid(k.type, id), organizationId: gid('Organization', to(w)) }),
  });
  write(`${noun} transfer`, [
    ...contentVariants(k, transfer((w) => w.annex), { closed: false }).map((v) => ({ ...v, label: `${v.label} -> annex (A's admin administers it)` })),
    { label: 'own -> same organization', scene: k.scene('handbook'), pair: (w, s) => transfer((x) => x.a)(s.id, w) },
    { label: "own -> partner (A's admin only reads there)", scene: k.scene('handbook'), pair: (w, s) => transfer((x) => x.partner)(s.id, w) },
    { label: 'own -> the other organization', scene: k.scene('handbook'), pair: (w, s) => transfer((x) => x.b)(s.id, w) },
    { label: 'own -> missing organization', scene: k.scene('handbook'), pair: (w, s) => transfer(() => MISSING)(s.id, w) },
  ]);
}

const spaceOnly = (name: string) => (id: string): Pair => ({
  rest: { method: 'POST', path: `/v1/spaces/${id}/${name}` },
  gql: mutation(`space${name[0].toUpperCase()}${name.slice(1)}`, { spaceId: gid('Space', id) }),
});
write('space restore', [
  { label: 'own, in the trash', scene: spaceScene('handbook', { trash: true }), pair: (_w, s) => spaceOnly('restore')(s.id) },
  { label: 'own, not in the trash', scene: spaceScene('handbook'), pair: (_w, s) => spaceOnly('restore')(s.id) },
  { label: 'of the other organization, in the trash', scene: spaceScene('beta', { trash: true }), pair: (_w, s) => spaceOnly('restore')(s.id) },
  { label: 'missing', pair: () => spaceOnly('restore')(MISSING) },
]);

// A copy leaves the original as it was: the world's own spaces serve.
write('space duplicate', [
  { label: 'Guide (in Handbook, guest admin)', pair: (w) => spaceOnly('duplicate')(w.guide) },
  { label: 'Lobby (top level)', pair: (w) => spaceOnly('duplicate')(w.lobby) },
  { label: 'Secret (in Vault)', pair: (w) => spaceOnly('duplicate')(w.secret) },
  { label: 'of the other organization', pair: (w) => spaceOnly('duplicate')(w.bSpace) },
  { label: 'missing', pair: () => spaceOnly('duplicate')(MISSING) },
]);

// ---------------------------------------------------------------- writes: content grants

for (const k of [SPACE, COLLECTION]) {
  const noun = k.type.toLowerCase();
  const contentId = (id: string) => gid(k.type, id);
  const post = (body: { role: Role | null; users?: string[]; teams?: string[] }) => (id: string): Pair => ({
    rest: { method: 'POST', path: `/v1/${k.rest}/${id}/permissions`, body },
    gql:
      body.role === null
        ? mutation('contentAccessRevoke', { contentId: contentId(id), userIds: body.users?.map((u) => gid('User', u)), teamIds: body.teams?.map((x) => gid('Team', x)) })
        : mutation('contentAccessGrant', {
            contentId: contentId(id),
            role: body.role.toUpperCase(),
            userIds: body.users?.map((u) => gid('User', u)),
            teamIds: body.teams?.map((x) => gid('Team', x)),
          }),
  });
  const own = (label: string, pair: (w: World, s: Scene) => Pair): Variant => ({ label, scene: k.scene('handbook'), pair });

  write(`${noun} grant to users (POST permissions)`, [
    // In B's content the grantee is B's member; everywhere else A's read member.
    ...contentVariants(k, (id, w) => post({ role: 'read', users: [w.actors.read.userId] })(id)).map((v) =>
      v.label === 'of the other organization' ? { ...v, pair: (w: World, s: Scene) => post({ role: 'read', users: [w.bMember.userId] })(s.id) } : v,
    ),
    own('own, a user of the other organization', (w, s) => post({ role: 'read', users: [w.bMember.userId] })(s.id)),
    own('own, nobody named', (_w, s) => post({ role: 'read' })(s.id)),
  ]);
  write(`${noun} grant to teams (POST permissions)`, [
    own('own, Crew', (w, s) => post({ role: 'read', teams: [w.crew] })(s.id)),
    own('own, a team of the other organization', (w, s) => post({ role: 'read', teams: [w.bTeam] })(s.id)),
  ]);
  // contentAccessRevoke is also the twin of the DELETE routes, so, as they do, it succeeds (changing nothing) for a caller who cannot see the content; the POST is no delete and answers 404.
  const revokeUnseen: [Outcome, Outcome] = ['not_found', 'ok'];
  write(`${noun} revoke (POST permissions, role null)`, [
    { ...own('own, a granted user', (w, s) => post({ role: null, users: [w.actors.noaccess.userId] })(s.id)), sameAs: revokeUnseen },
    { ...own('own, a user of the other organization', (w, s) => post({ role: null, users: [w.bMember.userId] })(s.id)), sameAs: revokeUnseen },
  ]);

  /** PATCH grants one grantee (contentAccessGrant with one id), DELETE revokes it (contentAccessRevoke). */
  const one = (grantee: 'users' | 'teams', method: 'PATCH' | 'DELETE') => (id: string, target: string): Pair => {
    const ids = grantee === 'users' ? { userIds: [gid('User', target)] } : { teamIds: [gid('Team', target)] };
    return {
      rest: { method, path: `/v1/${k.rest}/${id}/permissions/${grantee}/${target}`, ...(method === 'PATCH' ? { body: { role: 'edit' } } : {}) },
      gql: method === 'PATCH' ? mutation('contentAccessGrant', { contentId: contentId(id), role: 'EDIT', ...ids }) : mutation('contentAccessRevoke', { contentId: contentId(id), ...ids }),
    };
  };
  /** `own` is a grantee of A, `other` one of B: in B's content it is the right one, in A's the wrong one. */
  const oneVariants = (grantee: 'users' | 'teams', method: 'PATCH' | 'DELETE', own: (w: World) => string, other: (w: World) => string): Variant[] => {
    const call = one(grantee, method);
    // REST names one grantee in the path: deleting a grant that is not there is a 204 (the API's rule 5). GraphQL names them in a list, and an unknown one is bad input.
    const wrongGrantee: [Outcome, Outcome] = method === 'DELETE' ? ['ok', 'invalid'] : ['not_found', 'invalid'];
    return [
      { label: 'own (in Handbook)', scene: k.scene('handbook'), pair: (w, s) => call(s.id, own(w)) },
      { label: 'own, grantee of the other organization', scene: k.scene('handbook'), sameAs: wrongGrantee, pair: (w, s) => call(s.id, other(w)) },
      { label: 'own, missing grantee', scene: k.scene('handbook'), sameAs: wrongGrantee, pair: (w, s) => call(s.id, MISSING) },
      { label: 'of the other organization', scene: k.scene('beta'), pair: (w, s) => call(s.id, other(w)) },
      { label: 'missing', pair: (w) => call(MISSING, own(w)) },
    ];
  };
  write(`${noun} grant to one user (PATCH permissions/users/{id})`, oneVariants('users', 'PATCH', (w) => w.actors.read.userId, (w) => w.bMember.userId));
  write(`${noun} revoke from one user (DELETE permissions/users/{id})`, oneVariants('users', 'DELETE', (w) => w.actors.noaccess.userId, (w) => w.bMember.userId));
  write(`${noun} grant to one team (PATCH permissions/teams/{id})`, oneVariants('teams', 'PATCH', (w) => w.crew, (w) => w.bTeam));
  write(`${noun} revoke from one team (DELETE permissions/teams/{id})`, oneVariants('teams', 'DELETE', (w) => w.editors, (w) => w.bTeam));
}

// ------------------------------------------------------------------ running

interface Mismatch {
  op: string;
  variant: string;
  who: Who;
  rest: string;
  graphql: string;
}
const mismatches: Mismatch[] = [];
/** Every cell's answers, printed as a table when BOTH_DOORS_TABLE is set. */
const table = new Map<string, string[]>();
let cells = 0;
const started = Date.now();

beforeAll(async () => {
  t = await startTestApp();
  await buildWorlds();
});
afterAll(async () => {
  if (process.env.BOTH_DOORS_TABLE) console.log([...table].map(([row, answers]) => `${row}\n    ${answers.join('  ')}`).join('\n'));
  if (mismatches.length) {
    const lines = mismatches.map((m) => `  ${m.op} [${m.variant}] as ${m.who}: REST ${m.rest}, GraphQL ${m.graphql}`);
    console.log(`both doors: ${cells} cells in ${((Date.now() - started) / 1000).toFixed(1)} s, ${mismatches.length} mismatches:\n${lines.join('\n')}`);
  }
  await t?.close();
});

const tokenOf = (w: World, who: Who) => (who === 'anonymous' ? null : w.actors[who].token);

async function ask(w: World, who: Who, pair: Pair, door: 'rest' | 'gql') {
  const token = pair.token ?? tokenOf(w, who);
  if (door === 'rest') {
    const res = await t.rest(pair.rest.method, pair.rest.path, { token, body: pair.rest.body });
    return { outcome: restOutcome(res), data: res.body };
  }
  const res = await t.graphql(pair.gql.query, pair.gql.variables, token);
  return { outcome: gqlOutcome(res, pair.gql), data: res.body.data };
}

const detail = (outcome: Outcome, ids?: (string | null)[]) => (ids ? `${outcome} ${JSON.stringify([...ids].sort())}` : outcome);

for (const op of OPS) {
  describe(op.name, () => {
    for (const variant of op.variants) {
      describe(variant.label, () => {
        // The scene of this variant in world R and world G, with the generation of the worlds it was built in.
        let scenes: { r: Scene; g: Scene; generation: number } | null = null;

        it.each(WHO.filter((who) => !variant.skip?.includes(who)).map((who) => [who]))('as %s', async (who) => {
          if (variant.scene && (!scenes || variant.perCell || scenes.generation !== worlds.generation)) {
            const [r, g] = await Promise.all([variant.scene(worlds.r, who), variant.scene(worlds.g, who)]);
            scenes = { r, g, generation: worlds.generation };
          }
          const { r, g } = worlds;
          // Reads change nothing: both doors read world R. Writes: REST writes to R, GraphQL to G.
          const restPair = variant.pair(r, scenes?.r ?? {}, who);
          const gqlWorld = op.write ? g : r;
          const gqlPair = op.write ? variant.pair(g, scenes?.g ?? {}, who) : restPair;
          // The two calls touch different worlds (writes) or change nothing (reads): they may overlap.
          const [rest, gql] = await Promise.all([ask(r, who, restPair, 'rest'), ask(gqlWorld, who, gqlPair, 'gql')]);
          cells++;

          if (op.write && (rest.outcome === 'ok' || gql.outcome === 'ok')) {
            scenes = null;
            if (variant.worldEffect) await buildWorlds();
          }

          let restIds: (string | null)[] | undefined;
          let gqlIds: (string | null)[] | undefined;
          if (op.ids && rest.outcome === 'ok' && gql.outcome === 'ok') {
            restIds = op.ids.rest(rest.data);
            gqlIds = op.ids.gql(gql.data);
          }
          if (variant.typedOut) {
            expect(gql.outcome, `${op.name} [${variant.label}] as ${who}: GraphQL ${gql.outcome}`).toBe(variant.typedOut);
            return;
          }
          const agreed = variant.sameAs?.[0] === rest.outcome && variant.sameAs[1] === gql.outcome;
          const restSays = detail(agreed ? gql.outcome : rest.outcome, restIds);
          const gqlSays = detail(gql.outcome, gqlIds);
          const row = `${op.name} [${variant.label}]`;
          table.set(row, [...(table.get(row) ?? []), restSays === gqlSays ? `${who}=${restSays}` : `${who}=REST:${restSays}|GQL:${gqlSays}`]);
          if (restSays !== gqlSays) mismatches.push({ op: op.name, variant: variant.label, who, rest: restSays, graphql: gqlSays });
          expect(gqlSays, `${op.name} [${variant.label}] as ${who}: REST ${restSays}, GraphQL ${gqlSays}`).toBe(restSays);
        });
      });
    }
  });
}
