import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Viewer } from '../context/request-context';
import { UnauthenticatedError } from '../domain/errors';
import type { Role } from '../domain/roles';
import { hashToken } from '../lib/ids';
import { organizationMembers, type MemberRow } from '../modules/members/table';
import { apiTokens, users } from '../modules/users/table';
import type { Session, SessionCache } from './sessions';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

interface MembershipJson {
  organizationId: string;
  role: Role | null;
  disabled: boolean;
  sso: boolean;
  joinedAt: string;
  lastSeenAt: string | null;
}

/** The token's user and all their memberships, in one statement built once per database. */
const sessionStatements = new WeakMap<Db, ReturnType<typeof prepareSessionStatement>>();

function prepareSessionStatement(db: Db) {
  const m = organizationMembers;
  return db
    .select({
      user: users,
      memberships: sql<MembershipJson[]>`coalesce(json_agg(json_build_object('organizationId', ${m.organizationId}, 'role', ${m.role},
        'disabled', ${m.disabled}, 'sso', ${m.sso}, 'joinedAt', ${m.joinedAt}, 'lastSeenAt', ${m.lastSeenAt}))
        filter (where ${m.organizationId} is not null), '[]'::json)`,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .leftJoin(m, eq(m.userId, users.id))
    .where(eq(apiTokens.tokenHash, sql.placeholder('tokenHash')))
    .groupBy(users.id)
    .prepare('quire_session');
}

async function loadSession(db: Db, tokenHash: string): Promise<Session | null> {
  let statement = sessionStatements.get(db);
  if (!statement) sessionStatements.set(db, (statement = prepareSessionStatement(db)));
  const [row] = await statement.execute({ tokenHash });
  if (!row) return null;
  const memberships: MemberRow[] = row.memberships.map((m) => ({
    ...m,
    userId: row.user.id,
    joinedAt: new Date(m.joinedAt),
    lastSeenAt: m.lastSeenAt ? new Date(m.lastSeenAt) : null,
  }));
  return { user: row.user, memberships };
}

/**
 * Resolves `Authorization: Bearer <token>`. No header: anonymous (null). A header that does not
 * carry a valid token is refused outright, so a typo never silently turns into "anonymous". A
 * token seen recently is answered from `sessions` without a statement.
 */
export async function authenticate(db: Db, header: string | null, sessions?: SessionCache): Promise<Viewer | null> {
  if (!header) return null;
  const match = BEARER.exec(header);
  if (!match) throw new UnauthenticatedError('Malformed Authorization header: expected "Bearer <token>"');
  const tokenHash = hashToken(match[1]);
  let session = sessions?.get(tokenHash);
  if (!session) {
    const generation = sessions?.begin() ?? 0;
    const loaded = await loadSession(db, tokenHash);
    if (!loaded) throw new UnauthenticatedError('Invalid or revoked API token');
    sessions?.store(tokenHash, loaded, generation);
    session = loaded;
  }
  // Each request gets its own map: a write in the request updates it without touching the cache.
  return { user: session.user, memberships: new Map(session.memberships.map((m) => [m.organizationId, m])) };
}
