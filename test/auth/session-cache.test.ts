import { describe, expect, it } from 'vitest';
import { SessionCache, type Session } from '../../src/auth/sessions';

const session = (userId: string): Session => ({
  user: { id: userId, displayName: userId, email: `${userId}@example.com`, photoUrl: null, createdAt: new Date(0) },
  memberships: [],
  organizations: [],
  organizationId: null,
});

describe('SessionCache', () => {
  it('does not keep what was read before an invalidation that happened during the read', () => {
    const cache = new SessionCache();
    const generation = cache.begin();
    cache.forgetUser('someone-else'); // any announcement while the lookup was in flight
    cache.store('hash', session('u1'), generation);
    expect(cache.get('hash')).toBeUndefined();
    cache.store('hash', session('u1'), cache.begin());
    expect(cache.get('hash')?.user.id).toBe('u1');
  });

  it("forgets every token of a user, and only that user's", () => {
    const cache = new SessionCache();
    for (const [hash, user] of [['a', 'u1'], ['b', 'u1'], ['c', 'u2']]) cache.store(hash, session(user), cache.begin());
    cache.forgetUser('u1');
    expect([cache.get('a'), cache.get('b'), cache.get('c')?.user.id]).toEqual([undefined, undefined, 'u2']);
  });

  it('lets an entry live its time to live, no longer', () => {
    let now = 1000;
    const cache = new SessionCache(500, 10, () => now);
    cache.store('a', session('u1'), cache.begin());
    now = 1499;
    expect(cache.get('a')).toBeDefined();
    now = 1500;
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the oldest entry beyond its size, and keeps nothing with a time to live of 0', () => {
    const cache = new SessionCache(60_000, 2);
    for (const hash of ['a', 'b', 'c']) cache.store(hash, session(hash), cache.begin());
    expect([cache.get('a'), cache.get('b')?.user.id, cache.get('c')?.user.id]).toEqual([undefined, 'b', 'c']);
    const off = new SessionCache(0);
    off.store('a', session('u1'), off.begin());
    expect(off.size).toBe(0);
  });
});
