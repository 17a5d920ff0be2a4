/**
 * Authorization matrix of the translation REST routes, in the style of content-authz-matrix: one
 * row per operation, one expected status per actor. Rows that change something make a fresh
 * translation per cell, so cells are independent.
 *
 * Actors: admin, create, edit, comment, read: members of organization A with that role. guest: a
 * member with no role (sees the organization, not its translations). disabled: an `edit` member
 * whose membership is disabled. outsider: the admin of organization B. anonymous: no token, 401.
 * Whoever cannot see a translation gets an answer byte-identical to the one for a missing id.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/roles';
import { organizationMembers } from '../../src/db/schema/members';
import { translations } from '../../src/db/schema/translations';
import { startTestApp, type RestResponse, type TestApp } from '../support/clients';
import { MISSING } from '../support/doors';
import { buildMember, buildOrganization, type Actor } from '../support/factories';
import { startTranslateServer, type TranslateServer } from '../support/translate-server';

const WHO = ['admin', 'create', 'edit', 'comment', 'read', 'guest', 'disabled', 'outsider', 'anonymous'] as const;
type Who = (typeof WHO)[number];
const BLIND: Who[] = ['guest', 'disabled', 'outsider'];

interface Call {
  path: string;
  body?: unknown;
  /** The id invisible to the blind actors; replaced by MISSING for the comparison. */
  subject?: string;
  after?: (applied: boolean, res: RestResponse) => Promise<void>;
}
interface Row {
  op: string;
  /** admin, create, edit, comment, read, guest, disabled, outsider (anonymous: 401). */
  expect: [number, number, number, number, number, number, number, number];
  appliedBy?: Who[];
  setup: (who: Who) => Promise<Call> | Call;
}

let t: TestApp;
let engine: TranslateServer;
let org: string;
let outsiderOrg: string;
let actors: Record<Exclude<Who, 'anonymous'>, Actor>;
let source: string;

const token = (who: Who) => (who === 'anonymous' ? null : actors[who].token);
const base = () => `/v1/orgs/${org}/translations`;
const DOC = { object: 'document', data: { tone: 'formal' }, nodes: [] };

async function fresh(): Promise<string> {
  const res = await t.rest('POST', base(), { token: actors.admin.token, body: { language: 'fr', source: { space: source, language: 'en' } } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}
const row = async (id: string) => (await t.db.select().from(translations).where(eq(translations.id, id)))[0];

const ROWS: Row[] = [
  {
    op: 'GET /v1/orgs/{org}/translations',
    expect: [200, 200, 200, 200, 200, 200, 404, 404],
    setup: async (who) => {
      await fresh();
      return {
        path: base(),
        // Guests see the organization, not its translations.
        after: async (applied, res) => {
          if (applied) expect(res.body.items.length > 0).toBe(who !== 'guest');
        },
      };
    },
  },
  {
    op: 'POST /v1/orgs/{org}/translations',
    expect: [201, 201, 403, 403, 403, 403, 404, 404],
    setup: () => ({
      path: base(),
      body: { language: 'de', source: { space: source, language: 'en' } },
      after: async (applied, res) => {
        if (applied) expect(await row(res.body.id)).toMatchObject({ language: 'de', organizationId: org });
      },
    }),
  },
  {
    op: 'GET /v1/orgs/{org}/translations/{id}',
    expect: [200, 200, 200, 200, 200, 404, 404, 404],
    setup: async () => {
      const id = await fresh();
      return { path: `${base()}/${id}`, subject: id };
    },
  },
  {
    op: 'PUT /v1/orgs/{org}/translations/{id}',
    expect: [200, 200, 403, 403, 403, 404, 404, 404],
    setup: async () => {
      const id = await fresh();
      return {
        path: `${base()}/${id}`,
        body: { instructions: DOC },
        subject: id,
        after: async (applied) => expect((await row(id))!.instructions).toEqual(applied ? DOC : { object: 'document', data: { schemaVersion: 1 }, nodes: [] }),
      };
    },
  },
  {
    op: 'DELETE /v1/orgs/{org}/translations/{id}',
    expect: [204, 204, 403, 403, 403, 204, 204, 204],
    appliedBy: ['admin', 'create'],
    setup: async () => {
      const id = await fresh();
      return { path: `${base()}/${id}`, subject: id, after: async (applied) => expect(await row(id)).toEqual(applied ? undefined : expect.any(Object)) };
    },
  },
  {
    op: 'DELETE /v1/orgs/{org}/translations/{missing}',
    expect: [204, 204, 204, 204, 204, 204, 204, 204],
    setup: () => ({ path: `${base()}/${MISSING}` }),
  },
  {
    op: 'POST /v1/orgs/{org}/translations/{id}/run',
    expect: [204, 204, 403, 403, 403, 404, 404, 404],
    setup: async () => {
      const id = await fresh();
      return {
        path: `${base()}/${id}/run`,
        subject: id,
        after: async (applied) => {
          const after = (await row(id))!;
          // Queued by the caller (the worker may have taken it since), or left untouched.
          if (applied) expect(after.runBy).not.toBeNull();
          else expect(after).toMatchObject({ status: 'pending', queuedAt: null, runBy: null });
        },
      };
    },
  },
];

beforeAll(async () => {
  engine = await startTranslateServer();
  t = await startTestApp({}, { jobs: true });
  t.config.translate = { url: engine.url };
  t.config.fetchAllowHosts = [engine.host];
  const a = await buildOrganization(t.db, 'Zebulon Translations');
  org = a.organizationId;
  const b = await buildOrganization(t.db, 'Outpost Org');
  outsiderOrg = b.organizationId;
  const member = (role: Role | null, name: string) => buildMember(t.db, org, role, name);
  actors = {
    admin: a.admin,
    create: await member('create', 'Cora Create'),
    edit: await member('edit', 'Eddie Edit'),
    comment: await member('comment', 'Cole Comment'),
    read: await member('read', 'Rita Read'),
    guest: await member(null, 'Gus Guest'),
    disabled: await member('edit', 'Dora Disabled'),
    outsider: b.admin,
  };
  await t.db.update(organizationMembers).set({ disabled: true }).where(eq(organizationMembers.userId, actors.disabled.userId));
  source = (await t.rest('POST', `/v1/orgs/${org}/spaces`, { token: a.admin.token, body: { title: 'Zebulon Guide' } })).body.id;
});
afterAll(async () => {
  await t?.close();
  await engine?.stop();
});

describe.each(ROWS.map((r) => [r.op, r] as const))('%s', (_, r) => {
  const method = r.op.split(' ')[0]!;
  const cells = WHO.map((who, i) => [r.op, who, who === 'anonymous' ? 401 : r.expect[i]!] as const);

  it.each(cells)('%s as %s -> %i', async (_op, who, status) => {
    const call = await r.setup(who);
    const res = await t.rest(method, call.path, { token: token(who), body: call.body });
    expect(res.status, `body: ${JSON.stringify(res.body)}`).toBe(status);
    if (status >= 400) expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
    else if (status === 204) expect(res.body).toBeUndefined();
    else expect(res.body).toBeTypeOf('object');

    const applied = status < 300 && (r.appliedBy ? r.appliedBy.includes(who) : true);
    if (BLIND.includes(who) && call.subject && (status === 404 || (status === 204 && !applied))) {
      const missing = await t.rest(method, call.path.replaceAll(call.subject, MISSING), { token: token(who), body: call.body });
      expect(missing.status).toBe(status);
      expect(JSON.stringify(res.body)).toBe(JSON.stringify(missing.body));
    }
    await call.after?.(applied, res);
  });
});

describe('what each actor sees', () => {
  it('guests list no translation; members with a role list them all, with permissions that match the role', async () => {
    await fresh();
    const guest = await t.rest('GET', base(), { token: actors.guest.token });
    expect(guest.body.items).toEqual([]);
    for (const who of ['admin', 'create', 'edit', 'comment', 'read'] as const) {
      const res = await t.rest('GET', base(), { token: actors[who].token });
      expect(res.body.items.length).toBeGreaterThan(0);
      for (const item of res.body.items) expect(item.permissions).toEqual({ view: true, edit: who === 'admin' || who === 'create' });
    }
  });

  it("another organization's translation, asked for under the caller's own organization, answers like a missing one", async () => {
    const id = await fresh();
    const own = `/v1/orgs/${outsiderOrg}/translations`;
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PUT', '', { instructions: DOC }],
      ['POST', '/run', undefined],
      ['DELETE', '', undefined],
    ] as const) {
      const res = await t.rest(method, `${own}/${id}${suffix}`, { token: actors.outsider.token, body });
      const missing = await t.rest(method, `${own}/${MISSING}${suffix}`, { token: actors.outsider.token, body });
      expect(res.status).toBe(method === 'DELETE' ? 204 : 404);
      expect([res.status, JSON.stringify(res.body)]).toEqual([missing.status, JSON.stringify(missing.body)]);
    }
    expect(await row(id)).toMatchObject({ status: 'pending', runBy: null, organizationId: org });
  });
});
