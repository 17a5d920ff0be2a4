/**
 * Authorization matrix of the collection, space and content-grant REST routes, generated from ROWS:
 * one row per operation (plus variants: transfer targets, top level vs inside a collection, missing
 * ids), one expected status per actor. Rows that change something build their own objects per cell,
 * so cells are independent.
 *
 * The actors, and the content they are pointed at (their "home"):
 * - admin, create, edit, comment, read: members with that organization role. Home is the Handbook
 *   collection (defaultLevel 'inherit' all the way up: members get their organization role).
 * - guest: a member with no role and no grant. Home: Handbook; they see nothing of it.
 * - noaccess: a `read` member whose home is the Vault collection (defaultLevel null: members get
 *   nothing by default) and, at the top level, a space whose defaultLevel is null.
 * - granted: a guest in the Crew team. Crew has `comment` on Handbook (so on everything inside it)
 *   and `edit` on every space the fixtures make: team grants, on the content and on an ancestor.
 * - disabled: an `edit` member in the Crew team whose membership is disabled: grants left over count
 *   for nothing.
 * - outsider: the admin of organization B. anonymous: no token, always 401.
 *
 * Whoever cannot see an object gets an answer byte-identical to the one for a missing id. A second
 * block checks the `permissions` objects against what each role may do; a third sweeps everything
 * organization B's admin can call for organization A's ids and titles.
 */
import { eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { roleAtLeast, type Role } from '../../src/domain/roles';
import { contentGrants } from '../../src/db/schema/permissions';
import { collections } from '../../src/db/schema/collections';
import { bootstrapOrganization, upsertMember } from '../../src/modules/members/service';
import { organizationMembers } from '../../src/db/schema/members';
import { createInitialRevision } from '../../src/modules/revisions/queries';
import { spaces } from '../../src/db/schema/spaces';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { startTestApp, TEST_ORIGIN, type RestResponse, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, buildTeam, type Actor, type OrgFixture } from '../support/factories';

const WHO = ['admin', 'create', 'edit', 'comment', 'read', 'guest', 'noaccess', 'granted', 'disabled', 'outsider', 'anonymous'] as const;
type Who = (typeof WHO)[number];
/** Actors who see nothing of their home: their 404s (and no-op 204s) must equal a missing id's. */
const BLIND: Who[] = ['guest', 'noaccess', 'disabled', 'outsider'];

/** The content role each actor should resolve to on their home space / home collection (the oracle). */
const SPACE_ROLE: Record<Exclude<Who, 'anonymous'>, Role | null> = {
  admin: 'admin', create: 'create', edit: 'edit', comment: 'comment', read: 'read',
  guest: null, noaccess: null, granted: 'edit', disabled: null, outsider: null,
};
const COLLECTION_ROLE: Record<Exclude<Who, 'anonymous'>, Role | null> = { ...SPACE_ROLE, granted: 'comment' };

interface Call {
  path: string;
  body?: unknown;
  /** The id that is invisible to the blind actors; replaced by MISSING for the comparison. */
  subject?: string;
  after?: (applied: boolean, res: RestResponse) => Promise<void>;
}
interface Row {
  op: string;
  /** admin, create, edit, comment, read, guest, noaccess, granted, disabled, outsider (anonymous: 401). */
  expect: [number, number, number, number, number, number, number, number, number, number];
  /** Who actually changes something; by default everyone answered with a 2xx. */
  appliedBy?: Who[];
  setup: (who: Who) => Promise<Call> | Call;
}

const MISSING = 'doesNotExist00000000';
const MARKERS = ['zebulon', 'victim'];

let t: TestApp;
let org: string; // organization A
let annex: string; // another organization A's admin administers: transfers land there
let partner: string; // an organization where A's admin is only a `read` member
let actors: Record<Exclude<Who, 'anonymous'>, Actor>;
let target: Actor; // a `comment` member of A that grant rows give access to
let double: Actor; // a `read` member of A who is also a member of B
let crew: string; // A's team holding `granted` and `disabled`
let handbook: string; // collection, inherit
let vault: string; // collection, defaultLevel null
let guide: string; // space in handbook
let secret: string; // space in vault
let lobby: string; // top-level space, inherit
let closedLobby: string; // top-level space, defaultLevel null
let sharedInVault: string; // space in vault, Crew has `edit` on it
let b: OrgFixture; // organization B, whose admin is the outsider
let bCollection: string;
let bSpace: string;
let seq = 0;

const base = () => `/v1/orgs/${org}`;
const token = (who: Who) => (who === 'anonymous' ? null : actors[who].token);
const adminToken = () => actors.admin.token;
const adminGet = (path: string) => t.rest('GET', path, { token: adminToken() });
const home = (who: Who) => (who === 'noaccess' ? vault : handbook);
const homeSpace = (who: Who) => (who === 'noaccess' ? secret : guide);
const topSpace = (who: Who) => (who === 'noaccess' ? closedLobby : lobby);
const title = (what: string) => `Zebulon ${what} ${++seq}`;

async function ok(res: RestResponse, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** A collection of A, made by A's admin. */
async function newCollection(parent?: string, defaultLevel?: Role | null | 'inherit'): Promise<string> {
  const body = await ok(await t.rest('POST', `${base()}/collections`, { token: adminToken(), body: { title: title('Col'), ...(parent ? { parent } : {}) } }), 201);
  if (defaultLevel !== undefined) await ok(await t.rest('PATCH', `/v1/collections/${body.id}`, { token: adminToken(), body: { defaultLevel } }), 200);
  return body.id;
}

/** A space of A, made by A's admin, on which the Crew team has `edit`. */
async function newSpace(parent?: string, extra: { defaultLevel?: Role | null | 'inherit'; editMode?: 'locked' } = {}): Promise<string> {
  const body = await ok(await t.rest('POST', `${base()}/spaces`, { token: adminToken(), body: { title: title('Space'), ...(parent ? { parent } : {}) } }), 201);
  if (Object.keys(extra).length) await ok(await t.rest('PATCH', `/v1/spaces/${body.id}`, { token: adminToken(), body: extra }), 200);
  await ok(await t.rest('POST', `/v1/spaces/${body.id}/permissions`, { token: adminToken(), body: { role: 'edit', teams: [crew] } }), 204);
  return body.id;
}

/**
 * Per-cell objects, written straight to the database for speed: a space in the actor's home on
 * which Crew has `edit` (like newSpace makes), and a collection in the actor's home.
 */
async function freshSpace(who: Who): Promise<string> {
  const id = newId();
  const revisionId = newId();
  const now = new Date();
  await t.db.transaction(async (tx) => {
    await tx.insert(spaces).values({ id, organizationId: org, parentId: home(who), title: title('Space'), visibility: 'in-collection', revisionId, position: seq, createdAt: now, updatedAt: now });
    await createInitialRevision(tx, id, revisionId, actors.admin.userId, now);
    await tx.insert(contentGrants).values({ id: newId(), organizationId: org, spaceId: id, teamId: crew, role: 'edit', createdAt: now });
  });
  return id;
}
async function freshCollection(who: Who): Promise<string> {
  const id = newId();
  await t.db.insert(collections).values({ id, organizationId: org, parentId: home(who), title: title('Col'), position: seq });
  return id;
}
const grantedUsers = async (prefix: string) => (await adminGet(`${prefix}/permissions/users`)).body.items.map((i: any) => [i.user.id, i.permission]);

/** Rows for the four failing transfer targets: the actor's rights are checked before the target. */
function transferVariants(kind: 'spaces' | 'collections', object: (who: Who) => string): Row[] {
  const variants: [string, () => string, number][] = [
    ['target organization missing', () => MISSING, 404],
    ['target organization the caller is not in', () => b.organizationId, 404],
    ['target is the same organization', () => org, 409],
    ['target organization the caller does not administer', () => partner, 412],
  ];
  return variants.map(([label, to, adminStatus]) => ({
    op: `POST /v1/${kind}/{id}/transfer (${label})`,
    expect: [adminStatus, 403, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: (who: Who) => {
      const id = object(who);
      return { path: `/v1/${kind}/${id}/transfer`, body: { organization: to() }, subject: id };
    },
  }));
}

/** A change request made by A's admin on a fresh space in the actor's home, with one page and one file in it. */
async function freshChangeRequest(who: Who): Promise<{ space: string; cr: string; page: string; file: string }> {
  const space = await freshSpace(who);
  const cr = (await ok(await t.rest('POST', `/v1/spaces/${space}/change-requests`, { token: adminToken(), body: { subject: title('Change') } }), 201)).id;
  const created = await t.graphql(
    'mutation ($input: PageCreateInput!) { pageCreate(input: $input) { page { restId } userErrors { message } } }',
    { input: { spaceId: encodeGlobalID('Space', space), changeRequestId: encodeGlobalID('ChangeRequest', cr), title: 'Proposed', markdown: 'Proposed text' } },
    adminToken(),
  );
  const page = created.body.data.pageCreate.page.restId;
  const form = new FormData();
  const upload = 'mutation ($input: FileUploadInput!) { fileUpload(input: $input) { file { restId } } }';
  form.set('operations', JSON.stringify({ query: upload, variables: { input: { spaceId: encodeGlobalID('Space', space), changeRequestId: encodeGlobalID('ChangeRequest', cr), file: null } } }));
  form.set('map', JSON.stringify({ 0: ['variables.input.file'] }));
  form.set('0', new Blob(['notes']), 'notes.txt');
  const response = await t.app.fetch(new Request(`${TEST_ORIGIN}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${adminToken()}` }, body: form }));
  const file = ((await response.json()) as any).data.fileUpload.file.restId;
  return { space, cr, page, file };
}

const crStatus = async (space: string, cr: string) => (await adminGet(`/v1/spaces/${space}/change-requests/${cr}`)).body.status;

/** Every change-request operation: reads need the space, writes the edit role, merging the merge permission. */
function changeRequestRows(): Row[] {
  const READ: Row['expect'] = [200, 200, 200, 200, 200, 404, 404, 200, 404, 404];
  const reads: [string, (c: Awaited<ReturnType<typeof freshChangeRequest>>) => string][] = [
    ['GET /v1/spaces/{id}/change-requests', (c) => `/v1/spaces/${c.space}/change-requests?status=draft`],
    ['GET /v1/spaces/{id}/change-requests/{cr}', (c) => `/v1/spaces/${c.space}/change-requests/${c.cr}`],
    ['GET /v1/spaces/{id}/change-requests/{number}', (c) => `/v1/spaces/${c.space}/change-requests/1`],
    ['GET /v1/spaces/{id}/change-requests/{cr}/content', (c) => `/v1/spaces/${c.space}/change-requests/${c.cr}/content`],
    ['GET /v1/spaces/{id}/change-requests/{cr}/content/pages', (c) => `/v1/spaces/${c.space}/change-requests/${c.cr}/content/pages`],
    ['GET /v1/spaces/{id}/change-requests/{cr}/content/page/{page}', (c) => `/v1/spaces/${c.space}/change-requests/${c.cr}/content/page/${c.page}`],
    ['GET /v1/spaces/{id}/change-requests/{cr}/content/files', (c) => `/v1/spaces/${c.space}/change-requests/${c.cr}/content/files`],
    ['GET /v1/spaces/{id}/change-requests/{cr}/content/files/{file}', (c) => `/v1/spaces/${c.space}/change-requests/${c.cr}/content/files/${c.file}`],
    ['GET /v1/spaces/{id}/change-requests/{cr}/pdf', (c) => `/v1/spaces/${c.space}/change-requests/${c.cr}/pdf`],
  ];
  const shared = new Map<string, Promise<Awaited<ReturnType<typeof freshChangeRequest>>>>();
  const readable = (who: Who) => {
    const key = who === 'noaccess' ? 'vault' : 'handbook';
    if (!shared.has(key)) shared.set(key, freshChangeRequest(who));
    return shared.get(key)!;
  };
  const WRITE: Row['expect'] = [200, 200, 200, 403, 403, 404, 404, 200, 404, 404];
  return [
    ...reads.map(([op, path]): Row => ({
      op,
      expect: READ,
      setup: async (who) => {
        const c = await readable(who);
        return { path: path(c), subject: c.space };
      },
    })),
    {
      op: 'POST /v1/spaces/{id}/change-requests',
      expect: [201, 201, 201, 403, 403, 404, 404, 201, 404, 404],
      setup: async (who) => {
        const space = await freshSpace(who);
        return {
          path: `/v1/spaces/${space}/change-requests`,
          body: { subject: 'Zebulon proposal' },
          subject: space,
          after: async (applied) => expect((await adminGet(`/v1/spaces/${space}/change-requests?status=draft`)).body.items).toHaveLength(applied ? 1 : 0),
        };
      },
    },
    {
      op: 'PATCH /v1/spaces/{id}/change-requests/{cr}',
      expect: WRITE,
      setup: async (who) => {
        const c = await freshChangeRequest(who);
        return { path: `/v1/spaces/${c.space}/change-requests/${c.cr}`, body: { status: 'open' }, subject: c.space, after: async (applied) => expect(await crStatus(c.space, c.cr)).toBe(applied ? 'open' : 'draft') };
      },
    },
    {
      op: 'POST /v1/spaces/{id}/change-requests/{cr}/merge',
      expect: WRITE,
      setup: async (who) => {
        const c = await freshChangeRequest(who);
        return { path: `/v1/spaces/${c.space}/change-requests/${c.cr}/merge`, subject: c.space, after: async (applied) => expect(await crStatus(c.space, c.cr)).toBe(applied ? 'merged' : 'draft') };
      },
    },
    {
      op: 'POST /v1/spaces/{id}/change-requests/{cr}/update',
      expect: WRITE,
      setup: async (who) => {
        const c = await freshChangeRequest(who);
        const before = (await adminGet(`/v1/spaces/${c.space}/change-requests/${c.cr}`)).body.revision;
        await ok(await t.rest('PATCH', `/v1/spaces/${c.space}`, { token: adminToken(), body: { title: title('Renamed') } }), 200);
        return { path: `/v1/spaces/${c.space}/change-requests/${c.cr}/update`, subject: c.space, after: async () => expect((await adminGet(`/v1/spaces/${c.space}/change-requests/${c.cr}`)).body.revision).toBe(before) };
      },
    },
  ];
}

// Columns:        adm  cre  edi  com  rea  gue  noa  gra  dis  out
const ROWS: Row[] = [
  // ---------------------------------------------------------------- collections
  {
    op: 'GET /v1/collections/{id}',
    expect: [200, 200, 200, 200, 200, 404, 404, 200, 404, 404],
    setup: (who) => ({ path: `/v1/collections/${home(who)}`, subject: home(who) }),
  },
  {
    op: 'PATCH /v1/collections/{id}',
    expect: [200, 403, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: async (who) => {
      const id = await freshCollection(who);
      const renamed = title('Renamed');
      return {
        path: `/v1/collections/${id}`,
        body: { title: renamed },
        subject: id,
        after: async (applied) => expect((await adminGet(`/v1/collections/${id}`)).body.title === renamed).toBe(applied),
      };
    },
  },
  {
    op: 'DELETE /v1/collections/{id}',
    expect: [204, 403, 403, 403, 403, 204, 204, 403, 204, 204],
    appliedBy: ['admin'],
    setup: async (who) => {
      const id = await freshCollection(who);
      const path = `/v1/collections/${id}`;
      return { path, subject: id, after: async (applied) => expect((await adminGet(path)).status).toBe(applied ? 404 : 200) };
    },
  },
  {
    op: 'DELETE /v1/collections/{missing}',
    expect: [204, 204, 204, 204, 204, 204, 204, 204, 204, 204],
    setup: () => ({ path: `/v1/collections/${MISSING}` }),
  },
  {
    op: 'GET /v1/collections/{id}/spaces',
    expect: [200, 200, 200, 200, 200, 404, 404, 200, 404, 404],
    setup: (who) => ({
      path: `/v1/collections/${home(who)}/spaces`,
      subject: home(who),
      after: async (applied, res) => {
        if (applied) expect(res.body.items.map((s: any) => s.id)).toContain(homeSpace(who));
      },
    }),
  },
  {
    op: 'POST /v1/collections/{id}/move',
    expect: [200, 403, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: async (who) => {
      const id = await freshCollection(who);
      return {
        path: `/v1/collections/${id}/move`,
        body: { parent: null },
        subject: id,
        after: async (applied) => expect((await adminGet(`/v1/collections/${id}`)).body.parent).toBe(applied ? undefined : home(who)),
      };
    },
  },
  {
    op: 'POST /v1/collections/{id}/transfer',
    expect: [200, 403, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: async (who) => {
      const id = await freshCollection(who);
      return {
        path: `/v1/collections/${id}/transfer`,
        body: { organization: annex },
        subject: id,
        after: async (applied) => expect((await adminGet(`/v1/collections/${id}`)).body.organization).toBe(applied ? annex : org),
      };
    },
  },
  ...transferVariants('collections', home),
  {
    op: 'GET /v1/orgs/{org}/collections',
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 404, 404],
    setup: (who) => ({
      path: `${base()}/collections?limit=1000`,
      subject: org,
      after: async (applied, res) => {
        if (!applied) return;
        const ids = res.body.items.map((c: any) => c.id);
        expect(ids.includes(home(who)), 'home collection listed').toBe(COLLECTION_ROLE[who as 'admin'] !== null);
        expect(res.body.count).toBe(ids.length);
      },
    }),
  },
  {
    op: 'POST /v1/orgs/{org}/collections (top level)',
    expect: [201, 201, 403, 403, 403, 403, 403, 403, 404, 404],
    setup: () => ({ path: `${base()}/collections`, body: { title: title('Made') }, subject: org }),
  },
  {
    op: 'POST /v1/orgs/{org}/collections (in a collection)',
    expect: [201, 201, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: (who) => ({
      path: `${base()}/collections`,
      body: { title: title('Made'), parent: home(who) },
      subject: who === 'outsider' || who === 'disabled' ? org : home(who),
      after: async (applied, res) => {
        if (applied) expect(res.body.parent).toBe(home(who));
      },
    }),
  },
  // ---------------------------------------------------------------- spaces
  {
    op: 'GET /v1/spaces/{id}',
    expect: [200, 200, 200, 200, 200, 404, 404, 200, 404, 404],
    setup: (who) => ({ path: `/v1/spaces/${homeSpace(who)}`, subject: homeSpace(who) }),
  },
  {
    op: 'GET /v1/spaces/{id} (top level)',
    expect: [200, 200, 200, 200, 200, 404, 404, 200, 404, 404],
    setup: (who) => ({ path: `/v1/spaces/${topSpace(who)}`, subject: topSpace(who) }),
  },
  {
    op: 'PATCH /v1/spaces/{id}',
    expect: [200, 403, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: async (who) => {
      const id = await freshSpace(who);
      const renamed = title('Renamed');
      return {
        path: `/v1/spaces/${id}`,
        body: { title: renamed },
        subject: id,
        after: async (applied) => expect((await adminGet(`/v1/spaces/${id}`)).body.title === renamed).toBe(applied),
      };
    },
  },
  {
    op: 'DELETE /v1/spaces/{id}',
    expect: [204, 403, 403, 403, 403, 204, 204, 403, 204, 204],
    appliedBy: ['admin'],
    setup: async (who) => {
      const id = await freshSpace(who);
      const path = `/v1/spaces/${id}`;
      // A deleted space is still shown, with deletedAt, while it can be restored.
      return { path, subject: id, after: async (applied) => expect((await adminGet(path)).body.deletedAt !== undefined).toBe(applied) };
    },
  },
  {
    op: 'DELETE /v1/spaces/{missing}',
    expect: [204, 204, 204, 204, 204, 204, 204, 204, 204, 204],
    setup: () => ({ path: `/v1/spaces/${MISSING}` }),
  },
  {
    op: 'POST /v1/spaces/{id}/duplicate (in a collection)',
    expect: [201, 201, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: (who) => ({
      path: `/v1/spaces/${homeSpace(who)}/duplicate`,
      subject: homeSpace(who),
      after: async (applied, res) => {
        if (applied) expect(res.body.parent).toBe(home(who));
      },
    }),
  },
  {
    op: 'POST /v1/spaces/{id}/duplicate (top level)',
    expect: [201, 201, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: (who) => ({
      path: `/v1/spaces/${topSpace(who)}/duplicate`,
      subject: topSpace(who),
      after: async (applied, res) => {
        if (applied) expect(res.body.parent).toBeUndefined();
      },
    }),
  },
  {
    // The space is shared with Crew, its collection (Vault) is not: `granted` sees the space but
    // may not create where the copy would go, which is a 403 like every other refusal on a space
    // the caller can see.
    op: 'POST /v1/spaces/{id}/duplicate (space shared, its collection not)',
    expect: [201, 404, 404, 404, 404, 404, 404, 403, 404, 404],
    setup: () => ({ path: `/v1/spaces/${sharedInVault}/duplicate`, subject: sharedInVault }),
  },
  {
    op: 'POST /v1/spaces/{id}/restore',
    expect: [200, 403, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: async (who) => {
      const id = await freshSpace(who);
      await t.db.update(spaces).set({ deletedAt: new Date() }).where(eq(spaces.id, id));
      return {
        path: `/v1/spaces/${id}/restore`,
        subject: id,
        after: async (applied) => expect((await adminGet(`/v1/spaces/${id}`)).body.deletedAt === undefined).toBe(applied),
      };
    },
  },
  {
    // Restoring a live space changes nothing, but is still an admin's operation.
    op: 'POST /v1/spaces/{id}/restore (not deleted)',
    expect: [200, 403, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: (who) => ({ path: `/v1/spaces/${homeSpace(who)}/restore`, subject: homeSpace(who) }),
  },
  {
    op: 'POST /v1/spaces/{id}/move',
    expect: [200, 403, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: async (who) => {
      const id = await freshSpace(who);
      return {
        path: `/v1/spaces/${id}/move`,
        body: { parent: null },
        subject: id,
        after: async (applied) => expect((await adminGet(`/v1/spaces/${id}`)).body.parent).toBe(applied ? undefined : home(who)),
      };
    },
  },
  {
    op: 'POST /v1/spaces/{id}/transfer',
    expect: [200, 403, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: async (who) => {
      const id = await freshSpace(who);
      return {
        path: `/v1/spaces/${id}/transfer`,
        body: { organization: annex },
        subject: id,
        after: async (applied) => expect((await adminGet(`/v1/spaces/${id}`)).body.organization).toBe(applied ? annex : org),
      };
    },
  },
  ...transferVariants('spaces', homeSpace),
  {
    op: 'GET /v1/spaces/{id}/links',
    expect: [200, 200, 200, 200, 200, 404, 404, 200, 404, 404],
    setup: (who) => ({ path: `/v1/spaces/${homeSpace(who)}/links`, subject: homeSpace(who) }),
  },
  {
    op: 'GET /v1/orgs/{org}/spaces',
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 404, 404],
    setup: (who) => ({
      path: `${base()}/spaces?limit=1000`,
      subject: org,
      after: async (applied, res) => {
        if (!applied) return;
        const ids = res.body.items.map((s: any) => s.id);
        expect(ids.includes(homeSpace(who)), 'home space listed').toBe(SPACE_ROLE[who as 'admin'] !== null);
        expect(ids.includes(topSpace(who)), 'top-level space listed').toBe(SPACE_ROLE[who as 'admin'] !== null);
        expect(res.body.count).toBe(ids.length);
      },
    }),
  },
  {
    op: 'POST /v1/orgs/{org}/spaces (top level)',
    expect: [201, 201, 403, 403, 403, 403, 403, 403, 404, 404],
    setup: () => ({ path: `${base()}/spaces`, body: { title: title('Made') }, subject: org }),
  },
  {
    op: 'POST /v1/orgs/{org}/spaces (in a collection)',
    expect: [201, 201, 403, 403, 403, 404, 404, 403, 404, 404],
    setup: (who) => ({
      path: `${base()}/spaces`,
      body: { title: title('Made'), parent: home(who) },
      subject: who === 'outsider' || who === 'disabled' ? org : home(who),
      after: async (applied, res) => {
        if (applied) expect(res.body.parent).toBe(home(who));
      },
    }),
  },
  // ---------------------------------------------------------------- grants
  ...(['spaces', 'collections'] as const).flatMap((kind): Row[] => {
    const object = kind === 'spaces' ? homeSpace : home;
    const fresh = kind === 'spaces' ? freshSpace : freshCollection;
    return [
      {
        op: `POST /v1/${kind}/{id}/permissions`,
        expect: [204, 403, 403, 403, 403, 404, 404, 403, 404, 404],
        setup: async (who) => {
          const prefix = `/v1/${kind}/${await fresh(who)}`;
          return {
            path: `${prefix}/permissions`,
            body: { role: 'read', users: [target.userId] },
            subject: prefix.split('/')[3],
            after: async (applied) => expect(await grantedUsers(prefix)).toEqual(applied ? [[target.userId, 'read']] : []),
          };
        },
      },
      {
        op: `GET /v1/${kind}/{id}/permissions/users`,
        expect: [200, 200, 200, 200, 200, 404, 404, 200, 404, 404],
        setup: (who) => ({
          path: `/v1/${kind}/${object(who)}/permissions/users`,
          subject: object(who),
          after: async (applied, res) => {
            if (applied && kind === 'spaces') expect(res.body.items.map((i: any) => i.user.id)).toContain(double.userId);
          },
        }),
      },
      {
        op: `GET /v1/${kind}/{id}/permissions/teams`,
        expect: [200, 200, 200, 200, 200, 404, 404, 200, 404, 404],
        setup: (who) => ({
          path: `/v1/${kind}/${object(who)}/permissions/teams`,
          subject: object(who),
          after: async (applied, res) => {
            if (applied && object(who) === handbook) expect(res.body.items.map((i: any) => i.team.id)).toEqual([crew]);
          },
        }),
      },
      {
        op: `PATCH /v1/${kind}/{id}/permissions/users/{user}`,
        expect: [204, 403, 403, 403, 403, 404, 404, 403, 404, 404],
        setup: async (who) => {
          const prefix = `/v1/${kind}/${await fresh(who)}`;
          return {
            path: `${prefix}/permissions/users/${target.userId}`,
            body: { role: 'comment' },
            subject: prefix.split('/')[3],
            after: async (applied) => expect(await grantedUsers(prefix)).toEqual(applied ? [[target.userId, 'comment']] : []),
          };
        },
      },
      {
        op: `DELETE /v1/${kind}/{id}/permissions/users/{user}`,
        expect: [204, 403, 403, 403, 403, 204, 204, 403, 204, 204],
        appliedBy: ['admin'],
        setup: async (who) => {
          const prefix = `/v1/${kind}/${await fresh(who)}`;
          const [, , , id] = prefix.split('/');
          const on = kind === 'spaces' ? { spaceId: id } : { collectionId: id };
          await t.db.insert(contentGrants).values({ id: newId(), organizationId: org, ...on, userId: target.userId, role: 'read' });
          return {
            path: `${prefix}/permissions/users/${target.userId}`,
            subject: prefix.split('/')[3],
            after: async (applied) => expect(await grantedUsers(prefix)).toEqual(applied ? [] : [[target.userId, 'read']]),
          };
        },
      },
    ];
  }),
  ...changeRequestRows(),
];

beforeAll(async () => {
  t = await startTestApp();
  const a = await buildOrganization(t.db, 'Zebulon Victim Co');
  org = a.organizationId;
  const member = (role: Role | null, name: string) => buildMember(t.db, org, role, name);
  b = await buildOrganization(t.db, 'Outpost Org');
  actors = {
    admin: a.admin,
    create: await member('create', 'Cora Create'),
    edit: await member('edit', 'Eddie Edit'),
    comment: await member('comment', 'Cole Comment'),
    read: await member('read', 'Rita Read'),
    guest: await member(null, 'Gus Guest'),
    noaccess: await member('read', 'Nora Noaccess'),
    granted: await member(null, 'Grace Granted'),
    disabled: await member('edit', 'Dora Disabled'),
    outsider: b.admin,
  };
  target = await member('comment', 'Tara Target');
  double = await member('read', 'Dana Double');
  await upsertMember(t.db, b.organizationId, double.userId, 'edit');
  crew = (await buildTeam(t.db, org, 'Zebulon Crew', [
    { userId: actors.granted.userId, role: 'member' },
    { userId: actors.disabled.userId, role: 'member' },
  ])).id;

  // A's admin administers Annex and is a plain reader of Partner.
  annex = (await bootstrapOrganization(t.db, { title: 'Zebulon Annex', adminUserId: actors.admin.userId })).id;
  const partnerOrg = await buildOrganization(t.db, 'Zebulon Partner');
  partner = partnerOrg.organizationId;
  await upsertMember(t.db, partner, actors.admin.userId, 'read');

  handbook = await newCollection(undefined, 'inherit');
  await ok(await t.rest('POST', `/v1/collections/${handbook}/permissions`, { token: adminToken(), body: { role: 'comment', teams: [crew] } }), 204);
  vault = await newCollection(undefined, null);
  guide = await newSpace(handbook);
  secret = await newSpace(vault);
  lobby = await newSpace();
  closedLobby = await newSpace(undefined, { defaultLevel: null });
  sharedInVault = await newSpace(vault);
  await ok(await t.rest('POST', `/v1/spaces/${guide}/permissions`, { token: adminToken(), body: { role: 'read', users: [double.userId] } }), 204);

  // The disabled member still holds the Crew grants; only the flag takes them away.
  await t.db.update(organizationMembers).set({ disabled: true }).where(eq(organizationMembers.userId, actors.disabled.userId));

  // Organization B's own content, with grants for the member B shares with A.
  bCollection = (await ok(await t.rest('POST', `/v1/orgs/${b.organizationId}/collections`, { token: b.admin.token, body: { title: 'Outpost Docs' } }), 201)).id;
  bSpace = (await ok(await t.rest('POST', `/v1/orgs/${b.organizationId}/spaces`, { token: b.admin.token, body: { title: 'Outpost Guide', parent: bCollection } }), 201)).id;
  await ok(await t.rest('POST', `/v1/spaces/${bSpace}/permissions`, { token: b.admin.token, body: { role: 'admin', users: [double.userId] } }), 204);
});
afterAll(() => t?.close());

function expectErrorShape(res: RestResponse, status: number) {
  expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
}

/** The value with every one of the ids replaced by MISSING. */
function replaceAll(value: unknown, ...ids: string[]): unknown {
  if (value === undefined) return undefined;
  let text = JSON.stringify(value);
  for (const id of ids) text = text.replaceAll(id, MISSING);
  return JSON.parse(text);
}

describe.each(ROWS.map((row) => [row.op, row] as const))('%s', (_, row) => {
  const method = row.op.split(' ')[0];
  const cells = WHO.map((who, i) => [row.op, who, who === 'anonymous' ? 401 : row.expect[i]] as const);

  it.each(cells)('%s as %s -> %i', async (_op, who, status) => {
    const call = await row.setup(who);
    const res = await t.rest(method, call.path, { token: token(who), body: call.body });
    expect(res.status, `body: ${JSON.stringify(res.body)}`).toBe(status);

    if (status >= 400) expectErrorShape(res, status);
    else if (status === 204) expect(res.body).toBeUndefined();
    else expect(res.body).toBeTypeOf('object');
    if (who === 'anonymous') expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);

    const applied = status < 300 && (row.appliedBy ? row.appliedBy.includes(who) : true);
    if (BLIND.includes(who) && call.subject && (status === 404 || (status === 204 && !applied))) {
      // Invisible answers exactly like missing: same status, same bytes.
      const missing = await t.rest(method, call.path.replaceAll(call.subject, MISSING), { token: token(who), body: replaceAll(call.body, call.subject) });
      expect(missing.status).toBe(status);
      expect(JSON.stringify(res.body)).toBe(JSON.stringify(missing.body));
    }
    await call.after?.(applied, res);
  });
});

describe('permissions objects tell what the role may do', () => {
  const seeing = (['admin', 'create', 'edit', 'comment', 'read', 'granted'] as const).map((who) => [who] as const);

  it.each(seeing)('space permissions of %s match its role, PATCH, grants and duplicate', async (who) => {
    const role = SPACE_ROLE[who];
    const res = await t.rest('GET', `/v1/spaces/${homeSpace(who)}`, { token: token(who) });
    const p = (await ok(res, 200)).permissions;
    expect(p).toEqual({
      view: true,
      access: true,
      comment: roleAtLeast(role, 'comment'),
      edit: roleAtLeast(role, 'edit'),
      triggerGitSync: roleAtLeast(role, 'edit'),
      merge: roleAtLeast(role, 'edit'),
      review: roleAtLeast(role, 'review'),
      admin: role === 'admin',
      viewInviteLinks: role === 'admin',
      installIntegration: role === 'admin',
    });
    // admin <-> settings and grant management actually succeed.
    expect((await t.rest('PATCH', `/v1/spaces/${homeSpace(who)}`, { token: token(who), body: {} })).status).toBe(p.admin ? 200 : 403);
    const noop = { role: null, users: [target.userId] };
    expect((await t.rest('POST', `/v1/spaces/${homeSpace(who)}/permissions`, { token: token(who), body: noop })).status).toBe(p.admin ? 204 : 403);
    // Duplicate <-> view here and create rights where the copy goes (the collection's `create`).
    const parent = await t.rest('GET', `/v1/collections/${home(who)}`, { token: token(who) });
    const mayCreate = parent.status === 200 && parent.body.permissions.create;
    expect((await t.rest('POST', `/v1/spaces/${homeSpace(who)}/duplicate`, { token: token(who) })).status).toBe(mayCreate ? 201 : 403);
  });

  it.each(seeing)('collection permissions of %s match its role, PATCH and create inside', async (who) => {
    const role = COLLECTION_ROLE[who];
    const p = (await ok(await t.rest('GET', `/v1/collections/${home(who)}`, { token: token(who) }), 200)).permissions;
    expect(p).toEqual({ view: true, create: roleAtLeast(role, 'create'), admin: role === 'admin', viewInviteLinks: role === 'admin' });
    expect((await t.rest('PATCH', `/v1/collections/${home(who)}`, { token: token(who), body: {} })).status).toBe(p.admin ? 200 : 403);
    const made = await t.rest('POST', `${base()}/spaces`, { token: token(who), body: { title: title('Perm'), parent: home(who) } });
    expect(made.status).toBe(p.create ? 201 : 403);
  });

  it('a generous default level is capped by the organization role; grants are not', async () => {
    const generous = await newCollection(undefined, 'admin');
    const inside = await newSpace(generous, { defaultLevel: 'admin' });
    for (const [who] of seeing) {
      // granted (a guest) gets nothing from defaults: only the Crew grant on the space, edit.
      const spaceRole = who === 'granted' ? 'edit' : SPACE_ROLE[who];
      const p = (await ok(await t.rest('GET', `/v1/spaces/${inside}`, { token: token(who) }), 200)).permissions;
      expect(p, who).toMatchObject({ edit: roleAtLeast(spaceRole, 'edit'), review: roleAtLeast(spaceRole, 'review'), admin: spaceRole === 'admin' });
      expect((await t.rest('PATCH', `/v1/spaces/${inside}`, { token: token(who), body: {} })).status, who).toBe(spaceRole === 'admin' ? 200 : 403);
      const c = await t.rest('GET', `/v1/collections/${generous}`, { token: token(who) });
      if (who === 'granted') expect(c.status).toBe(404);
      else expect(c.body.permissions, who).toMatchObject({ create: roleAtLeast(SPACE_ROLE[who], 'create'), admin: who === 'admin' });
    }
  });

  it('a locked space takes edit and merge away from everyone, admins included, and nothing else', async () => {
    const locked = await newSpace(handbook, { editMode: 'locked' });
    for (const [who] of seeing) {
      const p = (await ok(await t.rest('GET', `/v1/spaces/${locked}`, { token: token(who) }), 200)).permissions;
      const role = SPACE_ROLE[who];
      expect(p, who).toMatchObject({ view: true, edit: false, merge: false, triggerGitSync: false, comment: roleAtLeast(role, 'comment'), admin: role === 'admin' });
    }
  });

  it('those who cannot see get neither the object nor its permissions', async () => {
    for (const who of ['guest', 'noaccess', 'disabled', 'outsider'] as const) {
      expect((await t.rest('GET', `/v1/spaces/${homeSpace(who)}`, { token: token(who) })).status, who).toBe(404);
      expect((await t.rest('GET', `/v1/collections/${home(who)}`, { token: token(who) })).status, who).toBe(404);
    }
  });
});

describe('zero of organization A in what organization B sees', () => {
  let aIds: string[];
  let trashed: string;

  beforeAll(async () => {
    trashed = await newSpace(handbook);
    await ok(await t.rest('DELETE', `/v1/spaces/${trashed}`, { token: adminToken() }), 204);
    // Everything not in B: A's content, and what A's admin transferred to Annex.
    const s = await t.db.select({ id: spaces.id, title: spaces.title }).from(spaces).where(ne(spaces.organizationId, b.organizationId));
    const c = await t.db.select({ id: collections.id, title: collections.title }).from(collections).where(ne(collections.organizationId, b.organizationId));
    for (const row of [...s, ...c]) expect(row.title.toLowerCase(), 'fixture titles carry the marker').toContain('zebulon');
    aIds = [org, annex, partner, crew, ...s.map((r) => r.id), ...c.map((r) => r.id)];
    expect(s.length).toBeGreaterThan(10);
  });

  function leaks(res: RestResponse): string[] {
    const text = JSON.stringify({ status: res.status, body: res.body ?? null });
    const lower = text.toLowerCase();
    return [...MARKERS.filter((m) => lower.includes(m)), ...aIds.filter((id) => text.includes(id))];
  }

  it('the markers are distinctive: A’s admin sees them in A’s lists', async () => {
    const res = await adminGet(`${base()}/spaces?limit=1000`);
    expect(leaks(res).length).toBeGreaterThan(10);
  });

  it('B’s lists and B’s objects never show an A id or title', async () => {
    const own = `/v1/orgs/${b.organizationId}`;
    const paths = [
      '/v1/orgs',
      '/v1/user',
      own,
      `${own}/spaces?limit=1000`,
      `${own}/collections?limit=1000`,
      `${own}/collections?nested=false`,
      `${own}/members`,
      `${own}/teams`,
      `${own}/search?query=zebulon`,
      `${own}/members/${double.userId}/spaces`,
      `${own}/members/${double.userId}/spaces?order=asc`,
      `${own}/members/${double.userId}/teams`,
      `${own}/members/${b.admin.userId}/spaces`,
      `/v1/collections/${bCollection}`,
      `/v1/collections/${bCollection}/spaces`,
      `/v1/collections/${bCollection}/permissions/users`,
      `/v1/collections/${bCollection}/permissions/teams`,
      `/v1/spaces/${bSpace}`,
      `/v1/spaces/${bSpace}/links`,
      `/v1/spaces/${bSpace}/permissions/users`,
      `/v1/spaces/${bSpace}/permissions/teams`,
    ];
    const found: Record<string, string[]> = {};
    for (const path of paths) {
      const res = await t.rest('GET', path, { token: b.admin.token });
      expect(res.status, path).toBe(200);
      if (leaks(res).length) found[path] = leaks(res);
    }
    expect(found).toEqual({});
    // B's lists are not empty for want of content.
    expect((await t.rest('GET', `${own}/spaces`, { token: b.admin.token })).body.items.map((s: any) => s.id)).toEqual([bSpace]);
    expect((await t.rest('GET', `${own}/members/${double.userId}/spaces`, { token: b.admin.token })).body.items.map((i: any) => i.space.id)).toEqual([bSpace]);
  });

  it('every operation on A’s ids answers B like a missing id, and leaks nothing', async () => {
    const calls: [string, string, unknown?][] = [];
    const spaceOps = (id: string) => {
      calls.push(
        ['GET', `/v1/spaces/${id}`],
        ['PATCH', `/v1/spaces/${id}`, { title: 'x' }],
        ['DELETE', `/v1/spaces/${id}`],
        ['POST', `/v1/spaces/${id}/duplicate`],
        ['POST', `/v1/spaces/${id}/restore`],
        ['POST', `/v1/spaces/${id}/move`, { parent: null }],
        ['POST', `/v1/spaces/${id}/transfer`, { organization: b.organizationId }],
        ['GET', `/v1/spaces/${id}/links`],
      );
    };
    const collectionOps = (id: string) => {
      calls.push(
        ['GET', `/v1/collections/${id}`],
        ['PATCH', `/v1/collections/${id}`, { title: 'x' }],
        ['DELETE', `/v1/collections/${id}`],
        ['GET', `/v1/collections/${id}/spaces`],
        ['POST', `/v1/collections/${id}/move`, { parent: null }],
        ['POST', `/v1/collections/${id}/transfer`, { organization: b.organizationId }],
      );
    };
    const grantOps = (prefix: string) => {
      calls.push(
        ['POST', `${prefix}/permissions`, { role: 'read', users: [b.admin.userId] }],
        ['GET', `${prefix}/permissions/users`],
        ['GET', `${prefix}/permissions/teams`],
        ['PATCH', `${prefix}/permissions/users/${b.admin.userId}`, { role: 'read' }],
        ['DELETE', `${prefix}/permissions/users/${b.admin.userId}`],
        ['PATCH', `${prefix}/permissions/teams/${crew}`, { role: 'read' }],
        ['DELETE', `${prefix}/permissions/teams/${crew}`],
      );
    };
    for (const id of [guide, secret, lobby, closedLobby]) {
      spaceOps(id);
      grantOps(`/v1/spaces/${id}`);
    }
    calls.push(['POST', `/v1/spaces/${trashed}/restore`], ['GET', `/v1/spaces/${trashed}`]);
    for (const id of [handbook, vault]) {
      collectionOps(id);
      grantOps(`/v1/collections/${id}`);
    }
    for (const o of [org, annex]) {
      calls.push(
        ['GET', `/v1/orgs/${o}/spaces`],
        ['GET', `/v1/orgs/${o}/collections`],
        ['GET', `/v1/orgs/${o}/collections?nested=false`],
        ['POST', `/v1/orgs/${o}/spaces`, { title: 'x' }],
        ['POST', `/v1/orgs/${o}/collections`, { title: 'x' }],
        ['GET', `/v1/orgs/${o}/members/${double.userId}/spaces`],
      );
    }
    // B's own objects pointed at A's: parents, targets, neighbours, grantees.
    calls.push(
      ['POST', `/v1/orgs/${b.organizationId}/spaces`, { title: 'x', parent: handbook }],
      ['POST', `/v1/orgs/${b.organizationId}/collections`, { title: 'x', parent: handbook }],
      ['POST', `/v1/spaces/${bSpace}/move`, { parent: handbook }],
      ['POST', `/v1/spaces/${bSpace}/move`, { position: { before: { type: 'space', space: guide } } }],
      ['POST', `/v1/spaces/${bSpace}/move`, { position: { after: { type: 'collection', collection: handbook } } }],
      ['POST', `/v1/collections/${bCollection}/move`, { parent: handbook }],
      ['POST', `/v1/collections/${bCollection}/move`, { parent: vault }],
      ['POST', `/v1/spaces/${bSpace}/transfer`, { organization: org }],
      ['POST', `/v1/collections/${bCollection}/transfer`, { organization: org }],
      ['POST', `/v1/spaces/${bSpace}/permissions`, { role: 'read', teams: [crew] }],
      ['PATCH', `/v1/spaces/${bSpace}/permissions/teams/${crew}`, { role: 'read' }],
      ['PATCH', `/v1/collections/${bCollection}/permissions/teams/${crew}`, { role: 'read' }],
    );

    const found: Record<string, string[]> = {};
    const differing: string[] = [];
    for (const [method, path, body] of calls) {
      const res = await t.rest(method, path, { token: b.admin.token, body });
      const sent = aIds.filter((candidate) => path.includes(candidate) || JSON.stringify(body ?? '').includes(candidate));
      expect(sent.length, `${method} ${path} names an A id`).toBeGreaterThan(0);
      const missing = await t.rest(method, replaceAll(path, ...sent) as string, { token: b.admin.token, body: replaceAll(body, ...sent) });
      const label = `${method} ${path} ${JSON.stringify(body ?? '')}`;
      if (res.status !== missing.status || JSON.stringify(replaceAll(res.body, ...sent)) !== JSON.stringify(missing.body)) differing.push(label);
      // An id the caller sent may be echoed back in a validation message; anything else is a leak.
      const hits = leaks({ ...res, body: res.status === 400 ? replaceAll(res.body, ...sent) : res.body });
      if (hits.length) found[label] = hits;
      expect([204, 400, 404]).toContain(res.status);
    }
    expect(differing).toEqual([]);
    expect(found).toEqual({});
  });
});
