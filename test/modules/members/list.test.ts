import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/client';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';
import type { TestApp } from '../../support/clients';
import { scenario } from '../../support/scenario';

let t: TestApp, acme: OrgFixture, other: OrgFixture;
let alice: Actor, bob: Actor, guest: Actor, percent: Actor;

// Members made a few milliseconds apart, so "newest first" has one answer.
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

beforeAll(async () => {
  ({ t, acme, other, people: { alice, bob, guest, percent } } = await scenario(
    {
      alice: ['edit', 'Alice Liddell'],
      bob: ['read', 'Bob Builder'],
      guest: [null, 'Gary Guest'],
      percent: ['comment', '100% Sure'],
    },
    { beforeEachMember: tick },
  ));
  await buildMember(t.db, other.organizationId, 'edit', 'Alice Elsewhere');
});
afterAll(() => t.close());
afterEach(() => {
  t.clock.now = null;
});

const ids = (body: { items: { id: string }[] }) => body.items.map((m) => m.id);
const membersPath = (org: OrgFixture, query = '') => `/v1/orgs/${org.organizationId}/members${query ? `?${query}` : ''}`;

/** Follows `next` until the last page; returns every page body. */
async function walk(path: string, token: string) {
  const pages: any[] = [];
  let url = path;
  for (let i = 0; i < 200; i++) {
    const res = await t.rest('GET', url, { token });
    expect(res.status).toBe(200);
    pages.push(res.body);
    if (!res.body.next) return pages;
    url = `${path}&page=${encodeURIComponent(res.body.next.page)}`;
  }
  throw new Error('pagination never ended');
}

describe('GET /v1/orgs/{organizationId}/members', () => {
  it('lists every member of the organization, and no one else, newest first', async () => {
    const res = await t.rest('GET', membersPath(acme), { token: bob.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(5);
    expect(res.body.next).toBeUndefined();
    expect(ids(res.body)).toEqual([percent.userId, guest.userId, bob.userId, alice.userId, acme.admin.userId]);
    const aliceItem = res.body.items.find((m: { id: string }) => m.id === alice.userId);
    expect(aliceItem).toMatchObject({ object: 'member', role: 'edit', disabled: false, sso: false, teams: 0, spaces: 0 });
    expect(aliceItem.user).toMatchObject({ id: alice.userId, displayName: 'Alice Liddell', email: alice.email });
    expect(aliceItem.lastSeenAt).toBeUndefined();
  });

  it('lists the oldest first with order=asc', async () => {
    const res = await t.rest('GET', membersPath(acme, 'order=asc'), { token: bob.token });
    expect(ids(res.body)).toEqual([acme.admin.userId, alice.userId, bob.userId, guest.userId, percent.userId]);
  });

  it.each([
    ['edit', () => [alice.userId]],
    ['admin', () => [acme.admin.userId]],
    ['guest', () => [guest.userId]],
    ['create', () => []],
  ])('filters by role=%s, counting only the matches', async (role, expected) => {
    const res = await t.rest('GET', membersPath(acme, `role=${role}`), { token: bob.token });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expected());
    expect(res.body.count).toBe(expected().length);
  });

  it('searches display names case-insensitively', async () => {
    const res = await t.rest('GET', membersPath(acme, 'search=LIDDELL'), { token: bob.token });
    expect(ids(res.body)).toEqual([alice.userId]);
    expect(res.body.count).toBe(1);
  });

  it('searches e-mail addresses', async () => {
    const local = bob.email.split('@')[0];
    const res = await t.rest('GET', membersPath(acme, `search=${encodeURIComponent(local)}`), { token: bob.token });
    expect(ids(res.body)).toEqual([bob.userId]);
  });

  it('treats % in the search as a literal character, not a wildcard', async () => {
    const res = await t.rest('GET', membersPath(acme, `search=${encodeURIComponent('%')}`), { token: bob.token });
    expect(ids(res.body)).toEqual([percent.userId]);
  });

  it('combines search with the role filter', async () => {
    const edit = await t.rest('GET', membersPath(acme, 'search=alice&role=edit'), { token: bob.token });
    expect(ids(edit.body)).toEqual([alice.userId]);
    const read = await t.rest('GET', membersPath(acme, 'search=alice&role=read'), { token: bob.token });
    expect(read.body).toEqual({ items: [], count: 0 });
  });

  it('sorted by lastSeenAt, lists only members who pinged, most recent first', async () => {
    const before = await t.rest('GET', membersPath(acme, 'sort=lastSeenAt'), { token: bob.token });
    expect(before.body).toEqual({ items: [], count: 0 });

    t.clock.now = new Date('2030-01-01T10:00:00.000Z');
    expect((await t.rest('POST', `/v1/orgs/${acme.organizationId}/ping`, { token: bob.token })).status).toBe(200);
    t.clock.now = new Date('2030-01-01T11:00:00.000Z');
    expect((await t.rest('POST', `/v1/orgs/${acme.organizationId}/ping`, { token: alice.token })).status).toBe(200);

    const desc = await t.rest('GET', membersPath(acme, 'sort=lastSeenAt'), { token: bob.token });
    expect(ids(desc.body)).toEqual([alice.userId, bob.userId]);
    expect(desc.body.count).toBe(2);
    expect(desc.body.items[0].lastSeenAt).toBe('2030-01-01T11:00:00.000Z');
    const asc = await t.rest('GET', membersPath(acme, 'sort=lastSeenAt&order=asc'), { token: bob.token });
    expect(ids(asc.body)).toEqual([bob.userId, alice.userId]);
    // Sorting by join date still lists everyone.
    const all = await t.rest('GET', membersPath(acme, 'sort=joinedAt'), { token: bob.token });
    expect(all.body.count).toBe(5);
  });

  it.each([
    ['role=owner', /role/],
    ['role=Admin', /role/],
    ['sort=name', /sort/],
    ['order=up', /order/],
    ['limit=1001', /limit/],
    ['page=not-a-cursor', /page|cursor/],
    // Well-formed tokens whose values cannot be join times and user ids.
    [`page=${Buffer.from('[1,2]').toString('base64url')}`, /page|cursor/],
    [`page=${Buffer.from('["yesterday","someone"]').toString('base64url')}`, /page|cursor/],
  ])('rejects %s with a 400 naming the parameter', async (query, message) => {
    const res = await t.rest('GET', membersPath(acme, query), { token: bob.token });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
  });

  it('refuses guests with 403', async () => {
    const res = await t.rest('GET', membersPath(acme), { token: guest.token });
    expect(res.status).toBe(403);
  });

  it("answers 404 for an organization the caller is not in", async () => {
    const res = await t.rest('GET', membersPath(other), { token: bob.token });
    expect(res.status).toBe(404);
  });
});

describe('GET /v1/orgs/{organizationId}/members, paginated', () => {
  let big: OrgFixture;
  let everyone: string[];
  let readers: string[];
  let bigMembers: Actor[];

  beforeAll(async () => {
    big = await buildOrganization(t.db, 'Big');
    everyone = [big.admin.userId];
    readers = [];
    bigMembers = [];
    // Batches share one transaction, hence one join time: the keyset must break the ties.
    for (let batch = 0; batch < 4; batch++) {
      await t.db.transaction(async (tx) => {
        for (let i = 0; i < 30; i++) {
          const role = i % 3 === 0 ? 'read' : 'edit';
          const member = await buildMember(tx as unknown as Db, big.organizationId, role, `Big ${batch}-${i}`);
          everyone.push(member.userId);
          bigMembers.push(member);
          if (role === 'read') readers.push(member.userId);
        }
      });
    }
  });

  it.each(['desc', 'asc'])('walks all 121 members with limit=7 (order=%s): each once, in order', async (order) => {
    const path = membersPath(big, `limit=7&order=${order}`);
    const pages = await walk(path, big.admin.token);
    expect(pages).toHaveLength(Math.ceil(121 / 7));
    for (const page of pages.slice(0, -1)) expect(page.items).toHaveLength(7);
    expect(pages.at(-1).items).toHaveLength(121 % 7);
    expect(pages.at(-1).next).toBeUndefined();
    for (const page of pages) expect(page.count).toBe(121);

    const walked: string[] = pages.flatMap((p) => ids(p));
    expect(new Set(walked).size).toBe(121);
    expect([...walked].sort()).toEqual([...everyone].sort());

    // The same order as one big page, and monotonic in join time.
    const whole = await t.rest('GET', membersPath(big, `limit=1000&order=${order}`), { token: big.admin.token });
    expect(walked).toEqual(ids(whole.body));
    const times = pages.flatMap((p) => p.items.map((m: { joinedAt: string }) => Date.parse(m.joinedAt)));
    const sorted = [...times].sort((a, b) => (order === 'asc' ? a - b : b - a));
    expect(times).toEqual(sorted);
    expect(new Set(times).size).toBeLessThan(121);
  });

  it('paginates a filtered list, counting only the matches', async () => {
    const pages = await walk(membersPath(big, 'role=read&limit=6'), big.admin.token);
    const walked = pages.flatMap((p) => ids(p));
    expect(walked).toHaveLength(readers.length);
    expect([...walked].sort()).toEqual([...readers].sort());
    for (const page of pages) expect(page.count).toBe(readers.length);
    expect(pages.at(-1).next).toBeUndefined();
  });

  it('paginates by lastSeenAt through members who pinged at the same instant', async () => {
    t.clock.now = new Date('2031-05-05T05:05:05.005Z');
    const pinging = bigMembers.slice(0, 23);
    for (const member of pinging) {
      expect((await t.rest('POST', `/v1/orgs/${big.organizationId}/ping`, { token: member.token })).status).toBe(200);
    }
    const pingers = pinging.map((m) => m.userId);
    const pages = await walk(membersPath(big, 'sort=lastSeenAt&limit=5'), big.admin.token);
    const walked = pages.flatMap((p) => ids(p));
    expect(walked).toHaveLength(pingers.length);
    expect([...walked].sort()).toEqual([...pingers].sort());
    for (const page of pages) expect(page.count).toBe(pingers.length);
    expect(pages.at(-1).next).toBeUndefined();
  });

  it('returns no next page when the last page is exactly full', async () => {
    const res = await t.rest('GET', membersPath(big, 'limit=121'), { token: big.admin.token });
    expect(res.body.items).toHaveLength(121);
    expect(res.body.next).toBeUndefined();
    const short = await t.rest('GET', membersPath(big, 'limit=120'), { token: big.admin.token });
    expect(short.body.next?.page).toEqual(expect.any(String));
  });
});
