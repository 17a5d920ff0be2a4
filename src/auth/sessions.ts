import type { Database } from '../db/client';
import type { MemberRow } from '../db/schema/members';
import type { OrganizationRow } from '../db/schema/organizations';
import type { UserRow } from '../db/schema/users';

/**
 * What authenticating a token yields: its user, every membership of that user and those
 * organizations; for a token made by single sign-on, only the membership of its organization.
 */
export interface Session {
  user: UserRow;
  memberships: readonly MemberRow[];
  organizations: readonly OrganizationRow[];
  /** The one organization a single sign-on token acts in; null for a token that acts everywhere its user does. */
  organizationId: string | null;
}

export const SESSIONS_CHANNEL = 'quire_sessions';

/**
 * Recent sessions of this process, by token hash, so a repeat caller is authenticated without a
 * statement. An entry lives `ttlMs` at most. Every change to a user, their tokens or their
 * memberships is announced by the database (migration 0003) and drops that user's entries on every
 * instance, and a change to an organization (0004) drops the entries that hold it; a lost
 * subscription drops them all.
 *
 * A lookup that raced with such a change must not store what it read before the change: `begin`
 * hands out the current generation, and `store` keeps the session only if no invalidation has
 * happened since.
 */
export class SessionCache {
  private readonly byToken = new Map<string, { session: Session; expires: number }>();
  private readonly tokensByUser = new Map<string, Set<string>>();
  private generation = 0;

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(tokenHash: string): Session | undefined {
    const entry = this.byToken.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.drop(tokenHash, entry.session.user.id);
      return undefined;
    }
    return entry.session;
  }

  begin(): number {
    return this.generation;
  }

  store(tokenHash: string, session: Session, generation: number): void {
    if (generation !== this.generation || this.ttlMs <= 0) return;
    if (this.byToken.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.byToken.keys().next().value!;
      this.drop(oldest, this.byToken.get(oldest)!.session.user.id);
    }
    this.byToken.set(tokenHash, { session, expires: this.now() + this.ttlMs });
    let tokens = this.tokensByUser.get(session.user.id);
    if (!tokens) this.tokensByUser.set(session.user.id, (tokens = new Set()));
    tokens.add(tokenHash);
  }

  forgetOrganization(organizationId: string): void {
    this.generation += 1;
    for (const [tokenHash, entry] of this.byToken) {
      if (entry.session.organizations.some((o) => o.id === organizationId)) this.drop(tokenHash, entry.session.user.id);
    }
  }

  forgetUser(userId: string): void {
    this.generation += 1;
    for (const tokenHash of this.tokensByUser.get(userId) ?? []) this.byToken.delete(tokenHash);
    this.tokensByUser.delete(userId);
  }

  clear(): void {
    this.generation += 1;
    this.byToken.clear();
    this.tokensByUser.clear();
  }

  get size(): number {
    return this.byToken.size;
  }

  private drop(tokenHash: string, userId: string): void {
    this.byToken.delete(tokenHash);
    this.tokensByUser.get(userId)?.delete(tokenHash);
  }
}

/**
 * A session cache kept current by the database's announcements. `stop` unsubscribes; the cache
 * is then emptied, so nothing stale outlives the subscription.
 */
export async function startSessionCache(database: Pick<Database, 'listen'>, options: { ttlMs?: number } = {}): Promise<{ sessions: SessionCache; stop(): Promise<void> }> {
  const sessions = new SessionCache(options.ttlMs);
  const unsubscribe = await database.listen(
    SESSIONS_CHANNEL,
    (payload) => (payload.startsWith('o:') ? sessions.forgetOrganization(payload.slice(2)) : sessions.forgetUser(payload)),
    () => sessions.clear(),
  );
  return {
    sessions,
    stop: async () => {
      await unsubscribe();
      sessions.clear();
    },
  };
}
