/**
 * Authorization matrix of the organizations / members / teams / invites / users REST routes,
 * generated from ROWS: one row per operation (plus a few variants: own membership, missing
 * targets), one expected status per actor. Destructive rows build their own targets per cell.
 * Besides members and an outsider, the integration callers: the token of an installation on the
 * victim (it sees the organization and nothing of its people) and the integration's own token
 * (it sees nothing of the victim). Neither acts as a member, even through an invite link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role, TeamRole } from '../../src/domain/roles';
import { bootstrapOrganization, upsertMember } from '../../src/modules/members/service';
import { issueToken } from '../../src/modules/integrations/tokens';
import { createApiToken, ensureUser } from '../../src/modules/users/service';
import { startTestApp, type RestResponse, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, buildTeam, type Actor, type OrgFixture } from '../support/factories';

type Who = 'admin' | 'read' | 'guest' | 'outsider' | 'installation' | 'integration' | 'anonymous';
const WHO: Who[] = ['admin', 'read', 'guest', 'outsider', 'installation', 'integration', 'anonymous'];
const ROLE_OF: Record<'admin' | 'read' | 'guest', Role | null> = { admin: 'admin', read: 'read', guest: null };

/** What one cell sends; `token` overrides the actor's own (fresh actors), `after` checks the effect. */
interface Call {
  path: string;
  body?: unknown;
  token?: string | null;
  after?: (applied: boolean) => Promise<void>;
}
interface Row {
  op: string;
  /** Expected status for admin, read, guest, outsider, installation, integration; anonymous is always 401. */
  expect: [number, number, number, number, number, number];
  /** Who a success really changes something for, when not every success does: a delete of what the caller cannot see answers 204 and deletes nothing. */
  appliedBy?: Who[];
  setup: (who: Who) => Promise<Call> | Call;
}

const MISSING = 'doesNotExist00000000';
/** Everything of the victim organization carries one of these words. */
const MARKERS = ['victim', 'zebulon'];

let t: TestApp;
let org: string; // the organization under test ("victim")
let admin: Actor;
let read: Actor;
let guest: Actor;
let target: Actor; // a member with role comment that reads look at and nobody changes
let outsider: OrgFixture; // another organization, whose admin is the outsider
/** The tokens of an integration the outsider's organization publishes, installed on the victim (no space given). */
let integration: { installation: Actor; integration: Actor };
let team: string; // a team of the victim holding `target`
let guestTeam: string; // a team holding the guest, who may see it although guests cannot list teams
let invite: string;
const victimIds = new Set<string>();
let seq = 0;

const base = () => `/v1/orgs/${org}`;
const actor = (who: Who): Actor | null =>
  ({ admin, read, guest, outsider: outsider.admin, installation: integration.installation, integration: integration.integration, anonymous: null })[who];
const self = (who: Who) => actor(who)?.userId ?? admin.userId;

async function victimUser(role?: Role | null): Promise<Actor> {
  const n = ++seq;
  const { user } = await ensureUser(t.db, { email: `zeb.person${n}@victim-corp.test`, name: `Victim Person ${n}` });
  victimIds.add(user.id);
  if (role !== undefined) await upsertMember(t.db, org, user.id, role);
  return { userId: user.id, email: user.email, token: await createApiToken(t.db, user.id) };
}

async function victimTeam(members: { userId: string; role: TeamRole }[] = [{ userId: target.userId, role: 'member' }]) {
  const row = await buildTeam(t.db, org, `Victimteam ${++seq}`, members);
  victimIds.add(row.id);
  return row.id;
}

async function victimInvite(): Promise<string> {
  const res = await t.rest('POST', `${base()}/link-invites`, { token: admin.token, body: { role: 'read' } });
  expect(res.status).toBe(201);
  victimIds.add(res.body.id);
  return res.body.id;
}

/** As the victim's admin: 200 or 404 for a GET, to see whether a write took effect. */
const adminGet = (path: string) => t.rest('GET', path, { token: admin.token });

const ROWS: Row[] = [
  // users
  { op: 'GET /v1/user', expect: [200, 200, 200, 200, 200, 200], setup: () => ({ path: '/v1/user' }) },
  { op: 'GET /v1/users/{victimUser}', expect: [200, 200, 200, 200, 200, 200], setup: () => ({ path: `/v1/users/${target.userId}` }) },
  // organizations
  { op: 'GET /v1/orgs', expect: [200, 200, 200, 200, 200, 200], setup: () => ({ path: '/v1/orgs' }) },
  { op: 'GET /v1/email-domains/{domain}/orgs', expect: [200, 200, 200, 200, 200, 200], setup: () => ({ path: '/v1/email-domains/victim-corp.test/orgs' }) },
  { op: 'GET /v1/orgs/{org}', expect: [200, 200, 200, 404, 200, 404], setup: () => ({ path: base() }) },
  {
    op: 'PATCH /v1/orgs/{org}',
    expect: [200, 403, 403, 404, 403, 404],
    setup: (who) => {
      const title = `Zebulon Victim ${who} ${++seq}`;
      return {
        path: base(),
        body: { title },
        after: async (applied) => expect((await adminGet(base())).body.title === title).toBe(applied),
      };
    },
  },
  { op: 'GET /v1/orgs/{org}/search', expect: [200, 200, 200, 404, 200, 404], setup: () => ({ path: `${base()}/search?query=hello` }) },
  // members: another member's record, which guests and integrations may not see, answers like a missing one
  { op: 'GET /v1/orgs/{org}/members', expect: [200, 200, 403, 404, 403, 404], setup: () => ({ path: `${base()}/members` }) },
  { op: 'GET /v1/orgs/{org}/members/{other}', expect: [200, 200, 404, 404, 404, 404], setup: () => ({ path: `${base()}/members/${target.userId}` }) },
  { op: 'GET /v1/orgs/{org}/members/{self}', expect: [200, 200, 200, 404, 404, 404], setup: (who) => ({ path: `${base()}/members/${self(who)}` }) },
  {
    op: 'PATCH /v1/orgs/{org}/members/{other}',
    expect: [200, 403, 403, 404, 403, 404],
    setup: async () => {
      const m = await victimUser('comment');
      return {
        path: `${base()}/members/${m.userId}`,
        body: { role: 'edit' },
        after: async (applied) => expect((await adminGet(`${base()}/members/${m.userId}`)).body.role).toBe(applied ? 'edit' : 'comment'),
      };
    },
  },
  {
    op: 'DELETE /v1/orgs/{org}/members/{other}',
    appliedBy: ['admin'],
    expect: [204, 403, 403, 204, 403, 204],
    setup: async () => {
      const m = await victimUser('comment');
      const path = `${base()}/members/${m.userId}`;
      return { path, after: async (applied) => expect((await adminGet(path)).status).toBe(applied ? 404 : 200) };
    },
  },
  {
    op: 'DELETE /v1/orgs/{org}/members/{self}',
    appliedBy: ['admin', 'read', 'guest'],
    expect: [204, 204, 204, 204, 403, 204],
    setup: async (who) => {
      if (!(who in ROLE_OF)) return { path: `${base()}/members/${self(who)}` };
      const me = await victimUser(ROLE_OF[who as keyof typeof ROLE_OF]); // a fresh member of that role leaves
      const path = `${base()}/members/${me.userId}`;
      return { path, token: me.token, after: async (applied) => expect((await adminGet(path)).status).toBe(applied ? 404 : 200) };
    },
  },
  { op: 'DELETE /v1/orgs/{org}/members/{missing}', expect: [204, 403, 403, 204, 403, 204], setup: () => ({ path: `${base()}/members/${MISSING}` }) },
  {
    op: 'POST /v1/orgs/{org}/members/{other}/sso',
    expect: [200, 403, 403, 404, 403, 404],
    setup: async () => {
      const m = await victimUser('comment');
      const path = `${base()}/members/${m.userId}`;
      return { path: `${path}/sso`, after: async (applied) => expect((await adminGet(path)).body.sso).toBe(applied) };
    },
  },
  { op: 'GET /v1/orgs/{org}/members/{other}/spaces', expect: [200, 200, 404, 404, 404, 404], setup: () => ({ path: `${base()}/members/${target.userId}/spaces` }) },
  { op: 'GET /v1/orgs/{org}/members/{self}/spaces', expect: [200, 200, 200, 404, 404, 404], setup: (who) => ({ path: `${base()}/members/${self(who)}/spaces` }) },
  { op: 'GET /v1/orgs/{org}/members/{other}/teams', expect: [200, 200, 404, 404, 404, 404], setup: () => ({ path: `${base()}/members/${target.userId}/teams` }) },
  { op: 'GET /v1/orgs/{org}/members/{self}/teams', expect: [200, 200, 200, 404, 404, 404], setup: (who) => ({ path: `${base()}/members/${self(who)}/teams` }) },
  { op: 'POST /v1/orgs/{org}/ping', expect: [200, 200, 200, 404, 404, 404], setup: () => ({ path: `${base()}/ping` }) },
  {
    op: 'POST /v1/orgs/{org}/invites',
    expect: [200, 403, 403, 404, 403, 404],
    setup: () => ({ path: `${base()}/invites`, body: { emails: [`zeb.invited${++seq}@victim-corp.test`], role: 'read' } }),
  },
  // teams: a team the caller may not see (guests see only their own) answers like a missing one, so as not to tell it exists
  { op: 'GET /v1/orgs/{org}/teams', expect: [200, 200, 403, 404, 403, 404], setup: () => ({ path: `${base()}/teams` }) },
  {
    op: 'PUT /v1/orgs/{org}/teams',
    expect: [201, 403, 403, 404, 403, 404],
    setup: () => ({ path: `${base()}/teams`, body: { title: `Victimteam created ${++seq}`, members: [target.userId] } }),
  },
  { op: 'GET /v1/orgs/{org}/teams/{team}', expect: [200, 200, 404, 404, 404, 404], setup: () => ({ path: `${base()}/teams/${team}` }) },
  { op: "GET /v1/orgs/{org}/teams/{guest's team}", expect: [200, 200, 200, 404, 404, 404], setup: () => ({ path: `${base()}/teams/${guestTeam}` }) },
  {
    op: 'PATCH /v1/orgs/{org}/teams/{team}',
    expect: [200, 403, 404, 404, 404, 404],
    setup: async () => {
      const path = `${base()}/teams/${await victimTeam()}`;
      const title = `Victimteam renamed ${++seq}`;
      return { path, body: { title }, after: async (applied) => expect((await adminGet(path)).body.title === title).toBe(applied) };
    },
  },
  {
    op: 'DELETE /v1/orgs/{org}/teams/{team}',
    appliedBy: ['admin'],
    expect: [204, 403, 204, 204, 204, 204],
    setup: async () => {
      const path = `${base()}/teams/${await victimTeam()}`;
      return { path, after: async (applied) => expect((await adminGet(path)).status).toBe(applied ? 404 : 200) };
    },
  },
  // A team that is not there is NOT_FOUND, as in GraphQL's teamDelete, which has no organization to answer for.
  { op: 'DELETE /v1/orgs/{org}/teams/{missing}', expect: [204, 204, 204, 204, 204, 204], setup: () => ({ path: `${base()}/teams/${MISSING}` }) },
  {
    // Team owners manage their team whatever their organization role: a fresh member of the actor's role owns it.
    op: 'DELETE /v1/orgs/{org}/teams/{team} (caller owns it)',
    appliedBy: ['admin', 'read', 'guest'],
    expect: [204, 204, 204, 204, 204, 204],
    setup: async (who) => {
      if (!(who in ROLE_OF)) return { path: `${base()}/teams/${await victimTeam()}` };
      const owner = await victimUser(ROLE_OF[who as keyof typeof ROLE_OF]);
      const path = `${base()}/teams/${await victimTeam([{ userId: owner.userId, role: 'owner' }])}`;
      return { path, token: owner.token, after: async (applied) => expect((await adminGet(path)).status).toBe(applied ? 404 : 200) };
    },
  },
  {
    op: 'DELETE /v1/orgs/{org}/teams/{missing} (caller owns a team)',
    expect: [204, 204, 204, 204, 204, 204],
    setup: async (who) => {
      if (!(who in ROLE_OF)) return { path: `${base()}/teams/${MISSING}` };
      const owner = await victimUser(ROLE_OF[who as keyof typeof ROLE_OF]);
      await victimTeam([{ userId: owner.userId, role: 'owner' }]);
      return { path: `${base()}/teams/${MISSING}`, token: owner.token };
    },
  },
  { op: 'GET /v1/orgs/{org}/teams/{team}/members', expect: [200, 200, 404, 404, 404, 404], setup: () => ({ path: `${base()}/teams/${team}/members` }) },
  {
    op: 'PUT /v1/orgs/{org}/teams/{team}/members',
    expect: [204, 403, 404, 404, 404, 404],
    setup: async () => {
      const path = `${base()}/teams/${await victimTeam([])}`;
      return { path: `${path}/members`, body: { add: [target.userId] }, after: async (applied) => expect((await adminGet(path)).body.members).toBe(applied ? 1 : 0) };
    },
  },
  {
    op: 'PUT /v1/orgs/{org}/teams/{team}/members/{user}',
    expect: [204, 403, 404, 404, 404, 404],
    setup: async () => {
      const path = `${base()}/teams/${await victimTeam([])}`;
      return { path: `${path}/members/${target.userId}`, body: { role: 'owner' }, after: async (applied) => expect((await adminGet(path)).body.members).toBe(applied ? 1 : 0) };
    },
  },
  {
    op: 'DELETE /v1/orgs/{org}/teams/{team}/members/{user}',
    appliedBy: ['admin'],
    expect: [204, 403, 204, 204, 204, 204],
    setup: async () => {
      const path = `${base()}/teams/${await victimTeam()}`;
      return { path: `${path}/members/${target.userId}`, after: async (applied) => expect((await adminGet(path)).body.members).toBe(applied ? 0 : 1) };
    },
  },
  { op: 'DELETE /v1/orgs/{org}/teams/{team}/members/{missing}', expect: [204, 403, 204, 204, 204, 204], setup: () => ({ path: `${base()}/teams/${team}/members/${MISSING}` }) },
  // invite links
  { op: 'GET /v1/orgs/{org}/link-invites', expect: [200, 403, 403, 404, 403, 404], setup: () => ({ path: `${base()}/link-invites` }) },
  { op: 'POST /v1/orgs/{org}/link-invites', expect: [201, 403, 403, 404, 403, 404], setup: () => ({ path: `${base()}/link-invites`, body: { role: 'comment' } }) },
  { op: 'GET /v1/orgs/{org}/link-invites/{invite}', expect: [200, 403, 403, 404, 403, 404], setup: () => ({ path: `${base()}/link-invites/${invite}` }) },
  {
    op: 'PATCH /v1/orgs/{org}/link-invites/{invite}',
    expect: [200, 403, 403, 404, 403, 404],
    setup: async () => {
      const path = `${base()}/link-invites/${await victimInvite()}`;
      return { path, body: { role: 'comment' }, after: async (applied) => expect((await adminGet(path)).body.role).toBe(applied ? 'comment' : 'read') };
    },
  },
  {
    op: 'DELETE /v1/orgs/{org}/link-invites/{invite}',
    appliedBy: ['admin'],
    expect: [204, 403, 403, 204, 403, 204],
    setup: async () => {
      const path = `${base()}/link-invites/${await victimInvite()}`;
      return { path, after: async (applied) => expect((await adminGet(path)).status).toBe(applied ? 404 : 200) };
    },
  },
  { op: 'DELETE /v1/orgs/{org}/link-invites/{missing}', expect: [204, 403, 403, 204, 403, 204], setup: () => ({ path: `${base()}/link-invites/${MISSING}` }) },
  {
    // The link is the credential: whoever holds it joins, so here an outsider (a fresh one) gets in. An integration does not.
    op: 'POST /v1/orgs/{org}/invites/{invite} (join)',
    expect: [200, 200, 200, 200, 403, 403],
    setup: async (who) => {
      const path = `${base()}/invites/${await victimInvite()}`;
      if (who === 'installation' || who === 'integration') {
        const bot = actor(who)!.userId;
        return { path, after: async () => expect((await t.rest('GET', `${base()}/members/${bot}`, { token: admin.token })).status).toBe(404) };
      }
      if (who !== 'outsider') return { path };
      const stranger = (await buildOrganization(t.db, 'Passerby Org')).admin;
      const membership = () => t.rest('GET', `${base()}/members/${stranger.userId}`, { token: admin.token });
      return { path, token: stranger.token, after: async () => expect((await membership()).body.role).toBe('read') };
    },
  },
  { op: 'POST /v1/orgs/{org}/invites/{missing} (join)', expect: [404, 404, 404, 404, 404, 404], setup: () => ({ path: `${base()}/invites/${MISSING}` }) },
];

beforeAll(async () => {
  t = await startTestApp();
  const first = await ensureUser(t.db, { email: 'zeb.admin@victim-corp.test', name: 'Victim Admin' });
  admin = { userId: first.user.id, email: first.user.email, token: await createApiToken(t.db, first.user.id) };
  org = (await bootstrapOrganization(t.db, { title: 'Zebulon Victim Co', adminUserId: admin.userId })).id;
  victimIds.add(org).add(admin.userId);
  read = await victimUser('read');
  guest = await victimUser(null);
  target = await victimUser('comment');
  team = await victimTeam();
  guestTeam = await victimTeam([{ userId: guest.userId, role: 'member' }]);
  invite = await victimInvite();
  const domains = await t.rest('PATCH', base(), { token: admin.token, body: { emailDomains: ['victim-corp.test'] } });
  expect(domains.status).toBe(200);

  outsider = await buildOrganization(t.db, 'Outsider Org');
  const colleague = await buildMember(t.db, outsider.organizationId, 'edit', 'Outsider Colleague');
  await buildTeam(t.db, outsider.organizationId, 'Outsider Team', [{ userId: colleague.userId, role: 'owner' }]);
  await t.rest('POST', `/v1/orgs/${outsider.organizationId}/link-invites`, { token: outsider.admin.token, body: { role: 'edit' } });

  const published = await t.rest('POST', '/v1/integrations/victim-helper', {
    token: outsider.admin.token,
    body: { organization: outsider.organizationId, title: 'Helper', description: '', scopes: ['space:content:read', 'space:metadata:read'], script: 'export default {};', visibility: 'public' },
  });
  const installed = await t.rest('POST', '/v1/integrations/victim-helper/installations', { token: admin.token, body: { organization: org } });
  expect([published.status, installed.status]).toEqual([200, 201]);
  const integrationId = (await t.rest('GET', '/v1/integrations/victim-helper/events', { token: outsider.admin.token })).body.items[0].integrationId;
  const bot = async (token: string): Promise<Actor> => {
    const me = await t.rest('GET', '/v1/user', { token });
    return { userId: me.body.id, email: me.body.email, token };
  };
  const later = new Date(Date.now() + 3600_000);
  integration = { installation: await bot(await issueToken(t.db, integrationId, installed.body.id, later)), integration: await bot(await issueToken(t.db, integrationId, null, later)) };
});
afterAll(() => t?.close());

function expectErrorShape(res: RestResponse, status: number) {
  expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
}

// Positional %s titles: `$name` would be cut at 40 characters. A cell reads "PATCH /v1/orgs/{org} as read -> 403".
describe.each(ROWS.map((row) => [row.op, row] as const))('%s', (_, row) => {
  const method = row.op.split(' ')[0];
  const cells = WHO.map((who, i) => [row.op, who, who === 'anonymous' ? 401 : row.expect[i]] as const);

  it.each(cells)('%s as %s -> %i', async (_op, who, status) => {
    const call = await row.setup(who);
    const token = call.token !== undefined ? call.token : (actor(who)?.token ?? null);
    // t.rest validates every body against the official spec (errors against its Error schema).
    const res = await t.rest(method, call.path, { token, body: call.body });
    expect(res.status, `body: ${JSON.stringify(res.body)}`).toBe(status);

    if (status >= 400) expectErrorShape(res, status);
    else if (status === 204) expect(res.body).toBeUndefined();
    else expect(res.body).toBeTypeOf('object');

    if (who === 'anonymous') expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    if ((who === 'outsider' || who === 'integration') && status === 404 && call.path.startsWith(`${base()}`)) {
      // Another organization's objects answer exactly like a missing organization.
      const missing = await t.rest(method, call.path.replace(org, MISSING), { token, body: call.body });
      expect(missing.status).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    await call.after?.(status < 300 && (row.appliedBy?.includes(who) ?? true));
  });
});

describe('zero of another organization’s data', () => {
  function leaks(res: RestResponse): string[] {
    const text = JSON.stringify({ status: res.status, body: res.body ?? null });
    const lower = text.toLowerCase();
    return [...MARKERS.filter((m) => lower.includes(m)), ...[...victimIds].filter((id) => text.includes(id))];
  }

  it('victim fixtures are distinctive: the victim admin sees the markers in its own lists', async () => {
    const res = await t.rest('GET', `${base()}/members?limit=1000`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(leaks(res).length).toBeGreaterThan(1);
  });

  it("the outsider's lists and the victim's lists never show a victim id, title or e-mail", async () => {
    const own = `/v1/orgs/${outsider.organizationId}`;
    const ownLists = [
      '/v1/orgs',
      '/v1/user',
      '/v1/email-domains/victim-corp.test/orgs',
      '/v1/email-domains/example.com/orgs',
      own,
      `${own}/members`,
      `${own}/teams`,
      `${own}/link-invites`,
      `${own}/search?query=hello`,
      `${own}/members/${outsider.admin.userId}/teams`,
      `${own}/members/${outsider.admin.userId}/spaces`,
    ];
    const victimLists = [
      base(),
      `${base()}/members`,
      `${base()}/members?role=read`,
      `${base()}/members/${target.userId}`,
      `${base()}/members/${target.userId}/teams`,
      `${base()}/members/${target.userId}/spaces`,
      `${base()}/teams`,
      `${base()}/teams/${team}`,
      `${base()}/teams/${team}/members`,
      `${base()}/link-invites`,
      `${base()}/link-invites/${invite}`,
      `${base()}/search?query=hello`,
    ];
    const found: Record<string, string[]> = {};
    for (const [paths, status] of [[ownLists, 200], [victimLists, 404]] as const) {
      for (const path of paths) {
        const res = await t.rest('GET', path, { token: outsider.admin.token });
        expect(res.status, path).toBe(status);
        if (status === 404) expectErrorShape(res, 404);
        const hits = leaks(res);
        if (hits.length) found[path] = hits;
      }
    }
    const ping = await t.rest('POST', `${base()}/ping`, { token: outsider.admin.token });
    expect(ping.status).toBe(404);
    if (leaks(ping).length) found.ping = leaks(ping);
    expect(found).toEqual({});
  });
});
